"""Phrase tables for the synthetic demo corpus (`regnb.demo`): names, places, products, templates.

Everything here is invented or generic regulatory boilerplate. Templates are `str.format_map`
strings; the slots they use are filled by `regnb.demo` from a per-document context.
"""

from __future__ import annotations

# --- firms and people -------------------------------------------------------------------------

FIRM_PREFIXES = (
    "Alderwick", "Ashgrove", "Aurelis", "Barrowfield", "Bellcrest", "Birchmont", "Blackwater",
    "Brightwell", "Calder", "Carrowmore", "Castlegate", "Cedarline", "Clearbrook", "Coldspring",
    "Copperleaf", "Corvanta", "Crestmoor", "Dunmore", "Eastwick", "Elmstead", "Fairholt",
    "Fernhill", "Foxbury", "Granthorpe", "Greyfield", "Halden", "Hartwell", "Hawthorne",
    "Helixa", "Highmoor", "Holloway", "Ironbridge", "Kestrel", "Kingsmere", "Kyneta", "Lakemont",
    "Larkspur", "Linden", "Lockhart", "Marlow", "Millbrook", "Northbridge", "Oakhurst",
    "Omnira", "Orchard Ridge", "Pembrook", "Peliqor", "Quarry Hill", "Quintara", "Ravenscroft",
    "Redfern", "Ridgeway", "Rowan", "Saltmarsh", "Silverbirch", "Solvexa", "Stonebridge",
    "Summerfield", "Thornbury", "Trivance", "Valemont", "Vantheon", "Westbrook", "Whitmore",
    "Willowdale", "Wrenfield", "Yarrow", "Zephyra", "Amberly", "Arrowhead", "Bayhill",
    "Beacon Point", "Bramwell", "Brookvale", "Canterra", "Clayborne", "Cobalt Creek",
    "Cresthaven", "Deerfield Park", "Driftwood", "Emberton", "Evermont", "Fallbrook",
    "Glenhollow", "Goldcrest", "Harborview", "Heathcote", "Ivywood", "Juniper", "Keystone Ridge",
    "Lanford", "Larchmont", "Maplestone", "Meadowlark", "Monarch Bay", "Norwood", "Oakvale",
    "Pinecrest", "Prairieview", "Quillon", "Redwater", "Riverbend", "Rockport", "Sablewood",
    "Sandhaven", "Seabright", "Shelbourne", "Silverlake", "Springhurst", "Stillwater",
    "Sunridge", "Tallgrass", "Timberline", "Tristan", "Upland", "Verabrook", "Wexford Hill",
    "Whitestone", "Windmere", "Woodbury", "Aldenport", "Brisbury", "Corallis", "Dovania",
    "Estrava", "Fenwick", "Galvanta", "Hollister Bay", "Isovant", "Javelle", "Kerrigan",
    "Lumeris", "Maravel", "Nexora", "Orvella", "Praxton", "Quenby", "Rosslyn", "Strathmore",
    "Tavira", "Ulvera", "Vireo", "Westmarch", "Xandria", "Yorkfield", "Zarento",
)  # fmt: skip

FIRM_CORES = {
    "drug": ("Pharmaceuticals", "Pharma", "Laboratories", "Therapeutics", "Generics",
             "Pharmacal", "Life Sciences", "Specialty Pharmaceuticals", "Outsourcing Pharmacy",
             "Chemicals"),
    "device": ("Medical Devices", "Medical", "Surgical", "Diagnostics", "Orthopedics",
               "Cardiovascular", "Medical Technologies", "Instruments", "Imaging Systems",
               "Health Systems"),
    "biologic": ("Biologics", "Biosciences", "Biotherapeutics", "Vaccines", "Bio",
                 "Cell Therapeutics", "Plasma Services", "Genomics Therapeutics"),
    "food": ("Foods", "Farms", "Provisions", "Nutrition", "Fresh Foods", "Food Company",
             "Natural Products", "Brands", "Kitchens", "Food Group"),
    "veterinary": ("Animal Health", "Veterinary Products", "Feeds", "Pet Nutrition"),
    "cosmetics": ("Cosmetics", "Personal Care", "Beauty Labs"),
    "tobacco": ("Vapor Co.", "Tobacco Company", "E-Liquids", "Smoke Shop"),
}  # fmt: skip

LEGAL_FORMS = ("Inc.", "Inc.", "LLC", "LLC", "Corporation", "Co.", "Ltd.", "L.P.")
FOREIGN_LEGAL = {
    "India": "Pvt. Ltd.",
    "China": "Co., Ltd.",
    "Germany": "GmbH",
    "Ireland": "Ltd.",
    "Italy": "S.p.A.",
    "Korea": "Co., Ltd.",
    "Canada": "Inc.",
    "Switzerland": "AG",
    "Japan": "K.K.",
    "Mexico": "S.A. de C.V.",
}

# (city, state, ZIP) in the United States; the state also picks a pre-2017 district office
US_CITIES = (
    ("Parsippany", "NJ", "07054"), ("New Brunswick", "NJ", "08901"), ("Princeton", "NJ", "08540"),
    ("Piscataway", "NJ", "08854"), ("Cranbury", "NJ", "08512"), ("Hauppauge", "NY", "11788"),
    ("Rochester", "NY", "14623"), ("Buffalo", "NY", "14203"), ("Boston", "MA", "02210"),
    ("Cambridge", "MA", "02139"), ("Worcester", "MA", "01605"), ("Durham", "NC", "27703"),
    ("Raleigh", "NC", "27607"), ("Greenville", "NC", "27834"), ("Philadelphia", "PA", "19104"),
    ("Malvern", "PA", "19355"), ("Pittsburgh", "PA", "15219"), ("Baltimore", "MD", "21201"),
    ("Gaithersburg", "MD", "20878"), ("Richmond", "VA", "23219"), ("Atlanta", "GA", "30303"),
    ("Alpharetta", "GA", "30005"), ("Miami", "FL", "33126"), ("Tampa", "FL", "33607"),
    ("Jacksonville", "FL", "32256"), ("Nashville", "TN", "37203"), ("Memphis", "TN", "38118"),
    ("Louisville", "KY", "40202"), ("Columbus", "OH", "43215"), ("Cincinnati", "OH", "45202"),
    ("Cleveland", "OH", "44114"), ("Indianapolis", "IN", "46204"), ("Warsaw", "IN", "46580"),
    ("Chicago", "IL", "60607"), ("Lake Forest", "IL", "60045"), ("Detroit", "MI", "48226"),
    ("Kalamazoo", "MI", "49001"), ("Minneapolis", "MN", "55401"), ("Maple Grove", "MN", "55369"),
    ("St. Louis", "MO", "63103"), ("Kansas City", "MO", "64106"), ("Omaha", "NE", "68102"),
    ("Dallas", "TX", "75201"), ("Houston", "TX", "77030"), ("Austin", "TX", "78701"),
    ("San Antonio", "TX", "78229"), ("Denver", "CO", "80202"), ("Boulder", "CO", "80301"),
    ("Salt Lake City", "UT", "84101"), ("Phoenix", "AZ", "85004"), ("Tempe", "AZ", "85281"),
    ("Irvine", "CA", "92618"), ("San Diego", "CA", "92121"), ("Los Angeles", "CA", "90012"),
    ("Carlsbad", "CA", "92008"), ("South San Francisco", "CA", "94080"), ("Fremont", "CA", "94538"),
    ("Sacramento", "CA", "95814"), ("Fresno", "CA", "93721"), ("Salinas", "CA", "93901"),
    ("Portland", "OR", "97204"), ("Seattle", "WA", "98101"), ("Bothell", "WA", "98021"),
    ("Yakima", "WA", "98901"), ("Boise", "ID", "83702"), ("Madison", "WI", "53703"),
    ("Green Bay", "WI", "54301"), ("Des Moines", "IA", "50309"), ("Little Rock", "AR", "72201"),
    ("New Orleans", "LA", "70112"), ("Birmingham", "AL", "35203"), ("San Juan", "PR", "00907"),
    ("Humacao", "PR", "00791"), ("Barceloneta", "PR", "00617"), ("Hartford", "CT", "06103"),
    ("New Haven", "CT", "06510"), ("Providence", "RI", "02903"), ("Portland", "ME", "04101"),
)  # fmt: skip

FOREIGN_CITIES = (
    ("Hyderabad", "Telangana", "India"), ("Ahmedabad", "Gujarat", "India"),
    ("Visakhapatnam", "Andhra Pradesh", "India"), ("Baddi", "Himachal Pradesh", "India"),
    ("Aurangabad", "Maharashtra", "India"), ("Taizhou", "Zhejiang", "China"),
    ("Shijiazhuang", "Hebei", "China"), ("Suzhou", "Jiangsu", "China"),
    ("Shenzhen", "Guangdong", "China"), ("Cork", "County Cork", "Ireland"),
    ("Freiburg", "Baden-Wurttemberg", "Germany"), ("Milan", "Lombardy", "Italy"),
    ("Incheon", "Incheon", "Korea"), ("Mississauga", "Ontario", "Canada"),
    ("Basel", "Basel-Stadt", "Switzerland"), ("Osaka", "Osaka", "Japan"),
    ("Guadalajara", "Jalisco", "Mexico"),
)  # fmt: skip

STREET_NAMES = (
    "Commerce", "Industrial", "Research", "Technology", "Enterprise", "Corporate", "Science Park",
    "Innovation", "Pharma", "Lakeview", "Riverside", "Meadow", "Oak", "Maple", "Harbor",
    "Executive", "Discovery", "Campus", "Gateway", "Madison", "Franklin", "Jefferson", "Route 22",
)  # fmt: skip
STREET_TYPES = ("Drive", "Road", "Parkway", "Boulevard", "Way", "Avenue", "Court", "Lane")

FIRST_NAMES = (
    "James", "Mary", "Robert", "Patricia", "Michael", "Jennifer", "David", "Linda", "William",
    "Elizabeth", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen",
    "Daniel", "Nancy", "Matthew", "Lisa", "Anthony", "Margaret", "Mark", "Sandra", "Steven",
    "Ashley", "Paul", "Emily", "Andrew", "Michelle", "Kenneth", "Amanda", "Rajesh", "Priya",
    "Wei", "Mei", "Hiroshi", "Yuki", "Carlos", "Lucia", "Ahmed", "Fatima", "Olga", "Stefan",
    "Ingrid", "Tomasz", "Aisha", "Kwame", "Deepak", "Anjali", "Jorge", "Elena", "Sean", "Niamh",
)  # fmt: skip
LAST_NAMES = (
    "Abernathy", "Baxter", "Caldwell", "Delgado", "Ellison", "Fairbanks", "Gallagher",
    "Hendricks", "Iverson", "Jamison", "Kowalski", "Lindqvist", "Mercado", "Nakamura",
    "Okafor", "Patel", "Quinlan", "Ramirez", "Sandoval", "Thornton", "Underwood", "Valdez",
    "Whitaker", "Xu", "Yamamoto", "Zimmerman", "Banerjee", "Chandrasekaran", "Donnelly",
    "Esposito", "Fitzgerald", "Gupta", "Hoffmann", "Ibrahim", "Jovanovic", "Keller", "Lombardi",
    "Morrison", "Novak", "O'Connell", "Petrov", "Reddy", "Schneider", "Takahashi", "Wang",
    "Zhang", "Brennan", "Castillo", "Dubois", "Engström", "Ferreira", "Goldberg", "Haddad",
)  # fmt: skip

CONTACT_TITLES = {
    "drug": ("President and Chief Executive Officer", "Vice President, Quality Operations",
             "Site Head", "Director of Quality Assurance", "Chief Operating Officer",
             "Pharmacist-in-Charge"),
    "device": ("President and CEO", "Vice President, Quality and Regulatory Affairs",
               "Director of Quality Systems", "General Manager", "Chief Technology Officer"),
    "biologic": ("Chief Executive Officer", "Responsible Head", "Vice President, Quality",
                 "Center Manager", "Chief Medical Officer"),
    "food": ("Owner", "President", "Plant Manager", "Food Safety Manager", "Co-Owner"),
    "veterinary": ("President", "Plant Manager", "Director of Operations"),
    "cosmetics": ("President", "Owner", "Director of Operations"),
    "tobacco": ("Owner", "President", "Managing Member"),
}  # fmt: skip

EST_TYPES = {
    "drug": ("Finished dosage form manufacturer", "Sterile injectable manufacturer",
             "Active pharmaceutical ingredient manufacturer", "Outsourcing facility (503B)",
             "Contract testing laboratory", "Repackager and relabeler"),
    "device": ("Device manufacturer", "Contract manufacturer", "Specification developer",
               "Sterilizer", "Complaint file establishment", "Remanufacturer"),
    "biologic": ("Source plasma center", "Licensed biologics manufacturer", "Blood bank",
                 "HCT/P establishment", "Cell therapy manufacturer"),
    "food": ("Ready-to-eat food manufacturer", "Seafood processor", "Produce grower and packer",
             "Dietary supplement manufacturer", "Low-acid canned food processor",
             "Dairy processor", "Bakery"),
    "veterinary": ("Medicated feed mill", "Animal drug manufacturer", "Pet food manufacturer"),
}  # fmt: skip

DISTRICTS = {
    "NJ": "New Jersey District Office", "NY": "New York District Office",
    "MA": "New England District Office", "CT": "New England District Office",
    "RI": "New England District Office", "ME": "New England District Office",
    "NC": "Atlanta District Office", "GA": "Atlanta District Office",
    "PA": "Philadelphia District Office", "MD": "Baltimore District Office",
    "VA": "Baltimore District Office", "FL": "Florida District Office",
    "TN": "Nashville District Office", "AL": "New Orleans District Office",
    "LA": "New Orleans District Office", "AR": "New Orleans District Office",
    "KY": "Cincinnati District Office", "OH": "Cincinnati District Office",
    "IN": "Detroit District Office", "MI": "Detroit District Office",
    "IL": "Chicago District Office", "WI": "Minneapolis District Office",
    "MN": "Minneapolis District Office", "IA": "Kansas City District Office",
    "MO": "Kansas City District Office", "NE": "Kansas City District Office",
    "TX": "Dallas District Office", "CO": "Denver District Office",
    "UT": "Denver District Office", "AZ": "Los Angeles District Office",
    "CA": "Los Angeles District Office", "OR": "Seattle District Office",
    "WA": "Seattle District Office", "ID": "Seattle District Office",
    "PR": "San Juan District Office",
}  # fmt: skip

OFFICES_2017 = {
    "drug": ("Office of Pharmaceutical Quality Operations, Division I",
             "Office of Pharmaceutical Quality Operations, Division II",
             "Office of Pharmaceutical Quality Operations, Division III",
             "Office of Pharmaceutical Quality Operations, Division IV",
             "Center for Drug Evaluation and Research (CDER)"),
    "device": ("Office of Medical Device and Radiological Health Operations, Division 1",
               "Office of Medical Device and Radiological Health Operations, Division 2",
               "Office of Medical Device and Radiological Health Operations, Division 3",
               "Center for Devices and Radiological Health (CDRH)"),
    "biologic": ("Office of Biological Products Operations, Division 1",
                 "Office of Biological Products Operations, Division 2",
                 "Center for Biologics Evaluation and Research (CBER)"),
    "food": ("Office of Human and Animal Food Operations, Division East 2",
             "Office of Human and Animal Food Operations, Division West 3",
             "Office of Human and Animal Food Operations, Division West 5",
             "Center for Food Safety and Applied Nutrition (CFSAN)"),
    "veterinary": ("Center for Veterinary Medicine (CVM)",
                   "Office of Human and Animal Food Operations, Division East 6"),
    "tobacco": ("Center for Tobacco Products (CTP)",),
    "bimo": ("Office of Bioresearch Monitoring Operations",
             "Center for Drug Evaluation and Research (CDER)"),
}  # fmt: skip
FOREIGN_OFFICE = "Center for Drug Evaluation and Research (CDER), Office of Manufacturing Quality"
OII_OFFICE = "Office of Inspections and Investigations (OII)"

OFFICIAL_TITLES = (
    "Program Division Director", "District Director", "Director, Office of Compliance",
    "Division Director", "Acting Division Director", "Deputy Center Director",
)  # fmt: skip


# --- drugs ------------------------------------------------------------------------------------

BRAND_HEADS = (
    "Zo", "Ve", "Ca", "Lu", "Ny", "Tre", "Ax", "Ora", "Pla", "Qui", "Re", "Sy", "Xa", "Ely",
    "Fen", "Ga", "Hy", "Ki", "Mo", "Pe", "Vo", "Tal", "Bre", "Cor", "Dra", "Il", "Jen", "Om",
)  # fmt: skip
BRAND_MIDS = ("va", "lu", "ri", "to", "ne", "zi", "la", "mo", "ta", "xi", "bre", "cle", "", "", "")
BRAND_TAILS = (
    "rix", "vance", "lor", "zide", "pril", "tra", "vel", "qua", "dex", "fen", "lyn", "mira",
    "tor", "zen", "vo", "xa", "nex", "plex", "sta", "vio", "dra", "mune", "ceva", "lia",
)  # fmt: skip

# pharmacologic classes: established class, mechanism, warnings (label headings), common adverse
# reactions for labels, MedDRA preferred terms for case reports, and the conditions treated
CLASSES: dict[str, dict[str, object]] = {
    "statin": {
        "epc": "HMG-CoA reductase inhibitor",
        "moa": "inhibits HMG-CoA reductase, the rate-limiting enzyme that converts HMG-CoA to mevalonate, a precursor of cholesterol",
        "warnings": ("Myopathy and Rhabdomyolysis", "Immune-Mediated Necrotizing Myopathy", "Hepatic Dysfunction", "Increases in HbA1c and Fasting Serum Glucose Levels"),
        "aes": ("nasopharyngitis", "arthralgia", "diarrhea", "pain in extremity", "urinary tract infection"),
        "pts": ("Myalgia", "Rhabdomyolysis", "Hepatic enzyme increased", "Muscle spasms", "Blood creatine phosphokinase increased"),
        "conditions": ("Hypercholesterolemia", "Atherosclerotic Cardiovascular Disease"),
    },
    "sglt2": {
        "epc": "sodium-glucose cotransporter 2 (SGLT2) inhibitor",
        "moa": "inhibits SGLT2 in the proximal renal tubules, reducing reabsorption of filtered glucose and increasing urinary glucose excretion",
        "warnings": ("Ketoacidosis", "Volume Depletion", "Urosepsis and Pyelonephritis", "Necrotizing Fasciitis of the Perineum (Fournier's Gangrene)", "Genital Mycotic Infections"),
        "aes": ("genital mycotic infections", "urinary tract infections", "increased urination", "nasopharyngitis"),
        "pts": ("Diabetic ketoacidosis", "Fournier's gangrene", "Urinary tract infection", "Dehydration", "Euglycaemic diabetic ketoacidosis"),
        "conditions": ("Type 2 Diabetes Mellitus", "Heart Failure", "Chronic Kidney Disease"),
    },
    "dpp4": {
        "epc": "dipeptidyl peptidase-4 (DPP-4) inhibitor",
        "moa": "slows the inactivation of incretin hormones, increasing insulin release and decreasing glucagon levels in a glucose-dependent manner",
        "warnings": ("Pancreatitis", "Heart Failure", "Hypersensitivity Reactions", "Severe and Disabling Arthralgia", "Bullous Pemphigoid"),
        "aes": ("nasopharyngitis", "upper respiratory tract infection", "headache"),
        "pts": ("Pancreatitis acute", "Pemphigoid", "Arthralgia", "Hypoglycaemia"),
        "conditions": ("Type 2 Diabetes Mellitus",),
    },
    "glp1": {
        "epc": "glucagon-like peptide-1 (GLP-1) receptor agonist",
        "moa": "binds to and activates the GLP-1 receptor, increasing glucose-dependent insulin secretion, slowing gastric emptying and reducing appetite",
        "warnings": ("Risk of Thyroid C-Cell Tumors", "Acute Pancreatitis", "Acute Gallbladder Disease", "Hypoglycemia with Concomitant Use of Insulin Secretagogues", "Acute Kidney Injury"),
        "aes": ("nausea", "vomiting", "diarrhea", "abdominal pain", "constipation"),
        "pts": ("Nausea", "Vomiting", "Pancreatitis", "Cholelithiasis", "Gastrooesophageal reflux disease", "Ileus"),
        "conditions": ("Type 2 Diabetes Mellitus", "Obesity"),
    },
    "doac": {
        "epc": "factor Xa inhibitor",
        "moa": "selectively inhibits free and clot-bound factor Xa and prothrombinase activity, decreasing thrombin generation and thrombus development",
        "warnings": ("Increased Risk of Thrombotic Events after Premature Discontinuation", "Risk of Bleeding", "Spinal/Epidural Anesthesia or Puncture", "Patients with Prosthetic Heart Valves"),
        "aes": ("bleeding", "anemia", "bruising"),
        "pts": ("Gastrointestinal haemorrhage", "Haematuria", "Epistaxis", "Cerebral haemorrhage", "Anaemia"),
        "conditions": ("Atrial Fibrillation", "Venous Thromboembolism"),
    },
    "arb": {
        "epc": "angiotensin II receptor blocker (ARB)",
        "moa": "blocks the vasoconstrictor and aldosterone-secreting effects of angiotensin II by selectively blocking its binding to the AT1 receptor",
        "warnings": ("Fetal Toxicity", "Hypotension", "Impaired Renal Function", "Hyperkalemia"),
        "aes": ("dizziness", "upper respiratory infection", "back pain", "hyperkalemia"),
        "pts": ("Hypotension", "Hyperkalaemia", "Acute kidney injury", "Dizziness", "Angioedema"),
        "conditions": ("Hypertension", "Heart Failure"),
    },
    "ssri": {
        "epc": "selective serotonin reuptake inhibitor (SSRI)",
        "moa": "is presumed to be linked to potentiation of serotonergic activity in the central nervous system resulting from inhibition of neuronal reuptake of serotonin",
        "warnings": ("Suicidal Thoughts and Behaviors", "Serotonin Syndrome", "Increased Risk of Bleeding", "Activation of Mania or Hypomania", "Discontinuation Syndrome", "Hyponatremia"),
        "aes": ("nausea", "insomnia", "somnolence", "ejaculation disorder", "fatigue", "sweating increased"),
        "pts": ("Serotonin syndrome", "Suicidal ideation", "Nausea", "Hyponatraemia", "Withdrawal syndrome", "Insomnia"),
        "conditions": ("Major Depressive Disorder", "Generalized Anxiety Disorder"),
    },
    "antipsychotic": {
        "epc": "atypical antipsychotic",
        "moa": "is thought to be mediated through a combination of dopamine D2 and serotonin 5-HT2A receptor antagonism",
        "warnings": ("Increased Mortality in Elderly Patients with Dementia-Related Psychosis", "Neuroleptic Malignant Syndrome", "Tardive Dyskinesia", "Metabolic Changes", "Orthostatic Hypotension", "Seizures"),
        "aes": ("somnolence", "weight increased", "akathisia", "extrapyramidal disorder", "dizziness"),
        "pts": ("Neuroleptic malignant syndrome", "Tardive dyskinesia", "Weight increased", "Akathisia", "Diabetes mellitus"),
        "conditions": ("Schizophrenia", "Bipolar I Disorder"),
    },
    "antiepileptic": {
        "epc": "antiepileptic drug",
        "moa": "is not fully understood; it may involve modulation of voltage-gated sodium channels and inhibition of glutamate release",
        "warnings": ("Serious Skin Rashes", "Suicidal Behavior and Ideation", "Withdrawal Seizures", "Multiorgan Hypersensitivity Reactions (DRESS)", "Hemophagocytic Lymphohistiocytosis"),
        "aes": ("dizziness", "headache", "diplopia", "ataxia", "somnolence", "nausea"),
        "pts": ("Stevens-Johnson syndrome", "Drug reaction with eosinophilia and systemic symptoms", "Seizure", "Rash", "Toxic epidermal necrolysis"),
        "conditions": ("Epilepsy", "Partial-Onset Seizures"),
    },
    "opioid": {
        "epc": "opioid agonist",
        "moa": "is a full opioid agonist relatively selective for the mu-opioid receptor; its principal therapeutic action is analgesia",
        "warnings": ("Addiction, Abuse, and Misuse", "Life-Threatening Respiratory Depression", "Accidental Ingestion", "Neonatal Opioid Withdrawal Syndrome", "Risks From Concomitant Use With Benzodiazepines or Other CNS Depressants"),
        "aes": ("constipation", "nausea", "somnolence", "vomiting", "pruritus", "dizziness"),
        "pts": ("Respiratory depression", "Overdose", "Drug dependence", "Somnolence", "Drug withdrawal syndrome", "Death"),
        "conditions": ("Chronic Pain", "Opioid Use Disorder"),
    },
    "ppi": {
        "epc": "proton pump inhibitor (PPI)",
        "moa": "suppresses gastric acid secretion by specific inhibition of the H+/K+ ATPase in the gastric parietal cell",
        "warnings": ("Acute Tubulointerstitial Nephritis", "Clostridioides difficile-Associated Diarrhea", "Bone Fracture", "Cutaneous and Systemic Lupus Erythematosus", "Hypomagnesemia"),
        "aes": ("headache", "abdominal pain", "nausea", "diarrhea", "flatulence"),
        "pts": ("Clostridium difficile colitis", "Hypomagnesaemia", "Tubulointerstitial nephritis", "Osteoporotic fracture", "Diarrhoea"),
        "conditions": ("Gastroesophageal Reflux Disease",),
    },
    "fluoroquinolone": {
        "epc": "fluoroquinolone antibacterial",
        "moa": "inhibits bacterial DNA gyrase and topoisomerase IV, enzymes required for DNA replication, transcription, repair and recombination",
        "warnings": ("Disabling and Potentially Irreversible Serious Adverse Reactions", "Tendinitis and Tendon Rupture", "Peripheral Neuropathy", "Central Nervous System Effects", "Exacerbation of Myasthenia Gravis", "Aortic Aneurysm and Dissection"),
        "aes": ("nausea", "diarrhea", "headache", "dizziness"),
        "pts": ("Tendon rupture", "Tendonitis", "Neuropathy peripheral", "Aortic dissection", "Clostridium difficile colitis"),
        "conditions": ("Community-Acquired Bacterial Pneumonia", "Complicated Urinary Tract Infection"),
    },
    "kinase_inhibitor": {
        "epc": "kinase inhibitor",
        "moa": "is a small-molecule inhibitor of multiple receptor tyrosine kinases implicated in tumor growth and angiogenesis",
        "warnings": ("Hepatotoxicity", "Interstitial Lung Disease/Pneumonitis", "QTc Interval Prolongation", "Hemorrhage", "Embryo-Fetal Toxicity", "Left Ventricular Dysfunction"),
        "aes": ("diarrhea", "fatigue", "rash", "nausea", "decreased appetite", "stomatitis"),
        "pts": ("Interstitial lung disease", "Hepatotoxicity", "Electrocardiogram QT prolonged", "Diarrhoea", "Neutropenia"),
        "conditions": ("Non-Small Cell Lung Cancer", "Chronic Myeloid Leukemia", "Breast Cancer"),
    },
    "antiviral": {
        "epc": "HIV-1 nucleoside analog reverse transcriptase inhibitor",
        "moa": "is phosphorylated intracellularly and inhibits the activity of HIV-1 reverse transcriptase by competing with the natural substrate and by chain termination",
        "warnings": ("Severe Acute Exacerbation of Hepatitis B", "New Onset or Worsening Renal Impairment", "Immune Reconstitution Syndrome", "Bone Loss and Mineralization Defects", "Lactic Acidosis and Severe Hepatomegaly with Steatosis"),
        "aes": ("diarrhea", "nausea", "headache", "fatigue", "rash"),
        "pts": ("Renal failure", "Hepatitis B reactivation", "Lactic acidosis", "Osteopenia", "Fanconi syndrome acquired"),
        "conditions": ("HIV-1 Infection", "Chronic Hepatitis B"),
    },
    "corticosteroid_inhaled": {
        "epc": "corticosteroid",
        "moa": "has potent anti-inflammatory activity; inflammation is an important component in the pathogenesis of asthma",
        "warnings": ("Local Effects of Inhaled Corticosteroids (Candida albicans infection)", "Acute Asthma Episodes", "Immunosuppression and Risk of Infections", "Hypercorticism and Adrenal Suppression", "Reduction in Bone Mineral Density", "Glaucoma and Cataracts"),
        "aes": ("upper respiratory tract infection", "pharyngitis", "oral candidiasis", "headache", "dysphonia"),
        "pts": ("Oral candidiasis", "Pneumonia", "Dysphonia", "Asthma", "Adrenal insufficiency"),
        "conditions": ("Asthma", "Chronic Obstructive Pulmonary Disease"),
    },
    "nsaid": {
        "epc": "nonsteroidal anti-inflammatory drug (NSAID)",
        "moa": "has analgesic, anti-inflammatory and antipyretic properties, believed to be due to inhibition of prostaglandin synthesis through cyclooxygenase inhibition",
        "warnings": ("Cardiovascular Thrombotic Events", "Gastrointestinal Bleeding, Ulceration, and Perforation", "Hepatotoxicity", "Hypertension", "Renal Toxicity and Hyperkalemia", "Serious Skin Reactions"),
        "aes": ("dyspepsia", "abdominal pain", "nausea", "diarrhea", "peripheral edema", "dizziness"),
        "pts": ("Gastric ulcer haemorrhage", "Acute kidney injury", "Myocardial infarction", "Dyspepsia", "Oedema peripheral"),
        "conditions": ("Osteoarthritis", "Chronic Pain"),
    },
    "anti_tnf": {
        "epc": "tumor necrosis factor (TNF) blocker",
        "moa": "binds specifically to TNF-alpha and blocks its interaction with the p55 and p75 cell surface TNF receptors",
        "warnings": ("Serious Infections", "Malignancy", "Hypersensitivity Reactions", "Hepatitis B Virus Reactivation", "Demyelinating Disease", "Heart Failure"),
        "aes": ("infections", "injection site reactions", "headache", "rash"),
        "pts": ("Pneumonia", "Tuberculosis", "Injection site reaction", "Lymphoma", "Sepsis", "Drug ineffective"),
        "conditions": ("Rheumatoid Arthritis", "Plaque Psoriasis", "Crohn's Disease"),
    },
    "anti_pd1": {
        "epc": "programmed death receptor-1 (PD-1) blocking antibody",
        "moa": "binds to the PD-1 receptor and blocks its interaction with PD-L1 and PD-L2, releasing PD-1 pathway-mediated inhibition of the immune response, including the anti-tumor immune response",
        "warnings": ("Severe and Fatal Immune-Mediated Adverse Reactions", "Infusion-Related Reactions", "Complications of Allogeneic HSCT", "Embryo-Fetal Toxicity"),
        "aes": ("fatigue", "musculoskeletal pain", "rash", "diarrhea", "pruritus", "decreased appetite"),
        "pts": ("Pneumonitis", "Colitis", "Immune-mediated hepatitis", "Hypothyroidism", "Myocarditis", "Infusion related reaction"),
        "conditions": ("Melanoma", "Non-Small Cell Lung Cancer"),
    },
    "anti_il17": {
        "epc": "interleukin-17A antagonist",
        "moa": "is a human IgG1 monoclonal antibody that selectively binds to interleukin-17A and inhibits its interaction with the IL-17 receptor",
        "warnings": ("Infections", "Tuberculosis", "Inflammatory Bowel Disease", "Hypersensitivity Reactions"),
        "aes": ("nasopharyngitis", "diarrhea", "upper respiratory tract infection"),
        "pts": ("Crohn's disease", "Nasopharyngitis", "Oral candidiasis", "Psoriasis", "Drug ineffective"),
        "conditions": ("Plaque Psoriasis", "Psoriatic Arthritis"),
    },
    "anti_cgrp": {
        "epc": "calcitonin gene-related peptide antagonist",
        "moa": "is a humanized monoclonal antibody that binds to calcitonin gene-related peptide (CGRP) ligand and blocks its binding to the receptor",
        "warnings": ("Hypersensitivity Reactions", "Hypertension", "Raynaud's Phenomenon"),
        "aes": ("injection site reactions", "constipation"),
        "pts": ("Injection site pain", "Constipation", "Migraine", "Hypertension", "Drug ineffective"),
        "conditions": ("Migraine",),
    },
    "pcsk9": {
        "epc": "PCSK9 inhibitor antibody",
        "moa": "binds to proprotein convertase subtilisin kexin type 9 (PCSK9) and inhibits circulating PCSK9 from binding to the LDL receptor, increasing the number of LDL receptors available to clear LDL",
        "warnings": ("Hypersensitivity Reactions",),
        "aes": ("nasopharyngitis", "injection site reactions", "influenza", "back pain"),
        "pts": ("Injection site reaction", "Myalgia", "Nasopharyngitis", "Influenza like illness"),
        "conditions": ("Hypercholesterolemia", "Atherosclerotic Cardiovascular Disease"),
    },
    "anti_cd20": {
        "epc": "CD20-directed cytolytic antibody",
        "moa": "targets the CD20 antigen expressed on the surface of pre-B and mature B-lymphocytes and mediates B-cell lysis",
        "warnings": ("Fatal Infusion-Related Reactions", "Severe Mucocutaneous Reactions", "Hepatitis B Virus Reactivation", "Progressive Multifocal Leukoencephalopathy", "Tumor Lysis Syndrome"),
        "aes": ("infusion-related reactions", "fever", "lymphopenia", "chills", "infection", "asthenia"),
        "pts": ("Infusion related reaction", "Progressive multifocal leukoencephalopathy", "Hepatitis B reactivation", "Neutropenia", "Pneumonia"),
        "conditions": ("Non-Hodgkin Lymphoma", "Chronic Lymphocytic Leukemia", "Relapsing Multiple Sclerosis"),
    },
    "vaccine": {
        "epc": "vaccine",
        "moa": "induces an immune response, including neutralizing antibodies, against the target antigen",
        "warnings": ("Management of Acute Allergic Reactions", "Syncope", "Altered Immunocompetence", "Guillain-Barré Syndrome", "Limitations of Vaccine Effectiveness"),
        "aes": ("injection site pain", "fatigue", "headache", "myalgia", "fever"),
        "pts": ("Pyrexia", "Injection site erythema", "Guillain-Barre syndrome", "Syncope", "Anaphylactic reaction"),
        "conditions": ("Respiratory Syncytial Virus Infection", "Influenza", "Invasive Pneumococcal Disease"),
    },
    "gene_therapy": {
        "epc": "adeno-associated virus vector-based gene therapy",
        "moa": "is designed to deliver a functional copy of the target gene to transduced cells, resulting in expression of the missing or deficient protein",
        "warnings": ("Acute Serious Liver Injury", "Systemic Immune Response", "Thrombotic Microangiopathy", "Elevated Troponin-I"),
        "aes": ("elevated aminotransferases", "vomiting", "pyrexia"),
        "pts": ("Hepatic enzyme increased", "Acute liver failure", "Thrombotic microangiopathy", "Vomiting"),
        "conditions": ("Spinal Muscular Atrophy", "Hemophilia B"),
    },
    "car_t": {
        "epc": "CD19-directed genetically modified autologous T cell immunotherapy",
        "moa": "binds to CD19-expressing cancer cells and normal B cells; following binding, the chimeric antigen receptor activates downstream signaling cascades that lead to T-cell activation, proliferation and cytotoxicity",
        "warnings": ("Cytokine Release Syndrome", "Neurologic Toxicities", "Prolonged Cytopenias", "Hypogammaglobulinemia", "Secondary Hematological Malignancies"),
        "aes": ("cytokine release syndrome", "fever", "encephalopathy", "hypotension", "fatigue"),
        "pts": ("Cytokine release syndrome", "Immune effector cell-associated neurotoxicity syndrome", "Febrile neutropenia", "T-cell lymphoma"),
        "conditions": ("Diffuse Large B-Cell Lymphoma", "Multiple Myeloma"),
    },
    "immune_globulin": {
        "epc": "immune globulin intravenous (human)",
        "moa": "supplies a broad spectrum of opsonizing and neutralizing IgG antibodies against a wide variety of bacterial and viral agents",
        "warnings": ("Thrombosis", "Renal Dysfunction and Acute Renal Failure", "Hypersensitivity", "Aseptic Meningitis Syndrome", "Hemolysis", "Transfusion-Related Acute Lung Injury"),
        "aes": ("headache", "fatigue", "infusion site reaction", "nausea", "pyrexia"),
        "pts": ("Thrombosis", "Haemolysis", "Meningitis aseptic", "Acute kidney injury", "Headache"),
        "conditions": ("Primary Humoral Immunodeficiency", "Chronic Inflammatory Demyelinating Polyneuropathy"),
    },
}  # fmt: skip

