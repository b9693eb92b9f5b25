# English presentation wishes. Two conversations → auto memory; one → slip only.
from _dsl import case, C, U, A

P = "presentation"

case("en-pres-report-verdict-first", [P, "memory"], convs=[
    C(5, "09:10", [
        U("Can you summarise the attached micro report for batch 2611-04?"),
        A("The report covers 14 samples taken across the filling run. Methods used were ISO 4833-1 for TPC..."),
        U("From now on, when you summarise a lab report, give me the verdict first and the supporting data after."),
        A("Understood. Verdict: all 14 samples within spec. Supporting data: TPC ranged from..."),
    ], scopes=["domain:report"]),
    C(2, "13:40", [
        U("Here's the chemistry panel for the cream cheese trial."),
        A("Verdict: moisture is 1.2 points above target on trial 3; everything else is within spec. Data: ..."),
        U("Good, keep doing it that way - verdict up top."),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "the verdict"), (P, "domain:report", "verdict up")],
    mems=[(P, "domain:report", ["verdict", "result", "conclusion", "结论", "结果"])],
)

case("en-pres-recipe-table-once", [P, "slip_only"], convs=[
    C(3, "10:20", [
        U("Compare the sweetener systems in formulas DY-31 and DY-34."),
        A("DY-31 uses sucrose at 5% with 0.02% stevia, while DY-34 replaces part of the sucrose with allulose..."),
        U("For formulation comparisons I'd like a table, one column per formula. Prose is hard to scan."),
        A("| Ingredient | DY-31 | DY-34 |..."),
    ], scopes=["domain:recipe"]),
],
    slips=[(P, "domain:recipe", "column per")],
)

case("en-pres-global-short-bullets", [P, "memory"], convs=[
    C(6, "08:30", [
        U("Why does UHT milk sometimes taste cooked?"),
        A("Great question! The cooked flavour in UHT milk comes from a number of interrelated factors. First, ... (six paragraphs)"),
        U("Please keep answers short - three or four bullet points max. I read these between meetings."),
        A("- Heat forms sulfhydryl compounds\n- Maillard products\n- Indirect heating worse than direct\n- Fades over weeks"),
    ]),
    C(2, "15:00", [
        U("What's syneresis again?"),
        A("- Whey separating from a gel\n- Driven by low solids, over-acidification or shear\n- Fix: protein, stabiliser, gentler handling"),
        U("Perfect length. Keep answers this short."),
        A("Will do."),
    ]),
],
    slips=[(P, "global", "bullet point"), (P, "global", "this short")],
    mems=[(P, "global", ["bullet", "short", "brief", "concise", "要点", "简短"])],
)

case("en-pres-standard-full-reference", [P, "memory"], convs=[
    C(4, "12:10", [
        U("Which method should we use for Salmonella in milk powder?"),
        A("The horizontal method for Salmonella detection, ISO 6579."),
        U("When you cite a method, always give the full reference with the year, like ISO 6579-1:2017. There are too many versions floating around."),
        A("Noted: ISO 6579-1:2017 (with Amd 1:2020)."),
    ], scopes=["domain:standard"]),
    C(1, "09:45", [
        U("And for yeasts and moulds in yoghurt?"),
        A("ISO 21527-1:2008, colony count technique for products with water activity greater than 0.95."),
        U("Yes, full reference with year, that's what I want every time."),
    ], scopes=["domain:standard"]),
],
    slips=[(P, "domain:standard", "the year"), (P, "domain:standard", "with year")],
    mems=[(P, "domain:standard", ["year", "edition", "version", "年份", "full reference"])],
)

case("en-pres-report-per-100ml-once", [P, "slip_only"], convs=[
    C(2, "14:20", [
        U("Pull the nutrition results for the protein shake pilot."),
        A("Per 330 mL serving: protein 25.1 g, fat 3.0 g, carbohydrate 9.8 g..."),
        U("I always want nutrition values per 100 mL, not per serving. Serving sizes keep changing."),
        A("Per 100 mL: protein 7.6 g, fat 0.9 g, carbohydrate 3.0 g."),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "per 100 mL")],
)

case("en-pres-rawmat-supplier-lot-expiry", [P, "memory"], convs=[
    C(5, "10:00", [
        U("What do we have in stock records for the low-methoxyl pectin?"),
        A("Here is the full material record: supplier, site, CoA number, inspector, storage location, receipt date..."),
        U("Going forward, when I ask about a raw material, just list supplier, lot and expiry. Nothing else."),
        A("Supplier | Lot | Expiry\nCP Kelco | 26-1183 | 2027-05-31"),
    ], scopes=["domain:raw_material"]),
    C(3, "11:30", [
        U("Same for the WPC80 lots, please."),
        A("Supplier | Lot | Expiry\nArla | W80-5521 | 2027-02-14\n..."),
        U("Yep, supplier/lot/expiry is all I ever need for materials."),
    ], scopes=["domain:raw_material"]),
],
    slips=[(P, "domain:raw_material", "and expiry"), (P, "domain:raw_material", "lot/expiry")],
    mems=[(P, "domain:raw_material", ["supplier", "lot", "expiry", "供应商", "批号"])],
)

case("en-pres-project-oat-status-table", [P, "memory", "project"], convs=[
    C(6, "08:15", [
        U("Draft this week's update for the oat-drink project from my notes below."),
        A("This week the oat-drink team made good progress on several fronts. On the enzyme side..."),
        U("For the oat-drink project, weekly updates should be a short table: task, owner, status, next step."),
        A("| Task | Owner | Status | Next step |..."),
    ], scopes=["project:oat-drink"]),
    C(1, "08:20", [
        U("Notes for this week's oat-drink update attached."),
        A("| Task | Owner | Status | Next step |\n| Enzyme dosage | Wei | done | scale-up |..."),
        U("Great, that table format is exactly right for these updates."),
    ], scopes=["project:oat-drink"]),
],
    slips=[(P, "project:oat-drink", "short table"), (P, "project:oat-drink", "table format")],
    mems=[(P, "project:oat-drink", ["table", "表格", "owner", "next step"])],
)

case("en-pres-global-metric-once", [P, "slip_only"], convs=[
    C(3, "13:10", [
        U("What pasteurisation conditions does the PMO give for HTST?"),
        A("161°F (72°C) for 15 seconds."),
        U("Metric units only in your answers, please. No Fahrenheit, no pounds."),
        A("Got it: 72 °C for 15 s."),
    ]),
],
    slips=[(P, "global", "Metric units")],
)

case("en-pres-global-british-spelling", [P, "memory"], convs=[
    C(5, "09:00", [
        U("Draft a short note to the plant about the new color standard for the strawberry prep."),
        A("Hi team, please note the new color standard for the strawberry preparation..."),
        U("I prefer British spelling in anything you draft for me - colour, flavour, etc."),
        A("Hi team, please note the new colour standard for the strawberry preparation..."),
    ]),
    C(2, "10:40", [
        U("Write two lines for the newsletter about our yogurt relaunch."),
        A("Our yoghurt is back with a fresh flavour..."),
        U("Nice, UK spelling as always."),
    ]),
],
    slips=[(P, "global", "British"), (P, "global", "UK spelling")],
    mems=[(P, "global", ["British", "UK spelling", "英式"])],
)

case("en-pres-standard-numbered-bold-once", [P, "slip_only"], convs=[
    C(2, "12:30", [
        U("Walk me through the Gerber fat method."),
        A("The Gerber method involves mixing milk with sulfuric acid and amyl alcohol in a butyrometer, centrifuging..."),
        U("When you explain a test method, number the steps and put temperatures and times in bold so I can follow along at the bench."),
        A("1. Add 10 mL H2SO4 to the butyrometer\n2. ...\n5. Centrifuge **4 min**, temper at **65 °C** for **5 min**"),
    ], scopes=["domain:standard"]),
],
    slips=[(P, "domain:standard", "number the")],
)

case("en-pres-report-deviations-top", [P, "memory"], convs=[
    C(4, "08:50", [
        U("Summarise the batch record for 2611-18."),
        A("Batch 2611-18 was produced on line 3. Raw milk intake at 05:40... Two deviations were noted: ..."),
        U("I always read the deviations section first, so put deviations at the top of any batch report summary."),
        A("Deviations: (1) homogeniser pressure dropped to 150 bar for 6 min; (2) ... Summary: ..."),
    ], scopes=["domain:report"]),
    C(1, "14:05", [
        U("Batch record for 2612-02, please."),
        A("Deviations: none recorded. Summary: ..."),
        U("Good - deviations up front, always."),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "at the top"), (P, "domain:report", "up front")],
    mems=[(P, "domain:report", ["deviation", "偏差"])],
)

case("en-pres-report-red-oos-once", [P, "slip_only"], convs=[
    C(5, "15:30", [
        U("Here are the in-process checks from Tuesday's night shift."),
        A("There are 96 checks; pH was 4.62 at 02:00 on tank 4, which is above the 4.60 limit..."),
        U("Whenever you list results, flag anything out of spec in red so it jumps out."),
        A("Noted. Tank 4, 02:00: pH <span style='color:red'>4.62</span>..."),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "in red")],
)

case("en-pres-recipe-before-after", [P, "memory"], convs=[
    C(6, "11:15", [
        U("Suggest tweaks to lower the viscosity of drinking yoghurt DY-40."),
        A("You could reduce pectin, increase homogenisation pressure, or lower total solids..."),
        U("When you propose recipe tweaks, show the before and after dosage side by side, otherwise I have to look up the current formula."),
        A("| Ingredient | Current | Proposed |\n| Pectin | 0.30% | 0.24% |..."),
    ], scopes=["domain:recipe"]),
    C(2, "09:35", [
        U("How could we cut the sugar in DY-40 by 20%?"),
        A("| Ingredient | Current | Proposed |\n| Sucrose | 7.0% | 5.6% |..."),
        U("Thanks. Keep showing current vs proposed like that for any formula changes."),
    ], scopes=["domain:recipe"]),
],
    slips=[(P, "domain:recipe", "before and"), (P, "domain:recipe", "vs proposed")],
    mems=[(P, "domain:recipe", ["before", "after", "current", "proposed", "side by side", "side-by-side", "对照"])],
)

case("en-pres-global-no-disclaimer-question-form", [P, "slip_only"], convs=[
    C(1, "10:10", [
        U("Is nisin allowed in processed cheese in the EU?"),
        A("Yes, E234 is permitted in ripened and processed cheese up to 12.5 mg/kg. Please note that regulations change; always verify with official sources."),
        U("Can you stop adding a disclaimer at the end of every answer? I know to double-check regulations myself."),
        A("Sure."),
    ]),
],
    slips=[(P, "global", "disclaimer")],
)

case("en-pres-project-protein-units", [P, "memory", "project"], convs=[
    C(5, "13:00", [
        U("What protein level are we at with the Greek yoghurt trial 7?"),
        A("Trial 7 comes out at 10.35% protein."),
        U("For this project, always express protein as g/100 g, rounded to one decimal."),
        A("Trial 7: 10.4 g/100 g protein."),
    ], scopes=["project:greek-yoghurt"]),
    C(3, "08:05", [
        U("And trial 8 and 9?"),
        A("Trial 8: 9.9 g/100 g; trial 9: 10.8 g/100 g."),
        U("Right, g/100 g with one decimal is the house style for Greek yoghurt."),
    ], scopes=["project:greek-yoghurt"]),
],
    slips=[(P, "project:greek-yoghurt", "express"), (P, "project:greek-yoghurt", "house style")],
    mems=[(P, "project:greek-yoghurt", ["g/100 g", "g/100g", "one decimal", "decimal", "小数"])],
)

case("en-pres-global-english-answers", [P, "memory"], convs=[
    C(4, "07:50", [
        U("这个标准的第4.2条是什么意思？ (pasted GB 19302 text)"),
        A("第4.2条规定了发酵乳的感官要求……"),
        U("Sorry, I should have said: please answer in English even when I paste Chinese documents."),
        A("Clause 4.2 sets the sensory requirements for fermented milk: ..."),
    ]),
    C(1, "12:45", [
        U("(pasted GB 2760 excerpt) 这里的果胶限量怎么理解？"),
        A("Pectin (E440) is listed as 'quantum satis'..."),
        U("Thanks - English answers as usual, good."),
    ]),
],
    slips=[(P, "global", "in English"), (P, "global", "answers as")],
    mems=[(P, "global", ["English", "英文", "英语"])],
)

case("en-pres-standard-clause-numbers-once", [P, "slip_only"], convs=[
    C(3, "09:25", [
        U("What does GB 7718 say about the shelf-life statement?"),
        A("The label must show the shelf life, expressed as 'best before ...' or similar..."),
        U("When you quote a standard, include the clause number so I can find it in the PDF."),
        A("GB 7718-2025, clause 4.1.7: ..."),
    ], scopes=["domain:standard"]),
],
    slips=[(P, "domain:standard", "clause")],
)

case("en-pres-report-scientific-notation", [P, "memory"], convs=[
    C(6, "14:40", [
        U("Give me the TPC results for the swabs from line 2."),
        A("Swab 1: 1200 CFU, swab 2: 45000 CFU, swab 3: 310 CFU..."),
        U("For micro results, write counts in scientific notation, e.g. 1.2 × 10^3 CFU/g. Big plain numbers are easy to misread."),
        A("Swab 1: 1.2 × 10^3 CFU; swab 2: 4.5 × 10^4 CFU; swab 3: 3.1 × 10^2 CFU."),
    ], scopes=["domain:report"]),
    C(2, "10:55", [
        U("And the product samples from the same run?"),
        A("Sample A: 2.0 × 10^2 CFU/g..."),
        U("Yes, scientific notation for every count please."),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "write counts"), (P, "domain:report", "every count")],
    mems=[(P, "domain:report", ["scientific notation", "× 10", "x 10", "10^", "科学计数"])],
)

case("en-pres-global-reasoning-first-once", [P, "slip_only"], convs=[
    C(2, "16:00", [
        U("Should we switch the drinking yoghurt from pectin to CMC?"),
        A("Recommendation: no. Reasons: ..."),
        U("I like to see the reasoning laid out step by step before the recommendation, not after. It's how I check your logic."),
        A("Step 1: both stabilise casein at low pH... Step 4: ... Recommendation: stay with pectin."),
    ]),
],
    slips=[(P, "global", "step by step")],
)

case("en-pres-rawmat-approved-first-once", [P, "slip_only"], convs=[
    C(4, "12:00", [
        U("Who supplies our lactase enzyme?"),
        A("Three suppliers have delivered lactase in the last two years: ..."),
        U("For supplier questions, put the approved suppliers first and the ones under evaluation after, clearly labelled."),
        A("Approved: DSM, Chr. Hansen. Under evaluation: ..."),
    ], scopes=["domain:raw_material"]),
],
    slips=[(P, "domain:raw_material", "approved")],
)

case("en-pres-project-action-items", [P, "memory", "project"], convs=[
    C(5, "09:50", [
        U("Turn these cheese-stick meeting notes into minutes."),
        A("Meeting minutes - cheese sticks, 12 Nov. Attendees: ... Discussion: The team discussed the salt reduction..."),
        U("Keep the cheese-stick meeting notes in an action-item format: who, what, by when. The discussion part nobody reads."),
        A("- Li: rerun salt trial at 1.4% by 19 Nov\n- Tom: ..."),
    ], scopes=["project:cheese-sticks"]),
    C(1, "11:05", [
        U("Minutes from today's cheese-stick sync, raw notes below."),
        A("- Ana: book pilot plant for week 50 by Friday\n- ..."),
        U("Good, who/what/by-when is the format for these from here on."),
    ], scopes=["project:cheese-sticks"]),
],
    slips=[(P, "project:cheese-sticks", "action-item"), (P, "project:cheese-sticks", "who/what")],
    mems=[(P, "project:cheese-sticks", ["action", "who", "by when", "待办", "行动项"])],
)

case("en-pres-global-no-emojis-once", [P, "slip_only"], convs=[
    C(3, "15:15", [
        U("Quick one: shelf life of our fresh cream at 4 °C?"),
        A("14 days 🥛✅"),
        U("Please don't use emojis in your answers, I paste them into official documents."),
        A("Understood. 14 days at 4 °C."),
    ]),
],
    slips=[(P, "global", "emojis")],
)

case("en-pres-recipe-total-100", [P, "memory"], convs=[
    C(6, "08:40", [
        U("Give me a starting formula for a 2% fat vanilla yoghurt."),
        A("Milk 88%, sugar 6%, SMP 3%, vanilla 0.1%, starch 1%..."),
        U("Whenever you give me a formula, make the ingredients add up to 100% and show the total line. That one adds to 98.1."),
        A("Corrected, with water to balance... Total: 100.0%"),
    ], scopes=["domain:recipe"]),
    C(3, "10:30", [
        U("Now a 0% fat version."),
        A("Skim milk 90.2%, ... Total: 100.0%"),
        U("Good, always with the total row."),
    ], scopes=["domain:recipe"]),
],
    slips=[(P, "domain:recipe", "add up to"), (P, "domain:recipe", "total row")],
    mems=[(P, "domain:recipe", ["100%", "total", "合计", "总计"])],
)

case("en-pres-sensory-with-background", [P, "background", "slip_only"], convs=[
    C(2, "13:20", [
        U("I'm a sensory scientist, so when you summarise panel results, lead with the attributes that differ significantly."),
        A("Significant differences (p<0.05): sourness, creaminess. Not significant: ..."),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "lead with"), ("background", "global", "sensory")],
    mems=[("background", "global", ["sensory", "感官"])],
)
