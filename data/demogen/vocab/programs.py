"""Clinical trial records, guidance documents and user fee program documents."""

from __future__ import annotations

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
TRIAL_MORE = (
    "Study Procedures: after a screening period of up to {screen_days} days, eligible participants will attend study visits at Weeks 2, 4, 8 and every 4 weeks thereafter. Efficacy assessments, vital signs, electrocardiograms, clinical laboratory tests and adverse event monitoring will be performed at each visit. Blood samples for pharmacokinetic analysis will be collected at prespecified time points.",
    "Statistical Analysis Plan: the primary efficacy analysis will be performed on the full analysis set, defined as all randomized participants who received at least one dose of study drug. A sample size of {enrollment} participants provides approximately 90% power to detect the assumed treatment difference at a two-sided significance level of 0.05, allowing for a 15% dropout rate.",
    "Safety Monitoring: an independent data monitoring committee will review unblinded safety data approximately every 6 months. Stopping rules for individual participants include confirmed liver enzyme elevations above 5 times the upper limit of normal, QTcF prolongation above 500 ms, and serious hypersensitivity reactions.",
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

DRAFT_NOTICE = (
    "Comments and suggestions regarding this draft document should be submitted within 60 days "
    "of publication in the Federal Register of the notice announcing the availability of the "
    "draft guidance. Submit electronic comments to https://www.regulations.gov, identified with "
    "the docket number listed in the notice of availability. "
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

# documents assembled from the sections above
TRIAL_DESCRIPTION = (*TRIAL_SUMMARY, *TRIAL_MORE)
UFA_DOCUMENTS = {k: (*v, *UFA_MORE[k]) for k, v in UFA_SECTIONS.items()}
