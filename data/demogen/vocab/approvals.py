"""Applications: approval letters, labels, reviews, complete responses, device decisions.

Drug and biologic applications and their supplements; 510(k), De Novo and PMA submissions.
"""

from __future__ import annotations

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

BIO_PRESENTATIONS = (
    "single-dose prefilled syringes",
    "single-dose vials",
    "single-dose prefilled autoinjectors",
    "infusion bags",
)

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
# documents assembled from the sections above
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
