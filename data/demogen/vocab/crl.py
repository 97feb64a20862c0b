"""Complete response letters: the letterhead, deficiencies by review discipline, standard sections.

A deficiency is (section, application kinds it applies to, the first year FDA raised it, the
deficiency, recommendations); a
letter numbers its deficiencies across sections and gives each one recommendation.
"""

from __future__ import annotations

CRL_LETTERHEAD = (
    "DEPARTMENT OF HEALTH AND HUMAN SERVICES\nFood and Drug Administration\nSilver Spring MD 20993\n\n"
    "{app_spaced}\nCOMPLETE RESPONSE\n\n{firm}\nAttention: {contact}\n{contact_title}\n{street}\n"
    "{city_line}\n\nDear {contact}:"
)
CRL_OPENINGS = {
    "first": "Please refer to your {app_long} dated {sub_date} and received {rcv_date}, and your amendments, submitted pursuant to {statute} for {named} {form}, {strength}.",
    "resubmission": "Please refer to your {app_long} dated {sub_date} and received {rcv_date}, submitted pursuant to {statute} for {named} {form}, {strength}. We also refer to our Complete Response letter dated {prior_crl} and to your resubmission dated {amend_date}, which constituted a complete response to that action.",
}  # fmt: skip
CRL_DECISION = (
    "We have completed our review of this application, as amended, and have determined that we "
    "cannot approve this application in its present form. We have described our specific reasons "
    "for this action below and, where possible, our recommendations to address these issues."
)
# application prefix -> (long name, statute, supplement name)
CRL_APPLICATIONS = {
    "NDA": ("New Drug Application (NDA)", "section 505(b) of the Federal Food, Drug, and Cosmetic Act (FDCA)", "supplemental New Drug Application (sNDA)"),
    "ANDA": ("abbreviated new drug application (ANDA)", "section 505(j) of the Federal Food, Drug, and Cosmetic Act (FDCA)", "supplement to your ANDA"),
    "BLA": ("Biologics License Application (BLA)", "section 351(a) of the Public Health Service Act", "supplemental Biologics License Application (sBLA)"),
}  # fmt: skip
SECTION_ORDER = (
    "CLINICAL", "CLINICAL PHARMACOLOGY", "BIOEQUIVALENCE", "NONCLINICAL", "PRODUCT QUALITY",
    "MICROBIOLOGY", "HUMAN FACTORS", "LABELING", "FACILITY INSPECTIONS",
)  # fmt: skip
RECOMMENDATION_LEADS = (
    "Information needed to resolve the deficiency:",
    "Recommendation:",
    "To address this deficiency:",
)
NEW = ("NDA", "BLA")
ALL = ("NDA", "ANDA", "BLA")