# (generic name, class key, dosage form, strengths, route)
INGREDIENTS = (
    ("atorvastatin calcium", "statin", "tablets", ("10 mg", "20 mg", "40 mg", "80 mg"), "oral"),
    ("rosuvastatin calcium", "statin", "tablets", ("5 mg", "10 mg", "20 mg", "40 mg"), "oral"),
    ("simvastatin", "statin", "tablets", ("20 mg", "40 mg"), "oral"),
    ("dapagliflozin propanediol", "sglt2", "tablets", ("5 mg", "10 mg"), "oral"),
    ("empagliflozin", "sglt2", "tablets", ("10 mg", "25 mg"), "oral"),
    ("canagliflozin", "sglt2", "tablets", ("100 mg", "300 mg"), "oral"),
    ("sitagliptin phosphate", "dpp4", "tablets", ("25 mg", "50 mg", "100 mg"), "oral"),
    ("linagliptin", "dpp4", "tablets", ("5 mg",), "oral"),
    ("semaglutide", "glp1", "injection", ("0.25 mg/0.5 mL", "1 mg/0.5 mL", "2.4 mg/0.75 mL"), "subcutaneous"),
    ("liraglutide", "glp1", "injection", ("18 mg/3 mL",), "subcutaneous"),
    ("apixaban", "doac", "tablets", ("2.5 mg", "5 mg"), "oral"),
    ("rivaroxaban", "doac", "tablets", ("10 mg", "15 mg", "20 mg"), "oral"),
    ("losartan potassium", "arb", "tablets", ("25 mg", "50 mg", "100 mg"), "oral"),
    ("valsartan", "arb", "tablets", ("80 mg", "160 mg", "320 mg"), "oral"),
    ("irbesartan", "arb", "tablets", ("150 mg", "300 mg"), "oral"),
    ("sertraline hydrochloride", "ssri", "tablets", ("25 mg", "50 mg", "100 mg"), "oral"),
    ("escitalopram oxalate", "ssri", "tablets", ("5 mg", "10 mg", "20 mg"), "oral"),
    ("fluoxetine hydrochloride", "ssri", "capsules", ("10 mg", "20 mg", "40 mg"), "oral"),
    ("aripiprazole", "antipsychotic", "tablets", ("2 mg", "5 mg", "10 mg", "15 mg"), "oral"),
    ("quetiapine fumarate", "antipsychotic", "extended-release tablets", ("50 mg", "150 mg", "300 mg"), "oral"),
    ("olanzapine", "antipsychotic", "orally disintegrating tablets", ("5 mg", "10 mg"), "oral"),
    ("lamotrigine", "antiepileptic", "tablets", ("25 mg", "100 mg", "200 mg"), "oral"),
    ("levetiracetam", "antiepileptic", "injection", ("500 mg/5 mL",), "intravenous"),
    ("lacosamide", "antiepileptic", "tablets", ("50 mg", "100 mg", "200 mg"), "oral"),
    ("oxycodone hydrochloride", "opioid", "extended-release tablets", ("10 mg", "20 mg", "40 mg"), "oral"),
    ("buprenorphine and naloxone", "opioid", "sublingual film", ("8 mg/2 mg", "2 mg/0.5 mg"), "sublingual"),
    ("hydromorphone hydrochloride", "opioid", "injection", ("2 mg/mL", "10 mg/mL"), "intravenous"),
    ("pantoprazole sodium", "ppi", "delayed-release tablets", ("20 mg", "40 mg"), "oral"),
    ("esomeprazole magnesium", "ppi", "delayed-release capsules", ("20 mg", "40 mg"), "oral"),
    ("levofloxacin", "fluoroquinolone", "tablets", ("250 mg", "500 mg", "750 mg"), "oral"),
    ("ciprofloxacin hydrochloride", "fluoroquinolone", "tablets", ("250 mg", "500 mg"), "oral"),
    ("moxifloxacin hydrochloride", "fluoroquinolone", "injection", ("400 mg/250 mL",), "intravenous"),
    ("imatinib mesylate", "kinase_inhibitor", "tablets", ("100 mg", "400 mg"), "oral"),
    ("erlotinib hydrochloride", "kinase_inhibitor", "tablets", ("25 mg", "100 mg", "150 mg"), "oral"),
    ("lapatinib ditosylate", "kinase_inhibitor", "tablets", ("250 mg",), "oral"),
    ("tenofovir disoproxil fumarate", "antiviral", "tablets", ("300 mg",), "oral"),
    ("emtricitabine", "antiviral", "capsules", ("200 mg",), "oral"),
    ("fluticasone propionate", "corticosteroid_inhaled", "inhalation aerosol", ("44 mcg", "110 mcg", "220 mcg"), "oral inhalation"),
    ("budesonide", "corticosteroid_inhaled", "inhalation suspension", ("0.25 mg/2 mL", "0.5 mg/2 mL"), "oral inhalation"),
    ("celecoxib", "nsaid", "capsules", ("100 mg", "200 mg"), "oral"),
    ("meloxicam", "nsaid", "tablets", ("7.5 mg", "15 mg"), "oral"),
    ("ibuprofen and famotidine", "nsaid", "tablets", ("800 mg/26.6 mg",), "oral"),
)  # fmt: skip

# biologic classes and how their nonproprietary names are formed
BIOLOGIC_CLASSES = (
    ("anti_tnf", "mab", "injection, for subcutaneous use"),
    ("anti_pd1", "mab", "injection, for intravenous use"),
    ("anti_il17", "mab", "injection, for subcutaneous use"),
    ("anti_cgrp", "mab", "injection, for subcutaneous use"),
    ("pcsk9", "mab", "injection, for subcutaneous use"),
    ("anti_cd20", "mab", "injection, for intravenous use"),
    ("vaccine", "vaccine", "injectable suspension, for intramuscular use"),
    ("gene_therapy", "gene", "suspension for intravenous infusion"),
    ("car_t", "cell", "suspension for intravenous infusion"),
    ("immune_globulin", "ig", "liquid, for intravenous use"),
)  # fmt: skip
MAB_STEMS = ("ta", "ro", "ve", "ni", "sa", "le", "da", "mo", "pe", "ga", "ci", "tra", "obe", "ale")
MAB_TARGETS = {
    "anti_tnf": "li", "anti_pd1": "li", "anti_il17": "ki", "anti_cgrp": "ne",
    "pcsk9": "ci", "anti_cd20": "tu",
}  # fmt: skip
MAB_SOURCES = ("zu", "xi", "u")
VACCINE_ANTIGENS = (
    "Respiratory Syncytial Virus Vaccine, Adjuvanted", "Influenza Vaccine, Quadrivalent",
    "Pneumococcal 21-valent Conjugate Vaccine", "Meningococcal Groups A, C, Y, W Conjugate Vaccine",
    "Zoster Vaccine Recombinant, Adjuvanted", "Hepatitis B Vaccine (Recombinant)",
)  # fmt: skip
IG_PRODUCTS = (
    "Immune Globulin Intravenous (Human), 10% Liquid",
    "Immune Globulin Subcutaneous (Human), 20% Liquid",
    "Hepatitis B Immune Globulin (Human)",
)  # fmt: skip

# condition -> (therapeutic area, primary endpoint)
CONDITIONS = {
    "Hypercholesterolemia": ("lipids", "Percent change from baseline in LDL-C at Week 24"),
    "Atherosclerotic Cardiovascular Disease": ("lipids", "Time to first occurrence of major adverse cardiovascular events (MACE)"),
    "Type 2 Diabetes Mellitus": ("diabetes", "Change from baseline in HbA1c at Week 26"),
    "Heart Failure": ("cardiovascular", "Time to first occurrence of cardiovascular death or hospitalization for heart failure"),
    "Chronic Kidney Disease": ("cardiovascular", "Time to sustained 50% decline in eGFR, end-stage kidney disease, or renal death"),
    "Obesity": ("obesity", "Percent change in body weight from baseline to Week 68"),
    "Atrial Fibrillation": ("cardiovascular", "Time to first stroke or systemic embolism"),
    "Venous Thromboembolism": ("cardiovascular", "Recurrent symptomatic venous thromboembolism or VTE-related death at Month 6"),
    "Hypertension": ("cardiovascular", "Change from baseline in mean seated systolic blood pressure at Week 8"),
    "Major Depressive Disorder": ("psychiatry", "Change from baseline in MADRS total score at Week 6"),
    "Generalized Anxiety Disorder": ("psychiatry", "Change from baseline in HAM-A total score at Week 8"),
    "Schizophrenia": ("psychiatry", "Change from baseline in PANSS total score at Week 6"),
    "Bipolar I Disorder": ("psychiatry", "Change from baseline in YMRS total score at Week 3"),
    "Epilepsy": ("neurology", "Percent change from baseline in 28-day seizure frequency"),
    "Partial-Onset Seizures": ("neurology", "Proportion of patients with a 50% or greater reduction in seizure frequency"),
    "Migraine": ("neurology", "Change from baseline in mean monthly migraine days over Months 1 to 3"),
    "Relapsing Multiple Sclerosis": ("neurology", "Annualized relapse rate at Week 96"),
    "Spinal Muscular Atrophy": ("rare", "Proportion of patients alive without permanent ventilation at 14 months of age"),
    "Hemophilia B": ("rare", "Annualized bleeding rate from Month 7 to Month 18 after infusion"),
    "Chronic Pain": ("pain", "Change from baseline in average daily pain intensity (NRS) at Week 12"),
    "Opioid Use Disorder": ("pain", "Percentage of urine samples negative for illicit opioids over Weeks 5 to 24"),
    "Osteoarthritis": ("pain", "Change from baseline in WOMAC pain subscale at Week 12"),
    "Gastroesophageal Reflux Disease": ("gastroenterology", "Proportion of patients with healed erosive esophagitis at Week 8"),
    "Crohn's Disease": ("immunology", "Proportion of patients in clinical remission (CDAI < 150) at Week 52"),
    "Rheumatoid Arthritis": ("immunology", "Proportion of patients achieving ACR20 response at Week 24"),
    "Plaque Psoriasis": ("immunology", "Proportion of patients achieving PASI 75 at Week 12"),
    "Psoriatic Arthritis": ("immunology", "Proportion of patients achieving ACR20 response at Week 16"),
    "Primary Humoral Immunodeficiency": ("immunology", "Rate of acute serious bacterial infections per subject per year"),
    "Chronic Inflammatory Demyelinating Polyneuropathy": ("immunology", "Proportion of patients with an adjusted INCAT disability score improvement at Week 24"),
    "Community-Acquired Bacterial Pneumonia": ("infectious disease", "Early clinical response at 72 to 120 hours after the first dose"),
    "Complicated Urinary Tract Infection": ("infectious disease", "Composite clinical cure and microbiological eradication at the test-of-cure visit"),
    "HIV-1 Infection": ("infectious disease", "Proportion of participants with HIV-1 RNA < 50 copies/mL at Week 48"),
    "Chronic Hepatitis B": ("infectious disease", "Proportion of patients with HBV DNA < 29 IU/mL at Week 48"),
    "Respiratory Syncytial Virus Infection": ("vaccines", "Vaccine efficacy against RSV-confirmed lower respiratory tract disease"),
    "Influenza": ("vaccines", "Hemagglutination inhibition geometric mean titer ratio 28 days after vaccination"),
    "Invasive Pneumococcal Disease": ("vaccines", "Serotype-specific opsonophagocytic activity geometric mean titers 1 month after vaccination"),
    "Asthma": ("respiratory", "Change from baseline in trough FEV1 at Week 12"),
    "Chronic Obstructive Pulmonary Disease": ("respiratory", "Annualized rate of moderate or severe COPD exacerbations"),
    "Non-Small Cell Lung Cancer": ("oncology", "Progression-free survival per RECIST v1.1 by blinded independent central review"),
    "Chronic Myeloid Leukemia": ("oncology", "Major molecular response rate at 12 months"),
    "Breast Cancer": ("oncology", "Invasive disease-free survival"),
    "Melanoma": ("oncology", "Overall survival"),
    "Non-Hodgkin Lymphoma": ("oncology", "Overall response rate by independent review committee"),
    "Chronic Lymphocytic Leukemia": ("oncology", "Progression-free survival"),
    "Diffuse Large B-Cell Lymphoma": ("oncology", "Event-free survival"),
    "Multiple Myeloma": ("oncology", "Overall response rate per IMWG criteria"),
}  # fmt: skip

SECONDARY_OUTCOMES = (
    "Incidence of treatment-emergent adverse events", "Change from baseline in health-related quality of life (SF-36)",
    "Proportion of participants discontinuing study treatment due to adverse events",
    "Plasma concentrations of study drug (population pharmacokinetics)",
    "Incidence of anti-drug antibodies", "Patient Global Impression of Change at end of treatment",
    "Time to rescue medication use", "All-cause mortality",
)  # fmt: skip

INCLUSION = {
    "diabetes": ("Age 18 years or older at screening", "HbA1c between 7.0% and 10.5% at screening", "Stable dose of metformin (≥1500 mg/day) for at least 90 days", "eGFR ≥ 25 mL/min/1.73 m²", "Body mass index ≤ 45 kg/m²"),
    "lipids": ("Age 18 years or older at screening", "LDL-C ≥ 70 mg/dL despite maximally tolerated statin therapy", "Fasting triglycerides ≤ 400 mg/dL", "History of myocardial infarction, ischemic stroke or symptomatic peripheral artery disease"),
    "cardiovascular": ("Age 18 years or older at screening", "Documented diagnosis according to current guidelines", "eGFR ≥ 25 mL/min/1.73 m²", "Stable guideline-directed background therapy for at least 4 weeks", "NT-proBNP or blood pressure above the protocol-specified threshold"),
    "obesity": ("Age 18 years or older", "Body mass index ≥ 30 kg/m², or ≥ 27 kg/m² with at least one weight-related comorbidity", "At least one self-reported unsuccessful dietary effort to lose body weight", "Stable body weight (± 5 kg) for 90 days before screening"),
    "psychiatry": ("Age 18 to 65 years", "Primary diagnosis confirmed by the Mini International Neuropsychiatric Interview (MINI)", "Current episode of at least 8 weeks' duration", "Clinical Global Impression-Severity score ≥ 4 at screening and baseline"),
    "neurology": ("Age 12 years or older", "Diagnosis established at least 12 months before screening", "At least 4 qualifying events during the 8-week baseline period", "Stable regimen of 1 to 3 concomitant therapies for at least 4 weeks"),
    "rare": ("Genetically confirmed diagnosis", "Age at dosing within the protocol-specified window", "Anti-AAV neutralizing antibody titer below 1:50", "Adequate hepatic function at screening"),
    "pain": ("Age 18 to 80 years", "Average pain intensity ≥ 4 on an 11-point numeric rating scale", "Pain present on most days for at least 3 months", "Willing to discontinue prohibited analgesics"),
    "gastroenterology": ("Age 18 years or older", "Endoscopically confirmed erosive esophagitis (Los Angeles grade A to D)", "History of heartburn for at least 3 months"),
    "immunology": ("Age 18 years or older", "Disease duration of at least 6 months", "Inadequate response or intolerance to at least one conventional systemic therapy", "Negative interferon-gamma release assay for tuberculosis at screening"),
    "infectious disease": ("Age 18 years or older", "Clinical signs and symptoms consistent with the infection under study", "Appropriate specimen obtained for culture within 48 hours before randomization", "Documented HIV-1 RNA ≥ 1,000 copies/mL (HIV studies)"),
    "vaccines": ("Healthy adults aged 60 years and older", "Able to comply with study procedures and follow-up", "Stable chronic medical conditions permitted"),
    "respiratory": ("Age 12 years or older", "Pre-bronchodilator FEV1 40% to 85% of predicted", "Reversibility of ≥ 12% and 200 mL after albuterol", "At least one exacerbation requiring systemic corticosteroids in the previous 12 months"),
    "oncology": ("Age 18 years or older", "Histologically confirmed diagnosis", "Measurable disease per RECIST v1.1", "ECOG performance status of 0 or 1", "Adequate bone marrow, hepatic and renal function"),
}  # fmt: skip

EXCLUSION = (
    "Pregnant or breastfeeding, or planning pregnancy during the study",
    "History of malignancy within 5 years, except adequately treated basal cell carcinoma",
    "Active hepatitis B, hepatitis C or HIV infection",
    "Participation in another interventional clinical study within 30 days",
    "Clinically significant ECG abnormality, including QTcF > 450 ms in men or > 470 ms in women",
    "ALT or AST > 3 × upper limit of normal at screening",
    "Known hypersensitivity to the study drug or any of its excipients",
    "Severe renal impairment (eGFR < 30 mL/min/1.73 m²) or end-stage renal disease",
    "Myocardial infarction, unstable angina or stroke within 3 months before screening",
    "Current suicidal ideation with intent or plan (C-SSRS)",
    "Use of strong CYP3A4 inhibitors or inducers within 14 days before randomization",
)  # fmt: skip

# --- devices ----------------------------------------------------------------------------------

# (generic name, product code, regulation, class, review panel, MAUDE category, pathway, noun)
DEVICE_TYPES = (
    ("Infusion pump", "FRN", "880.5725", "II", "General Hospital", "pump", "510k", "Infusion System"),
    ("Intravascular catheter, short-term", "FOZ", "880.5200", "II", "General Hospital", "catheter", "510k", "IV Catheter"),
    ("Piston syringe", "FMF", "880.5860", "II", "General Hospital", "disposable", "510k", "Syringe"),
    ("Hypodermic single lumen needle", "FMI", "880.5570", "II", "General Hospital", "disposable", "510k", "Safety Needle"),
    ("Clinical electronic thermometer", "FLL", "880.2910", "II", "General Hospital", "monitor", "510k", "Thermometer"),
    ("Oximeter", "DQA", "870.2700", "II", "Cardiovascular", "monitor", "510k", "Pulse Oximeter"),
    ("Electrocardiograph", "DPS", "870.2340", "II", "Cardiovascular", "monitor", "510k", "ECG System"),
    ("Noninvasive blood pressure measurement system", "DXN", "870.1130", "II", "Cardiovascular", "monitor", "510k", "BP Monitor"),
    ("Blood glucose test system", "NBW", "862.1345", "II", "Clinical Chemistry", "glucose", "510k", "Glucose Meter"),
    ("Insulin infusion pump", "LZG", "880.5725", "II", "General Hospital", "pump", "510k", "Insulin Pump"),
    ("Hip joint metal/polymer/metal semi-constrained porous-coated prosthesis", "LPH", "888.3358", "II", "Orthopedic", "ortho", "510k", "Hip System"),
    ("Knee joint patellofemorotibial polymer/metal/polymer semi-constrained cemented prosthesis", "JWH", "888.3560", "II", "Orthopedic", "ortho", "510k", "Total Knee System"),
    ("Thoracolumbosacral pedicle screw system", "NKB", "888.3070", "II", "Orthopedic", "ortho", "510k", "Pedicle Screw System"),
    ("Single/multiple component metallic bone fixation appliances", "HRS", "888.3030", "II", "Orthopedic", "ortho", "510k", "Locking Plate System"),
    ("Gastroscope and accessories, flexible/rigid", "FDS", "876.1500", "II", "Gastroenterology/Urology", "endoscope", "510k", "Video Gastroscope"),
    ("Duodenoscope and accessories, flexible/rigid", "FDT", "876.1500", "II", "Gastroenterology/Urology", "endoscope", "510k", "Duodenoscope"),
    ("Laparoscope, general and plastic surgery", "GCJ", "876.1500", "II", "General and Plastic Surgery", "endoscope", "510k", "Laparoscope"),
    ("Surgical mask", "FXX", "878.4040", "II", "General Hospital", "disposable", "510k", "Procedure Mask"),
    ("Surgical stapler for internal use", "GAG", "878.4750", "II", "General and Plastic Surgery", "surgical", "510k", "Surgical Stapler"),
    ("Electrosurgical cutting and coagulation device", "GEI", "878.4400", "II", "General and Plastic Surgery", "surgical", "510k", "Electrosurgical Generator"),
    ("Surgical mesh, polymeric", "FTL", "878.3300", "II", "General and Plastic Surgery", "implant", "510k", "Hernia Mesh"),
    ("Continuous ventilator", "CBK", "868.5895", "II", "Anesthesiology", "respiratory", "510k", "Ventilator"),
    ("Noncontinuous ventilator (CPAP)", "BZD", "868.5905", "II", "Anesthesiology", "respiratory", "510k", "CPAP System"),
    ("Computed tomography x-ray system", "JAK", "892.1750", "II", "Radiology", "imaging", "510k", "CT Scanner"),
    ("Magnetic resonance diagnostic device", "LNH", "892.1000", "II", "Radiology", "imaging", "510k", "MR System"),
    ("Medical image management and processing system", "LLZ", "892.2050", "II", "Radiology", "software", "510k", "Imaging Software"),
    ("Endosseous dental implant", "DZE", "872.3640", "II", "Dental", "implant", "510k", "Dental Implant System"),
    ("Soft (hydrophilic) contact lens", "LPL", "886.5925", "II", "Ophthalmic", "disposable", "510k", "Daily Contact Lens"),
    ("Urological Foley catheter", "EZL", "876.5130", "II", "Gastroenterology/Urology", "catheter", "510k", "Foley Catheter"),
    ("Hemodialysis system and accessories", "FKP", "876.5860", "II", "Gastroenterology/Urology", "pump", "510k", "Hemodialysis System"),
    ("Powered wheelchair", "ITI", "890.3860", "II", "Physical Medicine", "surgical", "510k", "Power Wheelchair"),
    ("Integrated continuous glucose monitoring system", "QBJ", "862.1355", "II", "Clinical Chemistry", "glucose", "de_novo", "CGM System"),
    ("Alternate controller enabled insulin infusion pump", "QFG", "880.5730", "II", "General Hospital", "pump", "de_novo", "ACE Insulin Pump"),
    ("Radiological computer-assisted triage and notification software", "QAS", "892.2080", "II", "Radiology", "software", "de_novo", "Triage Software"),
    ("Computerized behavioral therapy device for psychiatric disorders", "PWE", "882.5801", "II", "Neurology", "software", "de_novo", "Digital Therapeutic"),
    ("Retinal diagnostic software device", "PIB", "886.1100", "II", "Ophthalmic", "software", "de_novo", "Retinal AI System"),
    ("Electrocardiograph software for over-the-counter use", "QDA", "870.2345", "II", "Cardiovascular", "software", "de_novo", "ECG App"),
    ("Transcutaneous electrical nerve stimulator to treat headache", "PKR", "882.5891", "II", "Neurology", "monitor", "de_novo", "Neurostimulation Headband"),
    ("Coronary drug-eluting stent", "NIQ", "870.3460", "III", "Cardiovascular", "cardiac", "pma", "Drug-Eluting Coronary Stent System"),
    ("Implantable pacemaker pulse generator", "DXY", "870.3610", "III", "Cardiovascular", "cardiac", "pma", "Pacemaker"),
    ("Implantable cardioverter defibrillator", "LWS", "870.3610", "III", "Cardiovascular", "cardiac", "pma", "ICD System"),
    ("Transcatheter heart valve, aortic", "NPT", "870.3925", "III", "Cardiovascular", "cardiac", "pma", "Transcatheter Aortic Valve"),
    ("Silicone gel-filled breast prosthesis", "FTR", "878.3540", "III", "General and Plastic Surgery", "implant", "pma", "Breast Implant"),
    ("Cochlear implant", "MCM", "874.3950", "III", "Ear, Nose and Throat", "implant", "pma", "Cochlear Implant System"),
    ("Intraocular lens", "HQL", "886.3600", "III", "Ophthalmic", "implant", "pma", "Posterior Chamber IOL"),
    ("Intervertebral disc prosthesis", "MJO", "888.3080", "III", "Orthopedic", "ortho", "pma", "Cervical Disc"),
)  # fmt: skip

DEVICE_MARKS = (
    "Vista", "Aria", "Nova", "Pulse", "Clario", "Sentra", "Flex", "Orbit", "Summit", "Apex",
    "Tru", "Lumen", "Axis", "Crest", "Halo", "Vector", "Kinetic", "Zenith", "Prism", "Strata",
)  # fmt: skip
DEVICE_MODELS = ("", "", " 2", " Pro", " XL", " Plus", " II", " One", " 360", " S")

