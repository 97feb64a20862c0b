"""Adverse event reports: MAUDE device reports and FAERS case reports."""

from __future__ import annotations

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
    "death": ("The patient subsequently expired. The reporter did not attribute the death to the device; the cause of death was reported as {patient_problem_lower}.",
              "It was reported that the patient died {days} days after the event. The relationship between the device and the death is unknown."),
    "injury": ("The patient required medical intervention and was treated for {patient_problem_lower}; the patient was reported to be in stable condition.",
               "As a result, the patient experienced {patient_problem_lower} and required an additional procedure. No further patient complications were reported."),
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
PUMP_DRUGS = (
    "heparin",
    "insulin",
    "vancomycin",
    "norepinephrine",
    "parenteral nutrition",
    "oxytocin",
    "morphine",
)
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
COUNTRY_CODES = {
    "United States": "US",
    "Canada": "CA",
    "Japan": "JP",
    "Germany": "DE",
    "United Kingdom": "GB",
    "France": "FR",
    "Brazil": "BR",
}

# documents assembled from the sections above
FAERS_SECTIONS = (*FAERS_NARRATIVE, *FAERS_MORE)

# MAUDE manufacturer narratives: how the device was evaluated, and the causes found by category
MAUDE_EVALUATIONS = {
    "confirmed": "The device was returned and evaluated. {method_cap} confirmed the reported problem ({problem_lower}).",
    "not confirmed": "The device was returned and evaluated. {method_cap} could not reproduce the reported problem ({problem_lower}); the device met all functional specifications.",
    "not returned": "The device was not returned for evaluation. A review of the device history record for lot {lot} showed that the lot met all release specifications, and a review of complaint history identified {n_similar} similar events for this lot.",
}  # fmt: skip
MAUDE_ROOT_CAUSES = {  # in the order of the category's problems in MAUDE_PROBLEMS
    "pump": ("a downstream pressure sensor that had drifted out of calibration", "a worn pumping mechanism seal that allowed fluid to bypass the cassette", "a battery cell with reduced capacity from a single supplier lot", "an anti-free-flow clamp that had cracked during cleaning", "a software defect in version {fw} that froze the keypad after a specific programming sequence"),
    "catheter": ("a weak bond between the tip and the shaft from an out-of-tolerance curing time", "a hub molded with a short shot that left a gap at the luer connection", "a hydrophilic coating that was thinner than specified", "a shaft wall thinner than specified at the kink location"),
    "disposable": ("an adhesive failure of the needle bond after a cannula supplier change", "a seal defect introduced by a worn sealing die", "film from a material lot below the specified thickness", "particles shed from the packaging tray during transport"),
    "monitor": ("a degraded sensor cable that introduced noise into the signal", "a power supply board with a failed capacitor", "an alarm limit that had been changed in the user configuration", "a short circuit in the sensor connector"),
    "glucose": ("sensor insertion into scar tissue, which delays glucose equilibration", "an adhesive patch lot with reduced peel strength", "a sensor filament damaged during insertion", "radio interference between the transmitter and the receiver"),
    "ortho": ("inadequate fixation at the bone-implant interface", "a fatigue crack at the neck-stem junction that began at a machining mark", "selection of an undersized component", "fretting corrosion at the modular taper"),
    "endoscope": ("residual moisture in the instrument channel after reprocessing", "a damaged image cable in the bending section", "a cracked seal of the bending section cover", "a cracked insertion tube from repeated bending"),
    "surgical": ("a firing cable that was out of tolerance", "use of a cartridge with tissue thicker than the indicated range", "damaged insulation on the handpiece", "misaligned jaws from a bent clamp arm"),
    "implant": ("patient anatomy and activity that placed high loads on the implant", "a shell weakness from a thin region in the molded wall", "an immune response to the implant material", "a sensitivity of the patient to the implant material"),
    "respiratory": ("a blower motor failure", "degradation of polyester-based foam from heat and humidity", "a firmware defect in power management", "a flow sensor that had drifted out of calibration"),
    "imaging": ("a detector calibration file that was out of date", "a protocol parameter set outside the recommended range", "a cooling fan failure in the gantry", "patient positioning that formed a conductive loop during the sequence"),
    "software": ("an algorithm threshold that missed low-contrast findings", "a session timeout that did not clear the patient context", "a report template that omitted a measurement field", "an installer defect in the update package"),
    "cardiac": ("a battery with higher internal impedance than specified", "lead dislodgement soon after implantation", "friction in the deployment mechanism of the delivery system", "oversensing of myopotentials"),
}  # fmt: skip
MAUDE_UNDETERMINED = (
    "A root cause could not be conclusively determined. Possible contributing factors include the conditions of use and the patient's clinical condition.",
    "Without the device, a root cause could not be conclusively determined.",
    "The investigation did not identify a device malfunction; the event is likely related to the patient's underlying condition.",
)
MAUDE_ACTIONS = {
    "confirmed": ("CAPA {capa} was opened to address the cause, and affected lots are being evaluated.", "The cause is addressed by an existing field action; no further action is required.", "A design change has been implemented in later production lots."),
    "other": ("No corrective action is required at this time. The event will continue to be monitored through complaint trending.", "The labeling adequately addresses the reported event; no corrective action is required."),
}  # fmt: skip
