"""Inspections: Form 483 observations, classifications, and the Form 483 and record templates.

The observations also give warning letters their violations.
"""

from __future__ import annotations

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