# MAUDE: category -> ((device problem, event description), ...)
MAUDE_PROBLEMS = {
    "pump": (("Occlusion Within Device", "the pump displayed a downstream occlusion alarm although no occlusion was present, and the infusion of {drug_hint} was interrupted for approximately {minutes} minutes"),
             ("Under-Infusion", "the pump delivered less than the programmed volume; the nurse noted that {volume} mL remained in the bag at the end of the programmed infusion time"),
             ("Battery Problem", "the device shut down unexpectedly while operating on battery power with a displayed charge of {pct}%"),
             ("Free or Unrestricted Flow", "free flow occurred when the administration set was removed from the pump channel"),
             ("Software Problem", "the keypad became unresponsive and the screen displayed error code E-{code_n} during programming")),
    "catheter": (("Break", "the catheter tip separated during removal and a fragment of approximately {mm} mm was retained in the vessel"),
                 ("Leak/Splash", "a leak was observed at the hub connection shortly after insertion"),
                 ("Difficult to Insert", "the clinician experienced resistance during insertion and two additional devices were used to complete the procedure"),
                 ("Material Deformation", "the catheter kinked at the insertion site, resulting in repeated occlusion alarms")),
    "disposable": (("Needle Detached", "the needle separated from the hub during injection; no needle fragment was retained"),
                   ("Packaging Problem", "the sterile barrier was found open on receipt; the device was not used"),
                   ("Material Integrity Problem", "the product tore during normal use and was replaced"),
                   ("Contamination/Decontamination Problem", "particulate matter was observed inside the unopened package")),
    "monitor": (("Incorrect, Inadequate or Imprecise Result or Readings", "the device displayed readings that differed from the reference measurement by more than {pct}%"),
                ("Failure to Power Up", "the device failed to power on at the start of the shift; a replacement unit was used"),
                ("Device Alarm System", "the alarm did not sound when the measured value crossed the configured limit"),
                ("Overheating of Device", "the sensor became warm to the touch and the patient reported a burning sensation at the application site")),
    "glucose": (("Incorrect, Inadequate or Imprecise Result or Readings", "the system reported a glucose value of {glucose} mg/dL while a fingerstick measurement taken at the same time read {glucose2} mg/dL"),
                ("Adhesion Problem", "the sensor detached from the skin on day {day} of wear"),
                ("Failure to Calibrate", "the system repeatedly requested calibration and stopped displaying readings"),
                ("Signal Loss", "the receiver reported signal loss for approximately {minutes} minutes overnight")),
    "ortho": (("Loosening of Implant Not Related to Bone-Ingrowth", "the patient underwent revision surgery {months} months after the index procedure due to aseptic loosening of the implant"),
              ("Fracture", "the implant fractured at the neck-stem junction; the revision was performed without complication"),
              ("Migration", "imaging showed migration of the component and the patient reported increasing pain"),
              ("Metal Shedding Debris", "elevated serum cobalt and chromium levels were reported and the component was explanted")),
    "endoscope": (("Microbial Contamination of Device", "post-procedure cultures from the device grew carbapenem-resistant Enterobacteriaceae after reprocessing according to the instructions for use"),
                  ("Image Display Error", "the endoscopic image intermittently froze during the procedure, which was completed with a backup scope"),
                  ("Fluid/Blood Leak", "a leak test failure was identified after the procedure"),
                  ("Material Puncture/Hole", "the insertion tube was found to have a perforation of the outer sheath")),
    "surgical": (("Failure to Fire", "the stapler failed to fire completely and the staple line was reinforced with sutures"),
                 ("Malposition of Device", "the staple line did not form correctly and a leak was identified intraoperatively"),
                 ("Unintended Electrical Shock", "the user reported an unexpected current at the handpiece"),
                 ("Mechanical Problem", "the device could not be removed from the tissue without additional manipulation")),
    "implant": (("Device Dislodged or Dislocated", "the implant was found to have displaced on follow-up imaging {months} months after implantation"),
                ("Rupture", "implant rupture was confirmed by imaging and the device was explanted"),
                ("Adverse Tissue Reaction", "the patient developed chronic pain and inflammation at the implant site requiring removal"),
                ("Biocompatibility", "the patient reported symptoms attributed to the implant and requested removal")),
    "respiratory": (("Device Stops Intermittently", "the ventilator stopped delivering breaths and alarmed with a technical fault; the patient was manually ventilated"),
                    ("Material Fragmentation", "particles of degraded sound abatement foam were observed in the air pathway"),
                    ("Power Problem", "the device lost power during use and did not switch to the internal battery"),
                    ("Inaccurate Flow Rate", "the delivered tidal volume did not match the set value during verification")),
    "imaging": (("Image Artifact", "the reconstructed images contained ring artifacts and the scan was repeated"),
                ("Radiation Output Problem", "the displayed dose index was higher than expected for the selected protocol"),
                ("Thermal Decomposition of Device", "smoke was observed from the gantry cover; the room was evacuated"),
                ("Patient-Device Incompatibility", "the patient reported heating at the skin surface during the sequence")),
    "software": (("Software Problem", "the software failed to flag a finding that was later identified by the reviewing clinician"),
                 ("Application Program Problem", "the application displayed results for a different patient after a session timeout"),
                 ("Data Problem", "the exported report omitted measurements that were shown on screen"),
                 ("Computer Software Problem", "the application crashed during an update and could not be reopened")),
    "cardiac": (("Premature Elective Replacement Indicator", "the device reached the elective replacement indicator {months} months earlier than projected"),
                ("Failure to Capture", "loss of capture was observed on interrogation and the lead was repositioned"),
                ("Activation Failure", "the delivery system failed to deploy the device at the target lesion and was withdrawn"),
                ("Inappropriate Shock", "the patient received an inappropriate shock attributed to oversensing")),
}  # fmt: skip

MAUDE_PATIENT = {
    "death": ("Death", "Cardiac Arrest", "Sepsis", "Hemorrhage"),
    "injury": ("Pain", "Infection", "Hypoglycemia", "Hyperglycemia", "Burn, Thermal", "Laceration(s)", "Tissue Damage", "Inflammation", "Reoperation"),
    "malfunction": ("No Clinical Signs, Symptoms or Conditions", "No Known Impact Or Consequence To Patient", "No Patient Involvement"),
    "other": ("Insufficient Information", "No Information"),
}  # fmt: skip

MAUDE_OUTCOME = {
    "death": ("The patient subsequently expired. The reporter did not attribute the death to the device; the cause of death was reported as {patient_problem}.",
              "It was reported that the patient died {days} days after the event. The relationship between the device and the death is unknown."),
    "injury": ("The patient required medical intervention and was treated for {patient_problem}; the patient was reported to be in stable condition.",
               "As a result, the patient experienced {patient_problem} and required an additional procedure. No further patient complications were reported."),
    "malfunction": ("There was no reported patient injury. The device was replaced and therapy continued without further issue.",
                    "No patient harm was reported. This report is submitted because the malfunction would be likely to cause or contribute to a serious injury if it were to recur."),
    "other": ("Limited information was provided by the reporter. Attempts to obtain additional information have been unsuccessful.",
              "The event was identified through a literature review; patient details were not available."),
}  # fmt: skip

MAUDE_FOLLOWUP = (
    "The device was returned to the manufacturer for evaluation. Visual inspection and functional testing {finding}. A review of the device history record for lot {lot} showed that the device met all release specifications.",
    "The device was not returned; therefore a device evaluation could not be performed. A review of complaint history for this lot identified no similar events.",
    "The investigation is ongoing. A supplemental report will be submitted when additional information becomes available.",
    "A review of the labeling found that the instructions for use adequately address the reported event. The reported event will continue to be monitored through the complaint handling and trending process.",
    "Root cause could not be conclusively determined. Possible contributing factors include use conditions and patient anatomy.",
)  # fmt: skip
MAUDE_FINDINGS = (
    "confirmed the reported failure", "could not reproduce the reported failure",
    "identified a cracked component consistent with the report", "found evidence of fluid ingress",
    "found the device to be operating within specification",
)  # fmt: skip
MAUDE_SOURCES = (
    "Manufacturer report",
    "Health professional",
    "User facility",
    "Distributor",
    "Voluntary report (consumer)",
)

# --- inspections, Form 483 observations and warning-letter violations -------------------------

# kind -> ((CFR citation, 483 observation, warning-letter violation, details, what to provide), ...)
OBSERVATIONS = {
    "drug": (
        ("21 CFR 211.192", "There is a failure to thoroughly review any unexplained discrepancy and the failure of a batch or any of its components to meet any of its specifications whether or not the batch has been already distributed.",
         "Your firm failed to thoroughly investigate any unexplained discrepancy or failure of a batch or any of its components to meet any of its specifications, whether or not the batch has already been distributed",
         ("Out-of-specification assay results for lot {lot} of {product} were invalidated without an assignable laboratory root cause, and the lot was released after a retest on {date_a}.",
          "{n} of {m} deviation reports opened between {date_a} and {date_b} remained open beyond the {days}-day closure period required by {sop}, including deviations involving yield and blend uniformity failures.",
          "The investigation of customer complaints of discolored tablets in lot {lot} did not extend to other lots manufactured on the same {equip} during the same campaign."),
         "a comprehensive, independent assessment of your overall system for investigating deviations, atypical events, complaints, out-of-specification (OOS) results, and failures"),
        ("21 CFR 211.22(d)", "The responsibilities and procedures applicable to the quality control unit are not in writing and fully followed.",
         "Your firm failed to establish an adequate quality control unit with the responsibility and authority to approve or reject all components, drug product containers, closures, in-process materials, packaging materials, labeling, and drug products",
         ("The quality unit approved {n} change controls without documented impact assessments, including a change to the granulation endpoint for {product}.",
          "Batch records for lot {lot} were approved for release by the quality unit before the completion of the associated deviation investigation.",
          "Your quality unit did not review audit trails for the {instrument} before approving analytical results used for batch release."),
         "a comprehensive assessment and remediation plan to ensure your quality unit is given the authority and resources to effectively function"),
        ("21 CFR 211.113(b)", "Appropriate written procedures, designed to prevent microbiological contamination of drug products purporting to be sterile, are not established and followed, including validation of all aseptic and sterilization processes.",
         "Your firm failed to establish and follow appropriate written procedures that are designed to prevent microbiological contamination of drug products purporting to be sterile, and that include validation of all aseptic and sterilization processes",
         ("Smoke studies performed in the ISO 5 area of {room} did not demonstrate unidirectional airflow over open vials during line interventions.",
          "Media fills did not simulate the worst-case number of interventions; {n} routine interventions performed during production were not represented.",
          "Operators were observed reaching over open sterile product with gloved hands during filling of lot {lot}."),
         "a comprehensive, independent assessment of the design and control of your aseptic processing operations, including smoke studies under dynamic conditions"),
        ("21 CFR 211.67(a)", "Equipment and utensils are not cleaned, maintained and sanitized at appropriate intervals to prevent malfunctions or contamination that would alter the safety, identity, strength, quality or purity of the drug product.",
         "Your firm failed to clean, maintain, and, as appropriate for the nature of the drug, sanitize and/or sterilize equipment and utensils at appropriate intervals to prevent malfunctions or contamination",
         ("Residue was observed on the product contact surfaces of the {equip} that was labeled as cleaned on {date_a}.",
          "Cleaning validation for the shared {equip} did not include worst-case products or establish scientifically justified residue limits.",
          "The firm manufactures {n} products on shared equipment but has not evaluated the risk of cross-contamination with highly potent compounds."),
         "appropriate improvements to your cleaning validation program, with special emphasis on incorporating conditions identified as worst case"),
        ("21 CFR 211.68(b)", "Appropriate controls are not exercised over computers or related systems to assure that changes in master production and control records or other records are instituted only by authorized personnel.",
         "Your firm failed to exercise appropriate controls over computer or related systems to assure that only authorized personnel institute changes in master production and control records, or other records",
         ("Analysts share a common login on the {instrument} data system and can delete or overwrite chromatographic data; audit trails were disabled.",
          "The audit trail for the {instrument} showed {n} injections that were not reported in the laboratory records for lot {lot}.",
          "Trial injections of samples were performed before the official analysis, and the results were not documented or investigated."),
         "a comprehensive investigation into the extent of the inaccuracies in data records and reporting, including a detailed description of the scope and root causes of your data integrity lapses"),
        ("21 CFR 211.160(b)", "Laboratory controls do not include the establishment of scientifically sound and appropriate specifications, standards, sampling plans, and test procedures designed to assure that components, drug product containers, closures, in-process materials, labeling, and drug products conform to appropriate standards of identity, strength, quality and purity.",
         "Your firm failed to establish laboratory controls that include scientifically sound and appropriate specifications, standards, sampling plans, and test procedures",
         ("The analytical method for related substances used for release of {product} was not validated for specificity against known degradation products.",
          "Reference standards used for assay testing were used past their re-qualification date of {date_a}.",
          "The dissolution method was changed on {date_a} without a documented comparison to the validated method."),
         "a comprehensive, independent review of your laboratory practices, procedures, methods, equipment, documentation, and analyst competencies"),
        ("21 CFR 211.165(a)", "Testing and release of drug product for distribution do not include appropriate laboratory determination of satisfactory conformance to the final specifications for the drug product, including the identity and strength of each active ingredient, prior to release.",
         "Your firm failed to conduct, for each batch of drug product, appropriate laboratory determination of satisfactory conformance to final specifications, including the identity and strength of each active ingredient, prior to release",
         ("Lots of {product} were released without testing for assay and impurities; the firm relied on supplier certificates of analysis.",
          "{n} lots were distributed before microbiological testing was completed.",
          "Finished product was released although the identity test for lot {lot} was not performed."),
         "a list of chemical and microbial test methods and specifications used to analyze each batch of your drug products before making a batch disposition decision"),
        ("21 CFR 211.166(a)", "There is no written testing program designed to assess the stability characteristics of drug products.",
         "Your firm failed to establish and follow an adequate written testing program designed to assess the stability characteristics of drug products and to use results of such stability testing to determine appropriate storage conditions and expiration dates",
         ("The stability program does not include annual stability lots for {n} marketed products.",
          "Expiration dating of {shelf_months} months for {product} is not supported by real-time stability data.",
          "Stability samples for lot {lot} were not pulled at the 12-month time point and no deviation was initiated."),
         "a comprehensive, independent assessment and corrective action and preventive action (CAPA) plan to ensure the adequacy of your stability program"),
        ("21 CFR 211.84(d)(2)", "Each component is not tested for conformity with all appropriate written specifications for purity, strength, and quality.",
         "Your firm failed to test samples of each component for identity and conformity with all appropriate written specifications for purity, strength, and quality",
         ("Incoming lots of glycerin were not tested for diethylene glycol (DEG) and ethylene glycol (EG) before use in oral solutions.",
          "The firm accepted supplier certificates of analysis for active pharmaceutical ingredient lot {lot} without establishing the reliability of the supplier's analyses.",
          "Components from {n} suppliers were released for use based on identity testing alone."),
         "the chemical and microbiological test methods used to analyze each component lot, and a summary of results obtained from testing all components"),
        ("21 CFR 211.100(a)", "There are no written procedures for production and process control designed to assure that the drug products have the identity, strength, quality, and purity they purport or are represented to possess.",
         "Your firm failed to establish adequate written procedures for production and process control designed to assure that the drug products you manufacture have the identity, strength, quality, and purity they purport or are represented to possess",
         ("Process validation for {product} was not performed; the firm has manufactured {n} commercial lots without demonstrating that the process is in a state of control.",
          "Hold times for the bulk blend were not established or validated.",
          "The master batch record permits adjustments of the coating spray rate outside the validated range without documented justification."),
         "a detailed summary of your validation program for ensuring a state of control throughout the product lifecycle"),
        ("21 CFR 211.42(c)(10)(iv)", "Aseptic processing areas are deficient regarding the system for monitoring environmental conditions.",
         "Your firm failed to establish an adequate system for monitoring environmental conditions in aseptic processing areas",
         ("Viable air monitoring was not performed during each production shift in {room}.",
          "Environmental monitoring excursions, including {n} recoveries of mold in the Grade B area, were not investigated.",
          "Personnel monitoring of gloves and gowns was not performed after critical interventions."),
         "a comprehensive, independent assessment of your environmental monitoring program, including sampling locations and frequencies"),
        ("21 CFR 211.25(a)", "Employees are not given training in the particular operations they perform as part of their function and in current good manufacturing practices.",
         "Your firm failed to ensure that personnel engaged in the manufacture, processing, packing, or holding of a drug product have the education, training, and experience to perform their assigned functions",
         ("{n} operators performing aseptic connections had not completed gowning qualification.",
          "Training records for analysts performing release testing were incomplete.",
          "Training on revised {sop} was not completed before the procedure became effective on {date_a}."),
         "a plan to provide effective CGMP training to all personnel, including a means to verify training effectiveness"),
        ("21 CFR 211.188", "Batch production and control records do not include complete information relating to the production and control of each batch.",
         "Your firm failed to prepare batch production and control records with complete information relating to the production and control of each batch of drug product",
         ("The batch record for lot {lot} did not document the actual weights of the active ingredient dispensed.",
          "Entries in the batch record for {product} were recorded before the activities were performed.",
          "Uncontrolled blank batch record forms were found in the production area."),
         "a comprehensive assessment of your documentation systems used throughout your manufacturing and laboratory operations"),
        ("21 CFR 211.198(a)", "Written procedures describing the handling of all written and oral complaints regarding a drug product are not followed.",
         "Your firm failed to follow written procedures describing the handling of all written and oral complaints regarding a drug product",
         ("{n} complaints of foreign particles in {product} were closed without investigation or trending.",
          "Complaints involving possible adverse drug experiences were not reviewed to determine whether a field alert report was required."),
         "a retrospective review of complaints received in the last three years"),
        ("21 CFR 211.46(b)", "Equipment for adequate control over air pressure, micro-organisms, dust, humidity, and temperature is not provided when appropriate for the manufacture, processing, packing or holding of a drug product.",
         "Your firm failed to provide adequate equipment for control over air pressure, microorganisms, dust, humidity, and temperature",
         ("Differential pressure between {room} and the adjacent corridor was negative on {n} occasions without investigation.",
          "The HVAC system serving the compression suite was not qualified."),
         "a risk assessment of products manufactured during periods of HVAC excursions"),
    ),
    "device": (
        ("21 CFR 820.100(a)", "Procedures for corrective and preventive action have not been adequately established.",
         "Failure to establish and maintain adequate procedures for implementing corrective and preventive action",
         ("CAPA {capa} opened on {date_a} for {failure_mode} was closed without verification of effectiveness.",
          "Your firm did not analyze {n} nonconformance reports and complaint records to identify existing and potential causes of nonconforming product.",
          "The CAPA procedure, {sop}, does not require investigation of the cause of nonconformities relating to product, processes and the quality system."),
         "a retrospective review of all CAPAs opened in the last two years"),
        ("21 CFR 820.198(a)", "Procedures for receiving, reviewing, and evaluating complaints by a formally designated unit have not been adequately established.",
         "Failure to establish and maintain procedures for receiving, reviewing, and evaluating complaints by a formally designated unit",
         ("{n} of {m} complaints reviewed involving {failure_mode} were not evaluated to determine whether the complaint represented an event required to be reported under 21 CFR Part 803.",
          "Complaint {capa} alleging {failure_mode} was closed without an investigation and without documenting the reason no investigation was made.",
          "Complaints received through the field service organization were not entered into the complaint handling system."),
         "a retrospective review of complaints received since {date_a} to determine whether any events should have been reported as MDRs"),
        ("21 CFR 820.30(i)", "Procedures for design change have not been adequately established.",
         "Failure to establish and maintain adequate procedures for the identification, documentation, validation or where appropriate verification, review, and approval of design changes before their implementation",
         ("A change to the firmware of the {product} (version {fw}) was released without documented verification or validation.",
          "Your firm changed the material supplier for a patient-contacting component without assessing biocompatibility.",
          "Design change {capa} did not include a risk analysis update."),
         "an assessment of all design changes made to the device since its clearance"),
        ("21 CFR 820.30(g)", "Design validation did not ensure that devices conform to defined user needs and intended uses.",
         "Failure to establish and maintain adequate procedures for validating the device design",
         ("Design validation for the {product} was performed on engineering prototypes rather than initial production units.",
          "Software validation did not include testing under simulated use conditions.",
          "Usability testing did not include representative users identified in the use-related risk analysis."),
         "documentation of design validation performed on production-equivalent units under actual or simulated use conditions"),
        ("21 CFR 820.75(a)", "A process whose results cannot be fully verified by subsequent inspection and test has not been adequately validated according to established procedures.",
         "Failure to ensure that a process whose results cannot be fully verified by subsequent inspection and test is validated with a high degree of assurance and approved according to established procedures",
         ("The sealing process for the sterile barrier pouch was not validated; seal strength failures were recorded for lot {lot}.",
          "Ethylene oxide sterilization cycle parameters were changed on {date_a} without revalidation.",
          "The ultrasonic welding process used to assemble the {product} housing was not validated."),
         "process validation protocols and reports for all special processes"),
        ("21 CFR 820.50", "Procedures to ensure that all purchased or otherwise received product and services conform to specified requirements have not been adequately established.",
         "Failure to establish and maintain procedures to ensure that all purchased or otherwise received product and services conform to specified requirements",
         ("The supplier of the {component} was not evaluated before being added to the approved supplier list.",
          "Supplier audits scheduled for {n} critical suppliers were not performed.",
          "Purchasing documents did not specify the quality requirements for the {component}."),
         "your supplier evaluation records and a plan to evaluate all critical suppliers"),
        ("21 CFR 820.90(a)", "Procedures to control product that does not conform to specified requirements have not been adequately established.",
         "Failure to establish and maintain adequate procedures to control product that does not conform to specified requirements",
         ("Nonconforming {component}s were found in finished goods inventory without identification or segregation.",
          "Nonconformance report {capa} dispositioned {n} units as use-as-is without documented justification."),
         "a review of all use-as-is dispositions made in the last two years"),
        ("21 CFR 820.70(i)", "When computers or automated data processing systems are used as part of production or the quality system, the software has not been validated for its intended use.",
         "Failure to validate computer software for its intended use according to an established protocol when computers or automated data processing systems are used as part of production or the quality system",
         ("The automated test station used for final acceptance of the {product} was not validated.",
          "The electronic complaint handling system was not validated for its intended use."),
         "software validation documentation for all quality system software"),
        ("21 CFR 820.72(a)", "Procedures to ensure that equipment is routinely calibrated, inspected, checked, and maintained have not been established.",
         "Failure to establish and maintain procedures to ensure that equipment is routinely calibrated, inspected, checked, and maintained",
         ("The torque driver used in final assembly was past its calibration due date of {date_a}.",
          "{n} pieces of measuring equipment were not included in the calibration program."),
         "an assessment of product manufactured using uncalibrated equipment"),
        ("21 CFR 820.184", "Device history records have not been adequately maintained.",
         "Failure to establish and maintain procedures to ensure that device history records for each batch, lot, or unit are maintained",
         ("The device history record for lot {lot} did not include acceptance records demonstrating the device was manufactured in accordance with the device master record.",
          "Primary identification labels used for {n} production units were not recorded in the device history record."),
         "a review of device history records for all lots distributed since {date_a}"),
        ("21 CFR 820.22", "Quality audits have not been conducted to assure that the quality system is in compliance with the established quality system requirements.",
         "Failure to establish procedures for quality audits and conduct such audits to assure that the quality system is in compliance with the established quality system requirements",
         ("No internal quality audits were conducted between {date_a} and {date_b}.",
          "Audit findings from the {date_a} internal audit were not reviewed by management with executive responsibility."),
         "a schedule of internal audits and evidence of their completion"),
        ("21 CFR 803.17", "Written MDR procedures have not been developed, maintained, and implemented.",
         "Failure to adequately develop, maintain, and implement written Medical Device Reporting (MDR) procedures",
         ("Your MDR procedure does not establish internal systems that provide for timely and effective identification, communication, and evaluation of events that may be subject to MDR requirements.",
          "{n} complaints describing {failure_mode} with patient involvement were not reported to FDA within 30 calendar days."),
         "a revised MDR procedure and MDRs for all events identified in the retrospective review"),
        ("21 CFR 806.10", "A report of a correction or removal, initiated to reduce a risk to health posed by the device, was not submitted to FDA.",
         "Failure to submit a written report to FDA of any correction or removal of a device initiated by the manufacturer to reduce a risk to health posed by the device",
         ("Your firm replaced the {component} in {n} installed units in the field to address {failure_mode} but did not report the correction to FDA.",),
         "a report of the correction under 21 CFR Part 806 or your justification for not reporting"),
    ),
    "biologic": (
        ("21 CFR 606.100(b)", "Written standard operating procedures are not maintained and do not include all steps to be followed in the collection, processing, compatibility testing, storage and distribution of blood and blood components.",
         "Failure to establish, maintain, and follow written standard operating procedures that include all steps to be followed in the collection, processing, storage, and distribution of blood and blood components",
         ("Donor eligibility was determined for {n} donors without review of the deferral list.",
          "Plasma units collected on {date_a} were released although the donor's total protein result was outside the acceptance range."),
         "a retrospective review of donor eligibility determinations since {date_a}"),
        ("21 CFR 600.14", "Biological product deviations were not reported to FDA within 45 days of discovery.",
         "Failure to report biological product deviations to the Director, Center for Biologics Evaluation and Research, within 45 calendar days",
         ("{n} biological product deviation reports were submitted between 60 and 210 days after discovery.",),
         "a review of all deviations identified since {date_a} and their reportability"),
        ("21 CFR 610.13", "Products were released without tests for purity as prescribed.",
         "Failure to test each lot of the product for purity as prescribed before release",
         ("Lot {lot} of {product} was released before the residual host-cell protein result was available.",
          "Endotoxin testing was not performed on the final container samples of lot {lot}."),
         "your release testing procedures and results for all lots distributed"),
        ("21 CFR 1271.150(b)", "Current good tissue practice requirements were not followed in the manufacture of HCT/Ps.",
         "Failure to establish and maintain a quality program intended to prevent the introduction, transmission, or spread of communicable diseases through the manufacture and use of HCT/Ps",
         ("Processing of donor lot {lot} occurred in an area where environmental monitoring had identified microbial excursions.",
          "Your firm did not validate the cryopreservation process."),
         "a description of your quality program and environmental controls"),
        ("21 CFR 211.192", "Unexplained discrepancies and failures of batches to meet specifications were not thoroughly investigated.",
         "Your firm failed to thoroughly investigate unexplained discrepancies and failures of batches to meet specifications",
         ("Bioburden excursions during the harvest of lot {lot} were not investigated.",
          "Potency failures for {n} drug substance lots were attributed to assay variability without supporting data."),
         "a comprehensive assessment of your investigation system"),
        ("21 CFR 600.12", "Records are not maintained concurrently with the performance of each significant step in the manufacture and distribution of products.",
         "Failure to maintain records concurrently with the performance of each significant step in manufacture",
         ("Entries in the fill record for lot {lot} were completed after the operation had ended.",),
         "a review of the reliability of your records"),
    ),
    "food": (
        ("21 CFR 117.35(a)", "You did not maintain your plant in a clean and sanitary condition and in repair adequate to prevent food from becoming adulterated.",
         "You did not clean food-contact surfaces as frequently as necessary to protect against allergen cross-contact and against contamination of food",
         ("Environmental swabs collected on {date_a} were positive for Listeria monocytogenes, including {n} samples from food-contact surfaces of the {equip}.",
          "Condensate was observed dripping from overhead pipes onto exposed ready-to-eat product.",
          "Accumulated food residue was observed on the {equip} after the documented sanitation."),
         "documentation of the corrective actions taken, including your revised sanitation procedures"),
        ("21 CFR 117.130", "Your hazard analysis did not identify a known or reasonably foreseeable hazard requiring a preventive control.",
         "You did not conduct a hazard analysis to identify and evaluate known or reasonably foreseeable hazards for each type of food manufactured, processed, packed, or held at your facility",
         ("Your hazard analysis for {product} did not identify environmental pathogens as a hazard requiring a preventive control.",
          "Undeclared allergens were not identified as a hazard for products manufactured on shared lines."),
         "your revised food safety plan and hazard analysis"),
        ("21 CFR 117.150", "You did not take appropriate corrective action when a preventive control was not properly implemented.",
         "You did not take appropriate corrective actions when preventive controls were not properly implemented",
         ("Cooking temperature records for lot {lot} showed product below the critical limit of 160°F with no corrective action documented.",),
         "records of corrective actions taken"),
        ("21 CFR 123.6(b)", "Your HACCP plan does not list the food safety hazards that are reasonably likely to occur.",
         "You must have a HACCP plan that lists the food safety hazards that are reasonably likely to occur",
         ("Your HACCP plan for refrigerated vacuum-packed smoked fish does not list Clostridium botulinum toxin formation.",
          "Your HACCP plan for histamine-forming fish does not list scombrotoxin formation at receiving."),
         "a revised HACCP plan"),
        ("21 CFR 111.75(a)(1)", "You did not conduct at least one appropriate test or examination to verify the identity of a dietary ingredient prior to its use.",
         "You failed to conduct at least one appropriate test or examination to verify the identity of any component that is a dietary ingredient",
         ("Identity of the botanical ingredient used in {product} was accepted based on the supplier's certificate of analysis.",),
         "your procedures for identity testing of dietary ingredients"),
        ("21 CFR 111.70(e)", "You did not establish product specifications for the identity, purity, strength, and composition of the finished batch of the dietary supplement.",
         "You failed to establish specifications for the identity, purity, strength, and composition of each finished batch of dietary supplement",
         ("No finished product specifications were established for {product}.",
          "Finished batches were not tested for heavy metals and microbial contaminants."),
         "finished product specifications and test results"),
        ("21 CFR 117.80(c)(2)", "You did not conduct manufacturing operations under conditions and controls necessary to minimize the potential for the growth of microorganisms.",
         "You did not conduct operations under conditions and controls necessary to minimize the potential for growth of microorganisms, allergen cross-contact, and contamination of food",
         ("Ready-to-eat product was held at ambient temperature for up to {n} hours before packaging.",
          "Raw and ready-to-eat products were stored together in the same cooler without separation."),
         "documentation of time and temperature controls"),
    ),
    "veterinary": (
        ("21 CFR 225.42(b)", "Components used in the manufacture of medicated feed were not received, stored and used under conditions that prevent contamination.",
         "You failed to establish procedures for the receipt, storage and inventory control of drug components in the manufacture of medicated feed",
         ("The inventory reconciliation for the Type A medicated article used in lot {lot} showed a discrepancy of {pct}%.",),
         "your inventory reconciliation procedures and records"),
        ("21 CFR 225.65(a)", "Adequate procedures are not established to avoid unsafe contamination of feeds by drugs.",
         "You failed to use adequate flushing, sequencing or other procedures to avoid unsafe drug carryover into subsequently manufactured feeds",
         ("Feed for lactating dairy cattle was manufactured immediately after medicated feed containing monensin without flushing.",),
         "your sequencing and flushing procedures"),
        ("21 CFR 211.192", "Discrepancies and failures were not thoroughly investigated.",
         "Your firm failed to thoroughly investigate unexplained discrepancies in animal drug batches",
         ("Assay failures for lot {lot} of {product} were not investigated.",),
         "a review of your investigation system"),
        ("21 CFR 507.34", "You did not identify and implement preventive controls for hazards in animal food.",
         "You did not identify and implement preventive controls to provide assurances that hazards requiring a preventive control will be significantly minimized or prevented",
         ("Your food safety plan for dry pet food did not identify Salmonella as a hazard requiring a preventive control.",
          "Mycotoxin testing of incoming corn was not performed."),
         "your revised food safety plan for animal food"),
    ),
}  # fmt: skip