CRL_DEFICIENCIES: tuple[tuple[str, tuple[str, ...], int, str, tuple[str, ...]], ...] = (
    ("CLINICAL", NEW, 2000,
     "The application does not provide substantial evidence of effectiveness for the proposed indication. Study {study_id} did not demonstrate a statistically significant difference from placebo on the prespecified primary endpoint, {endpoint_lower} (p = {p_fail}). The analyses you submitted in support of effectiveness were post hoc, and the subgroup in which you observed a numerical benefit was not prespecified.",
     ("Conduct at least one additional adequate and well-controlled trial that demonstrates a clinically meaningful and statistically persuasive treatment effect on {endpoint_lower}. We recommend that you submit the protocol for our review before enrolling patients.",
      "Conduct a new randomized, double-blind, placebo-controlled trial with a prespecified primary endpoint and an analysis plan that controls the type I error rate across the primary and key secondary endpoints.")),
    ("CLINICAL", NEW, 2000,
     "You submitted a single adequate and well-controlled trial, Study {study_id}, as the basis for effectiveness. The result on the primary endpoint (p = 0.04) was not robust: sensitivity analyses that handle missing data under a missing-not-at-random assumption did not show a statistically significant effect, and {pct}% of patients discontinued before the primary assessment.",
     ("Provide evidence from a second adequate and well-controlled trial, or confirmatory evidence that, together with Study {study_id}, establishes effectiveness. Describe how you will minimize and handle missing data.",)),
    ("CLINICAL", NEW, 2000,
     "The safety database is not adequate to characterize the risks of {product} for chronic use. Only {n_year} patients were exposed to the proposed dose for at least 12 months, fewer than the number recommended for long-term treatment of a non-life-threatening condition.",
     ("Provide safety data from at least 1,500 patients exposed to {product}, including at least 300 to 600 patients exposed for six months and at least 100 patients exposed for one year at the proposed dose.",
      "Extend the ongoing open-label study to collect at least 12 months of exposure data at the proposed dose, and submit integrated safety analyses.")),
    ("CLINICAL", NEW, 2000,
     "Cases of {risk_lower} were observed more frequently in the {product} arm ({sae_pct}%) than in the control arm ({sae_pbo}%). {n} cases met the biochemical criteria for potential severe drug-induced liver injury (Hy's Law) and no alternative cause was identified. The benefit of {product} for {indication_lower} does not outweigh this risk.",
     ("Provide an independent, blinded adjudication of all hepatic events, and propose a risk mitigation strategy. Additional clinical data in a population at lower risk may be needed to support a favorable benefit-risk assessment.",)),
    ("CLINICAL PHARMACOLOGY", NEW, 2000,
     "The relative bioavailability study did not establish a bridge between the formulation used in the clinical trials and the to-be-marketed formulation. The 90% confidence interval for the geometric mean ratio of Cmax ({ci_cmax}) fell outside the limits of 80.00% to 125.00%.",
     ("Conduct an adequately designed relative bioavailability study with the to-be-marketed formulation, or provide data showing that the difference in Cmax is not clinically relevant.",)),
    ("CLINICAL PHARMACOLOGY", NEW, 2006,
     "Exposure to {ingredient} was approximately {fold}-fold higher in subjects with moderate hepatic impairment, and you have not evaluated the potential for QT prolongation at these exposures. The thorough QT study you submitted used a supratherapeutic dose that does not cover the exposure in this population.",
     ("Conduct a QT assessment that covers the highest clinically relevant exposure, and propose dosing recommendations for patients with hepatic impairment.",)),
    ("BIOEQUIVALENCE", ("ANDA",), 2000,
     "The in vivo bioequivalence study under fed conditions failed to demonstrate bioequivalence of your {ingredient} {form}, {strength}, to the reference listed drug, {rld}. The 90% confidence interval for the ratio of Cmax was {ci_cmax}, outside the acceptance limits of 80.00% to 125.00%.",
     ("Conduct a new bioequivalence study under fed conditions with an adequate number of subjects, using the same formulation and manufacturing process as your exhibit batch.",
      "Investigate the cause of the failure, reformulate if necessary, and repeat the fasting and fed bioequivalence studies.")),
    ("BIOEQUIVALENCE", ("ANDA",), 2000,
     "Your comparative dissolution data do not support a waiver of in vivo bioequivalence testing for the lower strengths. The dissolution profiles of the {strength} strength in pH 1.2 and pH 4.5 media are not similar to those of the strength studied in vivo (f2 values of {f2}).",
     ("Conduct an in vivo bioequivalence study on the lower strength, or provide comparative dissolution data in three media with f2 values of 50 or greater.",)),
    ("NONCLINICAL", NEW, 2000,
     "The carcinogenicity assessment is incomplete. The 2-year rat study identified an increased incidence of hepatocellular tumors at exposures {fold} times the clinical exposure, and you have not provided data to establish the mechanism or human relevance of this finding.",
     ("Provide mechanistic studies to establish the human relevance of the tumor findings, or data supporting a margin of exposure adequate for chronic use.",)),
    ("NONCLINICAL", ALL, 2000,
     "The proposed acceptance criterion for {impurity} in the drug product ({limit}%) is above the qualification threshold in ICH Q3B(R2), and you have not provided nonclinical data qualifying the impurity at that level.",
     ("Reduce the acceptance criterion to the qualification threshold or below, or qualify the impurity in a general toxicity study of appropriate duration in one species and in genotoxicity assays.",)),
    ("PRODUCT QUALITY", ALL, 2019,
     "Your drug product specification does not include a test and acceptance criterion for the nitrosamine impurity N-nitroso-{ingredient_short}. Your risk assessment identified a secondary amine in the drug substance and nitrite in two excipients, but you did not provide confirmatory testing data.",
     ("Provide confirmatory testing of at least three commercial-scale batches for N-nitroso-{ingredient_short} using a validated method with a limit of quantitation at or below 30% of the acceptable intake, and add a specification limited to the recommended acceptable intake of {ai} ng/day.",
      "Provide a revised nitrosamine risk assessment, data from an appropriately sensitive and validated method, and a control strategy, including a specification if the impurity is found above 10% of the acceptable intake.")),
    ("PRODUCT QUALITY", ALL, 2016,
     "Your risk assessment for elemental impurities does not follow ICH Q3D(R2). It does not consider contributions from the manufacturing equipment, the container closure system or the {excipient}, and no batch data were provided for the Class 1 elements cadmium, lead, arsenic and mercury.",
     ("Provide a revised risk assessment that considers all potential sources of elemental impurities, with data from at least three batches for the Class 1 and Class 2A elements, and justify any proposed controls.",)),
    ("PRODUCT QUALITY", ALL, 2000,
     "The proposed dissolution method is not discriminating. Batches made with granules of different particle size and with a {pct}% change in lubricant gave similar profiles, and the proposed acceptance criterion (Q = 80% at 45 minutes) is not supported by the data from the clinical batches, which released more than 90% at 20 minutes.",
     ("Develop a dissolution method that discriminates between batches with meaningful differences in critical material attributes and process parameters, and propose an acceptance criterion of Q = 80% at 30 minutes or tighter based on data from the clinical and registration batches.",)),
    ("PRODUCT QUALITY", ALL, 2000,
     "The stability data do not support the proposed expiration dating period of {shelf} months. Only {n_months} months of long-term data were provided for the registration batches, and the level of {impurity} increased out of trend at the accelerated condition (40°C/75% RH), exceeding its acceptance criterion at six months in batch {lot}.",
     ("Provide at least 12 months of long-term and six months of accelerated stability data on three primary batches manufactured at commercial scale, or propose an expiration dating period supported by the available data.",
      "Investigate the out-of-trend results, and provide updated stability data with a packaging configuration that protects the product from moisture.")),
    ("PRODUCT QUALITY", NEW, 2000,
     "The container closure system of the prefilled syringe has not been shown to be suitable. The extractables study of the plunger stopper identified {n} compounds above the analytical evaluation threshold, and leachables were not studied through the end of shelf life. Container closure integrity was tested with a method that has not been shown to detect leaks that could allow microbial ingress.",
     ("Provide a leachables study on registration batches through the end of the proposed shelf life with a toxicological assessment of each leachable, and container closure integrity data from a deterministic method validated with positive controls.",)),
    ("PRODUCT QUALITY", ("BLA",), 2000,
     "You have not demonstrated comparability between the drug substance made by the clinical process and the drug substance made by the commercial process. The commercial batches showed higher levels of high-molecular-weight species ({pct_low}%) and a different charge variant profile, and the potency assay used to compare them has not been validated.",
     ("Provide a comparability assessment with validated analytical methods, including the potency assay, and data showing that the differences have no impact on safety or efficacy; clinical pharmacokinetic data may be needed.",)),
    ("PRODUCT QUALITY", ALL, 2000,
     "The designation of the regulatory starting material for the drug substance is not justified. The proposed starting material is a late intermediate made by a single supplier in {n} chemical steps, and impurities formed before it are not controlled in the drug substance process.",
     ("Redefine the regulatory starting material earlier in the synthesis consistent with ICH Q11, and provide the associated process description, controls and impurity fate data.",)),
    ("MICROBIOLOGY", ALL, 2000,
     "The sterilization process for the drug product has not been adequately validated. The filter validation did not use the drug product as the challenge fluid, and the bacterial retention study was performed at a pressure lower than the maximum used in manufacturing.",
     ("Provide a bacterial retention study with the drug product under worst-case process conditions, and the validation reports for the sterilization of product-contact equipment and container closure components.",)),
    ("MICROBIOLOGY", ALL, 2000,
     "The bacterial endotoxins test for {product} has not been validated: the low endotoxin recovery study showed recovery of {pct}% after seven days of hold, and the proposed endotoxin limit is not justified for the maximum dose.",
     ("Provide a low endotoxin recovery study that demonstrates adequate recovery over the hold time, and a justified endotoxin limit based on the maximum dose per kilogram.",)),
    ("HUMAN FACTORS", ("NDA", "BLA", "ANDA"), 2012,
     "The human factors validation study identified use errors with the autoinjector that could result in underdosing: {n} of {m} participants removed the device from the skin before the end of the injection, and the root cause analysis attributed the errors to the instructions for use. Your use-related risk analysis does not identify this task as critical.",
     ("Update the use-related risk analysis, modify the user interface or the instructions for use to mitigate the errors, and conduct a new human factors validation study that includes the critical tasks. We recommend that you submit the protocol for our review first.",)),
    ("LABELING", ALL, 2000,
     "The carton and container labels do not comply with 21 CFR 201.10(g)(2): the established name is less than half the size of the proprietary name, and the expiration date format on the container label can be misread.",
     ("Revise the carton and container labels as described in the enclosed comments, and submit draft labeling with your resubmission.",)),
    ("FACILITY INSPECTIONS", ALL, 2000,
     "During a recent inspection of the {facility} manufacturing facility (FEI {facility_fei}) for this application, our field investigator conveyed deficiencies to the representative of the facility. Satisfactory resolution of these deficiencies is required before this application may be approved.",
     ("Address the observations on the Form FDA 483 issued at the close of the inspection. A reinspection of the facility may be needed before this application can be approved.",)),
    ("FACILITY INSPECTIONS", ALL, 2000,
     "Our field investigator could not complete the pre-approval inspection of the {facility} facility (FEI {facility_fei}), listed as the drug substance manufacturer, because the facility was not ready for inspection. Satisfactory inspection is required before this application may be approved.",
     ("Notify us in writing when the facility is ready for inspection.",)),
)  # fmt: skip

