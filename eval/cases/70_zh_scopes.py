# Chinese scope discipline: a habit stays in the scope it was stated for.
from _dsl import case, C, U, A, R

P = "presentation"

case("zh-scope-recipe-table-not-rawmat", ["scope", P], convs=[
    C(6, "02:15", [
        U("对比一下 FM-301 和 FM-302 的配方。"),
        A("FM-301 使用全脂奶粉 12%，FM-302 使用……"),
        U("配方对比以后都用表格，一行一个原料。"),
        A("| 原料 | FM-301 | FM-302 |……"),
    ], scopes=["domain:recipe"]),
    C(4, "06:50", [
        U("低糖款和常规款的配方差在哪？"),
        A("| 原料 | 低糖款 | 常规款 |……"),
        U("嗯，配方对比就用这种表。"),
    ], scopes=["domain:recipe"]),
    C(2, "03:05", [
        U("全脂奶粉这个原料的入厂检验项目有哪些？"),
        A("感官、水分、脂肪、蛋白质、酸度、杂质度、菌落总数、大肠菌群……"),
        U("好的。"),
    ], scopes=["domain:raw_material"]),
],
    slips=[(P, "domain:recipe", "都用表格"), (P, "domain:recipe", "用这种表")],
    mems=[(P, "domain:recipe", ["表格", "表", "table"])],
    recall=[R(["domain:recipe"], "对比一下 FM-305 和 FM-306 两个配方", ["表格", "表", "table"])],
)

case("zh-scope-project-a-vs-b-reports", ["scope", P, "project", "seed"], convs=[
    C(6, "01:20", [
        U("燕麦饮项目的周报，以后都先写结论，再列数据表。"),
        A("好的。结论：……数据：……"),
    ], scopes=["project:燕麦饮"]),
    C(5, "07:40", [
        U("低糖酸奶项目的报告按时间顺序写就行，从周一写到周五。"),
        A("明白。"),
    ], scopes=["project:低糖酸奶"]),
    C(3, "02:30", [
        U("这周燕麦饮的周报，素材在下面。还是结论在前。"),
        A("结论：……"),
    ], scopes=["project:燕麦饮"]),
    C(1, "08:00", [
        U("低糖酸奶这周的报告，照旧按时间顺序。"),
        A("周一：……周二：……"),
    ], scopes=["project:低糖酸奶"]),
],
    slips=[(P, "project:燕麦饮", "先写结论"), (P, "project:燕麦饮", "结论在前"),
           (P, "project:低糖酸奶", "按时间顺序写"), (P, "project:低糖酸奶", "照旧按时间顺序")],
    mems=[(P, "project:燕麦饮", ["结论", "conclusion"]),
          (P, "project:低糖酸奶", ["时间顺序", "时间", "chronolog", "date", "周一"])],
    recall=[R(["project:燕麦饮"], "帮我写一下燕麦饮这周的周报", ["结论", "conclusion"]),
            R(["project:低糖酸奶"], "低糖酸奶本周报告", ["时间顺序", "时间", "chronolog", "date", "周一"])],
)

