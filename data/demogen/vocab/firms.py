"""Firms, people and places of the invented world, and the FDA offices that write to them.

Also the names of the food, veterinary, cosmetic and tobacco products these firms make.
"""

from __future__ import annotations

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