DETAIL_FILLERS = {
    "equip": ("tablet press", "fluid bed dryer", "high-shear granulator", "HPLC system", "filling line 3", "lyophilizer", "blender", "coating pan", "slicer", "conveyor belt", "mixing kettle", "packaging line"),
    "room": ("Room 104", "filling suite B", "the compounding room", "aseptic core 2", "the cleanroom", "Suite 210"),
    "failure_mode": ("battery depletion", "inaccurate readings", "occlusion alarms", "component cracking", "software lock-up", "seal failures", "lead fractures", "connector breakage", "overheating"),
    "component": ("printed circuit board assembly", "battery pack", "tubing set", "molded housing", "sensor", "titanium bar stock", "pouch material", "power supply"),
}  # fmt: skip

CLASSIFICATIONS = {
    "NAI": "No Action Indicated",
    "VAI": "Voluntary Action Indicated",
    "OAI": "Official Action Indicated",
}

PROJECT_AREAS = {
    "drug": ("Drug Quality Assurance", "Pre-Approval Inspection", "Compounding"),
    "device": ("Compliance: Devices", "Postmarket Assurance: Devices", "Radiation Safety"),
    "biologic": ("Blood and Blood Products", "Therapeutic Biologics", "Human Cells, Tissues and Cellular and Tissue-Based Products (HCT/Ps)"),
    "food": ("Foodborne Biological Hazards", "Food Composition, Standards, Labeling and Economics", "Dietary Supplements", "Seafood HACCP"),
    "veterinary": ("Monitoring of Marketed Animal Drugs, Feed, and Devices", "Animal Food Safety"),
}  # fmt: skip

COMPLIANCE_PROGRAMS = {
    "drug": ("7356.002", "Drug Manufacturing Inspections"),
    "device": ("7382.845", "Inspection of Medical Device Manufacturers"),
    "biologic": ("7342.001", "Inspection of Licensed and Unlicensed Blood Banks"),
    "food": ("7303.803", "Domestic Food Safety Program"),
    "veterinary": ("7371.004", "Feed Manufacturing Program"),
}  # fmt: skip

INSPECTION_TYPES = (
    "surveillance",
    "for-cause",
    "pre-approval",
    "pre-license",
    "follow-up",
    "post-approval",
)

# --- Form 483, inspection records, warning letters --------------------------------------------

MARKER = "[Synthetic demo record generated by regnb — not a real FDA document.]"

F483_HEADER = (
    "DEPARTMENT OF HEALTH AND HUMAN SERVICES — FOOD AND DRUG ADMINISTRATION\n"
    "DISTRICT ADDRESS: {office}\nDATE(S) OF INSPECTION: {start_date} - {date}\nFEI NUMBER: {fei}\n"
    "NAME AND TITLE OF INDIVIDUAL TO WHOM REPORT ISSUED: {contact}, {contact_title}\n"
    "FIRM NAME: {firm}\nSTREET ADDRESS: {street}\nCITY, STATE, ZIP CODE, COUNTRY: {city_line}\n"
    "TYPE OF ESTABLISHMENT INSPECTED: {est_type}"
)
F483_PREAMBLE = (
    "This document lists observations made by the FDA representative(s) during the inspection of "
    "your facility. They are inspectional observations, and do not represent a final Agency "
    "determination regarding your compliance. If you have an objection regarding an observation, "
    "or have implemented, or plan to implement, corrective action in response to an observation, "
    "you may discuss the objection or action with the FDA representative(s) during the inspection "
    "or submit this information to FDA at the address above.\n\nDURING AN INSPECTION OF YOUR FIRM "
    "WE OBSERVED:"
)
F483_CLOSING = (
    "EMPLOYEE(S) SIGNATURE: {investigator}, Investigator; {investigator2}, {investigator2_title}\n"
    "DATE ISSUED: {date}\nFORM FDA 483 INSPECTIONAL OBSERVATIONS\n\nThe observations of "
    "objectionable conditions and practices listed on the front of this form are reported pursuant "
    "to Section 704(b) of the Federal Food, Drug, and Cosmetic Act, or to assist firms inspected in "
    "complying with the Acts and regulations enforced by the Food and Drug Administration. "
    "Section 704(b) provides that upon completion of the inspection the officer shall give to the "
    "owner, operator, or agent in charge a report in writing setting forth any conditions or "
    "practices observed which indicate that any food, drug, device, or cosmetic consists in whole "
    "or in part of any filthy, putrid, or decomposed substance, or has been prepared, packed, or "
    "held under insanitary conditions."
)
F483_ANNOTATIONS = (
    "Annotation: Reported corrected, not verified.",
    "Annotation: Promised to correct within {days} days.",
    "Annotation: Under consideration by the firm.",
    "Annotation: Corrected and verified during the inspection.",
)
INVESTIGATOR_TITLES = ("Consumer Safety Officer", "Microbiologist", "Chemist", "Investigator")

INSPECTION_SUMMARY = (
    "FDA Inspection Classification Record\nFirm name: {firm}\nFEI Number: {fei}\n"
    "Address: {street}, {city_line}\nProduct type: {product_type}\nProject area: {project_area}\n"
    "Inspection end date: {date}\nFiscal year: {fy}\nClassification: {classification} "
    "({classification_long})\nPosted date: {posted}"
)
INSPECTION_DEFINITIONS = (
    "Classification definitions. NAI (No Action Indicated): no objectionable conditions or "
    "practices were found during the inspection, or the significance of the documented "
    "objectionable conditions found does not justify further actions. VAI (Voluntary Action "
    "Indicated): objectionable conditions or practices were found, but the agency is not prepared "
    "to take or recommend any administrative or regulatory action. OAI (Official Action "
    "Indicated): regulatory and/or administrative actions will be recommended. The classification "
    "reflects the compliance status at the time of the inspection and may be updated if "
    "subsequent information becomes available."
)
INSPECTION_EIR = (
    "Establishment Inspection Report (summary). This {inspection_type} inspection of {a_est} "
    "{est_type_lower} was conducted under compliance program {cp} ({cp_name}). The inspection covered "
    "the quality, production, materials, facilities and equipment, laboratory control, and "
    "packaging and labeling systems as applicable. The previous inspection, which ended on "
    "{prev_date}, was classified {prev_class}.",
    "Management was cooperative throughout the inspection. Records requested were provided in a "
    "timely manner, and the investigators were given access to all areas of the facility. "
    "Credentials were presented and a Form FDA 482, Notice of Inspection, was issued to "
    "{contact}, {contact_title}, on {start_date}.",
    "The firm reported {n} product lines and approximately {m} employees working {shifts}. "
    "Distribution is primarily within the United States through wholesalers "
    "and direct accounts. The firm has not initiated any recalls since the previous inspection "
    "except as noted in the recall history section of the report.",
    "Samples were {sampled}. Photographs were taken of conditions observed in the production and "
    "warehouse areas and are maintained as exhibits to the report.",
    "Complaints and recalls. The investigators reviewed {m} complaints received since the previous "
    "inspection, including complaints alleging {failure_mode} and foreign material. Complaint "
    "investigations were generally documented; trending is performed quarterly by the quality "
    "unit. The firm reported {n} product recalls since the previous inspection.",
    "Quality system. The investigators reviewed the firm's deviation, change control and CAPA "
    "systems, the annual product reviews for selected products, and training records for "
    "production and laboratory personnel. Management review meetings are held quarterly and are "
    "documented. Supplier qualification records were reviewed for critical suppliers.",
    "Discussion with management. At the close-out meeting on {date}, the investigators discussed "
    "the inspectional findings with {contact}, {contact_title}, and other members of management. "
    "Management acknowledged the findings and described corrective actions under way, including "
    "revisions to {sop} and additional training.",
)
INSPECTION_OUTCOME = {
    "NAI": (
        "No Form FDA 483 was issued at the close of the inspection. Minor observations regarding "
        "documentation practices were discussed verbally with management, who committed to "
        "address them. No further action is recommended, and the firm's compliance status is "
        "considered acceptable.",
    ),
    "VAI": (
        "A Form FDA 483, Inspectional Observations, listing {n_obs} observations was issued to "
        "{contact} at the close-out meeting on {date}. The observations concerned {topics}. "
        "Management provided a written response describing corrective actions; the adequacy of "
        "the corrections will be verified at the next inspection.",
    ),
    "OAI": (
        "A Form FDA 483, Inspectional Observations, listing {n_obs} observations was issued to "
        "{contact} at the close-out meeting on {date}. The observations concerned {topics}. The "
        "district recommends regulatory action, and the establishment is considered not in "
        "compliance. Pending applications listing this facility may be affected until the "
        "violations are corrected.",
    ),
}

WL_HEADER = (
    "WARNING LETTER {ref}\n\n{date}\n\n{delivery}\n\n{contact}\n{contact_title}\n{firm}\n{street}\n"
    "{city_line}\n\nDear {contact}:"
)
WL_DELIVERY = (
    "VIA UPS", "VIA ELECTRONIC MAIL", "VIA FEDEX", "RETURN RECEIPT REQUESTED", "VIA SIGNATURE CONFIRMED DELIVERY",
)  # fmt: skip

# letter type -> subjects, product kind for violations (None: no inspection), opening, body, closing
WL_TYPES: dict[str, dict[str, object]] = {
    "drug": {
        "subjects": ("CGMP/Finished Pharmaceuticals/Adulterated", "CGMP/Active Pharmaceutical Ingredient (API)/Adulterated", "Outsourcing Facility/Drug Product/Adulterated"),
        "kind": "drug",
        "opening": "The U.S. Food and Drug Administration (FDA) inspected your drug manufacturing facility, {firm}, FEI {fei}, at {street}, {city_line}, from {start_date} to {insp_date}.\n\nThis warning letter summarizes significant violations of Current Good Manufacturing Practice (CGMP) regulations for finished pharmaceuticals. See Title 21 Code of Federal Regulations (CFR), parts 210 and 211 (21 CFR parts 210 and 211). Because your methods, facilities, or controls for manufacturing, processing, packing, or holding do not conform to CGMP, your drug products are adulterated within the meaning of section 501(a)(2)(B) of the Federal Food, Drug, and Cosmetic Act (FD&C Act), 21 U.S.C. 351(a)(2)(B).\n\nWe reviewed your {resp_date}, response to our Form FDA 483 in detail and acknowledge receipt of your subsequent correspondence. During our inspection, our investigators observed specific violations including, but not limited to, the following.",
        "closing": ("CGMP consultant recommended. Based upon the nature of the violations we identified at your firm, we strongly recommend engaging a consultant qualified as set forth in 21 CFR 211.34 to assist your firm in meeting CGMP requirements. Your use of a consultant does not relieve your firm's obligation to comply with CGMP. Your firm's executive management remains responsible for resolving all deficiencies and systemic flaws to ensure ongoing CGMP compliance.",
                    "Conclusion. The violations cited in this letter are not intended to be an all-inclusive list of violations that exist at your facility. You are responsible for investigating and determining the causes of any violations and for preventing their recurrence or the occurrence of other violations. Correct any violations promptly. Failure to promptly and adequately address any violations may result in legal or regulatory action without further notice including, without limitation, seizure and injunction. Unresolved violations may also prevent other Federal agencies from awarding contracts.",
                    "Failure to address any violations may also cause FDA to withhold issuance of Export Certificates. FDA may withhold approval of new applications or supplements listing your firm as a drug manufacturer until any violations are completely addressed and we confirm your compliance with CGMP. We may re-inspect to verify that you have completed corrective actions to address any violations.",
                    "This letter notifies you of our findings and provides you an opportunity to address the above deficiencies. After you receive this letter, respond to this office in writing within 15 working days. Specify what you have done to address any violations and to prevent their recurrence. In response to this letter, you may provide additional information for our consideration as we continue to assess your activities and practices. If you cannot complete corrective actions within 15 working days, state your reasons for delay and your schedule for completion. Please identify your response with FEI {fei}."),
    },
    "device": {
        "subjects": ("CGMP/QSR/Medical Devices/Adulterated", "Medical Device Reporting/Misbranded", "CGMP/QSR/Medical Devices/Adulterated/Misbranded"),
        "kind": "device",
        "opening": "During an inspection of your firm located in {city_line} on {start_date} through {insp_date}, an investigator from the United States Food and Drug Administration (FDA) determined that your firm is a manufacturer of the {generic}. Under section 201(h) of the Federal Food, Drug, and Cosmetic Act (the Act), 21 U.S.C. 321(h), this product is a device because it is intended for use in the diagnosis of disease or other conditions or in the cure, mitigation, treatment, or prevention of disease, or to affect the structure or any function of the body.\n\nThis inspection revealed that these devices are adulterated within the meaning of section 501(h) of the Act, 21 U.S.C. 351(h), in that the methods used in, or the facilities or controls used for, their manufacture, packing, storage, or installation are not in conformity with the current good manufacturing practice requirements of the Quality System regulation found at Title 21, Code of Federal Regulations (CFR), Part 820. We received a response from {contact} dated {resp_date}. We address this response below, in relation to each of the noted violations. These violations include, but are not limited to, the following.",
        "closing": ("Your firm should take prompt action to correct the violations addressed in this letter. Failure to promptly correct these violations may result in regulatory action being initiated by the FDA without further notice. These actions include, but are not limited to, seizure, injunction, and civil money penalties. Also, federal agencies may be advised of the issuance of all Warning Letters about devices so that they may take this information into account when considering the award of contracts.",
                    "Additionally, premarket approval applications for Class III devices to which the Quality System regulation violations are reasonably related will not be approved until the violations have been corrected. Requests for Certificates to Foreign Governments will not be granted until the violations related to the subject devices have been corrected.",
                    "Please notify this office in writing within fifteen business days from the date you receive this letter of the specific steps your firm has taken to correct the noted violations, as well as an explanation of how your firm plans to prevent these violations, or similar violations, from occurring again. Include documentation of the corrections and/or corrective actions (which must address systemic problems) that your firm has taken. If your firm's planned corrections and/or corrective actions will occur over time, please include a timetable for implementation of those activities."),
    },
    "biologic": {
        "subjects": ("CGMP/Blood and Blood Products/Adulterated", "Human Cells, Tissues and Cellular and Tissue-Based Products (HCT/Ps)/Adulterated", "CGMP/Licensed Biologics/Adulterated"),
        "kind": "biologic",
        "opening": "The U.S. Food and Drug Administration (FDA) conducted an inspection of {firm}, located at {street}, {city_line}, between {start_date} and {insp_date}. During the inspection, FDA investigators documented significant deviations from the applicable requirements of the Federal Food, Drug, and Cosmetic Act (FD&C Act), section 351 of the Public Health Service Act (PHS Act), and Title 21, Code of Federal Regulations (21 CFR), parts 600-680 and 1271. These deviations cause your products to be adulterated within the meaning of section 501(a)(2)(B) of the FD&C Act. At the close of the inspection, FDA issued a Form FDA 483, Inspectional Observations, which described a number of significant objectionable conditions. Significant deviations include, but are not limited to, the following.",
        "closing": ("We acknowledge receipt of your response dated {resp_date}, which contains a description of corrective actions. We have reviewed your response and have determined that it lacks sufficient detail to fully assess the adequacy of the corrective actions.",
                    "The deviations identified above are not intended to be an all-inclusive list of deviations that may exist at your facility. It is your responsibility to ensure compliance with applicable laws and regulations administered by FDA. You should take prompt action to correct these deviations. Failure to promptly correct these deviations may result in regulatory action without further notice, including license suspension and/or revocation, seizure, and/or injunction.",
                    "Please notify this office in writing within 15 business days of receipt of this letter of the specific steps you have taken to correct the noted deviations and to prevent their recurrence. If corrective action cannot be completed within 15 business days, state the reason for the delay and the time within which the corrections will be implemented."),
    },
    "food": {
        "subjects": ("CGMP/Food/Prepared, Packed or Held Under Insanitary Conditions/Adulterated/L. monocytogenes", "Seafood HACCP/CGMP for Foods/Adulterated", "CGMP/Dietary Supplement/Adulterated/Misbranded", "Preventive Controls for Human Food/Adulterated"),
        "kind": "food",
        "opening": "The U.S. Food and Drug Administration (FDA) inspected your food manufacturing facility, located at {street}, {city_line}, from {start_date} through {insp_date}. We found that you have serious violations of the Current Good Manufacturing Practice, Hazard Analysis, and Risk-Based Preventive Controls for Human Food regulation (CGMP & PC rule) and other applicable regulations. Based on FDA's inspectional findings and analytical results for environmental samples collected during the inspection, we have determined that food manufactured in your facility is adulterated within the meaning of section 402(a)(4) of the Federal Food, Drug, and Cosmetic Act (the Act), in that it has been prepared, packed, or held under insanitary conditions whereby it may have become contaminated with filth, or whereby it may have been rendered injurious to health. We received your response dated {resp_date}; our evaluation follows each violation below.",
        "closing": ("The violations cited in this letter are not intended to be an all-inclusive list of violations at your facility. You are responsible for investigating and determining the causes of the violations identified above and for preventing their recurrence or the occurrence of other violations. It is your responsibility to ensure that your firm complies with all requirements of federal law, including FDA regulations.",
                    "You should take prompt action to correct the violations cited in this letter. Failure to promptly correct these violations may result in legal action without further notice, including, without limitation, seizure and injunction. Section 743 of the Act authorizes FDA to assess and collect fees to cover FDA's costs for certain activities, including reinspection-related costs.",
                    "Please notify this office in writing within fifteen working days of receipt of this letter of the specific steps you have taken to correct violations. Include an explanation of each step being taken to prevent the recurrence of violations, as well as copies of related documentation."),
    },
    "veterinary": {
        "subjects": ("Medicated Feeds/Adulterated", "Animal Food/Preventive Controls/Adulterated", "CGMP/Animal Drugs/Adulterated"),
        "kind": "veterinary",
        "opening": "The U.S. Food and Drug Administration (FDA) conducted an inspection of your facility located at {street}, {city_line}, from {start_date} to {insp_date}. The inspection revealed significant violations of the Current Good Manufacturing Practice requirements for medicated feeds and animal food, causing the products manufactured at your facility to be adulterated within the meaning of section 501(a)(2)(B) of the Federal Food, Drug, and Cosmetic Act. We reviewed your response dated {resp_date}.",
        "closing": ("The violations cited in this letter are not intended to be an all-inclusive statement of violations that exist at your facility. You are responsible for investigating and determining the causes of the violations identified above and for preventing their recurrence.",
                    "You should take prompt action to correct the violations cited in this letter. Failure to promptly correct these violations may result in legal action without further notice, including, without limitation, seizure and injunction. Please respond in writing within fifteen working days from your receipt of this letter."),
    },
    "online": {
        "subjects": ("Unapproved New Drugs/Misbranded", "Internet Pharmacy/Unapproved New Drugs/Misbranded"),
        "kind": None,
        "opening": "This letter concerns your firm's marketing of unapproved and misbranded drug products, including {product}. The U.S. Food and Drug Administration (FDA) reviewed your website at the Internet address www.{domain}.invalid on {insp_date} and has determined that you take orders there for products that are intended for use in the cure, mitigation, treatment, or prevention of disease. As discussed below, these products are unapproved new drugs introduced or delivered for introduction into interstate commerce in violation of sections 505(a) and 301(d) of the Federal Food, Drug, and Cosmetic Act (FD&C Act).",
        "body": ("Examples of claims observed on your website include: \"{claim}\" and \"clinically proven to work faster than prescription products.\" Based on these claims, the products are drugs under section 201(g)(1) of the FD&C Act because they are intended for use in the cure, mitigation, treatment, or prevention of disease.",
                 "The products are not generally recognized as safe and effective for the above referenced uses and, therefore, are new drugs under section 201(p) of the FD&C Act. New drugs may not be legally introduced or delivered for introduction into interstate commerce without prior approval from FDA, as described in sections 301(d) and 505(a) of the FD&C Act. FDA approves a new drug on the basis of scientific data and information demonstrating that the drug is safe and effective.",
                 "Your products are also misbranded under section 502(f)(1) of the FD&C Act in that their labeling fails to bear adequate directions for use. Prescription drugs can only be used safely at the direction, and under the supervision, of a licensed practitioner. In addition, we note that your website offers {product} without requiring a prescription, which poses serious risks to consumers.",
                 "FDA analyzed samples of {product} purchased from your website and found that they contained {adulterant}, an ingredient not declared on the product labeling. Consumers with underlying medical conditions may be exposed to serious risks when taking products containing undeclared active ingredients."),
        "closing": ("The violations cited in this letter are not intended to be an all-inclusive statement of violations that exist in connection with your products. You are responsible for investigating and determining the causes of any violations and for preventing their recurrence or the occurrence of other violations. We request that you immediately cease marketing unapproved and misbranded products.",
                    "Please notify this office in writing within 15 working days from the date you receive this letter of the specific steps you have taken to address any violations. Include an explanation of each step being taken to prevent the recurrence of violations, as well as copies of related documentation. Failure to adequately address any violations may result in legal action, including, without limitation, seizure and injunction."),
    },
    "tobacco": {
        "subjects": ("Family Smoking Prevention and Tobacco Control Act/Adulterated/Misbranded", "Tobacco Retailer/Sale to Minors"),
        "kind": None,
        "opening": "The Center for Tobacco Products of the U.S. Food and Drug Administration (FDA) has recently reviewed the website https://www.{domain}.invalid and determined that electronic nicotine delivery system (ENDS) products, including {product}, are offered for sale or distribution to customers in the United States. Under section 201(rr) of the Federal Food, Drug, and Cosmetic Act (FD&C Act), these products are tobacco products because they are made or derived from tobacco or contain nicotine from any source and are intended for human consumption.",
        "body": ("New tobacco products without required premarket authorization are adulterated and misbranded. The ENDS products listed above are new tobacco products because they were not commercially marketed in the United States as of February 15, 2007. These products do not have an order in effect under section 910(c)(1)(A)(i) of the FD&C Act and are not exempt, and they are therefore adulterated under section 902(6)(A) of the FD&C Act.",
                 "Additionally, they are misbranded under section 903(a)(6) of the FD&C Act because a notice or other information respecting the products was not provided as required by section 905(j). It is a violation of the FD&C Act to sell or distribute these products in the United States.",
                 "FDA also observed that the products are marketed with imagery that appeals to youth, including packaging that imitates {imitation}. Such labeling and advertising may contribute to youth initiation of nicotine products."),
        "closing": ("The violations discussed in this letter do not necessarily constitute an exhaustive list. You should take prompt action to address any violations that are referenced above, as well as any violations that are the same as or similar to those stated above. Failure to promptly address any violations may lead to regulatory action, including, without limitation, civil money penalties, no-tobacco-sale orders, seizure, and/or injunction.",
                    "Please submit a written response to this letter within 15 working days from the date of receipt describing your corrective actions, including the dates on which you discontinued the violative sale or distribution of these products. In your response, please also describe your plan for maintaining compliance with the FD&C Act."),
    },
    "bimo": {
        "subjects": ("Clinical Investigator", "Clinical Investigator (Sponsor-Investigator)", "Institutional Review Board (IRB)"),
        "kind": None,
        "opening": "This letter informs you of objectionable conditions observed during the U.S. Food and Drug Administration (FDA) inspection conducted at your clinical site between {start_date} and {insp_date}. The inspection was conducted under FDA's Bioresearch Monitoring Program as part of our review of the application for {product}, and reviewed your conduct of the clinical investigation of Protocol {protocol}, \"{protocol_title}.\" From our review of the FDA Establishment Inspection Report and the documents collected, we conclude that you did not adhere to the applicable statutory requirements and FDA regulations governing the conduct of clinical investigations and the protection of human subjects.",
        "body": ("You failed to ensure that the investigation was conducted according to the investigational plan [21 CFR 312.60]. The protocol required that subjects with an eGFR below 30 mL/min/1.73 m² be excluded. You enrolled {n} subjects whose screening laboratory results did not meet this criterion, and these subjects were randomized and dosed.",
                 "You failed to prepare and maintain adequate and accurate case histories that record all observations and other data pertinent to the investigation [21 CFR 312.62(b)]. Source documents for {n} subjects did not support the efficacy assessments entered in the electronic case report forms, and several assessments were recorded on dates when the subjects did not attend a study visit.",
                 "You failed to obtain informed consent in accordance with 21 CFR part 50 [21 CFR 312.60 and 50.20]. Subjects were consented with an outdated version of the informed consent form that did not describe newly identified risks, and {n} subjects underwent study procedures before signing the consent document.",
                 "You failed to report adverse events to the sponsor as required by the protocol [21 CFR 312.64(b)]. Serious adverse events, including hospitalization, were reported to the sponsor between {days} and {days2} days after you became aware of them."),
        "closing": ("This letter is not intended to be an all-inclusive list of deficiencies with your clinical study of an investigational drug. It is your responsibility as a clinical investigator to ensure that your investigation is conducted in accordance with the investigational plan, your signed commitments, and applicable regulations.",
                    "Within fifteen (15) business days of your receipt of this letter, you should notify this office in writing of the actions you have taken or will take to prevent similar violations in the future. Failure to adequately and promptly explain the violations noted above may result in regulatory action without further notice, including initiation of clinical investigator disqualification proceedings."),
    },
    "records": {
        "subjects": ("CGMP/Finished Pharmaceuticals/Adulterated (Records Request Under Section 704(a)(4))",),
        "kind": "drug",
        "opening": "The U.S. Food and Drug Administration (FDA) requested records and other information from your drug manufacturing facility, {firm}, FEI {fei}, at {street}, {city_line}, under section 704(a)(4) of the Federal Food, Drug, and Cosmetic Act (FD&C Act), 21 U.S.C. 374(a)(4), on {start_date}. FDA reviewed your records and responses received through {insp_date}. This warning letter summarizes significant violations of Current Good Manufacturing Practice (CGMP) regulations for finished pharmaceuticals. See 21 CFR parts 210 and 211. Based on the records reviewed, your drug products are adulterated within the meaning of section 501(a)(2)(B) of the FD&C Act.",
        "closing": ("Until you correct all violations completely and we confirm your compliance with CGMP, FDA may withhold approval of any new applications or supplements listing your firm as a drug manufacturer. Failure to correct these violations may also result in FDA refusing admission of articles manufactured at {firm} into the United States under section 801(a)(3) of the FD&C Act. Under the same authority, articles may be subject to refusal of admission because the methods and controls used in their manufacture do not appear to conform to CGMP.",
                    "After you receive this letter, respond to this office in writing within 15 working days. Specify what you have done to address any violations and to prevent their recurrence. If you cannot complete corrective actions within 15 working days, state your reasons for delay and your schedule for completion. Please identify your response with FEI {fei}."),
    },
}  # fmt: skip

WL_RESPONSE = (
    "Your response is inadequate because {inadequate}. In response to this letter, provide"
)
WL_INADEQUATE = (
    "it did not include a retrospective review of other products and lots that may be affected",
    "you did not provide evidence that the corrective actions have been implemented and are effective",
    "it relies on retraining without addressing the underlying systemic causes",
    "you did not provide a risk assessment for product already distributed",
    "the proposed timelines for completion are not adequately justified",
    "your investigation did not determine the root cause of the failures",
)
ONLINE_CLAIMS = (
    "Reverses type 2 diabetes in 30 days", "Stops joint pain and inflammation naturally",
    "Eliminates anxiety without prescriptions", "Boosts male performance instantly",
    "Cures fungal nail infections", "Lowers blood pressure without medication",
)  # fmt: skip
ADULTERANTS = (
    "sildenafil",
    "tadalafil",
    "sibutramine",
    "diclofenac",
    "dexamethasone",
    "fluoxetine",
    "phenolphthalein",
)
YOUTH_IMITATIONS = (
    "cartoon characters",
    "candy packaging",
    "juice boxes",
    "breakfast cereal boxes",
    "video game devices",
)
PROTOCOL_TITLES = (
    "A Randomized, Double-Blind, Placebo-Controlled Study of the Efficacy and Safety of {product} in Adults",
    "An Open-Label Extension Study to Evaluate the Long-Term Safety of {product}",
    "A Phase 3, Multicenter Study of {product} Compared With Standard of Care",
)  # fmt: skip

# --- recalls ----------------------------------------------------------------------------------

FOOD_PRODUCTS = (
    "Organic Baby Spinach", "Enoki Mushrooms", "Smoked Atlantic Salmon", "Frozen Cooked Shrimp",
    "Peanut Butter Crackers", "Aged Cheddar Cheese", "Vanilla Bean Ice Cream", "Cantaloupe",
    "Chicken Caesar Salad Kits", "Hummus", "Dark Chocolate Almond Bar", "Infant Formula Powder",
    "Sliced Deli Ham", "Frozen Mixed Berries", "Alfalfa Sprouts", "Queso Fresco",
    "Canned Tuna in Water", "Ground Cinnamon", "Turmeric Curcumin Capsules", "Protein Powder",
    "Multigrain Bread", "Cold Brew Coffee", "Applesauce Pouches", "Sesame Bagels",
)  # fmt: skip
VET_PRODUCTS = (
    "Grain-Free Dry Dog Food", "Adult Cat Food (Chicken Recipe)", "Medicated Swine Feed (Tylosin)",
    "Ivermectin Pour-On for Cattle", "Carprofen Chewable Tablets", "Raw Frozen Pet Food",
    "Horse Feed Pellets",
)  # fmt: skip
COSMETIC_PRODUCTS = (
    "Dry Shampoo Aerosol", "Tattoo Ink", "Baby Powder", "Moisturizing Body Lotion",
    "Eyeliner Pencil", "Antiperspirant Spray",
)  # fmt: skip
TOBACCO_PRODUCTS = (
    "Disposable E-Cigarette (5%)", "Nicotine E-Liquid, 60 mL", "Premium Cigarillos",
    "Nicotine Pouches", "Refillable Vape Pod System",
)  # fmt: skip