case("zh-scope-standard-flowcard-not-stats", ["scope", P, "seed"], convs=[
    C(5, "03:45", [
        U("GB 4789.15 霉菌酵母计数的步骤给我整理成流程卡，每步写操作、温度、时间。"),
        A("步骤1：样品稀释……步骤2：倾注平板，28±1℃……"),
    ], scopes=["domain:standard"]),
    C(3, "05:20", [
        U("GB 4789.10 金黄色葡萄球菌的检验也按流程卡来，以后标准都这么整理。"),
        A("步骤1：增菌……"),
    ], scopes=["domain:standard"]),
    C(1, "01:40", [
        U("统计一下十月各产线的批次合格率。"),
        A("一线 99.2%，二线 98.7%，三线 100%。"),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:standard", "整理成流程卡"), (P, "domain:standard", "按流程卡来")],
    mems=[(P, "domain:standard", ["流程卡", "flow card", "flowcard", "step card", "step-by-step"])],
)

case("zh-scope-rawmat-habit", ["scope", P], convs=[
    C(6, "06:30", [
        U("查原料的时候，只列供应商和批号，检验数据我要的时候再问。"),
        A("好的。"),
    ], scopes=["domain:raw_material"]),
    C(2, "02:50", [
        U("阿洛酮糖最近的到货。"),
        A("| 供应商 | 批号 |……"),
        U("嗯，原料就供应商加批号，够了。"),
    ], scopes=["domain:raw_material"]),
    C(2, "07:10", [
        U("阿洛酮糖用在哪几个配方里了？"),
        A("共 4 个配方：YG-2401、YG-2403……"),
    ], scopes=["domain:recipe"]),
],
    slips=[(P, "domain:raw_material", "只列供应商和批号"), (P, "domain:raw_material", "供应商加批号")],
    mems=[(P, "domain:raw_material", ["供应商", "批号", "supplier", "lot", "batch"])],
)

case("zh-scope-any-project-reports", ["scope", P, "project"], convs=[
    C(5, "01:55", [
        U("不管哪个项目，报告都先写结论，这个你记住。"),
        A("好的，所有项目的报告都先写结论。"),
    ], scopes=["project:奶酪棒"]),
    C(2, "06:35", [
        U("A2 牛奶的阶段报告，也是一样，所有报告结论先行。"),
        A("结论：……"),
    ], scopes=["project:A2牛奶"]),
],
    slips=[(P, "domain:report", "不管哪个项目"), (P, "domain:report", "所有报告结论先行")],
    mems=[(P, "domain:report", ["结论", "conclusion"])],
)

case("zh-scope-project-recipe-cost-column", ["scope", P, "project"], convs=[
    C(6, "03:00", [
        U("常温酸奶这个项目的配方表，以后都加一列成本占比。"),
        A("好的，| 原料 | 用量 | 成本占比 |……"),
    ], scopes=["project:常温酸奶"]),
    C(3, "08:25", [
        U("常温酸奶 V7 的配方表拉一下，记得带成本占比那列。"),
        A("| 原料 | 用量 | 成本占比 |……"),
    ], scopes=["project:常温酸奶"]),
    C(1, "04:10", [
        U("巴氏奶 V3 的配方表给我。"),
        A("| 原料 | 用量 |……"),
    ], scopes=["project:巴氏奶"]),
],
    slips=[(P, "project:常温酸奶", "加一列成本占比"), (P, "project:常温酸奶", "带成本占比")],
    mems=[(P, "project:常温酸奶", ["成本", "cost"])],
)

case("zh-scope-report-anomalies-first", ["scope", P], convs=[
    C(4, "02:20", [
        U("看检测报告我习惯先看异常项，以后报告里的异常项放最前面。"),
        A("好的。"),
    ], scopes=["domain:report"]),
    C(2, "05:35", [
        U("这份月报也是，异常项先列。"),
        A("异常项：3 项……"),
    ], scopes=["domain:report"]),
    C(1, "07:50", [
        U("GB 19645 巴氏杀菌乳的理化指标有哪些？"),
        A("脂肪 ≥3.1 g/100g，蛋白质……"),
    ], scopes=["domain:standard"]),
],
    slips=[(P, "domain:report", "异常项放最前面"), (P, "domain:report", "异常项先列")],
    mems=[(P, "domain:report", ["异常", "anomal", "abnormal", "out-of-spec", "deviation"])],
)

case("zh-scope-bg-global-focus-project", ["scope", "background", "recent_focus", "project"], convs=[
    C(3, "01:30", [
        U("我是做植物基饮料的。这个项目现在卡在蛋白沉淀上，加了酶也没用。"),
        A("可以考虑调整 pH 和加入磷酸氢二钾……"),
    ], scopes=["project:燕麦饮"]),
],
    slips=[("background", "global", "植物基饮料"), ("recent_focus", "project:燕麦饮", "蛋白沉淀")],
    mems=[("background", "global", ["植物基", "plant-based", "plant based"]),
          ("recent_focus", "project:燕麦饮", ["沉淀", "sediment", "precipitat"])],
)

case("zh-scope-qd-rawmat-not-recipe", ["scope", "query_default"], convs=[
    C(2, "06:00", [
        U("稀奶油的保质期查一下。"),
        A("开封前 6 个月，开封后 3 天，您要哪个？"),
        U("查原料的时候，保质期默认看开封后的，我们车间都是开了就用。"),
        A("开封后 3 天。"),
    ], scopes=["domain:raw_material"]),
    C(1, "03:20", [
        U("YG-2207 配方的保质期是多久？"),
        A("成品保质期 21 天（2–6℃）。"),
    ], scopes=["domain:recipe"]),
],
    slips=[("query_default", "domain:raw_material", "默认看开封后")],
    sugs=[("query_default", "domain:raw_material")],
)
