"""Warning letters: the letter types with their subjects, openings, bodies and closings."""

from __future__ import annotations

WL_LETTERHEAD = (
    "WARNING LETTER\n\n{firm}\n{ref} — {date_upper}\n\nDelivery Method:\n{delivery}\nProduct:\n"
    "{product_line}\n\nRecipient:\n{contact}\n{contact_title}\n{firm}\n{street}\n{city_line}\n\n"
    "Issuing Office:\n{office}\n\nDear {contact}:"
)
WL_LETTERHEAD_DISTRICT = (  # letters of the district offices, before 2017
    "DEPARTMENT OF HEALTH AND HUMAN SERVICES\nPublic Health Service\nFood and Drug Administration\n"
    "{office}\n\nWARNING LETTER\n{ref}\n\n{delivery}\n\n{date}\n\n{contact}\n{contact_title}\n"
    "{firm}\n{street}\n{city_line}\n\nDear {contact}:"
)
WL_DELIVERY = (
    "VIA UPS", "VIA ELECTRONIC MAIL", "VIA FEDEX", "RETURN RECEIPT REQUESTED", "VIA SIGNATURE CONFIRMED DELIVERY",
)  # fmt: skip

# letter type -> subjects, product kind for violations (None: no inspection), opening, body, closing
WL_TYPES: dict[str, dict[str, object]] = {
    "drug": {
        "subjects": ("CGMP/Finished Pharmaceuticals/Adulterated", "CGMP/Active Pharmaceutical Ingredient (API)/Adulterated", "Outsourcing Facility/Drug Product/Adulterated"),
        "kind": "drug",
        "opening": "The U.S. Food and Drug Administration (FDA) inspected your drug manufacturing facility, {firm}, FEI {fei}, at {street}, {city_line}, from {start_date} to {insp_date}.\n\nThis warning letter summarizes significant violations of Current Good Manufacturing Practice (CGMP) regulations for finished pharmaceuticals. See Title 21 Code of Federal Regulations (CFR), parts 210 and 211 (21 CFR parts 210 and 211). Because your methods, facilities, or controls for manufacturing, processing, packing, or holding do not conform to CGMP, your drug products are adulterated within the meaning of section 501(a)(2)(B) of the Federal Food, Drug, and Cosmetic Act (FD&C Act), 21 U.S.C. 351(a)(2)(B).\n\nWe reviewed your {resp_date}, response to our Form FDA 483 in detail and acknowledge receipt of your subsequent correspondence.",
        "closing": ("CGMP consultant recommended. Based upon the nature of the violations we identified at your firm, we strongly recommend engaging a consultant qualified as set forth in 21 CFR 211.34 to assist your firm in meeting CGMP requirements. Your use of a consultant does not relieve your firm's obligation to comply with CGMP. Your firm's executive management remains responsible for resolving all deficiencies and systemic flaws to ensure ongoing CGMP compliance.",
                    "Conclusion. The violations cited in this letter are not intended to be an all-inclusive list of violations that exist at your facility. You are responsible for investigating and determining the causes of any violations and for preventing their recurrence or the occurrence of other violations. Correct any violations promptly. Failure to promptly and adequately address any violations may result in legal or regulatory action without further notice including, without limitation, seizure and injunction. Unresolved violations may also prevent other Federal agencies from awarding contracts.",
                    "Failure to address any violations may also cause FDA to withhold issuance of Export Certificates. FDA may withhold approval of new applications or supplements listing your firm as a drug manufacturer until any violations are completely addressed and we confirm your compliance with CGMP. We may re-inspect to verify that you have completed corrective actions to address any violations.",
                    "This letter notifies you of our findings and provides you an opportunity to address the above deficiencies. After you receive this letter, respond to this office in writing within 15 working days. Specify what you have done to address any violations and to prevent their recurrence. In response to this letter, you may provide additional information for our consideration as we continue to assess your activities and practices. If you cannot complete corrective actions within 15 working days, state your reasons for delay and your schedule for completion. Please identify your response with FEI {fei}."),
    },
    "device": {
        "subjects": ("CGMP/QSR/Medical Devices/Adulterated", "Medical Device Reporting/Misbranded", "CGMP/QSR/Medical Devices/Adulterated/Misbranded"),
        "kind": "device",
        "opening": "During an inspection of your firm located in {city_line} on {start_date} through {insp_date}, an investigator from the United States Food and Drug Administration (FDA) determined that your firm is a manufacturer of the {generic}. Under section 201(h) of the Federal Food, Drug, and Cosmetic Act (the Act), 21 U.S.C. 321(h), this product is a device because it is intended for use in the diagnosis of disease or other conditions or in the cure, mitigation, treatment, or prevention of disease, or to affect the structure or any function of the body. We received a response from {contact} dated {resp_date}. We address this response below, in relation to each of the noted violations.",
        "closing": ("Your firm should take prompt action to correct the violations addressed in this letter. Failure to promptly correct these violations may result in regulatory action being initiated by the FDA without further notice. These actions include, but are not limited to, seizure, injunction, and civil money penalties. Also, federal agencies may be advised of the issuance of all Warning Letters about devices so that they may take this information into account when considering the award of contracts.",
                    "Additionally, premarket approval applications for Class III devices to which the Quality System regulation violations are reasonably related will not be approved until the violations have been corrected. Requests for Certificates to Foreign Governments will not be granted until the violations related to the subject devices have been corrected.",
                    "Please notify this office in writing within fifteen business days from the date you receive this letter of the specific steps your firm has taken to correct the noted violations, as well as an explanation of how your firm plans to prevent these violations, or similar violations, from occurring again. Include documentation of the corrections and/or corrective actions (which must address systemic problems) that your firm has taken. If your firm's planned corrections and/or corrective actions will occur over time, please include a timetable for implementation of those activities."),
    },
    "biologic": {
        "subjects": ("CGMP/Blood and Blood Products/Adulterated", "Human Cells, Tissues and Cellular and Tissue-Based Products (HCT/Ps)/Adulterated", "CGMP/Licensed Biologics/Adulterated"),
        "kind": "biologic",
        "opening": "The U.S. Food and Drug Administration (FDA) conducted an inspection of {firm}, located at {street}, {city_line}, between {start_date} and {insp_date}. During the inspection, FDA investigators documented significant deviations from the applicable requirements of the Federal Food, Drug, and Cosmetic Act (FD&C Act), section 351 of the Public Health Service Act (PHS Act), and Title 21, Code of Federal Regulations (21 CFR), parts 600-680 and 1271. These deviations cause your products to be adulterated within the meaning of section 501(a)(2)(B) of the FD&C Act. At the close of the inspection, FDA issued a Form FDA 483, Inspectional Observations, which described a number of significant objectionable conditions.",
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
        "body": ("Unapproved New Drug Violations\nExamples of claims observed on your website include: \"{claim}\" and \"clinically proven to work faster than prescription products.\" Based on these claims, the products are drugs under section 201(g)(1) of the FD&C Act because they are intended for use in the cure, mitigation, treatment, or prevention of disease.",
                 "The products are not generally recognized as safe and effective for the above referenced uses and, therefore, are new drugs under section 201(p) of the FD&C Act. New drugs may not be legally introduced or delivered for introduction into interstate commerce without prior approval from FDA, as described in sections 301(d) and 505(a) of the FD&C Act. FDA approves a new drug on the basis of scientific data and information demonstrating that the drug is safe and effective.",
                 "Misbranding Violations\nYour products are also misbranded under section 502(f)(1) of the FD&C Act in that their labeling fails to bear adequate directions for use. Prescription drugs can only be used safely at the direction, and under the supervision, of a licensed practitioner. In addition, we note that your website offers {product} without requiring a prescription, which poses serious risks to consumers.",
                 "FDA analyzed samples of {product} purchased from your website and found that they contained {adulterant}, an ingredient not declared on the product labeling. Consumers with underlying medical conditions may be exposed to serious risks when taking products containing undeclared active ingredients."),
        "closing": ("The violations cited in this letter are not intended to be an all-inclusive statement of violations that exist in connection with your products. You are responsible for investigating and determining the causes of any violations and for preventing their recurrence or the occurrence of other violations. We request that you immediately cease marketing unapproved and misbranded products.",
                    "Please notify this office in writing within 15 working days from the date you receive this letter of the specific steps you have taken to address any violations. Include an explanation of each step being taken to prevent the recurrence of violations, as well as copies of related documentation. Failure to adequately address any violations may result in legal action, including, without limitation, seizure and injunction."),
    },
    "tobacco": {
        "subjects": ("Family Smoking Prevention and Tobacco Control Act/Adulterated/Misbranded", "Tobacco Retailer/Sale to Minors"),
        "kind": None,
        "opening": "The Center for Tobacco Products of the U.S. Food and Drug Administration (FDA) has recently reviewed the website https://www.{domain}.invalid and determined that electronic nicotine delivery system (ENDS) products, including {product}, are offered for sale or distribution to customers in the United States. Under section 201(rr) of the Federal Food, Drug, and Cosmetic Act (FD&C Act), these products are tobacco products because they are made or derived from tobacco or contain nicotine from any source and are intended for human consumption.",
        "body": ("Adulteration Violations\nNew tobacco products without required premarket authorization are adulterated and misbranded. The ENDS products listed above are new tobacco products because they were not commercially marketed in the United States as of February 15, 2007. These products do not have an order in effect under section 910(c)(1)(A)(i) of the FD&C Act and are not exempt, and they are therefore adulterated under section 902(6)(A) of the FD&C Act.",
                 "Misbranding Violations\nAdditionally, they are misbranded under section 903(a)(6) of the FD&C Act because a notice or other information respecting the products was not provided as required by section 905(j). It is a violation of the FD&C Act to sell or distribute these products in the United States.",
                 "FDA also observed that the products are marketed with imagery that appeals to youth, including packaging that imitates {imitation}. Such labeling and advertising may contribute to youth initiation of nicotine products."),
        "closing": ("The violations discussed in this letter do not necessarily constitute an exhaustive list. You should take prompt action to address any violations that are referenced above, as well as any violations that are the same as or similar to those stated above. Failure to promptly address any violations may lead to regulatory action, including, without limitation, civil money penalties, no-tobacco-sale orders, seizure, and/or injunction.",
                    "Please submit a written response to this letter within 15 working days from the date of receipt describing your corrective actions, including the dates on which you discontinued the violative sale or distribution of these products. In your response, please also describe your plan for maintaining compliance with the FD&C Act."),
    },
    "bimo": {
        "subjects": ("Clinical Investigator", "Clinical Investigator (Sponsor-Investigator)", "Institutional Review Board (IRB)"),
        "kind": None,
        "opening": "This letter informs you of objectionable conditions observed during the U.S. Food and Drug Administration (FDA) inspection conducted at your clinical site between {start_date} and {insp_date}. The inspection was conducted under FDA's Bioresearch Monitoring Program as part of our review of the application for {product}, and reviewed your conduct of the clinical investigation of Protocol {protocol}, \"{protocol_title}.\" From our review of the FDA Establishment Inspection Report and the documents collected, we conclude that you did not adhere to the applicable statutory requirements and FDA regulations governing the conduct of clinical investigations and the protection of human subjects.",
        "body": ("You failed to ensure that the investigation was conducted according to the investigational plan [21 CFR 312.60].\n\nSpecifically, the protocol required that subjects with an eGFR below 30 mL/min/1.73 m² be excluded. You enrolled {n} subjects whose screening laboratory results did not meet this criterion, and these subjects were randomized and dosed.",
                 "You failed to prepare and maintain adequate and accurate case histories that record all observations and other data pertinent to the investigation [21 CFR 312.62(b)].\n\nSpecifically, source documents for {n} subjects did not support the efficacy assessments entered in the electronic case report forms, and several assessments were recorded on dates when the subjects did not attend a study visit.",
                 "You failed to obtain informed consent in accordance with 21 CFR part 50 [21 CFR 312.60 and 50.20].\n\nSpecifically, subjects were consented with an outdated version of the informed consent form that did not describe newly identified risks, and {n} subjects underwent study procedures before signing the consent document.",
                 "You failed to report adverse events to the sponsor as required by the protocol [21 CFR 312.64(b)].\n\nSpecifically, serious adverse events, including hospitalization, were reported to the sponsor between {days} and {days2} days after you became aware of them."),
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

ONLINE_PRODUCTS = (
    "Ultra Relief capsules",
    "Max Vital tablets",
    "Pure Slim capsules",
    "Prime Boost softgels",
    "Natural Calm drops",
)

# letter type -> the letterhead's product line
PRODUCT_LINES = {
    "drug": "Drugs", "device": "Medical Devices", "biologic": "Biologics", "food": "Food & Beverages",
    "veterinary": "Animal & Veterinary", "online": "Drugs", "tobacco": "Tobacco",
    "bimo": "Drugs; Clinical Trials", "records": "Drugs",
}  # fmt: skip
# (kind, section) or section -> the sentence that opens a section of numbered violations
SECTION_INTROS = {
    ("drug", "CGMP Violations"): "During our inspection, our investigators observed specific violations including, but not limited to, the following.",
    ("biologic", "CGMP Violations"): "Significant deviations observed during the inspection include, but are not limited to, the following.",
    ("food", "CGMP Violations"): "The inspection also revealed significant violations of the Current Good Manufacturing Practice in Manufacturing, Packaging, Labeling, or Holding Operations for Dietary Supplements regulation (21 CFR part 111), which cause your dietary supplements to be adulterated within the meaning of section 402(g)(1) of the Act. These violations include the following.",
    ("veterinary", "CGMP Violations"): "The inspection also revealed violations of the CGMP regulations for animal drugs (21 CFR part 211), including the following.",
    ("drug", "Misbranding Violations"): "In addition to the CGMP violations, FDA reviewed the labeling of your drug products. Your drug products are misbranded under the FD&C Act, as follows.",
    ("device", "Misbranding Violations"): "Our inspection also revealed that your firm's devices are misbranded under section 502(t)(2) of the Act, 21 U.S.C. 352(t)(2), in that your firm failed to submit a report required by section 519(g) of the Act, 21 U.S.C. 360i(g), and 21 CFR Part 806 - Corrections and Removals. Significant violations include, but are not limited to, the following.",
    ("food", "Misbranding Violations"): "FDA also reviewed the labels of products collected during the inspection and found that they are misbranded under section 403 of the Act, 21 U.S.C. 343, as follows.",
    ("device", "Adulteration Violations"): "Our inspection also revealed that your device is adulterated under section 501(f)(1)(B) of the Act, 21 U.S.C. 351(f)(1)(B), because your firm does not have an approved application for premarket approval in effect, and misbranded under section 502(o) of the Act, 21 U.S.C. 352(o), because your firm did not notify FDA of its intent to introduce the device into commercial distribution, as required by section 510(k) of the Act.",
    ("food", "Adulteration Violations"): "The significant violations of the CGMP & PC rule and other regulations observed during the inspection are as follows.",
    ("veterinary", "Adulteration Violations"): "Significant violations observed during the inspection include the following.",
    "Quality System Regulation Violations": "This inspection revealed that these devices are adulterated within the meaning of section 501(h) of the Act, 21 U.S.C. 351(h), in that the methods used in, or the facilities or controls used for, their manufacture, packing, storage, or installation are not in conformity with the current good manufacturing practice requirements of the Quality System regulation found at Title 21, Code of Federal Regulations (CFR), Part 820. These violations include, but are not limited to, the following.",
    "Medical Device Reporting Violations": "Our inspection also revealed that your firm's {generic} devices are misbranded under section 502(t)(2) of the Act, 21 U.S.C. 352(t)(2), in that your firm failed or refused to furnish material or information respecting the device that is required by or under section 519 of the Act, 21 U.S.C. 360i, and 21 CFR Part 803 - Medical Device Reporting. Significant violations include, but are not limited to, the following.",
    "CGMP Violations": "Significant violations observed during the inspection include, but are not limited to, the following.",
    "Adulteration Violations": "Significant violations observed during the inspection include the following.",
    "Misbranding Violations": "Your products are also misbranded, as follows.",
}  # fmt: skip
# kind -> how a letter turns from a violation to the firm's response ({did}: what the firm did)
RESPONSES = {
    "drug": ("In your response dated {resp_date}, you {did}. Your response is inadequate because {inadequate}.",
             "We reviewed your response and acknowledge that you {did}. Your response is inadequate because {inadequate}."),
    "device": ("We reviewed your firm's response dated {resp_date} and conclude that it is not adequate. Your firm {did}; however, {inadequate}.",
               "The adequacy of your firm's response cannot be determined at this time. Your firm {did}, but {inadequate}."),
    "biologic": ("In your response dated {resp_date}, you {did}. Your response is inadequate because {inadequate}.",),
    "food": ("We have reviewed your response dated {resp_date}, in which you {did}. Your response is not adequate because {inadequate}.",),
    "veterinary": ("In your response, you {did}. Your response is not adequate because {inadequate}.",),
}  # fmt: skip
FIRM_DID = (
    "revised {sop} and retrained the personnel involved",
    "opened CAPA {capa} and committed to complete it by {date_later}",
    "stated that a third-party consultant has been engaged to assess the quality system",
    "committed to a retrospective review to be completed by {date_later}",
    "described corrections made during the inspection",
    "stated that the observation was limited to the product named in the Form FDA 483",
)
REQUEST_LEADS = (
    "In response to this letter, provide:",
    "In response to this letter, provide the following:",
)
DATA_INTEGRITY_REMEDIATION = (
    "Data Integrity Remediation\nYour quality system does not adequately ensure the accuracy and integrity of data to support the safety, effectiveness, and quality of the drugs you manufacture. We strongly recommend that you retain a qualified consultant to assist in your remediation. In response to this letter, provide:\n"
    "A. A comprehensive investigation into the extent of the inaccuracies in data records and reporting, including the scope and root causes of your data integrity lapses.\n"
    "B. A current risk assessment of the potential effects of the observed failures on the quality of your drugs, including risks to patients from the release of drugs affected by a lapse of data integrity.\n"
    "C. A management strategy for your firm that includes the details of your global corrective action and preventive action plan."
)
REPEAT_VIOLATIONS = "Repeat Violations at Facility\nFDA cited similar CGMP observations at this facility during the inspection dated {prev_dates}. You proposed specific remediation for these observations in your response to that Form FDA 483. These repeated failures demonstrate that executive management oversight and control over the manufacture of drugs is inadequate."
WL_CONTACT = (
    "If you have questions regarding the contents of this letter, please contact {pm}, Compliance Officer, at (301) 796-{phone}.",
    "Send your reply to the attention of {pm}, Compliance Officer, and identify your response with reference number {ref_id}. If you have questions, contact {pm} at (301) 796-{phone}.",
)
# establishment type -> the subject of a letter after its inspection (others: the type's subjects)
SUBJECTS_BY_ESTABLISHMENT = {
    "Active pharmaceutical ingredient manufacturer": "CGMP/Active Pharmaceutical Ingredient (API)/Adulterated",
    "Outsourcing facility (503B)": "Outsourcing Facility/Drug Product/Adulterated",
    "Source plasma center": "CGMP/Blood and Blood Products/Adulterated",
    "Blood bank": "CGMP/Blood and Blood Products/Adulterated",
    "HCT/P establishment": "Human Cells, Tissues and Cellular and Tissue-Based Products (HCT/Ps)/Adulterated",
    "Cell therapy manufacturer": "CGMP/Licensed Biologics/Adulterated",
    "Licensed biologics manufacturer": "CGMP/Licensed Biologics/Adulterated",
    "Seafood processor": "Seafood HACCP/CGMP for Foods/Adulterated",
    "Dietary supplement manufacturer": "CGMP/Dietary Supplement/Adulterated/Misbranded",
    "Medicated feed mill": "Medicated Feeds/Adulterated",
    "Pet food manufacturer": "Animal Food/Preventive Controls/Adulterated",
    "Animal drug manufacturer": "CGMP/Animal Drugs/Adulterated",
    "Finished dosage form manufacturer": "CGMP/Finished Pharmaceuticals/Adulterated",
    "Sterile injectable manufacturer": "CGMP/Finished Pharmaceuticals/Adulterated",
    "Contract testing laboratory": "CGMP/Finished Pharmaceuticals/Adulterated",
    "Repackager and relabeler": "CGMP/Finished Pharmaceuticals/Adulterated",
    **dict.fromkeys(
        ("Ready-to-eat food manufacturer", "Produce grower and packer", "Low-acid canned food processor", "Dairy processor", "Bakery"),
        "Preventive Controls for Human Food/Adulterated",
    ),
}  # fmt: skip
LISTERIA_SUBJECT = (
    "CGMP/Food/Prepared, Packed or Held Under Insanitary Conditions/Adulterated/L. monocytogenes"
)
# device letters: the subject by the sections the letter cites
DEVICE_SUBJECTS = {
    (True, False): "CGMP/QSR/Medical Devices/Adulterated",
    (False, True): "Medical Device Reporting/Misbranded",
    (True, True): "CGMP/QSR/Medical Devices/Adulterated/Misbranded",
    (False, False): "Medical Devices/Adulterated/Misbranded",
}