# product type -> ((short reason, reason for recall, risk statement, class), ...)
RECALL_HAZARDS = {
    "drugs": (
        ("Lack of Sterility Assurance", "Lack of sterility assurance: FDA inspection found conditions that could result in microbial contamination of sterile products", "Administration of a drug product intended to be sterile that is not sterile could result in serious infections which may be life-threatening.", "Class II"),
        ("NDMA Impurity", "CGMP deviations: presence of N-nitrosodimethylamine (NDMA) above the FDA acceptable daily intake limit", "NDMA is classified as a probable human carcinogen based on results from laboratory tests. Long-term exposure above the acceptable intake may increase the risk of cancer.", "Class II"),
        ("Subpotency", "Subpotent drug: out-of-specification assay results at the 12-month stability time point", "Use of a subpotent product may result in reduced therapeutic effect and worsening of the treated condition.", "Class III"),
        ("Presence of Particulate Matter", "Presence of particulate matter: visible particles identified in retain samples", "Intravenous administration of particulate matter may cause local irritation, phlebitis, or embolic events.", "Class I"),
        ("Mislabeling", "Labeling: label mix-up; bottles labeled as one strength contain tablets of a different strength", "Taking an incorrect strength could lead to overdose or underdose with potentially serious consequences.", "Class I"),
        ("Failed Dissolution Specifications", "Failed dissolution specifications during routine stability testing", "The product may not release the active ingredient as intended, which could result in reduced efficacy.", "Class II"),
        ("Microbial Contamination", "Microbial contamination of non-sterile products: product found to contain Burkholderia cepacia complex", "Use of the contaminated product could result in infections that may be life-threatening in immunocompromised patients.", "Class I"),
    ),
    "devices": (
        ("Battery May Deplete Prematurely", "Battery may deplete prematurely without adequate warning", "Unexpected loss of device function could result in interruption of therapy and serious injury.", "Class I"),
        ("Software Anomaly", "Software anomaly may cause the device to display incorrect values", "Incorrect values could lead to delayed or inappropriate treatment.", "Class II"),
        ("Sterile Barrier Breach", "Compromised sterile barrier packaging: seal defects identified in production", "Use of a non-sterile device could lead to infection.", "Class II"),
        ("Component Fracture", "Component may fracture during use", "Fracture during a procedure could result in retained fragments, the need for additional surgery, or serious injury.", "Class I"),
        ("Inaccurate Readings", "Device may report falsely low or high values under certain conditions", "Inaccurate readings could lead users to take inappropriate treatment actions.", "Class II"),
        ("Labeling Error", "Instructions for use contain incorrect reprocessing information", "Inadequate reprocessing may increase the risk of cross-contamination.", "Class II"),
        ("Foam Degradation", "Sound abatement foam may degrade into particles which may enter the air pathway", "Inhaled or ingested particles may cause irritation, headache, or potentially toxic and carcinogenic effects.", "Class I"),
    ),
    "biologics": (
        ("Donor Eligibility", "Blood products collected from a donor who should have been deferred were distributed", "Transfusion of products from an ineligible donor may pose a risk of transmission of infectious disease.", "Class II"),
        ("Storage Temperature Excursion", "Product was stored outside the labeled temperature range during distribution", "Product exposed to temperature excursions may have reduced potency.", "Class III"),
        ("Potential Contamination", "Potential bacterial contamination identified during post-release testing", "Infusion of contaminated product could result in sepsis.", "Class I"),
    ),
    "food": (
        ("Listeria monocytogenes", "Potential contamination with Listeria monocytogenes", "Listeria monocytogenes can cause serious and sometimes fatal infections in young children, frail or elderly people, and others with weakened immune systems; infection can cause miscarriages and stillbirths among pregnant women.", "Class I"),
        ("Salmonella", "Potential contamination with Salmonella", "Salmonella can cause serious and sometimes fatal infections; healthy persons may experience fever, diarrhea, nausea, vomiting and abdominal pain.", "Class I"),
        ("Undeclared Milk", "Undeclared milk allergen", "People who have an allergy or severe sensitivity to milk run the risk of serious or life-threatening allergic reaction if they consume this product.", "Class I"),
        ("Undeclared Peanut", "Undeclared peanut allergen", "People who have an allergy or severe sensitivity to peanuts run the risk of serious or life-threatening allergic reaction if they consume this product.", "Class I"),
        ("Undeclared Sesame", "Undeclared sesame allergen", "People who have an allergy or severe sensitivity to sesame run the risk of serious or life-threatening allergic reaction if they consume this product.", "Class II"),
        ("Foreign Material", "Presence of foreign material: metal fragments", "Consumption of the product may cause injury to the mouth or digestive tract.", "Class II"),
        ("Elevated Lead Levels", "Elevated levels of lead", "Short-term exposure to high levels of lead may result in vomiting, abdominal pain and anemia; children are particularly vulnerable.", "Class II"),
        ("Clostridium botulinum", "Potential for Clostridium botulinum growth due to a processing deviation", "Botulism is a potentially fatal form of food poisoning.", "Class I"),
        ("E. coli O157:H7", "Potential contamination with E. coli O157:H7", "E. coli O157:H7 causes a diarrheal illness and can lead to hemolytic uremic syndrome.", "Class I"),
        ("Net Weight Shortage", "Net weight declaration below labeled amount", "This recall is being conducted for economic reasons; no health hazard is expected.", "Class III"),
    ),
    "veterinary": (
        ("Elevated Vitamin D", "Elevated levels of vitamin D", "Dogs ingesting very high levels of vitamin D may experience vomiting, loss of appetite, increased thirst, and kidney dysfunction.", "Class II"),
        ("Aflatoxin", "Aflatoxin levels above the acceptable limit", "Aflatoxin can cause liver damage and death in pets.", "Class I"),
        ("Salmonella", "Potential contamination with Salmonella", "Pets with Salmonella infections may be lethargic and have diarrhea; people handling the product are also at risk.", "Class II"),
        ("Superpotency", "Superpotent drug: assay results above specification", "Overdose may result in adverse reactions in treated animals.", "Class II"),
    ),
    "cosmetics": (
        ("Benzene", "Presence of benzene detected in the aerosol propellant", "Benzene is classified as a human carcinogen; exposure can occur by inhalation, orally and through the skin.", "Class II"),
        ("Microbial Contamination", "Microbial contamination with Pseudomonas aeruginosa", "Use of contaminated products may cause infections, particularly in people with compromised immune systems.", "Class II"),
        ("Asbestos", "Presence of asbestos in talc-based product", "Exposure to asbestos may increase the risk of serious health problems.", "Class II"),
    ),
    "tobacco": (
        ("Battery Overheating", "Device battery may overheat during charging", "Overheating may cause burns or fire.", "Class II"),
        ("Packaging Not Child-Resistant", "Liquid nicotine packaging is not child-resistant", "Ingestion of liquid nicotine by children can cause serious illness or death.", "Class I"),
        ("Manufacturing Defect", "Manufacturing defect: product contains foreign material", "Use of the product may cause injury.", "Class III"),
    ),
}  # fmt: skip

RECALL_PR = (
    "FOR IMMEDIATE RELEASE — {city_short} — {firm} is voluntarily recalling {lot_count} lots of {product} to the {level} level. {reason_sentence}",
    "Risk Statement: {risk} To date, {firm_short} has not received any reports of adverse events related to this recall.",
    "The product is {use}, and is packaged in {package}. The affected lots include lot numbers {lot}, {lot2} and {lot3} with expiration dates through {exp}. The product was distributed nationwide to {channels} between {date_a} and {date_b}.",
    "{firm_short} is notifying its distributors and customers by letter and is arranging for return or replacement of all recalled products. Distributors and retailers that have product which is being recalled should stop distribution and quarantine the product immediately. Consumers that have product which is being recalled should stop using it and return it to the place of purchase.",
    "Consumers with questions regarding this recall can contact {firm_short} by telephone at 1-800-555-{phone} Monday through Friday, 8 a.m. to 5 p.m. Eastern Time, or by e-mail. Consumers should contact their physician or healthcare provider if they have experienced any problems that may be related to using this product.",
    "Adverse reactions or quality problems experienced with the use of this product may be reported to the FDA's MedWatch Adverse Event Reporting program either online, by regular mail or by fax. This recall is being conducted with the knowledge of the U.S. Food and Drug Administration.",
    "The issue was identified during {found_by}. The company has since taken corrective actions, including {corrective}, and continues to work with FDA to ensure the effectiveness of the recall.",
)  # fmt: skip
RECALL_FOUND_BY = (
    "routine FDA sampling",
    "the company's internal quality testing",
    "a customer complaint",
    "an FDA inspection",
    "routine stability testing",
    "a supplier notification",
)
RECALL_CORRECTIVE = (
    "suspending production on the affected line",
    "enhanced sanitation and environmental monitoring",
    "a change of supplier",
    "additional in-process testing",
    "a software correction deployed to affected units",
    "revised labeling",
)

ENFORCEMENT_HEADER = (
    "Enforcement Report — {ptype_title}\nEvent ID: {event_id}\nStatus: {status}\nRecalling Firm: {firm}\n"
    "Address: {street}, {city_line}\nVoluntary / Mandated: {mandate}\n"
    "Initial Firm Notification of Consignee or Public: {notification}\nDistribution Pattern: "
    "{distribution}\nRecall Number: {recall_number}\nClassification: {classification}\n"
    "Product Description: {description}\nProduct Quantity: {quantity}\nReason for Recall: "
    "{reason}\nRecall Initiation Date: {init_date}\nCenter Classification Date: {date}\n"
    "Code Information: Lot {lot}, Exp {exp}; Lot {lot2}, Exp {exp}"
)
ENFORCEMENT_CLASS_TEXT = {
    "Class I": "Class I is a situation in which there is a reasonable probability that the use of, or exposure to, a violative product will cause serious adverse health consequences or death.",
    "Class II": "Class II is a situation in which use of, or exposure to, a violative product may cause temporary or medically reversible adverse health consequences or where the probability of serious adverse health consequences is remote.",
    "Class III": "Class III is a situation in which use of, or exposure to, a violative product is not likely to cause adverse health consequences.",
}  # fmt: skip
ENFORCEMENT_BODY = (
    "Health hazard evaluation. The center's health hazard evaluation considered the nature of the defect, the population exposed, the likelihood of occurrence and the potential consequences. {class_text}",
    "Recall strategy. The firm's recall strategy calls for notification to the {level} level with effectiveness checks at level {check_level}. Public warning was {public_warning}. The firm reported that {pct}% of the consignees had responded to the recall notification as of the most recent status report.",
    "The recalling firm attributed the defect to {root_cause}. Corrective actions include {corrective}. The district will monitor the recall until the product has been corrected or removed and the firm's corrective actions have been verified.",
    "Recall status history. The recall was initiated on {init_date} and classified on {date}. {status_text}",
)  # fmt: skip
ENFORCEMENT_STATUS_TEXT = {
    "Ongoing": "The recall is ongoing; status reports are due to the district every 30 days.",
    "Completed": "The firm has reported that all reasonable efforts to remove or correct the product have been completed; FDA has not yet terminated the recall.",
    "Terminated": "FDA terminated the recall after determining that all reasonable efforts to remove or correct the product were made.",
    "Pending": "The classification is pending final review by the center.",
}  # fmt: skip
ROOT_CAUSES = (
    "an inadequately validated cleaning procedure",
    "a supplier change that was not qualified",
    "an equipment malfunction on the packaging line",
    "a labeling mix-up during a line changeover",
    "a software defect introduced in a maintenance release",
    "environmental contamination in the processing area",
)
DISTRIBUTIONS = (
    "Nationwide in the USA",
    "Nationwide in the USA and Puerto Rico",
    "US distribution to CA, NV, AZ, OR and WA",
    "Distributed in TX, OK, LA and NM",
    "Nationwide and to Canada and Mexico",
    "US Nationwide including military facilities",
)
NOTIFICATIONS = (
    "Letter",
    "E-Mail",
    "Press Release",
    "Telephone",
    "Two or more of the following: Email, Fax, Letter, Press Release, Telephone, Visit",
)

# --- adverse event case reports (FAERS) -------------------------------------------------------

FAERS_HEADER = (
    "FAERS Case Report — Safety Report ID {report_id}\nReceive Date: {date}\nReport Type: "
    "{report_type}\nSerious: {serious_text}\nSeriousness Criteria: {criteria}\nReporter: "
    "{reporter}, {country}\nPatient: age {age} years, sex {sex}, weight {weight} kg\n"
    "Suspect Product: {product} ({ingredient}) {strength}, {route}; indication: {indication}; "
    "dose: {dose}\nConcomitant Products: {concomitants}\nReactions (MedDRA Preferred Terms): "
    "{reactions}\nOutcome: {outcome}\nManufacturer Control Number: {mcn}"
)
FAERS_NARRATIVE = (
    "Case narrative: This {case_source} report was received from a {reporter_lower} concerning {a_age} {age}-year-old {sex_word} patient who experienced {reaction_lower} while receiving {product} for {indication_lower}. The patient's medical history included {history}.",
    "The patient started {product} {strength} {frequency} on {start}. Approximately {latency} days after starting therapy, the patient developed {reaction_lower}. {treatment_sentence}",
    "Action taken with the suspect drug: {action}. {dechallenge} The outcome of the event was reported as {outcome_lower}.",
    "The reporter assessed the event as {causality} to {product}. The company assessed the event as {company_causality}. Follow-up information has been requested. Additional information received on {followup} included laboratory results: {labs}.",
    "This case was identified as a duplicate of a previously received report and the information has been merged. The case remains under evaluation as part of routine signal detection for {ingredient}.",
)  # fmt: skip
FAERS_HISTORY = (
    "hypertension",
    "type 2 diabetes mellitus",
    "chronic kidney disease stage 3",
    "obesity",
    "atrial fibrillation",
    "depression",
    "asthma",
    "hyperlipidaemia",
    "no relevant medical history",
    "rheumatoid arthritis",
    "osteoarthritis",
)
FAERS_TREATMENT = (
    "The patient was hospitalized and treated with intravenous fluids and supportive care.",
    "The patient was treated in the emergency department and discharged the same day.",
    "No treatment was reported for the event.",
    "The patient was admitted to the intensive care unit and required mechanical ventilation for {days} days.",
    "Corrective treatment included corticosteroids and antihistamines.",
)  # fmt: skip
FAERS_ACTIONS = (
    "drug withdrawn",
    "dose reduced",
    "dose not changed",
    "unknown",
    "drug interrupted",
)
FAERS_DECHALLENGE = (
    "The event abated after the drug was stopped (positive dechallenge).",
    "Rechallenge was not performed.",
    "The event recurred on reintroduction of the drug (positive rechallenge).",
    "Dechallenge results were not reported.",
)
FAERS_CAUSALITY = ("possibly related", "probably related", "not related", "unassessable", "related")
FAERS_LABS = (
    "ALT 412 U/L, AST 288 U/L",
    "serum creatinine 2.8 mg/dL",
    "creatine kinase 12,400 U/L",
    "serum sodium 124 mmol/L",
    "INR 4.6",
    "blood glucose 38 mg/dL",
    "hemoglobin 7.2 g/dL",
    "not provided",
)
FAERS_GENERIC_PTS = (
    "Nausea",
    "Headache",
    "Dizziness",
    "Fatigue",
    "Rash",
    "Drug ineffective",
    "Off label use",
    "Diarrhoea",
    "Vomiting",
    "Pruritus",
    "Dyspnoea",
    "Malaise",
)
FAERS_CRITERIA = (
    "Hospitalization",
    "Life-threatening",
    "Death",
    "Disability",
    "Other serious (important medical event)",
    "Required intervention",
)
FAERS_OUTCOMES = (
    "Recovered/resolved",
    "Recovering/resolving",
    "Not recovered/not resolved",
    "Recovered with sequelae",
    "Fatal",
    "Unknown",
)
FAERS_REPORTERS = ("Physician", "Pharmacist", "Consumer", "Other health professional", "Lawyer")
FAERS_TYPES = ("Expedited (15-day)", "Periodic", "Direct")
FAERS_COUNTRIES = (
    "United States",
    "United States",
    "United States",
    "Canada",
    "Japan",
    "Germany",
    "United Kingdom",
    "France",
    "Brazil",
)
CONCOMITANTS = (
    "metformin",
    "lisinopril",
    "amlodipine",
    "aspirin",
    "omeprazole",
    "levothyroxine",
    "atorvastatin",
    "furosemide",
    "insulin glargine",
    "prednisone",
    "acetaminophen",
    "gabapentin",
    "none reported",
)

# --- drug and biologic applications -----------------------------------------------------------

NDA_LETTER = (
    "{app_spaced}\nNDA APPROVAL\n\n{firm}\nAttention: {contact}, {contact_title}\n{street}\n{city_line}\n\nDear {contact}:\n\nPlease refer to your new drug application (NDA) dated {sub_date}, received {sub_date}, and your amendments, submitted pursuant to section 505(b) of the Federal Food, Drug, and Cosmetic Act (FDCA) for {product} ({ingredient}) {form}, {strength}. This new drug application provides for the use of {product} ({ingredient}) {form} for {indication_lower}.",
    "APPROVAL & LABELING. We have completed our review of this application, as amended. It is approved, effective on the date of this letter, for use as recommended in the enclosed, agreed-upon labeling text. Within 14 days of the date of this letter, submit the content of labeling in structured product labeling (SPL) format using the FDA automated drug registration and listing system, as described at FDA.gov. Content of labeling must be identical to the enclosed labeling (text for the Prescribing Information and Medication Guide), with the addition of any labeling changes in pending supplements that FDA has approved.",
    "CARTON AND CONTAINER LABELING. Submit final printed carton and container labeling that are identical to the enclosed carton and container labeling as soon as they are available, but no more than 30 days after they are printed. Please submit these labeling electronically according to the guidance for industry on providing regulatory submissions in electronic format.",
    "REQUIRED PEDIATRIC ASSESSMENTS. Under the Pediatric Research Equity Act (PREA), all applications for new active ingredients, new indications, new dosage forms, new dosing regimens, or new routes of administration are required to contain an assessment of the safety and effectiveness of the product for the claimed indication in pediatric patients unless this requirement is waived, deferred, or inapplicable. We are deferring submission of your pediatric studies for ages {ped_low} to less than 17 years because this product is ready for approval for use in adults and the pediatric studies have not been completed.",
    "POSTMARKETING REQUIREMENTS UNDER 505(o). Section 505(o)(3) of the FDCA authorizes FDA to require holders of approved drug applications to conduct postmarketing studies and clinical trials for certain purposes. We have determined that an analysis of spontaneous postmarketing adverse events reported under subsection 505(k)(1) will not be sufficient to assess a signal of serious risk of {risk_lower}. Therefore, you are required to conduct a randomized controlled trial to evaluate this risk. Final protocol submission: {pmr_date}. Trial completion: {pmr_date2}.",
    "PROMOTIONAL MATERIALS. You may request advisory comments on proposed introductory advertising and promotional labeling. For information about submitting promotional materials, see the final guidance for industry Providing Regulatory Submissions in Electronic and Non-Electronic Format—Promotional Labeling and Advertising Materials for Human Prescription Drugs. You must submit final promotional materials and Prescribing Information at the time of initial dissemination or publication, accompanied by a Form FDA 2253.",
    "REPORTING REQUIREMENTS. We remind you that you must comply with reporting requirements for an approved NDA (21 CFR 314.80 and 314.81). If you have any questions, call {pm}, Regulatory Project Manager, at (301) 796-{phone}.\n\nSincerely,\n{official}\nDirector, {division}\nOffice of New Drugs\nCenter for Drug Evaluation and Research",
)  # fmt: skip
ANDA_LETTER = (
    "{app_spaced}\nANDA APPROVAL\n\n{firm}\nAttention: {contact}, {contact_title}\n{street}\n{city_line}\n\nDear {contact}:\n\nThis letter is in reference to your abbreviated new drug application (ANDA) received for review on {sub_date}, submitted pursuant to section 505(j) of the Federal Food, Drug, and Cosmetic Act (FD&C Act) for {ingredient_title} {form}, {strength}.",
    "Reference is also made to the complete response letter issued by this office and to any amendments thereto. We have completed the review of this ANDA and have concluded that adequate information has been presented to demonstrate that the drug is safe and effective for use as recommended in the submitted labeling. Accordingly, the ANDA is approved, effective on the date of this letter.",
    "The Office of Bioequivalence has determined your {ingredient_title} {form}, {strength}, to be bioequivalent and, therefore, therapeutically equivalent to the reference listed drug (RLD), {rld} {form}, {strength}, of {rld_firm}. Your dissolution testing should be incorporated into the stability and quality control program using the same method proposed in your ANDA.",
    "COMPETITIVE GENERIC THERAPY. With respect to 180-day generic drug exclusivity, we note that you were the first applicant to submit a substantially complete ANDA with a paragraph IV certification. Therefore, with this approval, you may be eligible for 180 days of generic drug exclusivity. This exclusivity, which is provided for under section 505(j)(5)(B)(iv) of the FD&C Act, would begin to run from the date of the first commercial marketing of the drug.",
    "REPORTING REQUIREMENTS. Postmarketing reporting requirements for this ANDA are set forth in 21 CFR 314.80-81 and 314.98. The Office of Generic Drugs should be advised of any change in the marketing status of this drug or if this drug will not be available for sale after approval.\n\nSincerely yours,\n{official}\nDirector, Office of Regulatory Operations\nOffice of Generic Drugs\nCenter for Drug Evaluation and Research",
)  # fmt: skip

LABEL_SECTIONS = (
    "HIGHLIGHTS OF PRESCRIBING INFORMATION. These highlights do not include all the information needed to use {product_upper} safely and effectively. See full prescribing information for {product_upper}. {product_upper} ({ingredient}) {form}, for {route} use. Initial U.S. Approval: {year}. {product_upper} is {a_epc} {epc} indicated for {indication_lower}.",
    "1 INDICATIONS AND USAGE. {product} is {a_epc} {epc} indicated as an adjunct to standard therapy for the treatment of adult patients with {indication_lower}. Limitations of use: {product} is not recommended for patients with severe hepatic impairment. The safety and effectiveness of {product} in pediatric patients have not been established.",
    "2 DOSAGE AND ADMINISTRATION. The recommended starting dosage is {strength} {frequency}, with or without food. Based on tolerability and response, the dosage may be increased at intervals of at least {titration} weeks. Assess renal function before initiating therapy and periodically thereafter. Dosage adjustment is recommended in patients with moderate renal impairment.",
    "3 DOSAGE FORMS AND STRENGTHS. {form_title}: {strengths}. 4 CONTRAINDICATIONS. {product} is contraindicated in patients with a history of serious hypersensitivity reaction to {ingredient} or to any of the excipients. Serious hypersensitivity reactions, including anaphylaxis and angioedema, have been reported.",
    "5 WARNINGS AND PRECAUTIONS. 5.1 {warning1}: cases have been reported in patients treated with {product}. Monitor patients for signs and symptoms and discontinue if suspected. 5.2 {warning2}: consider the risks and benefits before initiating treatment in patients at increased risk. 5.3 {warning3}: evaluate patients before and during treatment; the incidence was higher in patients with risk factors. Interrupt or discontinue {product} as clinically indicated.",
    "6 ADVERSE REACTIONS. Because clinical trials are conducted under widely varying conditions, adverse reaction rates observed in the clinical trials of a drug cannot be directly compared to rates in the clinical trials of another drug and may not reflect the rates observed in practice. In placebo-controlled trials in {n_patients} patients, the most common adverse reactions (incidence ≥ 5% and greater than placebo) were {ae1} ({ae1_pct}%), {ae2} ({ae2_pct}%) and {ae3} ({ae3_pct}%). Discontinuation due to adverse reactions occurred in {disc_pct}% of patients receiving {product} and {disc_pbo}% of patients receiving placebo.",
    "7 DRUG INTERACTIONS. Strong CYP3A4 inhibitors increase exposure to {ingredient}; avoid concomitant use or reduce the dose. Strong CYP3A4 inducers decrease exposure and may reduce efficacy. 8 USE IN SPECIFIC POPULATIONS. 8.1 Pregnancy: available data from case reports are insufficient to identify a drug-associated risk of major birth defects or miscarriage. 8.2 Lactation: there are no data on the presence of {ingredient} in human milk.",
    "12 CLINICAL PHARMACOLOGY. 12.1 Mechanism of Action: {ingredient} {moa}. 12.3 Pharmacokinetics: peak plasma concentrations are reached approximately {tmax} hours after dosing. The mean terminal half-life is approximately {half_life} hours. Steady state is achieved within {ss_days} days of once-daily dosing.",
    "14 CLINICAL STUDIES. The efficacy of {product} was established in {n_trials} randomized, double-blind, placebo-controlled trials in adult patients with {indication_lower}. The primary endpoint was {endpoint_lower}. Treatment with {product} resulted in a statistically significant improvement compared with placebo (treatment effect {effect}; 95% CI {ci_low} to {ci_high}; p < 0.001).",
    "16 HOW SUPPLIED/STORAGE AND HANDLING. {product} {form} are supplied in bottles of 30 and 90 and in unit-dose blister packages of 100. Store at 20°C to 25°C (68°F to 77°F); excursions permitted to 15°C to 30°C. 17 PATIENT COUNSELING INFORMATION. Advise the patient to read the FDA-approved patient labeling (Medication Guide).",
)  # fmt: skip

REVIEW_SECTIONS = (
    "SUMMARY REVIEW FOR REGULATORY ACTION\nApplication: {app_spaced}\nApplicant: {firm}\nDrug: {product} ({ingredient}) {form}\nProposed indication: {indication}\nRecommended action: Approval\n\n1. Benefit-Risk Assessment. {indication} is a serious condition with substantial morbidity. The applicant provided substantial evidence of effectiveness from adequate and well-controlled trials. The safety profile is acceptable for the intended population and can be managed through labeling and routine pharmacovigilance.",
    "2. Therapeutic Context. Available therapies for {indication_lower} include several approved agents with differing mechanisms. Many patients do not achieve adequate control on existing therapies or cannot tolerate them. {product} is {a_epc} {epc} and would provide an additional treatment option.",
    "3. Regulatory Background. The applicant held an End-of-Phase 2 meeting with the Division on {eop2_date} at which the design of the phase 3 program, including the primary endpoint, was agreed. The application was submitted on {sub_date} and received a {review_type} review designation. No advisory committee meeting was held because the application did not raise significant public health questions.",
    "4. Product Quality. The drug substance is manufactured by a {steps}-step synthesis. The Office of Pharmaceutical Quality recommended approval; an expiration dating period of {shelf} months is granted when stored at controlled room temperature. Pre-approval inspections of the drug substance and drug product manufacturing facilities were completed with acceptable outcomes.",
    "5. Clinical Pharmacology. Exposure increased in a dose-proportional manner over the studied range. Exposure was approximately {fold}-fold higher in subjects with moderate hepatic impairment. The exposure-response analysis supports the proposed dose.",
    "6. Clinical Efficacy. Study {study_id} was a randomized, double-blind, placebo-controlled, multicenter trial in {n_patients} patients with {indication_lower}. The primary endpoint was {endpoint_lower}. {product} demonstrated a statistically significant treatment effect compared with placebo (treatment effect {effect}; 95% CI {ci_low} to {ci_high}). Results were consistent across prespecified subgroups defined by age, sex, race and region.",
    "7. Safety. The safety database included {n_safety} patients exposed to {product}, of whom {n_year} were exposed for at least one year. Deaths were balanced between treatment arms. Adverse events of special interest included {warning1_lower} and {warning2_lower}, which are addressed in Warnings and Precautions. No new safety signals were identified in the 120-day safety update.",
    "8. Labeling and Postmarketing. Labeling negotiations were completed on {label_date}. A Risk Evaluation and Mitigation Strategy is not necessary to ensure that the benefits outweigh the risks. Postmarketing requirements include a pediatric study under PREA and a study to further characterize the risk of {warning1_lower}.\n\nSignatory authority: {official}, Director, {division}",
)  # fmt: skip

SUPPLEMENT_CHANGES = (
    "a new indication for the treatment of {indication_lower} in pediatric patients 12 years of age and older",
    "revisions to the Warnings and Precautions section of the labeling to add information regarding {warning1_lower}",
    "a new strength of {strength}",
    "an alternate drug substance manufacturing site",
    "an extension of the expiration dating period to 36 months",
    "a change in the dissolution specification",
    "the addition of a Medication Guide",
)  # fmt: skip
SUPPLEMENT_LETTER = (
    "{app_spaced}/S-{suppl:03d}\nSUPPLEMENT APPROVAL\n\n{firm}\nAttention: {contact}\n{street}\n{city_line}\n\nDear {contact}:\n\nPlease refer to your supplemental new drug application (sNDA) dated {sub_date}, received {sub_date}, submitted under section 505(b) of the Federal Food, Drug, and Cosmetic Act (FDCA) for {product} ({ingredient}) {form}. This Prior Approval supplemental new drug application provides for {change}.",
    "APPROVAL & LABELING. We have completed our review of this supplemental application. It is approved, effective on the date of this letter, for use as recommended in the enclosed agreed-upon labeling. Submit the content of labeling in structured product labeling (SPL) format within 14 days, incorporating the changes described in this supplement and any changes approved in pending supplements.",
    "The supplement was supported by {support}. We have determined that the labeling changes are consistent with the data submitted and adequately inform prescribers of the relevant information.",
    "REPORTING REQUIREMENTS. We remind you that you must comply with reporting requirements for an approved NDA (21 CFR 314.80 and 314.81). If you have any questions, call {pm}, Regulatory Project Manager.\n\nSincerely,\n{official}\nDeputy Director for Safety, {division}\nCenter for Drug Evaluation and Research",
)  # fmt: skip
SUPPLEMENT_SUPPORT = (
    "data from a randomized, double-blind trial in pediatric patients", "a review of postmarketing adverse event reports and published literature",
    "comparative dissolution and bioequivalence data", "12 months of real-time stability data on three registration batches",
    "updated chemistry, manufacturing and controls information",
)  # fmt: skip

CDER_DIVISIONS = (
    "Division of Diabetes, Lipid Disorders, and Obesity", "Division of Cardiology and Nephrology",
    "Division of Psychiatry", "Division of Neurology 1", "Division of Anesthesiology, Addiction Medicine, and Pain Medicine",
    "Division of Gastroenterology", "Division of Anti-Infectives", "Division of Oncology 2",
    "Division of Antivirals", "Division of Pulmonology, Allergy, and Critical Care",
    "Division of Rheumatology and Transplant Medicine", "Division of Dermatology and Dentistry",
)  # fmt: skip

