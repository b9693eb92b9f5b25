# English recall cases (§10.25) with distractors; targets are never the newest.
from _dsl import case, C, U, A, E, R

P, B, F, TM, QD = "presentation", "background", "recent_focus", "terminology", "query_default"
G = "global"


def mems(rows):
    return [E(k, s, t, d) for (k, s, t, d) in rows]


case("en-recall-oat-vs-yoghurt-shelf-life", ["recall", "explicit", "project"],
    explicit=mems([
        (P, G, "Keep answers short: bullet points, no preamble", 28),
        (P, "domain:report", "Report summaries: verdict first, then data", 27),
        (B, G, "Food technologist in the plant-based beverages team", 26),
        (F, "project:oat-drink", "Running the oat-drink shelf-life study; the report is due at the end of the month", 24),
        (F, G, "Evaluating gellan suppliers for the almond drink", 22),
        (F, "project:yoghurt", "Writing up the yoghurt shelf-life report for the retailer", 20),
        (F, "project:oat-drink", "Oat-drink sediment after retort is under investigation", 18),
        (B, G, "Used to work in a brewery lab", 16),
        (F, G, "Preparing a talk on enzyme hydrolysis of oats", 14),
        (F, "project:yoghurt", "Yoghurt line trial for the new cup size next week", 12),
        (F, G, "Setting up a viscosity method on the new rheometer", 10),
        (F, G, "Reviewing the almond drink label claims", 8),
        (F, G, "Benchmarking barista oat drinks from competitors", 6),
        (F, G, "Out at the co-packer this week", 3),
    ]),
    convs=[C(2, "10:00", [
        U("What's a typical dosage of dipotassium phosphate in an oat drink?"),
        A("Around 0.1-0.2%, to buffer against coffee acidity."),
    ])],
    recall=[
        R(["project:oat-drink", "project:yoghurt"], "How's the oat drink shelf-life report coming along?", ["oat-drink shelf-life"]),
        R([], "How should I set up the viscosity method on the rheometer?", ["rheometer"]),
        R(["domain:report"], "Which competitor barista oat drinks have we benchmarked?", ["barista"]),
    ],
)

case("en-recall-micro-qa", ["recall", "explicit", "project"],
    explicit=mems([
        (TM, G, "TPC means total plate count", 27),
        (P, "domain:standard", "Standards: numbered steps with temperatures and times", 26),
        (B, G, "QA microbiologist, mostly pathogen testing (Salmonella, Listeria)", 25),
        (F, G, "Writing the environmental monitoring plan for the new filling hall", 23),
        (F, "project:cheese-sticks", "Listeria risk assessment for cheese sticks is nearly done", 21),
        (F, "project:pasteurised-milk", "Leading the micro part of the ESL validation", 19),
        (B, G, "Two years at a contract lab before joining", 17),
        (F, G, "Learning a PCR rapid method to replace some culture work", 15),
        (B, "domain:report", "Compiles the monthly micro report", 13),
        (F, G, "Comparing QC data from two media suppliers", 11),
        (F, G, "Following up coliform excursions in hall 2", 9),
        (F, G, "Training two new starters on aseptic technique", 6),
        (F, G, "On night shift this week", 3),
    ]),
    convs=[C(4, "09:10", [
        U("How many dilutions do you usually plate for TPC?"),
        A("Two or three consecutive dilutions."),
    ], scopes=["domain:standard"])],
    recall=[
        R(["domain:standard"], "What are the steps for Listeria detection?", ["pathogen testing"]),
        R(["domain:report"], "How many swab points should the environmental monitoring plan have?", ["environmental monitoring plan"]),
        R(["project:pasteurised-milk"], "Can you pull together the micro data for the ESL validation?", ["ESL validation"]),
    ],
)

