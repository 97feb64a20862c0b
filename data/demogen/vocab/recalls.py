"""Recalls: hazards by product type, press releases and enforcement report sections."""

from __future__ import annotations

# product type -> ((short reason, reason for recall, risk statement, class, how it was found,
# root causes, corrective actions), ...); the class follows the hazard
RECALL_HAZARDS = {
    "drugs": (
        ("Lack of Sterility Assurance", "Lack of Assurance of Sterility: an FDA inspection of the manufacturing facility found aseptic processing conditions that could result in microbial contamination of the product", "Administration of a drug product intended to be sterile that is not sterile could result in serious infections which may be life-threatening.", "Class II",
         ("an FDA inspection of the manufacturing facility",), ("aseptic processing practices that did not prevent contamination", "a media fill failure on the filling line that was not investigated before release"), ("suspending production on the filling line", "requalifying the filling line with three successful media fills")),
        ("NDMA Impurity", "CGMP Deviations: N-nitrosodimethylamine (NDMA) above the acceptable daily intake limit of 96 ng/day", "NDMA is classified as a probable human carcinogen based on results from laboratory tests. Long-term exposure above the acceptable intake may increase the risk of cancer.", "Class II",
         ("testing of retained samples", "the firm's nitrosamine risk assessment"), ("formation of NDMA during the drying of the drug substance", "nitrite in an excipient reacting with a secondary amine in the drug substance"), ("a change to the drying step of the drug substance process", "a change of excipient supplier and added nitrite testing")),
        ("Subpotency", "Subpotent Drug: assay results below specification at the {stab_month}-month stability time point", "Use of a subpotent product may result in reduced therapeutic effect and worsening of the treated condition.", "Class III",
         ("routine stability testing",), ("degradation of the active ingredient in high humidity", "a weighing error at the blending step"), ("a revised package with a desiccant", "a shortened expiration dating period")),
        ("Presence of Particulate Matter", "Presence of Particulate Matter: visible glass particles identified in retain samples", "Intravenous administration of particulate matter may cause local irritation, phlebitis, or embolic events.", "Class I",
         ("a customer complaint", "visual inspection of retain samples"), ("delamination of the glass vials", "particles shed from the vial stopper"), ("a change of vial supplier", "100% automated visual inspection of filled vials")),
        ("Mislabeling", "Labeling: Label Mix-up; bottles labeled as one strength contain tablets of a different strength", "Taking an incorrect strength could lead to overdose or underdose with potentially serious consequences.", "Class I",
         ("a pharmacist complaint",), ("a labeling mix-up during a line changeover",), ("revised line clearance procedures and label reconciliation",)),
        ("Failed Dissolution Specifications", "Failed Dissolution Specifications: low dissolution results at the {stab_month}-month stability time point", "The product may not release the active ingredient as intended, which could result in reduced efficacy.", "Class II",
         ("routine stability testing",), ("hardening of the tablet coating on storage", "a change in the particle size of the active ingredient from a new supplier"), ("a reformulated coating", "tighter particle size controls for the active ingredient")),
        ("Microbial Contamination", "Microbial Contamination of Non-Sterile Products: product found to contain Burkholderia cepacia complex", "Use of the contaminated product could result in infections that may be life-threatening in immunocompromised patients.", "Class I",
         ("FDA sampling", "the company's release testing of a later lot"), ("contamination of the purified water system", "biofilm in a transfer line that was not included in cleaning"), ("sanitization and requalification of the water system", "replacement of the transfer lines")),
        ("Superpotency", "Superpotent Drug: some tablets may contain up to {pct2}% more active ingredient than labeled", "Taking a superpotent dose may cause adverse effects related to overdose.", "Class II",
         ("a customer complaint of thicker tablets",), ("a tablet press tooling defect",), ("replacement of the press tooling and added tablet weight checks",)),
        ("Cross-Contamination", "CGMP Deviations: product may be contaminated with trace amounts of another drug made on shared equipment", "Unintended exposure to another drug may cause adverse reactions in sensitive patients.", "Class II",
         ("testing of retained samples",), ("an inadequately validated cleaning procedure",), ("revalidation of cleaning and dedicated equipment for the product",)),
    ),
    "devices": (
        ("Battery May Deplete Prematurely", "Battery may deplete prematurely without adequate warning", "Unexpected loss of device function could result in interruption of therapy and serious injury.", "Class I",
         ("complaint trending",), ("battery cells from one supplier lot with reduced capacity",), ("replacement of the battery in affected units",)),
        ("Software Anomaly", "Software anomaly in version {fw} may cause the device to display incorrect values", "Incorrect values could lead to delayed or inappropriate treatment.", "Class II",
         ("internal testing", "a customer complaint"), ("a software defect introduced in a maintenance release",), ("a software correction deployed to affected units",)),
        ("Sterile Barrier Breach", "Compromised sterile barrier packaging: seal defects identified in production", "Use of a non-sterile device could lead to infection.", "Class II",
         ("in-process seal strength testing",), ("a worn sealing die",), ("replacement of the sealing die and revalidation of the sealing process",)),
        ("Component Fracture", "Component may fracture during use", "Fracture during a procedure could result in retained fragments, the need for additional surgery, or serious injury.", "Class I",
         ("complaint investigations",), ("a material change at a component supplier that was not qualified",), ("return to the qualified material and added incoming inspection",)),
        ("Inaccurate Readings", "Device may report falsely low or high values under certain conditions", "Inaccurate readings could lead users to take inappropriate treatment actions.", "Class II",
         ("complaint trending", "a clinical site report"), ("a calibration error in the manufacturing test station",), ("recalibration of affected units and revalidation of the test station",)),
        ("Labeling Error", "Instructions for use contain incorrect reprocessing information", "Inadequate reprocessing may increase the risk of cross-contamination.", "Class II",
         ("a customer inquiry",), ("an error introduced in a labeling revision",), ("corrected instructions for use sent to all customers",)),
        ("Foam Degradation", "Sound abatement foam may degrade into particles which may enter the air pathway", "Inhaled or ingested particles may cause irritation, headache, or potentially toxic and carcinogenic effects.", "Class I",
         ("complaints of black particles in the air path",), ("breakdown of polyester-based foam in heat and humidity",), ("replacement of the foam with a new material",)),
        ("Overheating", "Power adapter may overheat during charging", "Overheating may cause burns to users or damage to the device.", "Class II",
         ("complaints of hot adapters",), ("an undersized component in the adapter circuit",), ("replacement adapters shipped to all customers",)),
    ),
    "biologics": (
        ("Donor Eligibility", "Blood products collected from a donor who should have been deferred were distributed", "Transfusion of products from an ineligible donor may pose a risk of transmission of infectious disease.", "Class II",
         ("a post-donation information report",), ("a donor history question that was not asked",), ("retraining of collection staff and a revised donor questionnaire",)),
        ("Storage Temperature Excursion", "Product was stored outside the labeled temperature range during distribution", "Product exposed to temperature excursions may have reduced potency.", "Class III",
         ("review of shipping temperature records",), ("a refrigerated truck failure during shipment",), ("temperature monitoring devices in every shipment",)),
        ("Potential Contamination", "Potential bacterial contamination identified during post-release testing", "Infusion of contaminated product could result in sepsis.", "Class I",
         ("post-release sterility testing",), ("a breach in the closed processing system",), ("requalification of the processing system",)),
        ("Low Potency", "Potency below specification at the {stab_month}-month stability time point", "A product with reduced potency may not provide the expected protection or therapeutic effect.", "Class II",
         ("routine stability testing",), ("a drift in the potency assay reference standard",), ("requalification of the reference standard and retesting of lots",)),
    ),
    "food": (
        ("Listeria monocytogenes", "Potential contamination with Listeria monocytogenes after FDA sampling found the organism on a food-contact surface", "Listeria monocytogenes can cause serious and sometimes fatal infections in young children, frail or elderly people, and others with weakened immune systems; infection can cause miscarriages and stillbirths among pregnant women.", "Class I",
         ("routine FDA sampling", "the company's environmental monitoring"), ("a resident strain in a drain near the packaging line", "inadequate sanitation of the slicer"), ("enhanced sanitation and environmental monitoring", "replacement of the packaging line conveyor")),
        ("Salmonella", "Potential contamination with Salmonella in an ingredient supplied by a third party", "Salmonella can cause serious and sometimes fatal infections; healthy persons may experience fever, diarrhea, nausea, vomiting and abdominal pain.", "Class I",
         ("a supplier notification",), ("a contaminated ingredient from a supplier",), ("a change of supplier and testing of incoming lots",)),
        ("Undeclared Milk", "Undeclared milk allergen: product containing milk was distributed in packaging that does not reveal its presence", "People who have an allergy or severe sensitivity to milk run the risk of serious or life-threatening allergic reaction if they consume this product.", "Class I",
         ("a consumer complaint of an allergic reaction",), ("a packaging mix-up between two products",), ("revised label verification at the packaging line",)),
        ("Undeclared Peanut", "Undeclared peanut allergen", "People who have an allergy or severe sensitivity to peanuts run the risk of serious or life-threatening allergic reaction if they consume this product.", "Class I",
         ("a state inspection", "a consumer complaint"), ("shared equipment used without allergen cleaning",), ("allergen cleaning verification between production runs",)),
        ("Undeclared Sesame", "Undeclared sesame allergen in the seasoning blend", "People who have an allergy or severe sensitivity to sesame run the risk of serious or life-threatening allergic reaction if they consume this product.", "Class II",
         ("a supplier notification",), ("a supplier reformulation that was not communicated",), ("revised supplier specifications and label review",)),
        ("Foreign Material", "Presence of foreign material: metal fragments", "Consumption of the product may cause injury to the mouth or digestive tract.", "Class II",
         ("consumer complaints",), ("a broken screen in the mixing equipment",), ("replacement of the screen and a metal detector check at packaging",)),
        ("Elevated Lead Levels", "Elevated levels of lead in an ingredient", "Short-term exposure to high levels of lead may result in vomiting, abdominal pain and anemia; children are particularly vulnerable.", "Class II",
         ("state testing",), ("an ingredient sourced from a new supplier",), ("heavy metal testing of incoming ingredient lots",)),
        ("Clostridium botulinum", "Potential for Clostridium botulinum growth due to a processing deviation", "Botulism is a potentially fatal form of food poisoning.", "Class I",
         ("review of processing records",), ("a thermal process deviation",), ("revalidation of the thermal process",)),
        ("E. coli O157:H7", "Potential contamination with E. coli O157:H7", "E. coli O157:H7 causes a diarrheal illness and can lead to hemolytic uremic syndrome.", "Class I",
         ("a state public health investigation",), ("contaminated irrigation water at a grower",), ("a change of grower and testing of incoming product",)),
        ("Net Weight Shortage", "Net weight declaration below labeled amount", "This recall is being conducted for economic reasons; no health hazard is expected.", "Class III",
         ("a state weights and measures inspection",), ("a filler out of adjustment",), ("recalibration of the filler",)),
    ),
    "veterinary": (
        ("Elevated Vitamin D", "Elevated levels of vitamin D from a premix formulation error", "Dogs ingesting very high levels of vitamin D may experience vomiting, loss of appetite, increased thirst, and kidney dysfunction.", "Class II",
         ("complaints from pet owners",), ("a formulation error by the premix supplier",), ("testing of each premix lot before use",)),
        ("Aflatoxin", "Aflatoxin levels above the acceptable limit", "Aflatoxin can cause liver damage and death in pets.", "Class I",
         ("FDA sampling",), ("corn received without mycotoxin testing",), ("mycotoxin testing of incoming grain",)),
        ("Salmonella", "Potential contamination with Salmonella", "Pets with Salmonella infections may be lethargic and have diarrhea; people handling the product are also at risk.", "Class II",
         ("state sampling",), ("contamination after the kill step",), ("enhanced sanitation of post-processing areas",)),
        ("Superpotency", "Superpotent drug: assay results above specification", "Overdose may result in adverse reactions in treated animals.", "Class II",
         ("routine testing",), ("a mixing error",), ("revised mixing instructions and blend testing",)),
    ),
    "cosmetics": (
        ("Benzene", "Presence of benzene detected in the aerosol propellant", "Benzene is classified as a human carcinogen; exposure can occur by inhalation, orally and through the skin.", "Class II",
         ("the company's testing",), ("benzene in a propellant lot",), ("testing of each propellant lot",)),
        ("Microbial Contamination", "Microbial contamination with Pseudomonas aeruginosa", "Use of contaminated products may cause infections, particularly in people with compromised immune systems.", "Class II",
         ("FDA sampling",), ("an inadequate preservative system",), ("a reformulated preservative system",)),
        ("Asbestos", "Presence of asbestos in talc-based product", "Exposure to asbestos may increase the risk of serious health problems.", "Class II",
         ("FDA sampling",), ("talc from a mine with asbestos veins",), ("a change of talc supplier",)),
    ),
    "tobacco": (
        ("Battery Overheating", "Device battery may overheat during charging", "Overheating may cause burns or fire.", "Class II",
         ("consumer complaints",), ("a defective battery cell lot",), ("replacement of affected devices",)),
        ("Packaging Not Child-Resistant", "Liquid nicotine packaging is not child-resistant", "Ingestion of liquid nicotine by children can cause serious illness or death.", "Class I",
         ("an FDA review",), ("a packaging supplier change",), ("child-resistant closures on all bottles",)),
        ("Manufacturing Defect", "Manufacturing defect: product contains foreign material", "Use of the product may cause injury.", "Class III",
         ("consumer complaints",), ("a defect on the filling line",), ("added inspection at the filling line",)),
    ),
}  # fmt: skip