CRL_OPENING = (
    "{app_spaced}\nCOMPLETE RESPONSE\n\n{firm}\nAttention: {contact}, {contact_title}\n{street}\n{city_line}\n\n"
    "Dear {contact}:\n\nPlease refer to your {app_kind} dated {sub_date}, received {sub_date}, and your "
    "amendments, submitted pursuant to {statute} for {product} ({ingredient}) {form}, {strength}. We "
    "acknowledge receipt of your amendment dated {amend_date}, which constituted a complete response to "
    "our previous action, where applicable.\n\nWe have completed our review of this application, as "
    "amended, and have determined that we cannot approve this application in its present form. We have "
    "described our specific reasons for this action below and, where possible, our recommendations to "
    "address these issues."
)
CRL_DEFICIENCIES = (
    "CLINICAL. The application does not provide substantial evidence of effectiveness for the proposed indication. Study {study_id} failed to demonstrate a statistically significant difference from placebo on the prespecified primary endpoint ({endpoint_lower}). The analyses you submitted in support of effectiveness were post hoc and exploratory. Recommendation: conduct an additional adequate and well-controlled trial that demonstrates a clinically meaningful and statistically robust treatment effect.",
    "SAFETY. Cases of {risk_lower} were observed more frequently in the {product} arm ({pct}%) than in the control arm. The size of the safety database is insufficient to characterize this risk. Recommendation: provide additional safety data from at least {n_safety} patients exposed for at least 12 months, and a comprehensive analysis of events adjudicated by an independent committee.",
    "PRODUCT QUALITY. The drug product specification does not include adequate controls for nitrosamine impurities. You have not provided a risk assessment for the formation of N-nitroso drug substance related impurities or confirmatory testing data. In addition, the proposed dissolution acceptance criterion is not supported by the data from the clinical batches.",
    "FACILITY INSPECTIONS. During a recent inspection of the {facility} manufacturing facility (FEI {facility_fei}) for this application, our field investigator conveyed deficiencies to the representative of the facility. Satisfactory resolution of these deficiencies is required before this application may be approved.",
    "CLINICAL PHARMACOLOGY. The relative bioavailability study did not establish a bridge between the clinical trial formulation and the to-be-marketed formulation. The 90% confidence interval for Cmax fell outside the 80% to 125% limits. Recommendation: conduct an adequately designed bioequivalence study.",
    "HUMAN FACTORS. The human factors validation study identified use errors with the delivery device that could result in underdosing. The root cause analysis attributed these errors to the instructions for use. Modify the device user interface and conduct a new human factors validation study.",
    "NONCLINICAL. The carcinogenicity assessment is incomplete. The 2-year rat study identified an increased incidence of tumors at exposures {fold} times the clinical exposure, and you have not provided data to establish the human relevance of this finding.",
)  # fmt: skip
CRL_CLOSING = (
    "LABELING. We reserve comment on the proposed labeling until the application is otherwise adequate. We encourage you to review the labeling review resources on the PLR Requirements for Prescribing Information and Pregnancy and Lactation Labeling Final Rule websites.",
    "SAFETY UPDATE. When you respond to the above deficiencies, include a safety update as described at 21 CFR 314.50(d)(5)(vi)(b). The safety update should include data from all nonclinical and clinical studies/trials of the drug under consideration regardless of indication, dosage form, or dose level.",
    "OTHER. Within one year after the date of this letter, you are required to resubmit or take one of the other actions available under 21 CFR 314.110. If you do not take one of these actions, we may consider your lack of response a request to withdraw the application under 21 CFR 314.65. You may also request an extension of time in which to resubmit the application.",
    "Under 21 CFR 314.102(d), you may request a meeting or teleconference with us to discuss what steps you need to take before the application may be approved. If you wish to have such a meeting, submit your meeting request as described in the draft guidance for industry Formal Meetings Between the FDA and Sponsors or Applicants of PDUFA Products. The drug product may not be legally marketed until you have been notified in writing that this application is approved.\n\nSincerely,\n{official}\nDirector, {division}\nCenter for Drug Evaluation and Research",
)  # fmt: skip

BLA_SECTIONS = {
    "approval_letter": (
        "{bla_spaced}\nBLA APPROVAL\n\n{firm}\nAttention: {contact}, {contact_title}\n{street}\n{city_line}\n\nDear {contact}:\n\nPlease refer to your Biologics License Application (BLA) submitted and received on {sub_date}, under section 351(a) of the Public Health Service Act (PHS Act) for {product} ({nonproprietary}). We have approved your BLA for {product} ({nonproprietary}) effective this date. You are hereby authorized to introduce or deliver for introduction into interstate commerce {product} under your existing Department of Health and Human Services U.S. License No. {license}. {product} is indicated for {indication_lower}.",
        "MANUFACTURING LOCATIONS. Under this license, you are approved to manufacture {nonproprietary} drug substance at your facility in {city_line}. The final formulated product will be manufactured, filled, labeled, and packaged at the same location. You may label your product with the proprietary name {product} and market it in {presentation}.",
        "DATING PERIOD. The dating period for {product} shall be {shelf} months from the date of manufacture when stored at 2-8°C. The date of manufacture shall be defined as the date of final sterile filtration of the formulated drug product. We have approved the stability protocols in your license application for the purpose of extending the expiration dating period of your drug substance and drug product under 21 CFR 601.12.",
        "FDA LOT RELEASE. You are not currently required to submit samples of future lots of {product} to the Center for Biologics Evaluation and Research (CBER) for release by the Director, CBER, under 21 CFR 610.2. We will continue to monitor compliance with 21 CFR 610.1, requiring completion of tests for conformity with standards applicable to each product prior to release of each lot.",
        "POSTMARKETING REQUIREMENTS UNDER SECTION 505(o). We have determined that an analysis of spontaneous postmarketing adverse events reported under section 505(k)(1) of the FDCA will not be sufficient to assess a known serious risk of {risk_lower}. Therefore, based on appropriate scientific data, FDA has determined that you are required to conduct a long-term observational safety study. Final protocol submission: {pmr_date}. Final report submission: {pmr_date2}.",
        "POSTMARKETING COMMITMENTS. We remind you of your postmarketing commitment to develop and validate a potency assay that reflects the product's mechanism of action, and to re-evaluate drug substance and drug product release specifications after {lots} lots have been manufactured at commercial scale.\n\nSincerely,\n{official}\nDirector, Office of Therapeutic Products\nCenter for Biologics Evaluation and Research",
    ),
    "package_insert": LABEL_SECTIONS,
    "summary_basis_for_regulatory_action": (
        "SUMMARY BASIS FOR REGULATORY ACTION\nDate: {date}\nFrom: {official}, Chair of the Review Committee\nBLA: {bla_spaced}\nApplicant: {firm}\nProduct: {product} ({nonproprietary})\nIndication: {indication}\nRecommended action: Approval\n\n1. Introduction. {product} is {a_epc} {epc}. The applicant submitted the BLA to support the use of {product} for {indication_lower}. The review committee recommends approval.",
        "2. Chemistry, Manufacturing and Controls. The manufacturing process consists of cell culture in a {bioreactor} L bioreactor, harvest, purification by affinity and ion-exchange chromatography, viral inactivation and filtration, and formulation. Process validation was performed on {lots} consecutive commercial-scale lots. The pre-license inspection of the manufacturing facility was classified as Voluntary Action Indicated (VAI).",
        "3. Clinical Efficacy. The pivotal study enrolled {n_patients} participants randomized 2:1 to {product} or control. The primary endpoint was {endpoint_lower}. The study met its primary endpoint with a treatment effect of {effect} (95% CI {ci_low} to {ci_high}).",
        "4. Safety. The safety population included {n_safety} participants. The most frequently reported adverse reactions were {ae1}, {ae2} and {ae3}. Serious adverse reactions of {risk_lower} were reported in {pct_low}% of participants. The safety profile is adequately described in the package insert.",
        "5. Pharmacovigilance. The applicant's pharmacovigilance plan includes routine surveillance, enhanced monitoring for {risk_lower}, and a postmarketing observational study. A Risk Evaluation and Mitigation Strategy is not required.",
    ),
    "review_memo": REVIEW_SECTIONS,
    "supplement_approval": (
        "{bla_spaced}/{suppl_code}\nSUPPLEMENT APPROVAL\n\n{firm}\nAttention: {contact}\n{street}\n{city_line}\n\nDear {contact}:\n\nWe have approved your request received {sub_date} to supplement your Biologics License Application (BLA) submitted under section 351(a) of the Public Health Service Act for {product} ({nonproprietary}) to include {change}.",
        "The review of this supplement was supported by {support}. All applicable regulations continue to apply. We remind you that you must comply with the reporting requirements for an approved BLA (21 CFR 600.80 and 600.81).",
        "LABELING. We hereby approve the draft content of labeling including the Package Insert submitted under amendment {amend_n}. Please submit the final content of labeling in Structured Product Labeling (SPL) format.\n\nSincerely,\n{official}\nOffice of Therapeutic Products\nCenter for Biologics Evaluation and Research",
    ),
}  # fmt: skip
BIO_PRESENTATIONS = (
    "single-dose prefilled syringes",
    "single-dose vials",
    "single-dose prefilled autoinjectors",
    "infusion bags",
)

# --- device submissions -----------------------------------------------------------------------

K_LETTER = (
    "{number}\nTrade/Device Name: {product}\nRegulation Number: 21 CFR {reg}\nRegulation Name: {generic}\nRegulatory Class: Class {dev_class}\nProduct Code: {code}\nDated: {sub_date}\nReceived: {sub_date}\n\n{firm}\n{contact}, {contact_title}\n{street}\n{city_line}\n\nDear {contact}:\n\nWe have reviewed your Section 510(k) premarket notification of intent to market the device referenced above and have determined the device is substantially equivalent (for the indications for use stated in the enclosure) to legally marketed predicate devices marketed in interstate commerce prior to May 28, 1976, the enactment date of the Medical Device Amendments, or to devices that have been reclassified in accordance with the provisions of the Federal Food, Drug, and Cosmetic Act (Act) that do not require approval of a premarket approval application (PMA).",
    "You may, therefore, market the device, subject to the general controls provisions of the Act. Although this letter refers to your product as a device, please be aware that some cleared products may instead be combination products. The general controls provisions of the Act include requirements for annual registration, listing of devices, good manufacturing practice, labeling, and prohibitions against misbranding and adulteration. Please note: CDRH does not evaluate information related to contract liability warranties.",
    "Please be advised that FDA's issuance of a substantial equivalence determination does not mean that FDA has made a determination that your device complies with other requirements of the Act or any Federal statutes and regulations administered by other Federal agencies. You must comply with all the Act's requirements, including, but not limited to: registration and listing (21 CFR Part 807); labeling (21 CFR Part 801); medical device reporting of medical device-related adverse events (21 CFR Part 803); good manufacturing practice requirements as set forth in the quality systems (QS) regulation (21 CFR Part 820); and if applicable, the electronic product radiation control provisions.\n\nSincerely,\n{official}\nAssistant Director, {panel} Devices Team\nOffice of Health Technology\nOffice of Product Evaluation and Quality\nCenter for Devices and Radiological Health",
)  # fmt: skip
K_SUMMARY = (
    "510(k) SUMMARY\nSubmitter: {firm}, {street}, {city_line}\nContact: {contact}, {contact_title}\nDate prepared: {sub_date}\nTrade name: {product}\nCommon name: {generic}\nClassification: Class {dev_class}, 21 CFR {reg}, Product Code {code}\nPredicate device: {predicate} ({predicate_number})",
    "Device description. The {product} is {a_generic} {generic_lower} consisting of {parts}. The device is provided {sterility} and is intended for {use_setting}. The subject device has the same intended use and similar technological characteristics as the predicate device.",
    "Indications for use. The {product} is indicated for {dev_indication}. The device is intended to be used by trained healthcare professionals{otc}.",
    "Comparison of technological characteristics with the predicate device. The subject and predicate devices share the same fundamental scientific technology, principle of operation and intended use. Differences include {difference}. These differences do not raise different questions of safety and effectiveness, as demonstrated by the performance testing summarized below.",
    "Performance data. The following non-clinical testing was performed to support substantial equivalence: biocompatibility in accordance with ISO 10993-1 (cytotoxicity, sensitization and irritation); electrical safety per IEC 60601-1 and electromagnetic compatibility per IEC 60601-1-2; software verification and validation per IEC 62304 and FDA guidance for device software functions at the {software_level} documentation level; {extra_testing}.",
    "Shelf life and sterilization. Sterilization was validated to a sterility assurance level (SAL) of 10⁻⁶ using {sterilization}. Accelerated aging per ASTM F1980 supports a shelf life of {shelf} months. Package integrity was verified per ASTM F88 and ASTM F2096.",
    "Clinical data. {clinical_data}\n\nConclusion. Based on the comparison of intended use, technological characteristics and performance testing, the {product} is substantially equivalent to the predicate device.",
)  # fmt: skip
CLINICAL_DATA = (
    "No clinical data were necessary to support substantial equivalence.",
    "A clinical study of {n_patients} subjects at {n_sites} sites demonstrated accuracy within the acceptance criteria established in the protocol.",
    "A retrospective standalone performance study on {n_patients} de-identified cases demonstrated sensitivity of {sens}% and specificity of {spec}%.",
)  # fmt: skip

DENOVO_SECTIONS = (
    "DE NOVO CLASSIFICATION REQUEST FOR {product_upper}\nREGULATORY INFORMATION\nFDA identifies this generic type of device as: {generic}. {identification}\nNEW REGULATION NUMBER: 21 CFR {reg}\nCLASSIFICATION: Class II\nPRODUCT CODE: {code}\nBACKGROUND\nDEVICE NAME: {product}\nSUBMISSION NUMBER: {number}\nDATE DE NOVO RECEIVED: {sub_date}\nSPONSOR INFORMATION: {firm}, {city_line}",
    "INDICATIONS FOR USE. The {product} is indicated for {dev_indication}. LIMITATIONS. The device is not intended to replace standard clinical evaluation. Performance has not been established in patients younger than 22 years of age. The sale, distribution, and use of this device are restricted to prescription use in accordance with 21 CFR 801.109.",
    "DEVICE DESCRIPTION. The {product} consists of {parts}. {software_sentence} The system does not provide a diagnosis; results are intended to be reviewed by a qualified clinician together with other clinical information.",
    "SUMMARY OF NONCLINICAL/BENCH STUDIES. Software verification and validation testing was performed consistent with the FDA guidance on content of premarket submissions for device software functions. Cybersecurity was addressed through a threat model, security risk management report and penetration testing. Electrical safety and electromagnetic compatibility were evaluated as applicable.",
    "SUMMARY OF CLINICAL INFORMATION. The sponsor conducted a prospective, multicenter study enrolling {n_patients} subjects at {n_sites} sites. The primary endpoints were sensitivity and specificity against an adjudicated reference standard. Sensitivity was {sens}% (95% CI {sens_lo}% to {sens_hi}%) and specificity was {spec}% (95% CI {spec_lo}% to {spec_hi}%), meeting the prespecified performance goals.",
    "RISKS TO HEALTH AND MITIGATION MEASURES. Identified risk: false negative results leading to delayed treatment — mitigated by clinical performance testing and labeling. Identified risk: false positive results leading to unnecessary follow-up — mitigated by clinical performance testing and labeling. Identified risk: device malfunction due to software failure or cybersecurity compromise — mitigated by software verification, validation and hazard analysis, and cybersecurity testing.",
    "SPECIAL CONTROLS. In combination with the general controls of the FD&C Act, the {generic_lower} is subject to the following special controls: (1) clinical performance testing must demonstrate the device performs as intended under anticipated conditions of use; (2) software verification, validation, and hazard analysis must be performed; (3) labeling must include a detailed summary of the performance testing and the limitations of the device.",
    "BENEFIT-RISK DETERMINATION. The probable benefits of the device outweigh the probable risks when the device is used as intended and the special controls are met. CONCLUSION. The De Novo request is granted and the device is classified as follows: Product Code {code}; Device Type: {generic}; Class: II (special controls); Regulation: 21 CFR {reg}.",
)  # fmt: skip
DENOVO_IDENTIFICATION = {
    "QBJ": "An integrated continuous glucose monitoring system is intended to automatically measure glucose in bodily fluids continuously or frequently for a specified period of time.",
    "QFG": "An alternate controller enabled insulin infusion pump is intended for the infusion of insulin into a patient and communicates with digitally connected devices.",
    "QAS": "Radiological computer-assisted triage and notification software is an image processing device intended to aid in prioritization and triage of radiological medical images.",
    "PWE": "A computerized behavioral therapy device for psychiatric disorders is a prescription device intended to provide a computerized version of condition-specific behavioral therapy as an adjunct to clinician supervised outpatient treatment.",
    "PIB": "A retinal diagnostic software device is a prescription software device that incorporates an adaptive algorithm to evaluate ophthalmic images for diagnostic screening.",
    "QDA": "Electrocardiograph software for over-the-counter use creates, analyzes, and displays electrocardiograph data and can provide information for identifying cardiac arrhythmias.",
    "PKR": "A transcutaneous electrical nerve stimulator to treat headache is a device used to apply an electrical current to a patient's head to treat headache pain.",
}  # fmt: skip
DEV_INDICATIONS = {
    "pump": "the controlled infusion of medications, parenteral fluids, blood and blood products through clinically accepted routes of administration",
    "catheter": "short-term access to the peripheral vascular system for infusion of fluids and medications and sampling of blood",
    "disposable": "single use by healthcare professionals and lay users as described in the labeling",
    "monitor": "the noninvasive measurement and display of physiological parameters in adult and pediatric patients in hospitals, clinics and home environments",
    "glucose": "the quantitative measurement of glucose in persons with diabetes, to aid in the detection of episodes of hyperglycemia and hypoglycemia and to facilitate therapy adjustments",
    "ortho": "skeletally mature patients requiring reconstruction or stabilization due to degenerative disease, trauma or failed previous surgery",
    "endoscope": "visualization and therapeutic access to the upper gastrointestinal tract or abdominal cavity during endoscopic procedures",
    "surgical": "use in general, gynecologic, thoracic and other surgical procedures for resection, transection and creation of anastomoses",
    "implant": "long-term implantation in patients meeting the criteria described in the labeling",
    "respiratory": "the continuous or intermittent ventilatory support of patients who require mechanical ventilation",
    "imaging": "producing cross-sectional images of the body for diagnostic use by trained physicians",
    "software": "use by qualified clinicians to aid in the review, analysis and prioritization of patient data; it is not intended to provide a diagnosis",
    "cardiac": "patients with symptomatic disease meeting the anatomical and clinical criteria described in the labeling",
}  # fmt: skip

PMA_ORDER = (
    "{number}\n{firm}\nAttention: {contact}, {contact_title}\n{street}\n{city_line}\n\nRe: {number}\nTrade/Device Name: {product}\nProduct Code: {code}\nFiled: {sub_date}\n\nDear {contact}:\n\nThe Center for Devices and Radiological Health (CDRH) of the Food and Drug Administration (FDA) has completed its review of your premarket approval application (PMA) for the {product}. This device is indicated for {dev_indication}. We are pleased to inform you that the PMA is approved. You may begin commercial distribution of the device in accordance with the conditions of approval described below.",
    "The sale and distribution of this device are restricted to prescription use in accordance with 21 CFR 801.109 and under section 515(d)(1)(B)(ii) of the Federal Food, Drug, and Cosmetic Act (the act). FDA has determined that this restriction on sale and distribution is necessary to provide reasonable assurance of the safety and effectiveness of the device. Your device is therefore a restricted device subject to the requirements in sections 502(q) and (r) of the act.",
    "Expiration dating for this device has been established and approved at {shelf} months. In addition to the postapproval requirements outlined in the enclosure, you are required to conduct a post-approval study: a continued follow-up of the premarket cohort through {pas_years} years to evaluate long-term safety and effectiveness, including rates of {pas_endpoint}.",
    "CDRH does not evaluate information related to contract liability warranties; however, you should be aware that any such warranty statements must be truthful, accurate, and not misleading. Failure to comply with any postapproval requirement constitutes a ground for withdrawal of approval of a PMA. The introduction or delivery for introduction into interstate commerce of a device that is not in compliance with its conditions of approval is a violation of law.\n\nSincerely,\n{official}\nDirector, Office of Health Technology ({panel} Devices)\nOffice of Product Evaluation and Quality\nCenter for Devices and Radiological Health",
)  # fmt: skip
SSED_SECTIONS = (
    "SUMMARY OF SAFETY AND EFFECTIVENESS DATA (SSED). I. GENERAL INFORMATION. Device generic name: {generic}. Device trade name: {product}. Device procode: {code}. Applicant: {firm}. PMA number: {number}. Date of panel recommendation: {panel_text}. Date of FDA notice of approval: {date}.",
    "II. INDICATIONS FOR USE. The {product} is indicated for {dev_indication}. III. CONTRAINDICATIONS. The device is contraindicated in patients who cannot tolerate the required procedural anticoagulation or who have active infection. IV. WARNINGS AND PRECAUTIONS. The warnings and precautions can be found in the device labeling.",
    "V. DEVICE DESCRIPTION. The {product} consists of {parts}. VI. ALTERNATIVE PRACTICES AND PROCEDURES. There are several other alternatives for the treatment of the target condition, including medical management and other approved devices. Each alternative has its own advantages and disadvantages.",
    "VII. MARKETING HISTORY. The device has been marketed in the European Union and Japan since {mkt_year} and has not been withdrawn from marketing for any reason relating to safety or effectiveness. VIII. POTENTIAL ADVERSE EFFECTS. Potential adverse effects include death, stroke, myocardial infarction, bleeding, infection, device migration, thrombosis and the need for reintervention.",
    "IX. SUMMARY OF NONCLINICAL STUDIES. Laboratory testing included biocompatibility per ISO 10993, fatigue and durability testing equivalent to {years_eq} years of use, corrosion testing, and MRI safety testing. Animal studies in a porcine model demonstrated acceptable healing and no device-related adverse findings.",
    "X. SUMMARY OF PRIMARY CLINICAL STUDY. The applicant performed a prospective, multicenter, single-arm study at {n_sites} sites enrolling {n_patients} subjects. The primary safety endpoint was freedom from major adverse events at 12 months ({safety_pct}%, exceeding the performance goal of {goal}%). The primary effectiveness endpoint was met with a success rate of {eff_pct}%.",
    "XI. PANEL MEETING RECOMMENDATION AND FDA'S POST-PANEL ACTION. {panel_text_long} XII. CONCLUSIONS DRAWN FROM PRECLINICAL AND CLINICAL STUDIES. The preclinical and clinical data provide reasonable assurance that the device is safe and effective when used in accordance with the indications for use.",
)  # fmt: skip
PMA_SUPPLEMENT = (
    "{number}/{suppl_code}\n{firm}\nAttention: {contact}\n{street}\n{city_line}\n\nDear {contact}:\n\nThe Center for Devices and Radiological Health (CDRH) of the Food and Drug Administration (FDA) has completed its review of your premarket approval application (PMA) supplement, which requested approval for {pma_change}. Based upon the information submitted, the PMA supplement is approved. You may begin commercial distribution of the modified device in accordance with the conditions described in the approval order.",
    "The supplement was reviewed as a {suppl_type}. The information submitted included {pma_support}. The changes do not affect the indications for use or the labeled performance of the device.",
    "You are reminded that, as soon as possible and before commercial distribution of your device, you must submit an amendment to this PMA supplement with copies of all approved labeling in final printed form. Any changes that affect the safety or effectiveness of the device must be submitted as a supplement before implementation.\n\nSincerely,\n{official}\nOffice of Product Evaluation and Quality\nCenter for Devices and Radiological Health",
)  # fmt: skip
PMA_CHANGES = (
    "a change to the sterilization process from ethylene oxide to radiation", "the addition of a new manufacturing site",
    "a modification to the delivery system catheter shaft", "an update to the device firmware to improve battery longevity estimates",
    "the expansion of the indications for use to include patients at intermediate surgical risk", "additional device sizes",
    "changes to the labeling to include five-year follow-up data", "a change in a component supplier",
)  # fmt: skip
PMA_SUPPL_TYPES = (
    "180-day supplement",
    "real-time supplement",
    "panel-track supplement",
    "135-day supplement",
    "30-day notice",
)
PMA_SUPPORT = (
    "design verification testing and a risk analysis",
    "process validation data for the new site",
    "clinical data from the continued access study",
    "software verification and validation documentation",
)
PMA_PANEL = (
    "Not applicable; the application was not referred to an advisory panel",
    "The Circulatory System Devices Panel met and recommended approval",
)

# --- guidance documents -----------------------------------------------------------------------

# (center, title, topic, earliest year, key sentences)
GUIDANCE_TOPICS = (
    ("CDER", "Data Integrity and Compliance With Drug CGMP: Questions and Answers", "data integrity", 2016, ("Data should be attributable, legible, contemporaneously recorded, original or a true copy, and accurate (ALCOA).", "Audit trails that capture changes to critical data should be reviewed with each record and before final approval of the record.", "Shared login credentials do not allow actions to be attributed to a specific individual.")),
    ("CDER", "Process Validation: General Principles and Practices", "process validation", 2008, ("Process validation involves activities taking place over the lifecycle of the product and process in three stages: process design, process qualification and continued process verification.", "Manufacturers should use ongoing programs to collect and analyze product and process data.")),
    ("CDER", "Control of Nitrosamine Impurities in Human Drugs", "nitrosamine impurities", 2020, ("Manufacturers should conduct risk assessments to identify the potential for nitrosamine impurities in their products.", "When a risk is identified, confirmatory testing should be performed using sufficiently sensitive and validated methods.", "Acceptable intake limits are recommended for N-nitroso drug substance related impurities based on predicted carcinogenic potency categories.")),
    ("CDER", "Bioanalytical Method Validation", "bioanalytical method validation", 2001, ("Bioanalytical methods used in pivotal studies should be validated for selectivity, accuracy, precision, sensitivity, reproducibility and stability.", "Incurred sample reanalysis should be performed to confirm the reproducibility of the method.")),
    ("CDER", "Assessing the Effects of Food on Drugs in INDs and NDAs", "food-effect bioavailability", 2002, ("A food-effect study should be conducted for new chemical entities during the IND period.", "The high-fat, high-calorie test meal should derive approximately 50 percent of total caloric content from fat.")),
    ("CDER", "Multiple Endpoints in Clinical Trials", "multiple endpoints", 2017, ("Failure to account for multiplicity when there are several endpoints evaluated in a study can lead to false conclusions regarding the effects of the drug.", "The prespecified analysis plan should describe how the type I error rate will be controlled across endpoints.")),
    ("CDER", "Adaptive Designs for Clinical Trials of Drugs and Biologics", "adaptive design", 2010, ("An adaptive design allows for prospectively planned modifications to one or more aspects of the design based on accumulating data from subjects in the trial.", "Sponsors should ensure control of the chance of erroneous conclusions and reliable estimation of treatment effects.")),
    ("CDER", "Considerations for the Use of Artificial Intelligence to Support Regulatory Decision-Making for Drug and Biological Products", "artificial intelligence", 2024, ("Sponsors should establish the credibility of an AI model for a particular context of use through a risk-based framework.", "Model risk is determined by model influence and decision consequence.")),
    ("CDER", "Enhancing the Diversity of Clinical Trial Populations", "clinical trial diversity", 2019, ("Sponsors should broaden eligibility criteria and avoid unnecessary exclusions.", "Enrollment of participants should reflect the population most likely to use the drug if approved.")),
    ("CBER", "Human Gene Therapy for Rare Diseases", "gene therapy", 2018, ("Sponsors should consider the natural history of the disease when selecting endpoints.", "Long-term follow-up of study subjects may be needed to assess delayed adverse events.")),
    ("CBER", "Considerations for the Development of Chimeric Antigen Receptor (CAR) T Cell Products", "CAR T cell products", 2022, ("Sponsors should characterize the vector copy number and transduction efficiency of the final product.", "Monitoring for cytokine release syndrome and neurologic toxicities should be described in the protocol.")),
    ("CBER", "Scientific Considerations in Demonstrating Biosimilarity to a Reference Product", "biosimilarity", 2012, ("FDA recommends a stepwise approach to developing the data needed to support a demonstration of biosimilarity.", "Comparative analytical studies form the foundation of a biosimilar development program.")),
    ("CBER", "Blood Donor Eligibility: Recommendations to Reduce the Risk of Transfusion-Transmitted Infections", "blood donor eligibility", 2003, ("Blood establishments should use an individual risk-based donor history questionnaire.", "Donors who report a risk behavior should be deferred for the period described in these recommendations.")),
    ("CDRH", "Content of Premarket Submissions for Device Software Functions", "device software functions", 2005, ("The documentation level, basic or enhanced, depends on the risk of the device software function.", "Premarket submissions should include a software description, risk management file, and software verification and validation documentation.")),
    ("CDRH", "Cybersecurity in Medical Devices: Quality System Considerations and Content of Premarket Submissions", "cybersecurity", 2014, ("Manufacturers should provide a software bill of materials (SBOM) in premarket submissions.", "Threat modeling should be performed throughout the design process.", "Cybersecurity risks should be managed through the total product lifecycle.")),
    ("CDRH", "Deciding When to Submit a 510(k) for a Change to an Existing Device", "510(k) device modifications", 2017, ("A new 510(k) is required when a change could significantly affect the safety or effectiveness of the device.", "Manufacturers should document their decision-making rationale for each change.")),
    ("CDRH", "De Novo Classification Process (Evaluation of Automatic Class III Designation)", "De Novo classification", 2011, ("A De Novo request may be submitted for a novel device for which general controls, or general and special controls, provide reasonable assurance of safety and effectiveness.", "FDA intends to issue a decision within 150 review days.")),
    ("CDRH", "Marketing Submission Recommendations for a Predetermined Change Control Plan for Artificial Intelligence-Enabled Device Software Functions", "predetermined change control plans", 2023, ("A predetermined change control plan describes planned modifications, the methodology to implement them and an assessment of their impact.", "Modifications implemented under an authorized plan do not require a new marketing submission.")),
    ("CDRH", "Medical Device Reporting for Manufacturers", "medical device reporting", 2000, ("Manufacturers must report deaths and serious injuries that a device has or may have caused or contributed to.", "Malfunctions must be reported if the malfunction would be likely to cause or contribute to a death or serious injury if it were to recur.")),
    ("CDRH", "Quality Management System Regulation: Frequently Asked Questions", "quality management system regulation", 2024, ("The QMSR incorporates by reference ISO 13485:2016.", "Manufacturers should review their quality management systems for alignment before the effective date.")),
    ("CDRH", "Breakthrough Devices Program", "breakthrough devices", 2018, ("The program is intended to help patients have more timely access to devices that provide more effective treatment or diagnosis of life-threatening or irreversibly debilitating diseases.", "Sponsors may request designation at any time before the marketing submission.")),
    ("CFSAN", "Control of Listeria monocytogenes in Ready-To-Eat Foods", "Listeria monocytogenes", 2008, ("Facilities should implement an environmental monitoring program to verify the effectiveness of sanitation controls.", "Food-contact surfaces should be sampled for Listeria species, with corrective actions following a positive result.")),
    ("CFSAN", "Hazard Analysis and Risk-Based Preventive Controls for Human Food", "preventive controls", 2016, ("The food safety plan should include a hazard analysis, preventive controls, a supply-chain program and a recall plan.", "Preventive controls include process controls, food allergen controls, sanitation controls and supply-chain controls.")),
    ("CFSAN", "Action Levels for Lead in Food Intended for Babies and Young Children", "lead in baby food", 2023, ("FDA is issuing action levels of 10 ppb for fruits, vegetables, mixtures, yogurts, custards and single-ingredient meats.", "Manufacturers should test ingredients and finished products to ensure levels are below the action levels.")),
    ("CFSAN", "Food Allergen Labeling: Questions and Answers", "food allergen labeling", 2005, ("Sesame is a major food allergen as of January 1, 2023.", "Allergen cross-contact should be prevented through scheduling, cleaning and segregation.")),
    ("CVM", "Judicious Use of Medically Important Antimicrobial Drugs in Food-Producing Animals", "antimicrobial stewardship", 2012, ("Medically important antimicrobial drugs should be used only for therapeutic purposes under veterinary oversight.", "Use for growth promotion or feed efficiency should be phased out.")),
    ("CVM", "Current Good Manufacturing Practice Requirements for Food for Animals", "animal food CGMP", 2016, ("Animal food facilities should implement CGMPs and preventive controls.", "Drug carryover into subsequently manufactured feed should be prevented through flushing and sequencing.")),
    ("CTP", "Premarket Tobacco Product Applications for Electronic Nicotine Delivery Systems", "ENDS premarket applications", 2016, ("Applicants should provide information on product design, manufacturing, and health risks, including comparisons to other tobacco products.", "Applications should address the likelihood that nonusers, especially youth, will start using the product.")),
    ("CTP", "Enforcement Priorities for Electronic Nicotine Delivery Systems and Other Deemed Products on the Market Without Premarket Authorization", "ENDS enforcement priorities", 2020, ("FDA intends to prioritize enforcement against flavored, cartridge-based ENDS products other than tobacco- or menthol-flavored products.", "Products targeted to minors are an enforcement priority.")),
    ("OC", "Electronic Systems, Electronic Records, and Electronic Signatures in Clinical Investigations: Questions and Answers", "electronic records in clinical investigations", 2003, ("Sponsors should validate electronic systems in a manner proportionate to risk.", "Audit trails should capture the date and time of entries and the identity of the person making them.")),
    ("OC", "Remote Interactive Evaluations of Drug Manufacturing and Bioresearch Monitoring Facilities", "remote interactive evaluations", 2021, ("FDA may request a remote interactive evaluation when an inspection is not feasible.", "Facilities should be able to share documents and livestream video of operations on request.")),
    ("OC", "Product Recalls, Including Removals and Corrections", "recalls", 2000, ("Firms should develop a recall strategy that addresses the depth of recall, public warnings and effectiveness checks.", "FDA classifies recalls according to the relative degree of health hazard.")),
    ("OCE", "Clinical Trial Endpoints for the Approval of Cancer Drugs and Biologics", "oncology endpoints", 2007, ("Overall survival is the most reliable cancer endpoint.", "Progression-free survival may be acceptable when the treatment effect is large and assessed by blinded independent review.")),
    ("OCE", "Optimizing the Dosage of Human Prescription Drugs and Biological Products for the Treatment of Oncologic Diseases", "oncology dose optimization", 2023, ("Sponsors should compare multiple dosages in randomized trials before initiating registration trials.", "The maximum tolerated dose may not be the optimal dosage for targeted therapies.")),
    ("OCE", "Expansion Cohorts: Use in First-In-Human Clinical Trials to Expedite Development of Oncology Drugs and Biologics", "expansion cohorts", 2018, ("Multiple expansion cohorts may be included in a first-in-human trial when appropriate safeguards are in place.", "An independent safety assessment committee should review accumulating safety data.")),
)  # fmt: skip
GUIDANCE_SECTIONS = (
    "{title}\nGuidance for Industry{and_staff}\n{status_line}\nU.S. Department of Health and Human Services, Food and Drug Administration, {center_long} ({center})\n{month_year}\nDocket Number: {docket}",
    "{draft_notice}Contains Nonbinding Recommendations. This guidance represents the current thinking of the Food and Drug Administration (FDA or Agency) on this topic. It does not establish any rights for any person and is not binding on FDA or the public. You can use an alternative approach if it satisfies the requirements of the applicable statutes and regulations. To discuss an alternative approach, contact the FDA staff responsible for this guidance as listed on the title page.",
    "I. INTRODUCTION. This guidance is intended to assist {audience} in addressing {topic}. It describes FDA's recommendations and clarifies the applicable regulatory requirements. In general, FDA's guidance documents do not establish legally enforceable responsibilities. Instead, guidances describe the Agency's current thinking on a topic and should be viewed only as recommendations, unless specific regulatory or statutory requirements are cited. The use of the word should in Agency guidances means that something is suggested or recommended, but not required.",
    "II. BACKGROUND. FDA has observed {observed} related to {topic}. Stakeholders have requested clarification of FDA's expectations, and this guidance responds to those requests. {key1}",
    "III. DISCUSSION. A. Scope. This guidance applies to {scope}. It does not address products regulated under other frameworks, which are discussed in separate guidance documents. {key2}",
    "B. Recommendations. FDA recommends that {audience} establish written procedures that address {topic} throughout the product lifecycle. Procedures should define responsibilities, acceptance criteria, documentation requirements and escalation pathways. {key3}",
    "C. Documentation and Records. Records supporting {topic} should be retained for the period required by the applicable regulations and be available to FDA during inspections. Records should be complete, accurate and protected from unauthorized changes. Summaries provided in submissions should reference the underlying data.",
    "D. Content of Submissions. When information related to {topic} is included in an application or submission, FDA recommends that it be organized in the format described in this section. Sponsors are encouraged to request a pre-submission meeting to discuss novel approaches. {key4}",
    "IV. IMPLEMENTATION. FDA intends to consider the recommendations in this guidance during inspections and the review of submissions received after the date of publication. {implementation}",
    "V. REFERENCES. 1. Federal Food, Drug, and Cosmetic Act, sections 501 and 505. 2. Title 21 Code of Federal Regulations, parts 11, 210, 211, 314, 601 and 820, as applicable. 3. International Council for Harmonisation (ICH) guidelines Q9(R1) Quality Risk Management and Q10 Pharmaceutical Quality System. 4. FDA guidance documents cited in the text.",
    "GLOSSARY. For the purposes of this guidance: Lifecycle means all phases in the life of a product from initial development through marketing until discontinuation. Risk means the combination of the probability of occurrence of harm and the severity of that harm. Sponsor means the person who takes responsibility for and initiates a clinical investigation.",
)  # fmt: skip
CENTER_NAMES = {
    "CDER": "Center for Drug Evaluation and Research", "CBER": "Center for Biologics Evaluation and Research",
    "CDRH": "Center for Devices and Radiological Health", "CFSAN": "Center for Food Safety and Applied Nutrition",
    "CVM": "Center for Veterinary Medicine", "CTP": "Center for Tobacco Products",
    "OC": "Office of the Commissioner", "OCE": "Oncology Center of Excellence",
}  # fmt: skip
GUIDANCE_AUDIENCE = {
    "CDER": "sponsors and applicants of new drug applications (NDAs) and abbreviated new drug applications (ANDAs)",
    "CBER": "sponsors developing biological products and blood establishments",
    "CDRH": "medical device manufacturers and FDA staff",
    "CFSAN": "food manufacturers, processors and importers",
    "CVM": "animal drug sponsors, feed mills and veterinarians",
    "CTP": "manufacturers, importers and retailers of tobacco products",
    "OC": "sponsors, clinical investigators, institutional review boards and regulated industry",
    "OCE": "sponsors developing drugs and biological products for the treatment of cancer",
}  # fmt: skip
GUIDANCE_OBSERVED = (
    "an increasing number of inspectional findings",
    "variability in the quality of submissions",
    "questions from industry and other stakeholders",
    "advances in technology and scientific understanding",
    "public health concerns identified through surveillance",
)
GUIDANCE_SCOPE = (
    "products marketed under approved applications and products marketed without an approved application",
    "both domestic and foreign establishments",
    "investigational and marketed products",
    "new submissions and changes to existing products",
)
GUIDANCE_IMPLEMENTATION = (
    "FDA does not intend to object to the use of previously accepted approaches for products already on the market.",
    "This guidance supersedes the previous guidance of the same title.",
    "FDA intends to update this guidance as experience is gained.",
)

