# English terminology and query_default → suggestions only.
from _dsl import case, C, U, A

TM = "terminology"
QD = "query_default"

# --- terminology --------------------------------------------------------------

case("en-term-tpc", [TM], convs=[
    C(2, "09:40", [
        U("What were the TPCs on last week's finished goods?"),
        A("Do you mean total plate count, or something else?"),
        U("For me, TPC means total plate count - always."),
        A("Thanks. Total plate counts for last week: all below 1.0 × 10^3 CFU/g."),
    ]),
],
    slips=[(TM, "global", "TPC means")],
    sugs=[(TM, "global")],
)

case("en-term-b-line", [TM], convs=[
    C(4, "12:15", [
        U("When I say 'the B line', I mean the cup-filling line in hall 2, not the bottling line."),
        A("Noted."),
        U("How many stoppages did the B line have yesterday?"),
        A("I'd need to query the production system for yesterday's stoppages on the hall 2 cup filler."),
    ]),
],
    slips=[(TM, "global", "cup-filling")],
    sugs=[(TM, "global")],
)

case("en-term-recipe-legacy", [TM], convs=[
    C(3, "14:30", [
        U("Show me the legacy versions of formula FM-220."),
        A("FM-220 has versions 1 to 5. Which ones count as legacy?"),
        U("In recipe questions, 'legacy' means anything before version 3."),
        A("Versions 1 and 2 of FM-220: ..."),
    ], scopes=["domain:recipe"]),
],
    slips=[(TM, "domain:recipe", "version 3")],
    sugs=[(TM, "domain:recipe")],
)

case("en-term-hold-batch", [TM], convs=[
    C(1, "08:50", [
        U("Just so you know, a 'hold batch' in our team is a batch that's waiting on micro results before release."),
        A("Understood."),
    ]),
],
    slips=[(TM, "global", "hold batch")],
    sugs=[(TM, "global")],
)

case("en-term-acidity", [TM], convs=[
    C(5, "10:45", [
        U("What's the acidity of batch 2611-07?"),
        A("pH 4.41."),
        U("By 'acidity' I always mean titratable acidity in °T, not pH."),
        A("Sorry - titratable acidity is 81 °T."),
    ]),
],
    slips=[(TM, "global", "titratable")],
    sugs=[(TM, "global")],
)

case("en-term-rawmat-base-powders", [TM], convs=[
    C(2, "13:55", [
        U("When I talk about raw materials, 'base powders' means SMP and WMP only - not whey."),
        A("Got it."),
        U("Any base powder lots rejected this month?"),
        A("One WMP lot was rejected for scorched particles."),
    ], scopes=["domain:raw_material"]),
],
    slips=[(TM, "domain:raw_material", "base powders")],
    sugs=[(TM, "domain:raw_material")],
)

case("en-term-rtd", [TM], convs=[
    C(6, "09:15", [
        U("RTD for us means the ready-to-drink protein shakes, not teas or coffees."),
        A("Thanks for clarifying."),
        U("So which RTDs use milk protein isolate?"),
        A("All three RTD protein shakes use MPI 85..."),
    ]),
],
    slips=[(TM, "global", "RTD for us")],
    sugs=[(TM, "global")],
)

case("en-term-report-excursion", [TM], convs=[
    C(3, "11:05", [
        U("In reports, 'excursion' means anything outside our internal limits, even if it's still within the legal limit."),
        A("Understood: excursion = outside internal limits."),
        U("How many excursions in the October micro report?"),
        A("Five excursions, all coliforms on environmental swabs."),
    ], scopes=["domain:report"]),
],
    slips=[(TM, "domain:report", "internal")],
    sugs=[(TM, "domain:report")],
)

case("en-term-standard-method-a", [TM], convs=[
    C(4, "15:20", [
        U("When we're talking standards, 'Method A' is what I call the ISO 4833-1 pour-plate method."),
        A("OK."),
        U("What volume of inoculum does Method A use?"),
        A("1 mL per plate, pour plate, in duplicate."),
    ], scopes=["domain:standard"]),
],
    slips=[(TM, "domain:standard", "pour-plate")],
    sugs=[(TM, "domain:standard")],
)