CRL_PRESCRIBING = (
    "PRESCRIBING INFORMATION\nWe reserve comment on the proposed labeling until the application is otherwise adequate. We encourage you to review the labeling review resources on the PLR Requirements for Prescribing Information and Pregnancy and Lactation Labeling Final Rule websites, which include:\n"
    "• The Final Rule (Physician Labeling Rule) on the content and format of the prescribing information (PI) for human drug and biological products\n"
    "• The Final Rule (Pregnancy and Lactation Labeling Rule) on the content and format of information in the PI on pregnancy, lactation, and females and males of reproductive potential\n"
    "• Regulations and related guidance documents\n"
    "• The Selected Requirements for Prescribing Information (SRPI), a checklist of important format items from labeling regulations and guidances\n"
    "• FDA's established pharmacologic class (EPC) text phrases for inclusion in the Highlights Indications and Usage heading",
    "If you revise labeling, use the SRPI checklist to ensure that the PI conforms with format items in regulations and guidances. Your response must include updated content of labeling [21 CFR 314.50(l)(1)(i)] in structured product labeling (SPL) format. To facilitate review of your submission, provide a highlighted or marked-up copy that shows all changes, as well as a clean Microsoft Word version.",
)  # fmt: skip
CRL_OPTIONAL = (
    "CARTON AND CONTAINER LABELING\nSubmit draft carton and container labeling revised as described in our comments dated {label_date}.",
    "PROPRIETARY NAME\nPlease refer to correspondence dated {label_date}, which addresses the proposed proprietary name, {product}. This name was found conditionally acceptable pending approval of the application in the current review cycle. Please resubmit the proposed proprietary name when you respond to the application deficiencies.",
)  # fmt: skip
CRL_SAFETY_UPDATE = (
    "SAFETY UPDATE\nWhen you respond to the above deficiencies, include a safety update as described at 21 CFR 314.50(d)(5)(vi)(b). The safety update should include data from all nonclinical and clinical studies/trials of the drug under consideration regardless of indication, dosage form, or dose level.",
    "1. Describe in detail any significant changes or findings in the safety profile.\n"
    "2. When assembling the sections describing discontinuations due to adverse events, serious adverse events, and common adverse events, incorporate new safety data: present new safety data using the same format as the original submission, tabulations of the new data combined with the original data, and tables comparing frequencies of adverse events in the original submission with the retabulated frequencies.\n"
    "3. Present a retabulation of the reasons for premature trial discontinuation by incorporating the drop-outs from the newly completed trials.\n"
    "4. Provide case report forms and narrative summaries for each patient who died during a clinical trial or who did not complete a trial because of an adverse event.\n"
    "5. Describe any information that suggests a substantial change in the incidence of common, but less serious, adverse events.\n"
    "6. Provide updated exposure information for the clinical studies/trials.\n"
    "7. Provide a summary of worldwide experience on the safety of this drug, with updated estimates of use.\n"
    "8. Provide English translations of current approved foreign labeling not previously submitted.",
)  # fmt: skip
CRL_OTHER = (
    "OTHER\nWithin one year after the date of this letter, you are required to resubmit or take one of the other actions available under 21 CFR 314.110. If you do not take one of these actions, we may consider your lack of response a request to withdraw the application under 21 CFR 314.65. You may also request an extension of time in which to resubmit the application.",
    "A resubmission must fully address all the deficiencies listed in this letter and should be clearly marked with \"RESUBMISSION\" in large font, bolded type at the beginning of the cover letter of the submission. The cover letter should clearly state that you consider this resubmission a complete response to the deficiencies outlined in this letter. A partial response to this letter will not be processed as a resubmission and will not start a new review cycle.",
    "You may request a meeting or teleconference with us to discuss what steps you need to take before the application may be approved. If you wish to have such a meeting, submit your meeting request as described in the guidance for industry Formal Meetings Between the FDA and Sponsors or Applicants of PDUFA Products. The drug product may not be legally marketed until you have been notified in writing that this application is approved. If you have any questions, contact {pm}, Regulatory Project Manager, at (301) 796-{phone}.",
)  # fmt: skip
CRL_SIGNATURE = "Sincerely,\n(See appended electronic signature page)\n{official}\nDirector\n{signing_office}\nCenter for Drug Evaluation and Research"