# --- clinical trials --------------------------------------------------------------------------

TRIAL_HEADER = (
    "ClinicalTrials.gov Record {nct}\nBrief Title: {brief_title}\nOfficial Title: {official_title}\n"
    "Lead Sponsor: {firm}\nCollaborators: {collaborator}\nStudy Type: Interventional\nPhase: {phase_text}\n"
    "Overall Status: {status_text}\nConditions: {conditions_text}\nIntervention: Drug: {code}; {comparator}\n"
    "Enrollment: {enrollment} ({enrollment_type})\nStudy Start: {date}\nPrimary Completion: {primary_completion}"
)
TRIAL_SUMMARY = (
    "Brief Summary: The purpose of this study is to evaluate the efficacy and safety of {code} compared with {comparator_lower} in {population} with {condition_lower}. Participants will be randomly assigned to receive study treatment for {weeks} weeks, followed by a {fu_weeks}-week safety follow-up period.",
    "Detailed Description: This is a {phase_text_lower}, randomized, {masking}, {control}-controlled, parallel-group, multicenter study. Approximately {enrollment} participants will be randomized in a {ratio} ratio. Randomization will be stratified by region and baseline disease severity. An independent data monitoring committee will review unblinded safety data at prespecified intervals.",
    "Arms and Interventions: Experimental arm — {code} {dose} administered {frequency}. Comparator arm — {comparator} administered on the same schedule. Rescue therapy is permitted according to local standard of care and will be recorded. Allocation: Randomized. Intervention Model: Parallel Assignment. Masking: {masking_title}. Primary Purpose: Treatment.",
)  # fmt: skip
TRIAL_OUTCOMES = (
    "Primary Outcome Measure: {endpoint} [Time Frame: {timeframe}]. Secondary Outcome Measures: {secondary1} [Time Frame: through study completion]; {secondary2} [Time Frame: baseline to end of treatment]; {secondary3} [Time Frame: up to {weeks} weeks].",
)  # fmt: skip
TRIAL_RESULTS = (
    "Results Summary: {enrollment_actual} participants were randomized and {completed_pct}% completed the study. The primary endpoint {met} (estimated treatment effect {effect}; 95% CI {ci_low} to {ci_high}; p {p_value}). Serious adverse events occurred in {sae_pct}% of participants receiving {code} and {sae_pbo}% receiving {comparator_lower}.",
    "Why Stopped: {why_stopped}",
)  # fmt: skip
TRIAL_LOCATIONS = (
    "{city_site} Clinical Research Center, {state_site}, United States",
    "University Medical Center, {city_site2}, United States",
    "Site {site_n}, Toronto, Ontario, Canada",
    "Site {site_n2}, Berlin, Germany",
    "Site {site_n3}, Madrid, Spain",
)
WHY_STOPPED = (
    "Sponsor decision based on portfolio prioritization, not due to safety concerns.",
    "Futility at the prespecified interim analysis.",
    "Slow enrollment.",
    "Terminated on the recommendation of the data monitoring committee.",
)
PHASE_TEXT = {
    "early_phase1": "Early Phase 1",
    "phase1": "Phase 1",
    "phase2": "Phase 2",
    "phase3": "Phase 3",
    "phase4": "Phase 4",
    "na": "Not Applicable",
}
STATUS_TEXT = {
    "recruiting": "Recruiting",
    "active_not_recruiting": "Active, not recruiting",
    "completed": "Completed",
    "terminated": "Terminated",
    "withdrawn": "Withdrawn",
    "suspended": "Suspended",
    "unknown": "Unknown status",
}

# --- user fee programs ------------------------------------------------------------------------

# program -> (long name, first year, reauthorization years, fee types)
UFA_PROGRAMS = {
    "PDUFA": ("Prescription Drug User Fee Act", 1992, (1992, 1997, 2002, 2007, 2012, 2017, 2022), ("application fee for an application requiring clinical data", "prescription drug program fee")),
    "GDUFA": ("Generic Drug User Fee Amendments", 2012, (2012, 2017, 2022), ("abbreviated new drug application fee", "drug master file fee", "facility fee for finished dosage form domestic facilities")),
    "BsUFA": ("Biosimilar User Fee Act", 2012, (2012, 2017, 2022), ("biosimilar biological product application fee requiring clinical data", "biosimilar biological product development program fee")),
    "MDUFA": ("Medical Device User Fee Amendments", 2002, (2002, 2007, 2012, 2017, 2022), ("premarket application (PMA) fee", "510(k) premarket notification fee", "De Novo classification request fee", "annual establishment registration fee")),
    "ADUFA": ("Animal Drug User Fee Act", 2003, (2003, 2008, 2013, 2018, 2023), ("animal drug application fee", "animal drug sponsor fee", "animal drug establishment fee")),
    "AGDUFA": ("Animal Generic Drug User Fee Act", 2008, (2008, 2013, 2018, 2023), ("abbreviated application fee for generic new animal drugs", "generic new animal drug sponsor fee")),
    "OMUFA": ("Over-the-Counter Monograph Drug User Fee Program", 2020, (2020, 2025), ("OTC monograph drug facility fee", "OTC monograph order request fee")),
}  # fmt: skip
UFA_DOC_TYPES = (
    "commitment_letter",
    "performance_report",
    "financial_report",
    "fee_notice",
    "meeting_minutes",
)
UFA_SECTIONS = {
    "commitment_letter": (
        "{program} {roman} REAUTHORIZATION PERFORMANCE GOALS AND PROCEDURES, FISCAL YEARS {fy_start} THROUGH {fy_end}\n\nThe performance goals and procedures described in this letter apply to aspects of the {program_long} process and were developed in consultation with regulated industry, patient and consumer advocates, health care professionals, and other public stakeholders, as directed by Congress.",
        "I. REVIEW PERFORMANCE GOALS. A. Original applications: review and act on {goal_pct} percent of standard original applications within {std_months} months of the 60-day filing date, and {goal_pct} percent of priority original applications within {pri_months} months of the filing date. B. Resubmissions: review and act on {goal_pct} percent of Class 1 resubmissions within 2 months and Class 2 resubmissions within 6 months of receipt.",
        "II. MEETING MANAGEMENT GOALS. FDA will respond to requests for formal meetings within 14 days, and will schedule Type A meetings within 30 days, Type B meetings within 60 days and Type C meetings within 75 days of receipt of the request, for {goal_pct} percent of requests.",
        "III. ENHANCING REGULATORY SCIENCE AND EXPEDITING DEVELOPMENT. FDA will hold public workshops, publish guidance, and build staff capacity in areas including {science_areas}. FDA will report on progress in its annual performance report.",
        "IV. HIRING AND RETENTION. FDA will complete hiring of {hires} full-time equivalent staff in the first fiscal year of the program and will maintain a publicly available dashboard reporting hiring progress. V. FINANCIAL TRANSPARENCY. FDA will publish a five-year financial plan and hold an annual public meeting on the program's finances.",
        "VI. INFORMATION TECHNOLOGY. FDA will modernize the electronic submission gateway and review platforms, publish data standards, and develop an IT strategic plan with measurable objectives. VII. INDEPENDENT ASSESSMENT. An independent third-party assessment of the review process will be conducted and its findings published for comment.",
    ),
    "performance_report": (
        "FY {fy} PERFORMANCE REPORT TO CONGRESS FOR THE {program_long_upper} ({program} {roman})\n\nThis report presents FDA's progress in meeting the {program} {roman} review performance goals and procedural commitments for fiscal year (FY) {fy}. FDA met or exceeded {met_goals} of 14 review performance goals for the FY {fy_prev} cohort for which review is complete.",
        "Review performance. FDA received {received} original applications in FY {fy} and acted on {acted_pct} percent of them within the goal date. The median total time to approval for priority applications was {median} months. First-cycle approval rates for new molecular entities reached {first_cycle} percent.",
        "Procedural and processing goals. FDA met the goal for {meeting_pct} percent of formal meeting requests and issued {guidances} guidance documents fulfilling program commitments. FDA held {workshops} public workshops on topics including {science_areas}.",
        "Hiring and staffing. FDA hired {hires} new staff in FY {fy}, bringing total program staffing to {staff} full-time equivalents. Attrition was {attrition} percent. FDA continues to use the streamlined hiring authority provided under the statute.",
    ),
    "financial_report": (
        "FY {fy} FINANCIAL REPORT TO CONGRESS: {program_long_upper}\n\nThis report describes the collection and use of {program} fees during fiscal year {fy}. FDA collected ${collected} million in user fees and obligated ${obligated} million. The carryover balance at the end of the fiscal year was ${carryover} million.",
        "Trigger requirements. FDA satisfied the statutory conditions for the collection and use of fees: (1) appropriations for salaries and expenses, excluding fees, were not less than the adjusted amount specified in the statute; and (2) fees were used only for the process for the review of applications. Spending from non-user-fee appropriations was ${nonfee} million.",
        "Obligations by category. Personnel compensation and benefits accounted for {pay_pct} percent of obligations. Rent and operating expenses accounted for {rent_pct} percent, and information technology investments for {it_pct} percent. Management actions included consolidation of contracts and improved forecasting of fee revenue.",
    ),
    "fee_notice": (
        "Federal Register Notice: {program_long}; Fee Rates for Fiscal Year {fy}\nDocket No. {docket}\nAGENCY: Food and Drug Administration, HHS. ACTION: Notice.\n\nSUMMARY: The Food and Drug Administration (FDA) is announcing the rates for {program} fees for fiscal year (FY) {fy}. The statute authorizes FDA to assess and collect fees and to adjust the fee revenue amounts each fiscal year for inflation, strategic hiring and retention, capacity planning, and operating reserve.",
        "FEE SCHEDULE FOR FY {fy}. The fee rates for FY {fy} are: {fee1} — ${amount1}; {fee2} — ${amount2}. These fees are effective on October 1, {fy_prev}, and will remain in effect through September 30, {fy}. Small businesses may qualify for a reduced fee or a waiver of the first application fee.",
        "Inflation adjustment. The inflation adjustment for FY {fy} is {inflation} percent, based on the average change in FDA's payroll costs per full-time equivalent position and the Consumer Price Index. The capacity planning adjustment increases the target revenue by ${capacity} million. The final target revenue for FY {fy} is ${target} million.",
        "Fee payment options and procedures. Fees must be paid before the submission is received. Payment may be made electronically through the FDA user fee website using a credit card, ACH electronic check, or wire transfer. The application will be considered incomplete and will not be accepted for review until all fees owed have been paid.",
    ),
    "meeting_minutes": (
        "FDA-Industry {program} Reauthorization Meeting — Minutes\nDate: {date}\nLocation: FDA White Oak Campus and virtual\n\nPurpose: To continue discussions on the reauthorization of the {program_long} for fiscal years {next_start} through {next_end}. FDA participants included representatives of the relevant centers and the Office of Finance, Budget, Acquisitions and Planning; industry participants represented the principal trade associations.",
        "Discussion. FDA presented a proposal on {science_areas}. Industry asked how the proposal would affect review timelines and whether additional resources would be required. FDA indicated that {hires} additional full-time equivalents would be needed and that the costs would be reflected in the fee structure.",
        "Financial topics. The parties discussed the operating reserve, the capacity planning adjustment and the methodology for setting fees. Industry proposed a cap on the carryover balance; FDA agreed to provide additional data at the next meeting.",
        "Next steps. The parties agreed to continue discussion of outstanding items, including performance goal metrics and hiring commitments, at the next meeting. FDA will post these minutes on its website in accordance with the statute.",
    ),
}  # fmt: skip
UFA_SCIENCE = (
    "model-informed drug development",
    "real-world evidence",
    "complex generic products",
    "rare disease endpoints",
    "patient-focused drug development",
    "digital health technologies",
    "cell and gene therapy review capacity",
    "biosimilar interchangeability",
)
ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII")

# strengths by how a biologic's name is formed
BIO_STRENGTHS = {
    "mab": ("150 mg/mL", "300 mg/2 mL", "100 mg/10 mL", "40 mg/0.4 mL"),
    "vaccine": ("0.5 mL single dose",),
    "gene": ("1.1 × 10¹⁴ vector genomes per kg",),
    "cell": ("up to 2 × 10⁸ CAR-positive viable T cells",),
    "ig": ("10%", "20%"),
}  # fmt: skip
PUMP_DRUGS = (
    "heparin",
    "insulin",
    "vancomycin",
    "norepinephrine",
    "parenteral nutrition",
    "oxytocin",
    "morphine",
)

RECALL_PR_HEADER = (
    "Company Announcement\nDate: {date}\nCompany Name: {firm}\nBrand Name: {brand}\n"
    "Product Description: {product}\nReason for Announcement: {reason}\nProduct Type: {ptype_title}"
)
RECALL_USES = {
    "drug": "{ingredient} {form}, used for the treatment of {indication_lower}",
    "device": "{a_generic} {generic_lower} used in hospitals, clinics and homes",
    "biologic": "a biological product used for {indication_lower}",
    "food": "a food product sold refrigerated and at room temperature in retail stores",
    "veterinary": "intended for animal use only",
    "cosmetics": "a personal care product sold at retail",
    "tobacco": "a tobacco product intended for adults 21 years of age and older",
}  # fmt: skip
RECALL_PACKAGES = {
    "drug": ("HDPE bottles of 30 and 90 tablets", "cartons of 10 single-dose vials", "blister cards of 28 units"),
    "device": ("individual sterile pouches, 10 per box", "a shipping carton containing one system", "trays of 24 units"),
    "biologic": ("single-dose vials in individual cartons", "prefilled syringes, 1 per carton", "250 mL bags"),
    "food": ("12 oz. plastic clamshells", "8 oz. cups", "case packs of 12 units", "5 lb. bags"),
    "veterinary": ("30 lb. bags", "50 lb. bags", "bottles of 100 chewable tablets"),
    "cosmetics": ("6 oz. aerosol cans", "4 fl. oz. bottles", "12-count display boxes"),
    "tobacco": ("retail boxes of 10 devices", "60 mL bottles", "tins of 20 pouches"),
}  # fmt: skip
MAUDE_HEADER = (
    "MAUDE Adverse Event Report\nReport Number: {report_number}\nEvent Type: {event_label}\n"
    "Date Received: {date}\nDate of Event: {event_date}\nManufacturer: {firm}, {city_line}\n"
    "Brand Name: {product}\nCommon Device Name: {generic}\nProduct Code: {code}\n"
    "Device Problem: {problem}\nPatient Problem: {patient_problem}\nReport Source: {source}"
)
MAUDE_DEVICE_INFO = (
    "Device information: model number {model}, catalog number {catalog}, lot number {lot}, "
    "expiration date {exp}. Device age approximately {months} months. Was the device available for "
    "evaluation: {available}. Is this a single-use device that was reprocessed and reused: No. "
    "Date manufacturer received the report: {mfr_date}."
)
MOD_SUFFIXES = (" 2", " Pro", " XL", " Plus", " II", " Max", " S", " Connect")

# --- more sections (longer documents) ---------------------------------------------------------

LABEL_MORE = (
    "6.2 Postmarketing Experience: the following adverse reactions have been identified during post-approval use of {ingredient}: {pt1}, {pt2} and {pt3}. Because these reactions are reported voluntarily from a population of uncertain size, it is not always possible to reliably estimate their frequency or establish a causal relationship to drug exposure.",
    "8.4 Pediatric Use: safety and effectiveness in pediatric patients younger than 18 years have not been established. 8.5 Geriatric Use: no overall differences in safety or effectiveness were observed between patients 65 years and older and younger patients. 8.6 Renal Impairment: no dosage adjustment is recommended for patients with mild or moderate renal impairment; {product} is not recommended in patients with an eGFR below 30 mL/min/1.73 m². 8.7 Hepatic Impairment: exposure increased approximately {fold}-fold in patients with moderate hepatic impairment (Child-Pugh B).",
    "10 OVERDOSAGE. There is no specific antidote for overdosage with {product}. In the event of overdose, consider contacting the Poison Help line (1-800-222-1222) or a medical toxicologist for overdosage management recommendations. Treatment should be supportive and symptomatic. {ingredient} is highly protein bound and is not expected to be removed by hemodialysis.",
    "11 DESCRIPTION. {product} contains {ingredient}, {a_epc} {epc}. {ingredient_title} is a white to off-white crystalline powder that is {solubility}. Each {form_unit} contains {strength} of {ingredient} and the following inactive ingredients: {excipients}.",
    "13 NONCLINICAL TOXICOLOGY. 13.1 Carcinogenesis, Mutagenesis, Impairment of Fertility: in 2-year carcinogenicity studies, no drug-related tumors were observed in mice at exposures up to {fold} times the human exposure at the maximum recommended dose. {ingredient} was not mutagenic in the Ames assay and was not clastogenic in an in vitro chromosomal aberration assay. Fertility was not affected in male or female rats.",
)  # fmt: skip
SOLUBILITY = (
    "freely soluble in water",
    "slightly soluble in water and soluble in methanol",
    "practically insoluble in water",
    "soluble in dimethyl sulfoxide and sparingly soluble in ethanol",
)
EXCIPIENTS = (
    "microcrystalline cellulose, lactose monohydrate, croscarmellose sodium, magnesium stearate and hypromellose",
    "mannitol, crospovidone, povidone, colloidal silicon dioxide and sodium stearyl fumarate",
    "sodium chloride, sodium phosphate, polysorbate 80 and water for injection",
    "hydroxypropyl cellulose, talc, titanium dioxide, polyethylene glycol and iron oxide yellow",
)  # fmt: skip
REVIEW_MORE = (
    "9. Nonclinical Pharmacology/Toxicology. The nonclinical program included repeat-dose toxicity studies of up to {tox_weeks} weeks in rats and dogs, safety pharmacology, genotoxicity, embryo-fetal development and carcinogenicity studies. Target organs of toxicity were the liver and gastrointestinal tract at exposures well above the clinical exposure. The pharmacology/toxicology reviewer recommended approval with no postmarketing requirements.",
    "10. Statistical Review. The primary analysis used a mixed model for repeated measures in the intent-to-treat population, with multiple imputation for missing data under a missing-not-at-random assumption. The statistical reviewer confirmed the applicant's primary analysis; sensitivity analyses, including a tipping point analysis, supported the robustness of the finding. Type I error was controlled for the key secondary endpoints with a hierarchical testing procedure.",
    "11. Office of Scientific Investigations. Clinical site inspections were conducted at {n_sites} domestic and foreign sites selected on the basis of enrollment and treatment effect. The final classification for all sites was No Action Indicated or Voluntary Action Indicated, and the data submitted in support of the application are considered reliable.",
    "12. Advisory Committee Meeting. The Division did not refer this application to an advisory committee because the efficacy and safety profile of the product is consistent with other members of the class and the application did not raise significant public health questions on the role of the drug in the treatment of {indication_lower}.",
)  # fmt: skip
NDA_MORE = (
    "ADVISORY COMMITTEE. Your application for {product} was not referred to an FDA advisory committee because the application did not raise significant safety or efficacy issues that were unexpected for a drug of this class, and outside expertise was not necessary.",
    "FDA has determined that a Medication Guide is necessary for the safe and effective use of {product}. Please note that the Medication Guide must be provided with each prescription dispensed, as required under 21 CFR 208.24. The approved Medication Guide is enclosed and is part of the approved labeling for this product.",
    "PATENT AND EXCLUSIVITY. We note that your application qualifies for a period of new chemical entity exclusivity under section 505(c)(3)(E)(ii) of the FDCA. Please submit updated patent information as required under 21 CFR 314.53 within 30 days of the date of this letter.",
)  # fmt: skip
ANDA_MORE = (
    "PATENT CERTIFICATION. Your ANDA contains paragraph IV certifications under section 505(j)(2)(A)(vii)(IV) of the FD&C Act stating that the patents listed in the Orange Book for the RLD are invalid, unenforceable, or will not be infringed by the manufacture, use, or sale of your product. You have notified the agency that the patent owner and NDA holder were notified and that no action for infringement was brought within the statutory period.",
    "LABELING. Your labeling is in accordance with the current labeling of the RLD, with differences permitted under 21 CFR 314.94(a)(8)(iv). Within 14 days of the date of this letter, submit the content of labeling in structured product labeling (SPL) format. You must submit final printed labeling identical to the approved labeling text.",
    "ANNUAL REPORTS. Submit annual reports as required under 21 CFR 314.81(b)(2), including a summary of significant new information, distribution data, labeling, chemistry, manufacturing and controls changes, and the status of postmarketing commitments. The approved expiration dating period is {shelf} months.",
)  # fmt: skip
SUPPLEMENT_MORE = (
    "We also refer to our letter dated {date_a}, notifying you, under section 505(o)(4) of the FDCA, of new safety information that we believe should be included in the labeling for {ingredient}. This information pertains to the risk of {risk_lower}. This supplemental application provides for revisions to the labeling consistent with our letter.",
    "CONTENT OF LABELING. As soon as possible, but no later than 14 days from the date of this letter, submit the content of labeling in structured product labeling (SPL) format that is identical to the enclosed labeling text for the Prescribing Information and Medication Guide, with the addition of any labeling changes in pending supplements.",
)  # fmt: skip
SBRA_MORE = (
    "6. Clinical Pharmacology. The pharmacokinetics of {nonproprietary} were characterized by population analysis of data from {n_trials} studies. Exposure increased approximately dose-proportionally; the terminal half-life was approximately {half_life} days. Body weight was the only covariate with a clinically relevant effect on exposure, and no dose adjustment is recommended. The incidence of anti-drug antibodies was {pct}%, with no apparent effect on efficacy or safety.",
    "7. Facilities Review and Inspections. The drug substance and drug product facilities were inspected before approval. Observations at the drug product facility concerned environmental monitoring and container closure integrity testing; the responses were adequate. All facilities are acceptable for the manufacture of {product}.",
    "8. Advisory Committee Meeting. An advisory committee meeting was not held because the review did not identify issues that would benefit from committee discussion. 9. Labeling. The proprietary name {product} was found acceptable. The package insert, patient information and carton and container labels were reviewed and revised during the review cycle.",
)  # fmt: skip
K_MORE = (
    "Substantial equivalence comparison. Intended use: same as predicate. Principle of operation: same. Patient-contacting materials: {materials} (predicate: same or equivalent). Energy source: {energy}. Sterilization: {sterilization} (predicate: same). Shelf life: {shelf} months (predicate: {shelf_pred} months). Software: {software_level} documentation level (predicate: not applicable or equivalent).",
    "Biocompatibility. The patient-contacting components are classified as {contact_category} according to ISO 10993-1. The following endpoints were evaluated: cytotoxicity (ISO 10993-5), sensitization and irritation (ISO 10993-10 and 10993-23), acute systemic toxicity and material-mediated pyrogenicity (ISO 10993-11). All test results met the acceptance criteria.",
    "Risk management and usability. A risk analysis was performed in accordance with ISO 14971, and all identified risks were reduced as far as possible. A human factors validation study with {n_users} representative users demonstrated that the device can be used safely and effectively by the intended users in the intended use environment.",
)  # fmt: skip
PMA_SUPPLEMENT_MORE = (
    "Design verification and validation. The modified device was subjected to the same bench testing as the approved device, including dimensional verification, mechanical integrity, simulated use, and accelerated aging. All acceptance criteria were met. The risk analysis was updated, and no new risks were identified as a result of the change.",
    "Manufacturing. The change was implemented under the firm's design control and change control procedures. Process validation, including installation, operational and performance qualification, was completed at the manufacturing site. An FDA inspection of the site was not necessary to approve this supplement.",
)  # fmt: skip
SSED_MORE = (
    "Secondary endpoints. Technical success was achieved in {tech_pct}% of subjects. At 12 months, {nyha_pct}% of subjects showed improvement of at least one functional class, and quality of life scores improved by a mean of {qol} points from baseline. Subgroup analyses by sex, age and anatomy showed consistent results.",
    "XIII. CDRH DECISION. CDRH issued an approval order on {date}. The final conditions of approval cited in the approval order are described in the approval letter. The applicant's manufacturing facilities have been inspected and found to be in compliance with the device Quality System (QS) regulation (21 CFR 820).",
)  # fmt: skip
GUIDANCE_MORE = (
    "E. Risk Assessment. FDA recommends a risk-based approach to {topic} that considers the likelihood and severity of harm to patients or consumers. The risk assessment should be documented, reviewed by the quality unit, and updated when new information becomes available, for example from complaints, deviations or inspection findings.",
    "F. Change Management. Changes that affect {topic} should be evaluated under a change control system before implementation. The evaluation should consider whether a regulatory submission is needed and whether additional verification or validation is necessary. FDA encourages the use of comparability protocols and predetermined change control plans where appropriate.",
    "G. Communication With FDA. Sponsors and manufacturers may contact the responsible center with questions about {topic}. For questions that arise during the review of an application, contact the review division. FDA intends to provide timely feedback through the meeting processes described in related guidance documents.",
    "H. Questions and Answers. Question: Does this guidance apply to products already on the market? Answer: Yes. Manufacturers should assess existing products against the recommendations in this guidance and prioritize any remediation based on risk. Question: Will FDA review {topic} during inspections? Answer: Investigators may evaluate whether the recommended practices are implemented.",
    "I. Special Considerations for Small Businesses. FDA recognizes that small businesses may face particular challenges in implementing the recommendations on {topic}. The Agency's small business assistance programs can provide information and help, and a scaled approach commensurate with the complexity of operations may be appropriate.",
)  # fmt: skip
TRIAL_MORE = (
    "Study Procedures: after a screening period of up to {screen_days} days, eligible participants will attend study visits at Weeks 2, 4, 8 and every 4 weeks thereafter. Efficacy assessments, vital signs, electrocardiograms, clinical laboratory tests and adverse event monitoring will be performed at each visit. Blood samples for pharmacokinetic analysis will be collected at prespecified time points.",
    "Statistical Analysis Plan: the primary efficacy analysis will be performed on the full analysis set, defined as all randomized participants who received at least one dose of study drug. A sample size of {enrollment} participants provides approximately 90% power to detect the assumed treatment difference at a two-sided significance level of 0.05, allowing for a 15% dropout rate.",
    "Safety Monitoring: an independent data monitoring committee will review unblinded safety data approximately every 6 months. Stopping rules for individual participants include confirmed liver enzyme elevations above 5 times the upper limit of normal, QTcF prolongation above 500 ms, and serious hypersensitivity reactions.",
)  # fmt: skip
FAERS_MORE = (
    "Relevant medical history and concurrent conditions: {history}; {history2}. The patient had no known drug allergies. Past drug therapy included {concomitant_past}. The patient was a {smoker} and reported {alcohol} alcohol use.",
    "Relevant tests: {labs} on {followup}. Imaging and other diagnostic results were not reported. The patient's vital signs at presentation included blood pressure {bp} mmHg and heart rate {hr} beats per minute.",
    "Reporter's comment: the reporter considered the event to be {causality} to the suspect drug given the temporal relationship. Company comment: {reaction_upper} is a labeled event for {ingredient}. Based on the information available, a causal role of the suspect product cannot be excluded. This case will be included in the next periodic safety report.",
)  # fmt: skip
MAUDE_MORE = (
    "Additional Manufacturer Narrative: The complaint was investigated in accordance with the manufacturer's complaint handling procedure. Method: {method}. Results: {result}. Conclusion: {conclusion}. The manufacturer will continue to monitor for similar events through post-market surveillance.",
    "Device Evaluated by Manufacturer: {available}. Manufacturer Site: {city_line}. Single Use Device Reprocessed: No. Type of Report: {report_kind}. Corrective Action Number: {capa}. Remedial action: {remedial}.",
)  # fmt: skip
MAUDE_METHODS = (
    "visual inspection and functional testing of the returned device",
    "review of the device history record and complaint history",
    "analysis of device log files",
    "dimensional analysis and scanning electron microscopy",
)
MAUDE_RESULTS = (
    "the reported failure was confirmed",
    "no anomalies were identified",
    "a component failure was identified",
    "evidence of use outside labeled conditions was identified",
)
MAUDE_CONCLUSIONS = (
    "the cause could be traced to a component failure",
    "the cause could not be determined",
    "the event was related to patient condition",
    "the device performed as intended",
)
MAUDE_REPORT_KINDS = (
    "Initial submission",
    "Follow-up #1",
    "Follow-up #2",
    "Initial submission; supplemental report to follow",
)
MAUDE_REMEDIAL = ("none", "recall", "inspection", "labeling change", "notification")
ENFORCEMENT_MORE = (
    "Product details: {description}. Code information also includes the UDI-DI or NDC printed on the carton. Product is labeled for distribution by {firm} and was distributed directly to {channels}. The firm estimates that approximately {pct}% of the product remains in the market.",
    "Firm's recall communication: the firm sent a recall notification letter dated {init_date} to its direct accounts via {notification_lower}, instructing them to examine inventory, quarantine affected product, notify their customers, and return the completed response form. The district has reviewed the firm's recall strategy and found it adequate.",
)  # fmt: skip
UFA_MORE = {
    "commitment_letter": (
        "VIII. PATIENT ENGAGEMENT. FDA will conduct patient-focused public meetings each fiscal year and will develop methodological guidance on collecting and using patient experience data in regulatory decision-making, including clinical outcome assessments.",
        "IX. DEFINITIONS AND EXPLANATION OF TERMS. The term review and act on means the issuance of a complete action letter after the complete review of a filed complete application. Goal dates are calculated from the receipt date; if the goal date falls on a weekend or holiday, it is the following business day.",
    ),
    "performance_report": (
        "Goal performance by category. Standard original applications: {g1}% on time. Priority original applications: {g2}% on time. Efficacy supplements: {g3}% on time. Manufacturing supplements requiring prior approval: {g4}% on time. Class 2 resubmissions: {g5}% on time. Meeting minutes issued within 30 days: {g6}%.",
        "Regulatory science and process commitments. FDA completed {guidances} deliverables scheduled for the fiscal year, including a public workshop on {science_areas}, and continued implementation of the structured benefit-risk framework in its review templates.",
    ),
    "financial_report": (
        "Carryover. User fee carryover consists of fees collected in previous fiscal years that were not obligated. FDA maintains a carryover balance to mitigate financial risk, such as the risk of under-collecting fees or a lapse in appropriations. The operating reserve at year end represented {weeks_reserve} weeks of operations.",
        "Full-time equivalents. The program supported {staff} FTEs in FY {fy}, an increase of {hires} from the previous year. FDA continued to use the hiring authority provided under the statute to recruit scientific and technical experts.",
    ),
    "fee_notice": (
        "Fee revenue amount. The base revenue amount for FY {fy} is the amount specified in the statute, adjusted for inflation and for changes in workload. The workload adjustment reflects changes in the number of applications, supplements and meetings, weighted by review effort, over the most recent 5-year period.",
    ),
    "meeting_minutes": (
        "Attendees. FDA: representatives of the relevant centers, the Office of the Commissioner and the Office of Finance, Budget, Acquisitions and Planning. Industry: representatives of the participating trade associations. The meeting was facilitated by FDA staff, and no decisions were made.",
    ),
}  # fmt: skip
CRL_MORE = (
    "MICROBIOLOGY. The container closure integrity testing method was not validated to detect a leak of the size that could compromise sterility. In addition, the endotoxin release specification is not justified based on the maximum daily dose. Provide validation data and a revised specification.",
    "RISK EVALUATION AND MITIGATION STRATEGY. Based on the safety findings described above, a REMS may be necessary to ensure that the benefits of the drug outweigh its risks. We will determine whether a REMS is necessary once the application is otherwise adequate.",
)  # fmt: skip

