"""Recalls: hazards by product type, press releases and enforcement report sections."""

from __future__ import annotations

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
ENFORCEMENT_MORE = (
    "Product details: {description}. Code information also includes the UDI-DI or NDC printed on the carton. Product is labeled for distribution by {firm} and was distributed directly to {channels}. The firm estimates that approximately {pct}% of the product remains in the market.",
    "Firm's recall communication: the firm sent a recall notification letter dated {init_date} to its direct accounts via {notification_lower}, instructing them to examine inventory, quarantine affected product, notify their customers, and return the completed response form. The district has reviewed the firm's recall strategy and found it adequate.",
)  # fmt: skip
RECALL_SETTINGS = {
    "drug": (("consumer", "retail", "hospital", "wholesale"), ("wholesalers, distributors and retail pharmacies", "hospitals and clinics")),
    "device": (("user", "hospital", "consumer"), ("hospitals and clinics", "distributors and durable medical equipment suppliers")),
    "biologic": (("hospital", "user", "consignee"), ("hospitals, blood centers and transfusion services",)),
    "food": (("consumer", "retail"), ("retail grocery stores", "distributors and restaurants", "online retailers and distributors")),
    "veterinary": (("consumer", "retail"), ("veterinary clinics and farm supply stores", "pet specialty retailers")),
    "cosmetics": (("consumer", "retail"), ("retail stores and online retailers",)),
    "tobacco": (("retail", "consumer"), ("vape shops and online retailers", "convenience stores")),
}  # fmt: skip

# documents assembled from the sections above
ENFORCEMENT_SECTIONS = (ENFORCEMENT_BODY[0], *ENFORCEMENT_MORE, *ENFORCEMENT_BODY[1:])