RECALL_PR = (
    "FOR IMMEDIATE RELEASE — {city_short} — {firm} is voluntarily recalling {lot_phrase} of {product} to the {level} level. {reason_sentence}",
    "Risk Statement: {risk} To date, {firm_short} has not received any reports of adverse events related to this recall.",
    "The product is {use}, and is packaged in {package}. The affected product is identified by {lot_list} with expiration dates through {exp}. The product was distributed nationwide to {channels} between {date_a} and {date_b}.",
    "{firm_short} is notifying its distributors and customers by letter and is arranging for return or replacement of all recalled products. Distributors and retailers that have product which is being recalled should stop distribution and quarantine the product immediately. Consumers that have product which is being recalled should stop using it and return it to the place of purchase.",
    "Consumers with questions regarding this recall can contact {firm_short} by telephone at 1-800-555-{phone} Monday through Friday, 8 a.m. to 5 p.m. Eastern Time, or by e-mail. Consumers should contact their physician or healthcare provider if they have experienced any problems that may be related to using this product.",
    "Adverse reactions or quality problems experienced with the use of this product may be reported to the FDA's MedWatch Adverse Event Reporting program either online, by regular mail or by fax. This recall is being conducted with the knowledge of the U.S. Food and Drug Administration.",
    "The issue was identified through {found_by}. The company has since taken corrective actions, including {corrective}, and continues to work with FDA to ensure the effectiveness of the recall.",
)  # fmt: skip

ENFORCEMENT_HEADER = (
    "Enforcement Report — {ptype_title}\nEvent ID: {event_id}\nStatus: {status}\nRecalling Firm: {firm}\n"
    "Address: {street}, {city_line}\nVoluntary / Mandated: {mandate}\n"
    "Initial Firm Notification of Consignee or Public: {notification}\nDistribution Pattern: "
    "{distribution}\nRecall Number: {recall_number}\nClassification: {classification}\n"
    "Product Description: {description}\nProduct Quantity: {quantity}\nReason for Recall: "
    "{reason}\nRecall Initiation Date: {init_date}\nCenter Classification Date: {date}\n"
    "Code Information: {code_info}"
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
