# Chinese corrections over several conversations: the latest word wins;
# expect.memories describe the final state. Some cases have two runs.
from _dsl import case, C, U, A, E

P = "presentation"
B = "background"
F = "recent_focus"

case("zh-corr-report-table-to-bullets", ["correction", P], convs=[
    C(6, "02:10", [
        U("检测汇总里的数据以后用表格给我。"),
        A("好的。| 项目 | 结果 |……"),
    ], scopes=["domain:report"]),
    C(4, "06:30", [
        U("月报的数据还是表格看着清楚。"),
        A("| 批次 | 菌落总数 |……"),
    ], scopes=["domain:report"]),
    C(1, "03:15", [
        U("改一下：报告数据不是要表格，是要分条的要点列表，表格在手机上看不全。"),
        A("明白，改为要点列表：\n- 批次 1101：菌落总数 20 CFU/g\n- ……"),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "用表格给我"), (P, "domain:report", "表格看着清楚"),
           (P, "domain:report", "要点列表")],
    mems=[(P, "domain:report", ["要点", "列表", "分条", "bullet", "list"])],
)

case("zh-corr-bg-moved-to-formulation", ["correction", B], convs=[
    C(5, "01:40", [
        U("我在原料检验组，主要做奶粉的入厂检验。"),
        A("好的。"),
    ]),
    C(2, "07:20", [
        U("跟你更新一下，我已经不在原料组了，上个月调去研发中心做配方了。"),
        A("明白，恭喜。"),
        U("谢谢，以后多问你配方的问题。"),
    ]),
],
    slips=[(B, "global", "原料检验组"), (B, "global", "调去研发中心")],
    mems=[(B, "global", ["研发", "配方", "R&D", "formulation"])],
)

case("zh-corr-focus-yoghurt-to-cheese", ["correction", F], convs=[
    C(6, "05:05", [
        U("最近在做低糖酸奶，主要是减糖后口感变稀的问题。"),
        A("可以从提高蛋白和调整稳定剂入手……"),
    ]),
    C(1, "02:50", [
        U("低糖酸奶那个项目已经结项了，现在主要在弄奶酪棒的降钠。"),
        A("好的，奶酪棒降钠可以考虑……"),
    ]),
],
    slips=[(F, "global", "在做低糖酸奶"), (F, "global", "奶酪棒的降钠")],
    mems=[(F, "global", ["奶酪棒", "cheese", "降钠", "sodium"])],
)

case("zh-corr-standard-year-then-method-two-runs", ["correction", P, "multi_run"],
    now=["2026-11-20T12:00:00Z", "2026-11-29T12:00:00Z"],
    convs=[
        C(5, "02:00", [
            U("引用标准的时候，标准号和年份都写全。"),
            A("好的，GB 5009.5-2016。"),
        ], scopes=["domain:standard"]),
        C(2, "06:40", [
            U("标准号带年份，这个还是要的。"),
            A("收到。"),
        ], scopes=["domain:standard"]),
        C(2, "03:30", [
            U("标准引用我想改一下：年份不用写了，反正我们只用现行版，但一定要写清楚用的是第几法。"),
            A("好的，例如：GB 5009.5 第一法（凯氏定氮法）。"),
        ], scopes=["domain:standard"], base=1),
    ],
    slips=[(P, "domain:standard", "年份都写全"), (P, "domain:standard", "标准号带年份"),
           (P, "domain:standard", "第几法")],
    mems=[(P, "domain:standard", ["第几法", "几法", "第一法", "method number", "which method", "the method"])],
)

case("zh-corr-recipe-kg-to-percent", ["correction", P], convs=[
    C(6, "08:05", [
        U("配方用量给我按千克写，按一吨料算。"),
        A("好的，生牛乳 850 kg……"),
    ], scopes=["domain:recipe"]),
    C(4, "01:20", [
        U("调一下 YG-2301 的配方。"),
        A("生牛乳 870 kg，白砂糖 60 kg……"),
        U("嗯，配方还是按千克那种。"),
    ], scopes=["domain:recipe"]),
    C(2, "04:45", [
        U("更正一下，配方用量不是按千克，是按百分比，千克换算我自己来就行。"),
        A("明白，改为百分比：生牛乳 85.0%……"),
    ], scopes=["domain:recipe"]),
],
    slips=[(P, "domain:recipe", "按千克写"), (P, "domain:recipe", "按千克那种"),
           (P, "domain:recipe", "是按百分比")],
    mems=[(P, "domain:recipe", ["百分比", "percent", "%"])],
)

case("zh-corr-term-lc-changed", ["correction", "terminology"], convs=[
    C(5, "06:00", [
        U("我说的LC就是生命周期。"),
        A("明白。"),
    ]),
    C(1, "07:35", [
        U("LC我改口了：以后LC指液相色谱，生命周期我就直接说生命周期，不用缩写了。"),
        A("好的，LC = 液相色谱。"),
    ]),
],
    slips=[("terminology", "global", "LC就是生命周期"), ("terminology", "global", "LC指液相色谱")],
    sugs=[("terminology", "global")],
)

case("zh-corr-explicit-focus-handed-over", ["correction", F, "explicit"],
    explicit=[E(F, "global", "负责低糖酸奶项目的配方开发", 12)],
    convs=[
        C(2, "02:25", [
            U("低糖酸奶那个我已经不跟了，上周交给小刘了。"),
            A("好的，那低糖酸奶的问题以后找小刘？"),
            U("对。"),
        ]),
    ],
    slips=[(F, "global", "已经不跟了")],
    sugs=[(F, "global")],
)

case("zh-corr-project-weekly-two-runs", ["correction", P, "project", "multi_run"],
    now=["2026-10-10T12:00:00Z", "2026-10-18T12:00:00Z"],
    convs=[
        C(6, "03:00", [
            U("奶酪棒项目的周报，以后先写结论，再写细节。"),
            A("好的。"),
        ], scopes=["project:奶酪棒"]),
        C(3, "05:30", [
            U("周报还是结论打头。"),
            A("明白。"),
        ], scopes=["project:奶酪棒"]),
        C(3, "02:40", [
            U("奶酪棒周报以后不用写结论了，直接列本周完成的事和下周计划两部分就行，老板说结论太虚。"),
            A("好的，以后周报分'本周完成'和'下周计划'两部分。"),
        ], scopes=["project:奶酪棒"], base=1),
    ],
    slips=[(P, "project:奶酪棒", "先写结论"), (P, "project:奶酪棒", "结论打头"),
           (P, "project:奶酪棒", "下周计划")],
    mems=[(P, "project:奶酪棒", ["下周计划", "计划", "next week", "plan"])],
)

case("zh-corr-language-back-to-chinese", ["correction", P], convs=[
    C(6, "01:55", [
        U("以后回答用英文吧，我想练练英文。"),
        A("Sure, I'll answer in English from now on."),
    ]),
    C(5, "06:25", [
        U("What is syneresis?"),
        A("Syneresis is the separation of whey from a gel..."),
        U("Good，以后继续英文。"),
    ]),
    C(1, "08:10", [
        U("算了，以后还是用中文回答吧，英文的技术内容我看着太累。"),
        A("好的，改回中文。"),
    ]),
],
    slips=[(P, "global", "回答用英文"), (P, "global", "继续英文"), (P, "global", "还是用中文")],
    mems=[(P, "global", ["中文", "Chinese"])],
)
