# English scope discipline.
from _dsl import case, C, U, A, R

P = "presentation"

case("en-scope-recipe-table-not-rawmat", ["scope", P], convs=[
    C(5, "09:15", [
        U("Compare formulas SK-11 and SK-12."),
        A("SK-11 uses 3% SMP while SK-12..."),
        U("Formula comparisons should always be a table from now on, one row per ingredient."),
        A("| Ingredient | SK-11 | SK-12 |..."),
    ], scopes=["domain:recipe"]),
    C(3, "14:40", [
        U("And SK-12 versus SK-14?"),
        A("| Ingredient | SK-12 | SK-14 |..."),
        U("Yes, that's the table format I want for formula comparisons."),
    ], scopes=["domain:recipe"]),
    C(1, "10:30", [
        U("What incoming tests do we run on SMP?"),
        A("Sensory, moisture, protein, fat, titratable acidity, scorched particles, TPC, coliforms..."),
    ], scopes=["domain:raw_material"]),
],
    slips=[(P, "domain:recipe", "a table"), (P, "domain:recipe", "table format")],
    mems=[(P, "domain:recipe", ["table", "表格"])],
    recall=[R(["domain:recipe"], "compare SK-14 with SK-15", ["table", "表格"])],
)

case("en-scope-project-oat-vs-greek-reports", ["scope", P, "project"], convs=[
    C(6, "08:30", [
        U("Oat-drink reports: conclusions first, then the data tables. Always."),
        A("Noted."),
    ], scopes=["project:oat-drink"]),
    C(5, "13:00", [
        U("For Greek yoghurt, I want the reports in chronological order, day by day."),
        A("Understood."),
    ], scopes=["project:greek-yoghurt"]),
    C(3, "09:45", [
        U("This week's oat-drink report, notes attached. Conclusions up front as usual."),
        A("Conclusions: ..."),
    ], scopes=["project:oat-drink"]),
    C(1, "15:20", [
        U("Greek yoghurt report for this week - day by day again, please."),
        A("Monday: ..., Tuesday: ..."),
    ], scopes=["project:greek-yoghurt"]),
],
    slips=[(P, "project:oat-drink", "data tables"), (P, "project:oat-drink", "up front"),
           (P, "project:greek-yoghurt", "chronologic"), (P, "project:greek-yoghurt", "again")],
    mems=[(P, "project:oat-drink", ["conclusion", "结论"]),
          (P, "project:greek-yoghurt", ["chronolog", "day by day", "day-by-day", "时间"])],
    recall=[R(["project:oat-drink"], "draft the oat-drink report for this week", ["conclusion", "结论"]),
            R(["project:greek-yoghurt"], "write up the Greek yoghurt trial report", ["chronolog", "day by day", "day-by-day", "时间"])],
)

case("en-scope-any-project-verdict", ["scope", P, "project"], convs=[
    C(4, "10:10", [
        U("Regardless of project, every test report summary should open with the verdict."),
        A("Noted for all projects."),
    ], scopes=["project:kefir"]),
    C(2, "12:50", [
        U("Same goes for ice cream: all reports, verdict first."),
        A("Verdict: ..."),
    ], scopes=["project:ice-cream"]),
],
    slips=[(P, "domain:report", "Regardless"), (P, "domain:report", "all reports")],
    mems=[(P, "domain:report", ["verdict", "conclusion", "result", "结论"])],
)

