# English corrections over several conversations; final state expected.
from _dsl import case, C, U, A, E

P = "presentation"
B = "background"
F = "recent_focus"

case("en-corr-method-summary-first", ["correction", P], convs=[
    C(6, "09:00", [
        U("When you summarise lab reports, put the conclusion first."),
        A("Will do."),
    ], scopes=["domain:report"]),
    C(4, "13:20", [
        U("Here's the heavy-metals report. Conclusion first, like last time."),
        A("Conclusion: all within limits. Details: ..."),
    ], scopes=["domain:report"]),
    C(1, "10:40", [
        U("Actually, not conclusion first any more - for lab reports I want a one-line method summary first, then the results, then the conclusion. Our reviewers asked for it."),
        A("Understood. Method: ICP-MS after microwave digestion. Results: ... Conclusion: ..."),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "put the"), (P, "domain:report", "like last"),
           (P, "domain:report", "method")],
    mems=[(P, "domain:report", ["method", "方法"])],
)

case("en-corr-bg-micro-to-sensory", ["correction", B], convs=[
    C(5, "08:15", [
        U("I'm in the micro lab, mostly Listeria and Salmonella work."),
        A("Noted."),
    ]),
    C(2, "14:35", [
        U("Quick update: I've moved to the sensory team, I'm no longer in the micro lab."),
        A("Thanks for letting me know."),
    ]),
],
    slips=[(B, "global", "Listeria"), (B, "global", "sensory team")],
    mems=[(B, "global", ["sensory", "感官"])],
)

case("en-corr-focus-sediment-to-foam", ["correction", F, "project"], convs=[
    C(6, "11:10", [
        U("At the moment I'm mostly on the oat-drink sedimentation."),
        A("Protein or fibre sediment?"),
        U("Protein."),
    ], scopes=["project:oat-drink"]),
    C(1, "09:25", [
        U("Sedimentation is solved - we changed the enzyme. Now I'm working on how the oat drink foams in coffee."),
        A("For barista performance look at protein level, dipotassium phosphate and fat..."),
    ], scopes=["project:oat-drink"]),
],
    slips=[(F, "project:oat-drink", "mostly on"), (F, "project:oat-drink", "foams")],
    mems=[(F, "project:oat-drink", ["foam", "barista", "coffee", "起泡", "咖啡"])],
)

case("en-corr-units-per-serving-two-runs", ["correction", P, "multi_run"],
    now=["2027-02-10T12:00:00Z", "2027-02-20T12:00:00Z"],
    convs=[
        C(5, "09:30", [
            U("Nutrition values in your summaries should always be per 100 g."),
            A("Understood."),
        ], scopes=["domain:report"]),
        C(2, "14:00", [
            U("Per 100 g again please, as usual."),
            A("Protein 3.4 g/100 g, ..."),
        ], scopes=["domain:report"]),
        C(3, "10:15", [
            U("Change of plan: from now on give nutrition values per serving, not per 100 g. Marketing only works with per-serving numbers."),
            A("Per 150 g serving: protein 5.1 g, ..."),
        ], scopes=["domain:report"], base=1),
    ],
    slips=[(P, "domain:report", "always be"), (P, "domain:report", "as usual"),
           (P, "domain:report", "per serving")],
    mems=[(P, "domain:report", ["serving", "每份"])],
)

case("en-corr-term-b-line-renamed", ["correction", "terminology"], convs=[
    C(5, "12:45", [
        U("'B line' means the cup filler in hall 2, remember."),
        A("Noted."),
    ]),
    C(2, "08:40", [
        U("Correction: the B line is now the bottle line in hall 3 - they renamed the lines after the rebuild."),
        A("Thanks, updated: B line = hall 3 bottle line."),
    ]),
],
    slips=[("terminology", "global", "cup filler"), ("terminology", "global", "hall 3")],
    sugs=[("terminology", "global")],
)

case("en-corr-explicit-detail-vs-brief", ["correction", P, "explicit"],
    explicit=[E(P, "global", "Answer in detail and always include references", 25)],
    convs=[
        C(5, "10:05", [
            U("What's the max nisin in processed cheese?"),
            A("(a long answer with five references)"),
            U("From now on keep it brief, I don't need all the references."),
            A("OK: 12.5 mg/kg (EU)."),
        ]),
        C(2, "15:15", [
            U("And for natamycin on cheese rinds?"),
            A("1 mg/dm², not deeper than 5 mm."),
            U("Good. Short answers like that from now on."),
        ]),
    ],
    slips=[(P, "global", "brief"), (P, "global", "Short")],
    sugs=[(P, "global")],
)

case("en-corr-qd-plant-wuxi", ["correction", "query_default"], convs=[
    C(6, "09:10", [
        U("Raw material lookups: default to the Suzhou plant unless I say otherwise."),
        A("Understood."),
    ], scopes=["domain:raw_material"]),
    C(1, "13:50", [
        U("Not Suzhou anymore - default to the Wuxi plant for raw materials. Suzhou closes at the end of the year."),
        A("Noted: Wuxi by default."),
    ], scopes=["domain:raw_material"]),
],
    slips=[("query_default", "domain:raw_material", "Suzhou plant"), ("query_default", "domain:raw_material", "Wuxi")],
    sugs=[("query_default", "domain:raw_material")],
)

case("en-corr-project-greek-no-tables", ["correction", P, "project"], convs=[
    C(6, "10:30", [
        U("For the Greek yoghurt project, weekly updates as a table please."),
        A("| Task | Status |..."),
    ], scopes=["project:greek-yoghurt"]),
    C(4, "08:50", [
        U("Table for the Greek yoghurt update again, thanks."),
        A("| Task | Status |..."),
    ], scopes=["project:greek-yoghurt"]),
    C(1, "12:05", [
        U("No tables for the Greek yoghurt updates any more. Three plain sentences is enough, the table is overkill."),
        A("Got it. This week: ..."),
    ], scopes=["project:greek-yoghurt"]),
],
    slips=[(P, "project:greek-yoghurt", "as a table"), (P, "project:greek-yoghurt", "Table for"),
           (P, "project:greek-yoghurt", "sentences")],
    mems=[(P, "project:greek-yoghurt", ["sentence", "句"])],
)

case("en-corr-focus-mascarpone-not-cream-cheese", ["correction", F], convs=[
    C(5, "11:35", [
        U("I'm working on cream cheese firmness at the moment."),
        A("What's the issue - graininess or firmness?"),
    ]),
    C(2, "09:05", [
        U("Sorry, I misspoke last time: it's not cream cheese, it's mascarpone I'm working on. Similar texture issues though."),
        A("Thanks. For mascarpone, the acid-heat coagulation step is usually the lever..."),
    ]),
],
    slips=[(F, "global", "firmness"), (F, "global", "mascarpone")],
    mems=[(F, "global", ["mascarpone", "马斯卡彭"])],
)