case("en-term-the-panel", [TM], convs=[
    C(2, "10:25", [
        U("When I say 'the panel', I mean our trained sensory panel, never the consumer tests."),
        A("Understood."),
    ]),
],
    slips=[(TM, "global", "the panel")],
    sugs=[(TM, "global")],
)

case("en-term-cultures-dvs", [TM], convs=[
    C(5, "08:05", [
        U("How many cultures do we have in the freezer?"),
        A("Do you mean frozen DVS cultures, or freeze-dried and bulk starters as well?"),
        U("I use 'cultures' to mean the frozen DVS starters specifically."),
        A("Thanks. I'll check the frozen DVS inventory."),
    ]),
],
    slips=[(TM, "global", "DVS")],
    sugs=[(TM, "global")],
)

case("en-term-moq", [TM], convs=[
    C(1, "13:35", [
        U("Heads up: 'MOQ' in my messages is minimum order quantity, not the quality thing."),
        A("Noted."),
    ]),
],
    slips=[(TM, "global", "MOQ")],
    sugs=[(TM, "global")],
)

case("en-term-ym", [TM], convs=[
    C(3, "16:10", [
        U("Whenever I write 'YM' I mean yeasts and moulds."),
        A("Got it."),
        U("YM on the strawberry prep?"),
        A("Yeasts and moulds on the strawberry fruit prep: <10 CFU/g."),
    ]),
],
    slips=[(TM, "global", "write 'YM'")],
    sugs=[(TM, "global")],
)

case("en-term-gold-standard", [TM], convs=[
    C(4, "09:45", [
        U("Is the rapid Listeria kit as good as the gold standard?"),
        A("Which method do you consider the gold standard?"),
        U("'Gold standard' in my questions means the reference method we validate against - the ISO culture method."),
        A("Compared with ISO 11290-1, the rapid kit shows 98% relative sensitivity..."),
    ]),
],
    slips=[(TM, "global", "reference")],
    sugs=[(TM, "global")],
)

# --- query_default ------------------------------------------------------------

case("en-qd-recipe-status-lifecycle", [QD], convs=[
    C(2, "08:35", [
        U("Which formulas are in status 'trial'?"),
        A("Status can be the lifecycle field under Basic Attributes or the version status. Which one?"),
        U("When I search formulas, 'status' means the lifecycle field under Basic Attributes unless I say otherwise."),
        A("Lifecycle = trial: 9 formulas."),
    ], scopes=["domain:recipe"]),
],
    slips=[(QD, "domain:recipe", "lifecycle")],
    sugs=[(QD, "domain:recipe")],
)

case("en-qd-report-sampling-date", [QD], convs=[
    C(5, "12:05", [
        U("Pull the lab results for October."),
        A("By sampling date or report date?"),
        U("When I look up lab results, 'date' should mean the sampling date, not the report date."),
        A("Sampled in October: 287 results."),
    ], scopes=["domain:report"]),
],
    slips=[(QD, "domain:report", "sampling")],
    sugs=[(QD, "domain:report")],
)

case("en-qd-standard-current", [QD], convs=[
    C(3, "10:20", [
        U("List the standards for moisture in milk powder."),
        A("ISO 5537:2004 (current), IDF 26 (withdrawn), GB 5009.3-2016 (current), GB 5413.8 (withdrawn)..."),
        U("Default to current standards only; leave out withdrawn ones unless I ask for them."),
        A("Current: ISO 5537:2004, GB 5009.3-2016."),
    ], scopes=["domain:standard"]),
],
    slips=[(QD, "domain:standard", "current")],
    sugs=[(QD, "domain:standard")],
)

case("en-qd-rawmat-suzhou", [QD], convs=[
    C(6, "14:10", [
        U("Show me the last three lots of lactase."),
        A("Which plant? Suzhou, Wuxi and Harbin all receive lactase."),
        U("Raw material lookups: assume the Suzhou plant unless I name another one."),
        A("Suzhou, last three lactase lots: ..."),
    ], scopes=["domain:raw_material"]),
],
    slips=[(QD, "domain:raw_material", "Suzhou")],
    sugs=[(QD, "domain:raw_material")],
)