case("en-recall-supplier-quality", ["recall", "explicit"],
    explicit=mems([
        (QD, "domain:raw_material", "Supplier searches default to the qualified supplier list", 28),
        (P, "domain:raw_material", "Materials: supplier, lot and expiry only", 27),
        (B, G, "Supplier quality engineer for dairy ingredients", 26),
        (F, "domain:raw_material", "Qualifying a second lactase supplier", 24),
        (F, "domain:raw_material", "Writing acceptance specs for pectin and gellan", 22),
        (F, G, "Preparing the annual supplier audit schedule", 20),
        (B, G, "Previously a buyer in procurement", 18),
        (F, "domain:raw_material", "Handling a concession for off-colour sugar", 16),
        (F, "domain:raw_material", "Evaluating samples from a new WPC80 supplier", 14),
        (F, G, "On weekend duty for urgent material checks", 12),
        (F, G, "Learning NIR for incoming checks", 10),
        (B, "domain:recipe", "Sometimes checks ingredient codes in formulas for R&D", 7),
        (F, G, "Studying for the lead auditor exam", 4),
        (F, G, "Tidying the retained-sample room this week", 2),
    ]),
    convs=[C(1, "13:30", [
        U("What's a reasonable moisture limit for SMP?"),
        A("Typically ≤ 4.0-5.0% depending on the spec."),
    ], scopes=["domain:raw_material"])],
    recall=[
        R(["domain:raw_material"], "Where are we with qualifying the lactase supplier?", ["lactase"]),
        R(["domain:raw_material"], "What's in our acceptance spec for gellan gum?", ["pectin and gellan"]),
        R(["domain:recipe"], "The ingredient codes in this formula don't match, what do I do?", ["ingredient codes"]),
    ],
)

case("en-recall-project-lead", ["recall", "explicit", "project"],
    explicit=mems([
        (P, G, "Lead with the decision, then the reasons", 29),
        (P, "project:cheese-sticks", "Cheese-stick updates as bullet points", 28),
        (B, G, "Project manager for new product development", 27),
        (F, "project:cheese-sticks", "Cheese-stick sodium reduction formula is being finalised (target -25%)", 25),
        (F, "project:oat-drink", "Oat-drink Gen-2 is in pilot; sediment is the open issue", 24),
        (F, "project:ambient-yoghurt", "Ambient yoghurt 9-month shelf-life trial is at month 6", 23),
        (F, "project:a2-milk", "A2 milk consumer test running", 22),
        (F, "project:cheese-sticks", "Cheese-stick single-serve pack samples are being printed", 21),
        (F, "project:oat-drink", "Oat-drink switching to a new carton format", 20),
        (F, "project:ambient-yoghurt", "Ambient yoghurt sugar reduction started", 19),
        (F, G, "Preparing the annual innovation review deck", 17),
        (B, G, "Also secretary of the product committee", 15),
        (F, G, "Hiring a process engineer", 13),
        (F, "project:oat-drink", "Oat-drink launch planned for March", 10),
        (F, "project:cheese-sticks", "Cheese-stick plant trial next month", 5),
        (F, G, "Travelling to the plants this week", 3),
    ]),
    convs=[C(2, "15:10", [
        U("What criteria do stage-gate reviews usually use?"),
        A("Market fit, technical feasibility, cost, regulatory risk, capacity..."),
    ])],
    recall=[
        R(["project:cheese-sticks"], "How is the cheese-stick sodium reduction going?", ["sodium reduction"]),
        R(["project:oat-drink"], "Did we fix the sediment in the oat-drink pilot?", ["Gen-2"]),
        R(["project:ambient-yoghurt", "project:oat-drink"], "What month is the ambient yoghurt shelf-life trial at?", ["month 6"]),
    ],
)

case("en-recall-regulatory", ["recall", "explicit", "project"],
    explicit=mems([
        (P, G, "Cite regulations with number and year", 28),
        (B, G, "Regulatory affairs for export markets, mostly Southeast Asia", 27),
        (F, G, "Switching nutrition labels to the new GB 28050 format", 25),
        (F, "project:infant-stage2", "Preparing the stage-2 infant formula registration dossier", 24),
        (F, G, "Checking halal requirements for Malaysia exports", 22),
        (B, G, "Worked at a customs inspection lab before", 20),
        (F, G, "Tracking new novel-food announcements", 18),
        (F, "project:infant-stage2", "Cross-checking stage-2 stability data", 16),
        (F, G, "Writing GB 2760 scope-of-use training", 14),
        (F, G, "Preparing a health-food filing dossier", 12),
        (B, G, "Liaises with marketing on claim wording", 10),
        (F, G, "Following the EU contaminant limit updates", 8),
        (F, G, "Attending a labelling workshop next week", 4),
        (F, G, "Compiling this year's list of regulatory changes", 2),
    ]),
    convs=[C(3, "11:20", [
        U("Can we still say 'no added sucrose' on a yoghurt label?"),
        A("It depends on GB 7718 and GB 28050 conditions..."),
    ])],
    recall=[
        R(["domain:standard"], "What changes with the new nutrition labelling standard?", ["GB 28050"]),
        R(["project:infant-stage2"], "What's still missing from the stage-2 registration dossier?", ["registration dossier"]),
        R(["domain:report"], "What does Malaysia need for halal certification?", ["halal"]),
    ],
)