# --- documents assembled from the sections above ----------------------------------------------

LABEL = (
    *LABEL_SECTIONS[:6],
    LABEL_MORE[0],
    LABEL_SECTIONS[6],
    *LABEL_MORE[1:4],
    LABEL_SECTIONS[7],
    LABEL_MORE[4],
    *LABEL_SECTIONS[8:],
)
REVIEW = (*REVIEW_SECTIONS[:-1], *REVIEW_MORE, REVIEW_SECTIONS[-1])
NDA_APPROVAL = (*NDA_LETTER[:-1], *NDA_MORE, NDA_LETTER[-1])
ANDA_APPROVAL = (*ANDA_LETTER[:-1], *ANDA_MORE, ANDA_LETTER[-1])
SUPPLEMENT_APPROVAL = (
    SUPPLEMENT_LETTER[0],
    SUPPLEMENT_MORE[0],
    SUPPLEMENT_LETTER[1],
    SUPPLEMENT_MORE[1],
    *SUPPLEMENT_LETTER[2:],
)
BLA_DOCUMENTS = {
    "approval_letter": BLA_SECTIONS["approval_letter"],
    "package_insert": LABEL,
    "summary_basis_for_regulatory_action": (*BLA_SECTIONS["summary_basis_for_regulatory_action"], *SBRA_MORE),
    "review_memo": REVIEW,
    "supplement_approval": BLA_SECTIONS["supplement_approval"],
}  # fmt: skip
K_SUBMISSION = (*K_SUMMARY[:4], *K_MORE, *K_SUMMARY[4:])
PMA_SUPPLEMENT_LETTER = (*PMA_SUPPLEMENT[:2], *PMA_SUPPLEMENT_MORE, PMA_SUPPLEMENT[2])
SSED = (*SSED_SECTIONS[:6], SSED_MORE[0], SSED_SECTIONS[6], SSED_MORE[1])
GUIDANCE = (*GUIDANCE_SECTIONS[:8], *GUIDANCE_MORE, *GUIDANCE_SECTIONS[8:])
TRIAL_DESCRIPTION = (*TRIAL_SUMMARY, *TRIAL_MORE)
FAERS_SECTIONS = (*FAERS_NARRATIVE, *FAERS_MORE)
ENFORCEMENT_SECTIONS = (ENFORCEMENT_BODY[0], *ENFORCEMENT_MORE, *ENFORCEMENT_BODY[1:])
UFA_DOCUMENTS = {k: (*v, *UFA_MORE[k]) for k, v in UFA_SECTIONS.items()}
CRL_ISSUES = (*CRL_DEFICIENCIES, *CRL_MORE)

# --- slots filled on demand: a fresh random value each time a paragraph uses one --------------

SLOT_CHOICES: dict[str, tuple[object, ...]] = {
    "equip": DETAIL_FILLERS["equip"],
    "room": DETAIL_FILLERS["room"],
    "failure_mode": DETAIL_FILLERS["failure_mode"],
    "component": DETAIL_FILLERS["component"],
    "drug_hint": PUMP_DRUGS,
    "finding": MAUDE_FINDINGS,
    "inadequate": WL_INADEQUATE,
    "claim": ONLINE_CLAIMS,
    "adulterant": ADULTERANTS,
    "imitation": YOUTH_IMITATIONS,
    "delivery": WL_DELIVERY,
    "inspection_type": INSPECTION_TYPES,
    "investigator2_title": INVESTIGATOR_TITLES,
    "prev_class": ("NAI", "NAI", "VAI", "OAI"),
    "sampled": ("not collected", "collected of finished product and submitted for laboratory analysis", "collected of in-process materials and environmental swabs"),
    "found_by": RECALL_FOUND_BY,
    "corrective": RECALL_CORRECTIVE,
    "lot_count": ("one", "two", "three", "four", "six", "twelve"),
    "distribution": DISTRIBUTIONS,
    "root_cause": ROOT_CAUSES,
    "check_level": ("A", "B", "C"),
    "public_warning": ("issued by the firm", "not issued", "issued by FDA"),
    "source": MAUDE_SOURCES,
    "available": ("Yes", "No", "Returned to manufacturer"),
    "method": MAUDE_METHODS,
    "result": MAUDE_RESULTS,
    "conclusion": MAUDE_CONCLUSIONS,
    "report_kind": MAUDE_REPORT_KINDS,
    "remedial": MAUDE_REMEDIAL,
    "report_type": FAERS_TYPES,
    "case_source": ("spontaneous", "solicited", "literature"),
    "history2": FAERS_HISTORY,
    "concomitant_past": CONCOMITANTS[:-1],
    "smoker": ("non-smoker", "former smoker", "current smoker"),
    "alcohol": ("no", "occasional", "moderate"),
    "action": FAERS_ACTIONS,
    "dechallenge": FAERS_DECHALLENGE,
    "causality": FAERS_CAUSALITY,
    "company_causality": FAERS_CAUSALITY,
    "labs": FAERS_LABS,
    "solubility": SOLUBILITY,
    "excipients": EXCIPIENTS,
    "support": SUPPLEMENT_SUPPORT,
    "review_type": ("standard", "priority", "standard"),
    "presentation": BIO_PRESENTATIONS,
    "bioreactor": ("2,000", "5,000", "12,000", "15,000"),
    "n_trials": ("two", "three", "two", "four"),
    "ped_low": ("2", "6", "12"),
    "tmax": (0.5, 1, 1.5, 2, 3, 4),
    "titration": (1, 2, 4),
    "otc": ("", "", " and by lay users in the home environment"),
    "software_sentence": ("The device includes software of moderate level of concern.", "The software uses a locked machine learning algorithm.", "The device does not contain software."),
    "pas_years": (3, 5, 10),
    "pas_endpoint": ("reintervention and device-related adverse events", "late device failure", "all-cause mortality and stroke"),
    "years_eq": (5, 10, 15),
    "goal": (80, 85, 87),
    "pma_change": PMA_CHANGES,
    "suppl_type": PMA_SUPPL_TYPES,
    "pma_support": PMA_SUPPORT,
    "fu_weeks": (4, 8, 12),
    "ratio": ("1:1", "2:1", "1:1:1"),
    "timeframe": ("Baseline to Week 12", "Baseline to Week 26", "Up to 5 years", "Week 52"),
    "why_stopped": WHY_STOPPED,
    "secondary2": SECONDARY_OUTCOMES[1:5],
    "secondary3": SECONDARY_OUTCOMES[5:],
    "observed": GUIDANCE_OBSERVED,
    "scope": GUIDANCE_SCOPE,
    "implementation": GUIDANCE_IMPLEMENTATION,
    "science_areas": UFA_SCIENCE,
    "instrument": ("HPLC system", "gas chromatograph", "dissolution tester", "UV spectrophotometer", "Karl Fischer titrator"),
    "shelf_months": (24, 36, 48, 60),
    "shifts": ("one production shift", "two production shifts", "three production shifts"),
}  # fmt: skip

SLOT_RANGES: dict[str, tuple[int, int]] = {
    "n": (2, 14), "m": (16, 60), "pct": (3, 35), "days2": (20, 120), "minutes": (5, 90),
    "volume": (20, 400), "mm": (3, 40), "code_n": (100, 999), "glucose": (40, 70),
    "glucose2": (150, 320), "day": (2, 9), "months": (3, 60), "pct_low": (1, 6),
    "ae1_pct": (9, 24), "ae2_pct": (6, 12), "ae3_pct": (5, 8), "disc_pct": (3, 12),
    "disc_pbo": (1, 5), "half_life": (4, 40), "ss_days": (2, 7), "n_year": (120, 900),
    "steps": (4, 11), "tox_weeks": (13, 52), "n_sites": (4, 60), "n_users": (15, 45),
    "tech_pct": (93, 99), "nyha_pct": (55, 85), "qol": (8, 25), "screen_days": (14, 42),
    "hr": (58, 124), "amend_n": (2, 40), "lots": (3, 30), "sae_pct": (3, 20), "sae_pbo": (2, 15),
    "site_n": (100, 999), "site_n2": (100, 999), "site_n3": (100, 999), "shelf_pred": (12, 36),
    "g1": (88, 99), "g2": (85, 99), "g3": (86, 99), "g4": (90, 99), "g5": (88, 100), "g6": (80, 98),
    "weeks_reserve": (8, 14), "hires": (40, 260), "met_goals": (10, 14), "received": (40, 900),
    "acted_pct": (88, 99), "first_cycle": (60, 92), "meeting_pct": (85, 99), "guidances": (2, 14),
    "workshops": (2, 9), "pay_pct": (62, 78), "rent_pct": (8, 15), "it_pct": (5, 14),
    "phone": (1000, 9999), "weight": (48, 130), "latency": (2, 180), "completed_pct": (78, 96),
}  # fmt: skip

DRAFT_NOTICE = (
    "Comments and suggestions regarding this draft document should be submitted within 60 days "
    "of publication in the Federal Register of the notice announcing the availability of the "
    "draft guidance. Submit electronic comments to https://www.regulations.gov, identified with "
    "the docket number listed in the notice of availability. "
)

# device category -> parts, patient-contacting materials, energy source, use setting, contact
# category (ISO 10993-1), typical change, typical bench test
DEVICE_PROFILES = {
    "pump": ("a pump module, a dedicated administration set and a drug library editor", "polycarbonate housing; PVC-free tubing", "AC mains power with lithium-ion battery backup", "hospital and home use", "external communicating, blood path indirect, prolonged contact", "an updated drug library and wireless connectivity", "flow rate accuracy testing per IEC 60601-2-24"),
    "catheter": ("a radiopaque polyurethane catheter, a needle and a safety mechanism", "polyurethane and stainless steel", "none (manual)", "hospital use", "external communicating, circulating blood, prolonged contact", "a modified safety mechanism", "flow rate, tensile and leak testing per ISO 10555"),
    "disposable": ("a single-use sterile device supplied in a blister pack", "medical-grade polymers", "none (manual)", "hospital and home use", "surface device, mucosal membrane, limited contact", "a new packaging configuration", "performance testing per the applicable ISO product standard"),
    "monitor": ("a handheld unit, a reusable sensor and software", "medical-grade silicone and polycarbonate", "rechargeable lithium-ion battery", "hospital, clinic and home use", "surface device, intact skin, limited contact", "an updated signal processing algorithm", "accuracy testing against a reference method per ISO 80601-2-61"),
    "glucose": ("a sensor with applicator, a transmitter and a receiver or mobile application", "medical-grade adhesive and polyimide", "single-use coin cell battery", "home use by persons with diabetes", "surface device, breached skin, prolonged contact", "an extended wear period", "accuracy testing against a laboratory reference method"),
    "ortho": ("a titanium alloy implant with a porous coating and instruments", "titanium alloy (Ti-6Al-4V) and UHMWPE", "none (implant)", "hospital operating room use", "implant device, tissue/bone, permanent contact", "additional sizes", "static and dynamic fatigue testing per ASTM F2077"),
    "endoscope": ("a flexible insertion tube, a control section and a video processor", "stainless steel and biocompatible polymers", "AC mains power (video processor)", "hospital endoscopy suite use", "surface device, mucosal membrane, limited contact", "a redesigned elevator mechanism", "reprocessing validation per FDA guidance"),
    "surgical": ("a reusable handle, single-use reloads and accessories", "stainless steel and titanium staples", "rechargeable battery (powered handle)", "hospital operating room use", "external communicating, tissue, limited contact", "a new reload size", "staple formation and burst pressure testing"),
    "implant": ("an implantable component and an inserter", "silicone elastomer and titanium", "none (implant)", "hospital operating room use", "implant device, tissue, permanent contact", "a modified material supplier", "mechanical integrity and fatigue testing"),
    "respiratory": ("a blower unit, a humidifier, a patient circuit and a mask interface", "silicone, polycarbonate and polyester", "AC mains power with internal battery", "hospital and home use", "surface device, breathing gas pathway, prolonged contact", "a redesigned sound abatement material", "volatile organic compound and particulate emission testing per ISO 18562"),
    "imaging": ("a gantry, a patient table, an operator console and reconstruction software", "not applicable (no patient-contacting materials besides the table pad)", "AC mains power", "hospital and imaging center use", "surface device, intact skin, limited contact", "an updated reconstruction algorithm", "image quality and dose testing per IEC 60601-2-44"),
    "software": ("software running on off-the-shelf hardware or a cloud platform", "not applicable (software only)", "not applicable", "professional use in healthcare facilities", "not applicable (no patient contact)", "a retrained algorithm", "standalone performance testing on an independent dataset"),
    "cardiac": ("an implantable device, a delivery system and accessories", "cobalt-chromium alloy, platinum-iridium and polymer coating", "lithium battery (implantable devices)", "hospital catheterization laboratory use", "implant device, circulating blood, permanent contact", "a modified delivery catheter", "acute and chronic durability testing per ISO 25539"),
}  # fmt: skip
# device firm name core -> the device categories such a firm makes
CORE_CATEGORIES = {
    "Orthopedics": ("ortho", "implant"), "Cardiovascular": ("cardiac", "monitor", "catheter"),
    "Imaging Systems": ("imaging", "software"), "Diagnostics": ("glucose", "monitor", "software"),
    "Surgical": ("surgical", "endoscope", "disposable"), "Instruments": ("surgical", "endoscope", "monitor"),
}  # fmt: skip
RECALL_SETTINGS = {
    "drug": (("consumer", "retail", "hospital", "wholesale"), ("wholesalers, distributors and retail pharmacies", "hospitals and clinics")),
    "device": (("user", "hospital", "consumer"), ("hospitals and clinics", "distributors and durable medical equipment suppliers")),
    "biologic": (("hospital", "user", "consignee"), ("hospitals, blood centers and transfusion services",)),
    "food": (("consumer", "retail"), ("retail grocery stores", "distributors and restaurants", "online retailers and distributors")),
    "veterinary": (("consumer", "retail"), ("veterinary clinics and farm supply stores", "pet specialty retailers")),
    "cosmetics": (("consumer", "retail"), ("retail stores and online retailers",)),
    "tobacco": (("retail", "consumer"), ("vape shops and online retailers", "convenience stores")),
}  # fmt: skip
# application prefix -> (original application, supplemental application, statute)
APPLICATIONS = {
    "NDA": ("new drug application (NDA)", "supplemental new drug application (sNDA)", "section 505(b) of the Federal Food, Drug, and Cosmetic Act (FDCA)"),
    "ANDA": ("abbreviated new drug application (ANDA)", "prior approval supplement to your abbreviated new drug application (ANDA)", "section 505(j) of the Federal Food, Drug, and Cosmetic Act (FDCA)"),
    "BLA": ("biologics license application (BLA)", "supplemental biologics license application (sBLA)", "section 351(a) of the Public Health Service Act (PHS Act)"),
}  # fmt: skip

# --- document titles, keys and catalog fields, filled from each document's slots --------------

TITLES = {
    "fda_483": "Form FDA 483 Inspectional Observations: {firm}, {city_short} (FEI {fei})",
    "fda_inspections": "FDA Inspection of {firm}, {city_short} (FEI {fei}): {classification}",
    "fda_warning_letters": "Warning Letter to {firm}: {subject}",
    "fda_recalls": "{firm} Issues Voluntary Nationwide Recall of {brand} Due to {reason_short}",
    "fda_recall_enforcement": "{recall_number}: {brand} ({firm}), {classification} recall",
    "fda_maude": "MAUDE Report {report_number}: {product}, {firm} ({problem})",
    "fda_faers": "FAERS Case {report_id}: {named}, {reaction_upper}",
    "fda_drug:approval_letter": "{app} {named} {form}: Approval Letter",
    "fda_drug:label": "{named} {form}: Prescribing Information ({app})",
    "fda_drug:review": "{app} {named}: Summary Review for Regulatory Action",
    "fda_drug:other": "{app}/S-{suppl:03d} {named}: Supplement Approval Letter",
    "fda_biologic:approval_letter": "{app} {named}: BLA Approval Letter",
    "fda_biologic:package_insert": "{app} {named}: Package Insert",
    "fda_biologic:summary_basis_for_regulatory_action": "{app} {named}: Summary Basis for Regulatory Action",
    "fda_biologic:review_memo": "{app} {named}: Clinical Review Memorandum",
    "fda_biologic:supplement_approval": "{app}/{suppl_code} {named}: Supplement Approval",
    "fda_crl": "Complete Response Letter: {app} {named}, {firm}",
    "fda_denovo_or_510k:510k": "{number}: {product} ({generic}), {firm}",
    "fda_denovo_or_510k:de_novo": "{number}: De Novo Classification Request for {product} ({generic}), {firm}",
    "fda_pma:original": "{number}: {product}, {firm}: PMA Approval Order ({generic})",
    "fda_pma:supplement": "{number}/{suppl_code}: {product}, {firm}: PMA Supplement Approval",
    "fda_clinical_trials": "{nct}: {brief_title}",
    "fda_guidance": "{shown_title}",
    "fda_ufa:commitment_letter": "{program} {roman} Commitment Letter: Performance Goals and Procedures, Fiscal Years {fy_start} Through {fy_end}",
    "fda_ufa:performance_report": "FY {fy} {program} Performance Report to Congress",
    "fda_ufa:financial_report": "FY {fy} {program} Financial Report to Congress",
    "fda_ufa:fee_notice": "{program_long}: Fee Rates for Fiscal Year {fy}",
    "fda_ufa:meeting_minutes": "{program} Reauthorization Meeting with Industry: Minutes, {date}",
}  # fmt: skip
KEYS = {
    "fda_483": "{fei}-{iso}", "fda_inspections": "{fei}-{iso}", "fda_warning_letters": "{ref_id}-{iso}",
    "fda_recalls": "{fei}-{iso}", "fda_recall_enforcement": "{recall_number}",
    "fda_maude": "{report_number}", "fda_faers": "{report_id}", "fda_drug": "{app}-{document_type}-{iso}",
    "fda_biologic": "{app}-{document_type}-{iso}", "fda_crl": "{app}-{iso}",
    "fda_denovo_or_510k": "{number}", "fda_pma": "{number}", "fda_pma:supplement": "{number}-{suppl_code}",
    "fda_clinical_trials": "{nct}", "fda_guidance": "{docket}", "fda_ufa": "{program}-{doc_type}-{iso}",
}  # fmt: skip
# dataset -> catalog field -> the slot that holds its value (title, url and the date come from emit)
FIELD_SLOTS = {
    "fda_drug": {"application_number": "app", "sponsor": "firm", "brand_name": "product", "active_ingredient": "ingredient", "document_type": "document_type"},
    "fda_biologic": {"bla_number": "app", "applicant": "firm", "product_name": "product", "document_type": "document_type"},
    "fda_denovo_or_510k": {"submission_number": "number", "applicant": "firm", "device_name": "product", "product_code": "code", "pathway": "pathway", "decision": "decision"},
    "fda_pma": {"pma_number": "number", "applicant": "firm", "trade_name": "product", "product_code": "code"},
    "fda_guidance": {"center": "center", "status": "status", "topic": "topic", "docket_number": "docket"},
    "fda_warning_letters": {"company": "firm", "issuing_office": "office", "subject": "subject", "posted_date": "posted_iso"},
    "fda_clinical_trials": {"nct_id": "nct", "sponsor": "firm", "phase": "phase", "overall_status": "status", "conditions": "conditions"},
    "fda_483": {"facility_name": "firm", "fei_number": "fei", "record_id": "record_id"},
    "fda_inspections": {"firm_name": "firm", "fei_number": "fei", "classification": "classification", "project_area": "project_area"},
    "fda_recalls": {"company": "firm", "product_type": "ptype", "brand_name": "brand", "reason": "reason"},
    "fda_crl": {"application_number": "app", "company": "firm"},
    "fda_ufa": {"program": "program"},
    "fda_recall_enforcement": {"recall_number": "recall_number", "recalling_firm": "firm", "classification": "classification", "product_type": "ptype_title", "status": "status"},
    "fda_maude": {"report_number": "report_number", "brand_name": "product", "manufacturer": "firm", "product_code": "code", "event_type": "event_type"},
    "fda_faers": {"safety_report_id": "report_id", "drug_name": "product", "reaction": "reactions", "serious": "serious"},
}  # fmt: skip

ONLINE_PRODUCTS = (
    "Ultra Relief capsules",
    "Max Vital tablets",
    "Pure Slim capsules",
    "Prime Boost softgels",
    "Natural Calm drops",
)
MASKING = {
    True: ("double-blind", "placebo", "Quadruple (Participant, Care Provider, Investigator, Outcomes Assessor)"),
    False: ("open-label", "active", "None (Open Label)"),
}  # fmt: skip
GUIDANCE_STATUS = {
    "draft": "DRAFT GUIDANCE — This guidance document is being distributed for comment purposes only.",
    "final": "Final Guidance",
}  # fmt: skip
OFFICIAL_TITLE = "A {phase}, Randomized, {masking}, {control}-Controlled Study to Evaluate the Efficacy and Safety of {drug} in Participants With {condition}"
ELIGIBILITY = "Eligibility Criteria. Inclusion Criteria: {inclusion}. Exclusion Criteria: {exclusion}. Ages Eligible for Study: 18 Years and older. Sexes Eligible: All. Accepts Healthy Volunteers: No."
LOCATIONS = "Locations: {locations}."
TRIAL_OUTCOMES_MIX = {
    "completed": 70,
    "terminated": 12,
    "unknown": 10,
    "withdrawn": 3,
    "suspended": 2,
}
UFA_WEIGHTS = {
    "PDUFA": 35,
    "GDUFA": 20,
    "MDUFA": 20,
    "BsUFA": 10,
    "ADUFA": 6,
    "AGDUFA": 5,
    "OMUFA": 4,
}
FREQUENCIES = {
    "oral": ("once daily", "twice daily", "once daily at bedtime"),
    "subcutaneous": ("once weekly", "every 2 weeks", "every 4 weeks"),
    "intravenous": ("every 3 weeks", "every 4 weeks", "once daily"),
}  # fmt: skip
CLASS_DIVISIONS = {
    "statin": "Division of Diabetes, Lipid Disorders, and Obesity", "sglt2": "Division of Diabetes, Lipid Disorders, and Obesity",
    "dpp4": "Division of Diabetes, Lipid Disorders, and Obesity", "glp1": "Division of Diabetes, Lipid Disorders, and Obesity",
    "doac": "Division of Cardiology and Nephrology", "arb": "Division of Cardiology and Nephrology",
    "ssri": "Division of Psychiatry", "antipsychotic": "Division of Psychiatry", "antiepileptic": "Division of Neurology 1",
    "opioid": "Division of Anesthesiology, Addiction Medicine, and Pain Medicine", "nsaid": "Division of Anesthesiology, Addiction Medicine, and Pain Medicine",
    "ppi": "Division of Gastroenterology", "fluoroquinolone": "Division of Anti-Infectives", "kinase_inhibitor": "Division of Oncology 2",
    "antiviral": "Division of Antivirals", "corticosteroid_inhaled": "Division of Pulmonology, Allergy, and Critical Care",
    "anti_tnf": "Division of Rheumatology and Transplant Medicine", "anti_il17": "Division of Dermatology and Dentistry",
    "anti_pd1": "Division of Oncology 2", "anti_cgrp": "Division of Neurology 2", "pcsk9": "Division of Diabetes, Lipid Disorders, and Obesity",
    "anti_cd20": "Division of Hematologic Malignancies II",
}  # fmt: skip
COUNTRY_CODES = {
    "United States": "US",
    "Canada": "CA",
    "Japan": "JP",
    "Germany": "DE",
    "United Kingdom": "GB",
    "France": "FR",
    "Brazil": "BR",
}