case("en-scope-standard-step-cards-not-stats", ["scope", P], convs=[
    C(6, "11:20", [
        U("Lay out ISO 6579-1 as a step card: each step with action, temperature, time, and the clause it comes from."),
        A("Step 1 - Pre-enrichment: BPW, 34-38 °C, 18 h (clause 9.1)..."),
    ], scopes=["domain:standard"]),
    C(3, "08:55", [
        U("Do the same step-card layout for ISO 11290-1. That's how I want standards from now on."),
        A("Step 1 - Primary enrichment: half Fraser, 30 °C, 25 h..."),
    ], scopes=["domain:standard"]),
    C(1, "13:35", [
        U("What was our right-first-time rate on line 4 in November?"),
        A("96.8% (241 of 249 batches)."),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:standard", "step card"), (P, "domain:standard", "step-card")],
    mems=[(P, "domain:standard", ["step card", "step-card", "flow card", "step-by-step", "steps", "流程卡"])],
)

case("en-scope-rawmat-habit", ["scope", P], convs=[
    C(5, "14:15", [
        U("When I ask about a raw material, start with its allergen status, then the rest."),
        A("Will do."),
    ], scopes=["domain:raw_material"]),
    C(2, "09:30", [
        U("Tell me about the new cocoa powder."),
        A("Allergens: none declared; may contain milk. Supplier: ..."),
        U("Right, allergens first for materials, good."),
    ], scopes=["domain:raw_material"]),
    C(1, "11:45", [
        U("Which of our formulas use that cocoa powder?"),
        A("CH-04 and CH-07."),
    ], scopes=["domain:recipe"]),
],
    slips=[(P, "domain:raw_material", "start with"), (P, "domain:raw_material", "first for")],
    mems=[(P, "domain:raw_material", ["allergen", "过敏原"])],
)

case("en-scope-bg-global-focus-project", ["scope", "background", "recent_focus", "project"], convs=[
    C(2, "10:05", [
        U("I'm a fermentation scientist. On this project I'm currently trying to cut the yeast count variation between batches."),
        A("Look at grain handling and the back-slopping ratio first."),
    ], scopes=["project:kefir"]),
],
    slips=[("background", "global", "fermentation"), ("recent_focus", "project:kefir", "yeast count")],
    mems=[("background", "global", ["fermentation", "发酵"]),
          ("recent_focus", "project:kefir", ["yeast", "酵母", "variation"])],
)

case("en-scope-qd-report-not-recipe", ["scope", "query_default"], convs=[
    C(3, "12:40", [
        U("In lab result queries, 'protein' means the Kjeldahl value by default, not the NIR estimate."),
        A("Noted."),
    ], scopes=["domain:report"]),
    C(1, "09:50", [
        U("What protein does formula GY-08 target?"),
        A("10.0 g/100 g."),
    ], scopes=["domain:recipe"]),
],
    slips=[("query_default", "domain:report", "Kjeldahl")],
    sugs=[("query_default", "domain:report")],
)

case("en-scope-project-cheese-minutes-not-icecream", ["scope", P, "project"], convs=[
    C(6, "13:10", [
        U("For cheese-stick meetings, minutes should list decisions first, then open questions."),
        A("OK."),
    ], scopes=["project:cheese-sticks"]),
    C(4, "10:40", [
        U("Cheese-stick minutes again - decisions first, as before."),
        A("Decisions: ..."),
    ], scopes=["project:cheese-sticks"]),
    C(2, "15:55", [
        U("Write up today's ice cream meeting notes."),
        A("Ice cream sync - notes: ..."),
        U("Thanks."),
    ], scopes=["project:ice-cream"]),
],
    slips=[(P, "project:cheese-sticks", "then open"), (P, "project:cheese-sticks", "as before")],
    mems=[(P, "project:cheese-sticks", ["decision", "决定", "决策"])],
)

case("en-scope-standard-habit-in-project-conv", ["scope", P, "project"], convs=[
    C(5, "08:20", [
        U("Whenever you walk me through a standard - any standard, not just for this project - use numbered steps."),
        A("Understood."),
    ], scopes=["project:oat-drink"]),
    C(1, "14:10", [
        U("Walk me through ISO 8968-1 for protein. Numbered steps, like I said for standards."),
        A("1. Weigh 5 mL sample... 2. Digest..."),
    ], scopes=["domain:standard"]),
],
    slips=[(P, "domain:standard", "any standard"), (P, "domain:standard", "like I said")],
    mems=[(P, "domain:standard", ["numbered", "steps", "编号", "步骤"])],
)