case("en-recall-sensory", ["recall", "explicit", "project"],
    explicit=mems([
        (P, "domain:report", "Panel reports: significant attributes first", 27),
        (B, G, "Sensory lead, runs a 12-person trained panel", 26),
        (F, "project:low-sugar-yoghurt", "Triangle tests on sweetener options for the low-sugar yoghurt", 24),
        (F, G, "Training new panellists on basic tastes", 22),
        (F, "project:cheese-sticks", "Saltiness evaluation of reduced-sodium cheese sticks is scheduled", 20),
        (F, G, "Building a descriptive lexicon for yoghurt texture", 18),
        (B, G, "Five years of consumer testing experience", 16),
        (F, G, "Preparing the annual panel performance check", 14),
        (F, "project:oat-drink", "Profiling beany and cereal notes in the oat drink", 12),
        (F, G, "Ordering new booth dividers for the sensory lab", 10),
        (F, G, "Collating last year's sensory data", 8),
        (B, G, "Maintains the sensory lab equipment", 6),
        (F, G, "Reading up on olfactory training", 3),
    ]),
    convs=[C(5, "14:25", [
        U("With 24 panellists, how many correct answers make a triangle test significant?"),
        A("At alpha 0.05, 13 correct."),
    ])],
    recall=[
        R(["project:low-sugar-yoghurt"], "How do I analyse the sweetener triangle tests?", ["sweetener options"]),
        R(["domain:report"], "Which texture descriptors should we use for yoghurt?", ["descriptive lexicon"]),
        R(["project:oat-drink"], "Is the oat drink too beany?", ["beany"]),
    ],
)

case("en-recall-uht-process", ["recall", "explicit"],
    explicit=mems([
        (P, G, "Numbers always with units, temperatures in °C", 28),
        (B, G, "Process engineer on the UHT line", 27),
        (F, G, "Investigating fast fouling in the plate heat exchanger", 25),
        (F, G, "Optimising second-stage homogenisation pressure", 23),
        (F, "project:ambient-yoghurt", "Validating the post-fermentation heat treatment", 21),
        (B, G, "Used to run evaporators at a powder plant", 19),
        (F, G, "Rewriting the CIP programme to cut caustic use", 17),
        (F, G, "Talking to the vendor about upgrading the aseptic filler", 15),
        (F, G, "Training new operators on the UHT", 13),
        (F, G, "Summarising downtime for the first half", 11),
        (B, G, "Member of the site energy-saving team", 9),
        (F, G, "Reading about direct steam injection", 7),
        (F, G, "On nights this week", 4),
    ]),
    convs=[C(2, "08:45", [
        U("Is 85 °C for 15 s much harsher than 72 °C for 15 s?"),
        A("Yes, noticeably more whey protein denaturation and some cooked notes."),
    ])],
    recall=[
        R([], "Why is our plate heat exchanger fouling so fast?", ["fouling"]),
        R(["project:ambient-yoghurt"], "What time and temperature for the post-fermentation heat treatment?", ["post-fermentation"]),
        R(["domain:report"], "How can we reduce caustic consumption in CIP?", ["caustic"]),
    ],
)

