# Selection window (§4) and time-bound wishes (durability `until`).
# Cases tagged `window` deliberately break the "idle 6 h, within 7 days" rule.
from _dsl import case, C, U, A

P = "presentation"

case("zh-window-too-old", ["window"], convs=[
    C(9, "02:00", [
        U("我是做乳粉工艺的，在喷雾干燥车间。"),
        A("好的。"),
        U("以后回答都先给结论。"),
        A("明白。"),
    ]),
])

case("en-window-too-old", ["window"], convs=[
    C(10, "09:30", [
        U("I work on the spray dryers in the powder plant."),
        A("Noted."),
        U("Please always give me the bottom line first."),
        A("Will do."),
    ]),
])

case("zh-window-still-active", ["window"], now="2026-11-29T12:00:00Z", convs=[
    C(0, "09:10", [
        U("最近在做低乳糖牛奶的项目。"),
        A("乳糖酶水解后需要关注美拉德褐变……"),
        U("以后这类问题都先给结论。"),
    ]),
])

case("en-window-still-active", ["window"], now="2026-10-15T10:30:00Z", convs=[
    C(0, "07:00", [
        U("I'm working on a lactose-free milk launch right now."),
        A("Watch out for Maillard browning after hydrolysis..."),
        U("From now on, bottom line first please."),
    ]),
])

# an old and a new message in one conversation: the old one is only context
case("zh-window-followup-after-old", ["window", P, "slip_only"], convs=[
    C(10, "01:00", [
        U("以后报告先写结论。"),
        A("好的，报告先写结论。"),
        U("再补一句：结论后面把批号也带上，以后都这样。", gap=60 * 24 * 8),
        A("好的，结论后附批号。"),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "把批号也带上")],
)

case("en-window-followup-after-old", ["window", P, "slip_only"], convs=[
    C(9, "09:00", [
        U("Always lead with the conclusion in report summaries."),
        A("Noted."),
        U("One more thing: after the conclusion, list the batch numbers - every time.", gap=60 * 24 * 7),
        A("Will do."),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "the batch")],
)

case("zh-until-audit-active", ["until", P, "memory"], now="2026-12-09T08:00:00Z", convs=[
    C(5, "01:20", [
        U("12月15号审核结束之前，日报里把偏差项放第一段。"),
        A("好的，审核结束前日报偏差项放第一段。"),
    ], scopes=["domain:report"]),
    C(2, "02:45", [
        U("今天的日报，审核期间还是偏差项打头，到15号为止。"),
        A("偏差项：……"),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "偏差项放第一段"), (P, "domain:report", "偏差项打头")],
    mems=[(P, "domain:report", ["偏差", "deviation"])],
)

case("zh-until-audit-over", ["until", P, "expiry", "multi_run"],
    now=["2026-12-09T08:00:00Z", "2026-12-20T08:00:00Z"], convs=[
    C(5, "01:20", [
        U("12月15号审核结束之前，日报里把偏差项放第一段。"),
        A("好的。"),
    ], scopes=["domain:report"]),
    C(2, "02:45", [
        U("审核期间日报还是偏差项打头，到15号为止。"),
        A("偏差项：……"),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "偏差项放第一段"), (P, "domain:report", "偏差项打头")],
)

case("en-until-fssc-active", ["until", P, "memory"], now="2027-03-11T09:00:00Z", convs=[
    C(6, "09:40", [
        U("Until the FSSC audit on 20 March, put the open CAPAs at the top of every daily summary."),
        A("Understood."),
    ], scopes=["domain:report"]),
    C(2, "14:15", [
        U("Daily summary please - open CAPAs on top, same as agreed until the 20th."),
        A("Open CAPAs: ..."),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "put the open"), (P, "domain:report", "CAPAs on top")],
    mems=[(P, "domain:report", ["CAPA"])],
)

case("en-until-fssc-over", ["until", P, "expiry", "multi_run"],
    now=["2027-03-11T09:00:00Z", "2027-03-25T09:00:00Z"], convs=[
    C(6, "09:40", [
        U("Until the FSSC audit on 20 March, put the open CAPAs at the top of every daily summary."),
        A("Understood."),
    ], scopes=["domain:report"]),
    C(2, "14:15", [
        U("Open CAPAs on top again, as agreed until the 20th."),
        A("Open CAPAs: ..."),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "put the open"), (P, "domain:report", "on top again")],
)
