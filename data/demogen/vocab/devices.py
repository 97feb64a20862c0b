"""Medical devices: types with product codes and regulations, trade names, and what they are."""

from __future__ import annotations

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
MOD_SUFFIXES = (" 2", " Pro", " XL", " Plus", " II", " Max", " S", " Connect")

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

# device category -> failure modes its complaints and CAPAs are about
FAILURE_MODES = {
    "pump": ("false occlusion alarms", "under-infusion", "battery depletion", "keypad lock-up"),
    "catheter": ("catheter tip separation", "hub leaks", "kinking at the insertion site"),
    "disposable": ("needle detachment", "open sterile barriers", "particulate matter in packages"),
    "monitor": ("inaccurate readings", "alarm failures", "failure to power on", "sensor overheating"),
    "glucose": ("inaccurate glucose readings", "sensor adhesion failures", "signal loss"),
    "ortho": ("aseptic loosening", "implant fracture", "metal debris"),
    "endoscope": ("residual contamination after reprocessing", "image freezing", "insertion tube perforation"),
    "surgical": ("failure to fire", "malformed staple lines", "unexpected current at the handpiece"),
    "implant": ("implant migration", "implant rupture", "adverse tissue reactions"),
    "respiratory": ("ventilation interruptions", "foam degradation", "power loss without battery switchover"),
    "imaging": ("image artifacts", "unexpected dose indices", "gantry overheating"),
    "software": ("missed findings", "results displayed for the wrong patient", "incomplete report exports"),
    "cardiac": ("premature battery depletion", "loss of capture", "inappropriate shocks"),
}  # fmt: skip