case("en-recall-nutrition", ["recall", "explicit", "project"],
    explicit=mems([
        (TM, G, "'Triple-high' means the high-protein, high-calcium, high-fibre range", 27),
        (P, G, "Nutrition values per 100 g", 26),
        (B, G, "Nutritionist; calculates nutrient panels and designs labels", 25),
        (F, "project:triple-high", "Working out the fibre claim for the triple-high range", 23),
        (F, G, "Designing nutrient ratios for toddler snacks", 21),
        (F, G, "Updating the dairy section of the nutrient database", 19),
        (F, "project:low-sugar-yoghurt", "Energy calculation for the low-sugar yoghurt needs a recheck", 17),
        (B, G, "Registered dietitian, previously in a hospital", 15),
        (F, G, "Writing a review on calcium fortification", 13),
        (F, G, "Checking nutrition labels of imported ingredients", 11),
        (F, G, "Preparing training on nutrition and health claims", 9),
        (F, G, "Reviewing protein test reports", 6),
        (F, G, "Compiling reference intake values this week", 3),
    ]),
    convs=[C(4, "12:15", [
        U("What energy factor do we use for dietary fibre?"),
        A("8 kJ/g (2 kcal/g)."),
    ])],
    recall=[
        R(["project:triple-high"], "How do we calculate the fibre claim for the triple-high range?", ["fibre claim"]),
        R(["domain:raw_material"], "Where are the dairy values in the nutrient database?", ["nutrient database"]),
        R(["project:low-sugar-yoghurt"], "How is energy calculated for the low-sugar yoghurt?", ["Energy calculation"]),
    ],
)

case("en-recall-packaging", ["recall", "explicit", "project"],
    explicit=mems([
        (P, G, "Answer in bullet points", 28),
        (B, G, "Packaging engineer for cups, bottles and film", 27),
        (F, G, "Running migration tests on PP cups", 25),
        (F, "project:cheese-sticks", "Measuring seal strength of the cheese-stick single packs", 23),
        (F, G, "Evaluating recyclable mono-material films", 21),
        (F, G, "Working with a supplier on unstable cap torque", 19),
        (B, G, "Previously in quality at a print shop", 17),
        (F, G, "Annual review of packaging suppliers", 15),
        (F, "project:oat-drink", "Introducing the new carton for the oat drink", 13),
        (F, G, "Looking at pinhole tests for foil lids", 11),
        (F, G, "Preparing a sensory odour-transfer test for packaging", 9),
        (F, G, "Running drop tests on cups", 6),
        (F, G, "Visiting a supplier this week", 3),
    ]),
    convs=[C(1, "09:55", [
        U("Roughly what oxygen transmission does plain PET have?"),
        A("Fairly high without a barrier layer; coatings or multilayers bring it down a lot."),
    ])],
    recall=[
        R(["domain:standard"], "How do I run the migration test for PP cups?", ["migration tests"]),
        R(["project:cheese-sticks"], "What seal strength should the single packs reach?", ["seal strength"]),
        R([], "What cap torque range should we target?", ["cap torque"]),
    ],
)

case("en-recall-cheese", ["recall", "explicit", "project"],
    explicit=mems([
        (P, "domain:recipe", "Formulas in percentages", 27),
        (QD, "domain:recipe", "Formula lookups default to the plant version", 26),
        (B, G, "Cheese process development, Shanghai R&D centre", 25),
        (F, "project:mozzarella", "Chasing poor stretch in the mozzarella", 23),
        (F, "project:cheese-sticks", "Switching coagulant for the cheese sticks", 21),
        (F, G, "Screening emulsifying salts for processed cheese", 19),
        (B, G, "Trained in cheese technology in the Netherlands", 17),
        (F, G, "Logging temperature and humidity in the ripening room", 15),
        (F, "project:mozzarella", "Optimising brining time for mozzarella", 13),
        (F, G, "Assessing alternatives to imported cheese ingredients", 11),
        (F, G, "Teaching new staff to make cheddar", 9),
        (F, "project:cheese-sticks", "Raising the calcium content of cheese sticks", 7),
        (F, G, "Writing the processed cheese process instructions", 4),
    ]),
    convs=[C(3, "10:40", [
        U("How long does cheddaring usually take?"),
        A("About 1.5-2 hours, until the whey TA reaches 0.5-0.6%."),
    ])],
    recall=[
        R(["project:mozzarella"], "Why won't the mozzarella stretch properly?", ["poor stretch"]),
        R(["project:cheese-sticks", "domain:recipe"], "Does the cheese-stick formula change with the new coagulant?", ["coagulant"]),
        R(["domain:raw_material"], "Citrate or phosphate emulsifying salts for processed cheese?", ["emulsifying salts"]),
    ],
)