case("en-qd-recipe-released", [QD], convs=[
    C(1, "11:50", [
        U("Which formulas use carrageenan?"),
        A("14 formulas, 5 released and 9 drafts."),
        U("When I ask for recipes, only released versions by default - ignore drafts."),
        A("Released: ..."),
    ], scopes=["domain:recipe"]),
],
    slips=[(QD, "domain:recipe", "released")],
    sugs=[(QD, "domain:recipe")],
)

case("en-qd-rawmat-approved-list", [QD], convs=[
    C(4, "08:20", [
        U("Who can supply inulin?"),
        A("Seven suppliers are registered, three of them approved."),
        U("For supplier searches, stick to the approved supplier list by default."),
        A("Approved inulin suppliers: ..."),
    ], scopes=["domain:raw_material"]),
],
    slips=[(QD, "domain:raw_material", "approved")],
    sugs=[(QD, "domain:raw_material")],
)

case("en-qd-report-calendar-month", [QD], convs=[
    C(2, "15:40", [
        U("How many customer complaints last month?"),
        A("In the last 30 days: 12."),
        U("'Last month' in report queries means the calendar month, not the last 30 days."),
        A("Calendar month: 10 complaints."),
    ], scopes=["domain:report"]),
],
    slips=[(QD, "domain:report", "calendar")],
    sugs=[(QD, "domain:report")],
)

case("en-qd-project-oat-gen2", [QD, "project"], convs=[
    C(5, "09:10", [
        U("Pull the current oat-drink formula."),
        A("There are Gen-1 and Gen-2 branches. Which one?"),
        U("For this project, formula lookups should default to the Gen-2 branch. Gen-1 is dead."),
        A("Gen-2, version 4: ..."),
    ], scopes=["project:oat-drink"]),
],
    slips=[(QD, "project:oat-drink", "Gen-2")],
    sugs=[(QD, "project:oat-drink")],
)

case("en-qd-fat-rose-gottlieb", [QD], convs=[
    C(3, "13:15", [
        U("Fat results for this week's cream, please."),
        A("There are Röse-Gottlieb and Gerber results. Which?"),
        U("When I ask for fat results, use the Röse-Gottlieb values by default - Gerber is only the line check."),
        A("Röse-Gottlieb: ..."),
    ], scopes=["domain:report"]),
],
    slips=[(QD, "domain:report", "Röse")],
    sugs=[(QD, "domain:report")],
)

case("en-qd-rawmat-unopened", [QD], convs=[
    C(6, "10:55", [
        U("When does our open bag of inulin expire?"),
        A("Unopened shelf life runs to 2027-04; once opened, 60 days. Which do you need?"),
        U("Shelf life on raw materials: by default I mean the unopened shelf life."),
        A("Unopened: until 2027-04."),
    ], scopes=["domain:raw_material"]),
],
    slips=[(QD, "domain:raw_material", "unopened")],
    sugs=[(QD, "domain:raw_material")],
)

case("en-qd-stability-25c", [QD], convs=[
    C(4, "12:35", [
        U("Month 6 stability data for the ambient yoghurt."),
        A("There's a 25 °C real-time arm and a 37 °C accelerated arm. Which?"),
        U("For stability data, default to the 25 °C arm; I'll say if I want the accelerated one."),
        A("25 °C, month 6: ..."),
    ], scopes=["domain:report"]),
],
    slips=[(QD, "domain:report", "25 °C arm")],
    sugs=[(QD, "domain:report")],
)

case("en-qd-micro-finished-product", [QD], convs=[
    C(1, "14:45", [
        U("Any Listeria positives this quarter?"),
        A("Including environmental swabs, two presumptive positives on drains; none in product."),
        U("Micro results: by default filter to finished product samples, not environmental swabs. I'll ask for EM separately."),
        A("Finished product: no Listeria positives this quarter."),
    ], scopes=["domain:report"]),
],
    slips=[(QD, "domain:report", "finished")],
    sugs=[(QD, "domain:report")],
)