case("en-recall-ice-cream", ["recall", "explicit", "project"],
    explicit=mems([
        (P, G, "Short answers, five lines max", 28),
        (B, G, "Frozen desserts developer - ice cream and ice lollies", 27),
        (F, "project:vegan-lolly", "Improving meltdown resistance of the coconut-pea vegan lolly", 25),
        (F, G, "Overrun trials on a low-sugar ice cream", 23),
        (F, "project:vegan-lolly", "Pea protein off-flavour still not masked", 21),
        (B, G, "Used to work in bakery", 19),
        (F, G, "Following up chocolate coating suppliers", 17),
        (F, G, "Mapping microbiological risks in frozen desserts", 15),
        (F, G, "Screening stabiliser blends for ice cream", 13),
        (F, G, "Testing ageing time for ice cream mix", 10),
        (F, G, "Preparing summer flavour tests", 7),
        (F, G, "Looking at cold-chain breaks and ice cream quality", 4),
    ]),
    convs=[C(2, "13:05", [
        U("What total solids do ice lollies usually have?"),
        A("Roughly 30-40%."),
    ])],
    recall=[
        R(["project:vegan-lolly"], "How can we slow the meltdown of the lolly?", ["meltdown"]),
        R([], "What overrun should a low-sugar ice cream have?", ["Overrun"]),
        R(["domain:raw_material"], "Who supplies our chocolate coating?", ["chocolate coating"]),
    ],
)

case("en-recall-infant-stability", ["recall", "explicit", "project"],
    explicit=mems([
        (P, "domain:report", "Stability reports as a table by time point", 28),
        (QD, "domain:report", "Stability data defaults to the 25 °C arm", 27),
        (B, G, "Infant formula team, responsible for stability studies", 26),
        (F, "project:if-stage2", "Stage-2 accelerated study at month 3", 24),
        (F, G, "Building a vitamin C degradation model", 22),
        (F, "project:if-stage3", "Tracking fat oxidation markers in stage 3", 20),
        (F, "project:if-stage2", "Measuring residual oxygen in stage-2 cans", 18),
        (B, G, "Seven years in powder QC", 16),
        (F, G, "Writing a stability protocol template", 14),
        (F, G, "Evaluating a new climate chamber", 12),
        (F, "project:if-stage3", "Stage 3 needs an extra long-term study", 10),
        (F, G, "Compiling stability documents for registration", 8),
        (F, G, "Running HPLC this week", 4),
    ]),
    convs=[C(3, "16:00", [
        U("How much shelf life can six months of accelerated data support?"),
        A("It supports a provisional claim; long-term data decide."),
    ])],
    recall=[
        R(["project:if-stage2"], "How does the stage-2 accelerated study look?", ["accelerated study"]),
        R(["domain:report"], "Vitamin C is dropping fast in storage - what can we do?", ["vitamin C degradation"]),
        R(["project:if-stage3"], "How are the fat oxidation markers trending in stage 3?", ["fat oxidation"]),
    ],
)

case("en-recall-lab-manager", ["recall", "explicit"],
    explicit=mems([
        (P, G, "Conclusion first, then the reasons", 29),
        (TM, G, "'Method A' is the ISO 4833-1 pour-plate method", 28),
        (B, G, "Runs the plant's chemistry lab", 27),
        (F, G, "Preparing for the ISO 17025 assessment visit", 25),
        (F, G, "Verifying the new Kjeldahl unit", 23),
        (F, G, "Running a proficiency test on milk powder fat", 21),
        (B, G, "Has a team of eight analysts", 19),
        (F, G, "Updating the lab SOPs", 17),
        (F, G, "Comparing data from two GCs", 15),
        (F, G, "Tracking instrument utilisation", 13),
        (F, G, "Evaluating reagent suppliers", 11),
        (F, G, "Checking balance calibration certificates", 9),
        (F, G, "Recruiting an HPLC technician", 6),
        (F, G, "Deep clean of the lab this week", 3),
    ]),
    convs=[C(5, "08:35", [
        U("How many extractions in Röse-Gottlieb?"),
        A("Three, usually."),
    ])],
    recall=[
        R(["domain:report"], "What do we need ready for the ISO 17025 visit?", ["17025"]),
        R(["domain:standard"], "How should the new Kjeldahl unit be verified?", ["Kjeldahl"]),
        R([], "Our proficiency test result for powder fat was unsatisfactory, what now?", ["proficiency"]),
    ],
)
