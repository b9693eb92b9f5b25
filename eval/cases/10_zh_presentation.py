# Chinese presentation wishes. Two conversations → auto memory; one → slip only.
from _dsl import case, C, U, A, R

P = "presentation"

case("zh-pres-report-result-first", [P, "memory"], convs=[
    C(5, "01:20", [
        U("帮我看下这份常温酸奶的货架期稳定性报告，第8周黏度掉得有点多。"),
        A("第8周黏度从 2100 mPa·s 降到 1650 mPa·s，降幅约 21%。可能原因：1）果胶用量偏低……"),
        U("以后帮我看报告，都先说结果，再列依据，不然我得一直翻到最后。"),
        A("好的，先结果后依据。本报告结果：第8周黏度下降超出内控 15% 的要求。依据：……"),
    ], scopes=["domain:report"]),
    C(2, "06:40", [
        U("这是巴氏奶上个月的微生物月报，帮我过一遍。"),
        A("本月共 62 批，菌落总数全部符合……"),
        U("跟上回说的一样，结果放前面，依据放后面。"),
        A("明白。结果：62 批全部合格，1 批接近内控上限。依据：……"),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "先说结果"), (P, "domain:report", "结果放前面")],
    mems=[(P, "domain:report", ["结果", "result", "结论", "conclusion"])],
)

case("zh-pres-recipe-table-once", [P, "slip_only"], convs=[
    C(3, "02:05", [
        U("对比一下 LS-07、LS-09、LS-12 这三个低糖配方的稳定剂用量。"),
        A("LS-07 使用果胶 0.25%，LS-09 使用果胶 0.20% + 结冷胶 0.02%，LS-12 ……"),
        U("以后配方对比都给我做成表格，一个配方一列，原料按行排。"),
        A("好的，下面按表格重新整理。"),
    ], scopes=["domain:recipe"]),
],
    slips=[(P, "domain:recipe", "做成表格")],
)

case("zh-pres-global-no-preamble", [P, "memory"], convs=[
    C(6, "03:30", [
        U("凯氏定氮的消化温度一般设多少？"),
        A("您好！非常高兴为您解答这个问题。凯氏定氮法是测定蛋白质的经典方法……消化温度一般在 420℃ 左右。"),
        U("以后回答直接说重点，别铺垫那么多客套话。"),
        A("好的。消化温度：420℃ 左右。"),
    ]),
    C(1, "07:15", [
        U("乳清蛋白粉的水分一般控制在多少？"),
        A("您好，很高兴再次为您服务！关于乳清蛋白粉……"),
        U("说过了，不要开场白，直接给答案。"),
        A("一般 ≤5.0%，部分客户要求 ≤4.5%。"),
    ]),
],
    slips=[(P, "global", "直接说重点"), (P, "global", "不要开场白")],
    mems=[(P, "global", ["重点", "开场白", "客套", "直接", "point", "preamble", "pleasantries", "direct"])],
)

case("zh-pres-report-per100g-once", [P, "slip_only"], convs=[
    C(4, "05:00", [
        U("把这批高钙奶的营养成分检测结果整理一下。"),
        A("钙 125 mg/100mL，蛋白质 3.2 g/100mL，脂肪 3.6 g/100mL……"),
        U("营养成分的检测数据，我这边一律要每100克的，液态的也先按密度换算过来。"),
        A("好的，按 1.03 g/mL 换算：钙 121 mg/100g……"),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "每100克")],
)

case("zh-pres-rawmat-three-columns", [P, "memory"], convs=[
    C(5, "02:40", [
        U("查一下结冷胶最近到的几批。"),
        A("共 4 批：2026 年第 31 批，供应商 CP Kelco，检验员张……，COA 编号……，储存条件……"),
        U("查原料的时候，结果只列供应商、批号和有效期三列就够了，别的不用。"),
        A("明白：| 供应商 | 批号 | 有效期 | ……"),
    ], scopes=["domain:raw_material"]),
    C(3, "08:10", [
        U("WPC80 的在库批次看一下。"),
        A("| 供应商 | 批号 | 有效期 |……"),
        U("对，就这三列，以后原料都这么给。"),
    ], scopes=["domain:raw_material"]),
],
    slips=[(P, "domain:raw_material", "三列就够了"), (P, "domain:raw_material", "原料都这么给")],
    mems=[(P, "domain:raw_material", ["供应商", "supplier", "批号", "lot", "batch"])],
)

case("zh-pres-project-weekly-bullets", [P, "memory", "project"], convs=[
    C(6, "09:00", [
        U("帮我起草一下奶酪棒项目这周的周报，素材我贴在下面了。"),
        A("本周奶酪棒项目主要完成了以下工作。首先，在配方方面……"),
        U("这个项目的周报用项目符号列，不要大段文字，老板在手机上看。"),
        A("• 配方：完成降钠 15% 小试\n• 工艺：……"),
    ], scopes=["project:奶酪棒"]),
    C(1, "09:20", [
        U("奶酪棒周报，这周的素材。"),
        A("• 感官：降钠样咸味略淡……"),
        U("嗯，周报一直保持这种一条一条的格式。"),
    ], scopes=["project:奶酪棒"]),
],
    slips=[(P, "project:奶酪棒", "项目符号"), (P, "project:奶酪棒", "一条一条")],
    mems=[(P, "project:奶酪棒", ["项目符号", "要点", "条", "bullet", "list"])],
)

case("zh-pres-chinese-with-english-terms", [P, "slip_only"], convs=[
    C(2, "03:15", [
        U("解释一下 water activity 和 moisture content 的区别。"),
        A("Water activity (aw) measures the energy status of water……"),
        U("我英文一般，以后回答都用中文，专业名词后面括号带上英文就行。"),
        A("好的。水分活度（water activity, aw）反映的是……"),
    ]),
],
    slips=[(P, "global", "用中文")],
)

case("zh-pres-standard-full-number", [P, "memory"], convs=[
    C(4, "01:50", [
        U("乳粉里的蛋白质测定按哪个标准？"),
        A("按 GB 5009.5 的第一法凯氏定氮法。"),
        U("引用标准的时候，标准号和年份写全，比如 GB 5009.5-2016，不然我不知道你说的是哪一版。"),
        A("收到，GB 5009.5-2016《食品安全国家标准 食品中蛋白质的测定》第一法。"),
    ], scopes=["domain:standard"]),
    C(2, "04:30", [
        U("霉菌酵母计数现在用哪个标准？"),
        A("GB 4789.15-2016。"),
        U("对，标准就这么写，带年份。"),
    ], scopes=["domain:standard"]),
],
    slips=[(P, "domain:standard", "年份写全"), (P, "domain:standard", "带年份")],
    mems=[(P, "domain:standard", ["年份", "year", "版本", "edition", "version"])],
)

case("zh-pres-report-two-decimals", [P, "slip_only"], convs=[
    C(3, "06:00", [
        U("把这组酸度数据汇总一下，做个均值和标准差。"),
        A("均值 72.3333 °T，标准差 1.8257……"),
        U("报告里的数据保留两位小数就够了，以后都这样。"),
        A("好的：均值 72.33 °T，标准差 1.83 °T。"),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "两位小数")],
)

case("zh-pres-global-five-lines", [P, "memory"], convs=[
    C(5, "02:20", [
        U("UHT 和巴氏杀菌的区别？"),
        A("（一段约四百字的解释）"),
        U("太长了。我的问题你尽量五行以内答完。"),
        A("1. 温度：巴氏 72–85℃，UHT 135–150℃\n2. 时间……"),
    ]),
    C(2, "05:45", [
        U("什么是后酸化？"),
        A("发酵乳在冷藏储存期间，乳酸菌继续产酸导致酸度升高……"),
        U("可以，就保持这个长度，别超过五行。"),
    ]),
],
    slips=[(P, "global", "五行以内"), (P, "global", "别超过五行")],
    mems=[(P, "global", ["五行", "5行", "five lines", "5 lines", "简短", "brief", "short"])],
)

case("zh-pres-recipe-percent", [P, "memory"], convs=[
    C(6, "03:05", [
        U("把 YG-2207 的配方给我看一下。"),
        A("生牛乳 850 kg，白砂糖 65 kg，乳清蛋白粉 12 kg……（按 1 吨计）"),
        U("配方里的原料用量给我按百分比，别给千克，我这边都是按比例算的。"),
        A("生牛乳 85.0%，白砂糖 6.5%，乳清蛋白粉 1.2%……"),
    ], scopes=["domain:recipe"]),
    C(3, "02:00", [
        U("调出 YG-2301 的配方。"),
        A("生牛乳 870 kg……"),
        U("又给千克了，用量按百分比写。"),
        A("抱歉，生牛乳 87.0%……"),
    ], scopes=["domain:recipe"]),
],
    slips=[(P, "domain:recipe", "给我按百分比"), (P, "domain:recipe", "用量按百分比")],
    mems=[(P, "domain:recipe", ["百分比", "percent", "%", "比例"])],
)

case("zh-pres-report-red-flags-once", [P, "slip_only"], convs=[
    C(1, "08:00", [
        U("这是三车间上周的在线检测记录，帮我看看有没有问题。"),
        A("共 142 条记录，其中 3 条 pH 超出内控……"),
        U("你以后整理检测结果，超出内控的项目都加粗标出来，我扫一眼就能看到。"),
        A("好的，以下已加粗标出 3 条超内控记录……"),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "加粗标出来")],
)

case("zh-pres-standard-scope-first-once", [P, "slip_only"], convs=[
    C(2, "01:40", [
        U("GB 4789.35 乳酸菌检验怎么做？"),
        A("样品制备：称取 25 g 样品……"),
        U("给我讲检测方法的时候，先写适用范围，再写步骤，我要先确认这个方法能不能用在我们的样品上。"),
        A("适用范围：本标准适用于含乳酸菌食品中乳酸菌的检验……"),
    ], scopes=["domain:standard"]),
],
    slips=[(P, "domain:standard", "先写适用范围")],
)

case("zh-pres-report-conclusion-habit", [P, "memory"], convs=[
    C(5, "07:30", [
        U("这份第三方检测报告你帮我读一下，重点是黄曲霉毒素M1。"),
        A("报告共 8 页，检测项目包括……"),
        U("我看报告习惯先看结论，你读完直接告诉我合不合格。"),
        A("结论：黄曲霉毒素 M1 未检出（<0.02 μg/kg），合格。"),
    ]),
    C(1, "02:30", [
        U("这份是乳粉的型式检验报告。"),
        A("结论：所检 27 项全部符合 GB 19644-2024……"),
        U("好，结论放第一段这个习惯记着。"),
    ]),
],
    slips=[(P, "domain:report", "先看结论"), (P, "domain:report", "结论放第一段")],
    mems=[(P, "domain:report", ["结论", "conclusion", "合格", "verdict", "result"])],
)

case("zh-pres-recipe-change-diff", [P, "memory"], convs=[
    C(4, "06:10", [
        U("FM-118 从 V5 升到 V6 改了什么？"),
        A("V6 版本调整了稳定剂体系，并优化了……"),
        U("配方变更的时候，你给我列出改了哪些原料，新旧用量对照着写。"),
        A("| 原料 | V5 | V6 |\n| 果胶 | 0.20% | 0.15% |……"),
    ], scopes=["domain:recipe"]),
    C(2, "03:50", [
        U("FM-205 这次 V2 到 V3 的变化呢？"),
        A("| 原料 | V2 | V3 |……"),
        U("嗯，配方变更一直按这种新旧对照的方式给我。"),
    ], scopes=["domain:recipe"]),
],
    slips=[(P, "domain:recipe", "新旧用量对照"), (P, "domain:recipe", "新旧对照")],
    mems=[(P, "domain:recipe", ["对照", "新旧", "前后", "before", "side by side", "side-by-side", "old and new", "compar"])],
)

case("zh-pres-project-records-newest-first", [P, "slip_only", "project"], convs=[
    C(3, "02:15", [
        U("把低糖酸奶项目的试验记录调出来。"),
        A("2026-08-02 第1次小试……2026-08-09 第2次小试……"),
        U("这个项目的试验记录按日期倒序排，最新的在最上面。"),
        A("好的，已按日期倒序……"),
    ], scopes=["project:低糖酸奶"]),
],
    slips=[(P, "project:低糖酸奶", "日期倒序")],
)

case("zh-pres-analogy-with-background", [P, "background", "slip_only"], convs=[
    C(4, "05:20", [
        U("为什么发酵温度高了酸奶容易出现乳清析出？"),
        A("发酵温度升高会加快产酸速率，导致酪蛋白胶束在 pH 接近等电点时快速聚集……"),
        U("我是做工艺设备的，微生物和胶体这块不熟，以后解释原理的时候多打比方。"),
        A("可以把酪蛋白胶束想象成……"),
    ]),
],
    slips=[(P, "global", "多打比方"), ("background", "global", "做工艺设备的")],
    mems=[("background", "global", ["工艺设备", "设备", "equipment"])],
)

case("zh-pres-report-clear-verdict", [P, "memory"], convs=[
    C(6, "01:10", [
        U("这份内审的检测记录复核意见帮我写一下。"),
        A("经复核，该批次检测记录基本符合要求……"),
        U("复核意见的结论一律用'合格'或'不合格'明确写出来，别写'基本符合'这种话。"),
        A("经复核，该批次检测记录：合格。"),
    ], scopes=["domain:report"]),
    C(2, "06:25", [
        U("再帮我写一份复核意见，这批是稀奶油。"),
        A("经复核：合格。其中脂肪含量……"),
        U("对，以后报告结论都这么写，不要模糊的说法。"),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "明确写出来"), (P, "domain:report", "不要模糊的说法")],
    mems=[(P, "domain:report", ["合格", "不合格", "明确", "模糊", "pass", "fail", "clear", "explicit", "unambiguous"])],
)

case("zh-pres-standard-units-once", [P, "slip_only"], convs=[
    C(1, "04:00", [
        U("菌落总数的培养条件是什么？"),
        A("36±1℃，48±2h；水产品 30±1℃，72±3h。"),
        U("以后讲方法的时候温度写摄氏度，时间统一写成小时，别一会儿小时一会儿分钟。"),
    ], scopes=["domain:standard"]),
],
    slips=[(P, "domain:standard", "统一写成小时")],
)

case("zh-pres-global-mark-uncertain", [P, "memory"], convs=[
    C(5, "08:40", [
        U("阿洛酮糖在国内能不能用在酸奶里？"),
        A("可以，阿洛酮糖已获批为新食品原料，可用于各类食品……"),
        U("这个你确定吗？以后拿不准的地方直接标'待确认'，别猜。"),
        A("抱歉，更正：阿洛酮糖的批准范围【待确认】，建议核对最新公告。"),
    ]),
    C(2, "02:35", [
        U("卡拉胶在婴配粉里允许用吗？"),
        A("【待确认】GB 2760 中……"),
        U("对，不确定就这样标出来，这个做法保持。"),
    ]),
],
    slips=[(P, "global", "待确认"), (P, "global", "不确定就这样标")],
    mems=[(P, "global", ["待确认", "不确定", "uncertain", "unsure", "to be confirmed", "TBC", "not sure"])],
)

case("zh-pres-recipe-cost-direction-once", [P, "slip_only"], convs=[
    C(3, "07:05", [
        U("有什么办法能让这款风味发酵乳口感更厚一点？"),
        A("1. 提高乳蛋白含量；2. 添加变性淀粉；3. 延长发酵时间……"),
        U("以后给我配方调整建议的时候，每一条后面注明成本是升还是降。"),
        A("1. 提高乳蛋白（成本↑）；2. 添加变性淀粉（成本基本持平）……"),
    ], scopes=["domain:recipe"]),
],
    slips=[(P, "domain:recipe", "成本是升还是降")],
)

case("zh-pres-project-ppt-outline", [P, "memory", "project"], convs=[
    C(6, "03:25", [
        U("燕麦饮中试总结，帮我整理成汇报材料。"),
        A("燕麦饮中试总结报告\n一、背景……"),
        U("燕麦饮这个项目的汇报材料都用PPT大纲的形式给我，一页一个标题加三四个要点。"),
        A("第1页：中试目标\n- ……"),
    ], scopes=["project:燕麦饮"]),
    C(3, "01:35", [
        U("下周燕麦饮要跟市场部对一下口味，帮我准备材料。"),
        A("第1页：口味方向\n- ……"),
        U("对，还是PPT大纲的样子，挺好。"),
    ], scopes=["project:燕麦饮"]),
],
    slips=[(P, "project:燕麦饮", "PPT大纲的形式"), (P, "project:燕麦饮", "PPT大纲的样子")],
    mems=[(P, "project:燕麦饮", ["PPT", "大纲", "outline", "slide"])],
)

case("zh-pres-standard-status-question-form", [P, "slip_only"], convs=[
    C(2, "06:50", [
        U("乳粉相关的国标有哪些？"),
        A("GB 19644 乳粉、GB 5413.x 系列……"),
        U("能不能以后列标准的时候把现行还是废止也标上？每次我都得再问一遍。"),
        A("可以。GB 19644-2024（现行）、GB 5413.3-2010（已废止，被 GB 5009.6 替代）……"),
    ], scopes=["domain:standard"]),
],
    slips=[(P, "domain:standard", "现行还是废止")],
)

case("zh-pres-global-sources-at-end", [P, "memory"], convs=[
    C(5, "02:55", [
        U("益生菌在常温酸奶里为什么活不下来？"),
        A("常温酸奶在发酵后经过二次杀菌（巴氏或更高）……[参考：GB 19302-2025 第3.2条]……"),
        U("参考来源统一放在最后，别夹在正文中间，读着断断续续的。"),
        A("好的。常温酸奶在发酵后经过二次杀菌……\n参考：GB 19302-2025 第3.2条"),
    ]),
    C(1, "05:10", [
        U("乳糖不耐受人群喝酸奶为什么一般没事？"),
        A("……\n参考：……"),
        U("可以，来源就放末尾，一直这样。"),
    ]),
],
    slips=[(P, "global", "统一放在最后"), (P, "global", "来源就放末尾")],
    mems=[(P, "global", ["最后", "末尾", "结尾", "end", "来源", "参考", "source", "reference"])],
)

case("zh-pres-report-anomaly-first-once", [P, "slip_only"], convs=[
    C(4, "01:00", [
        U("把十月的批次放行记录汇总一下。"),
        A("十月共放行 214 批……"),
        U("以后汇总报告的时候把异常批次单独拎出来放最前面，正常的一句话带过。"),
        A("异常批次（3 批）：……其余 211 批均正常。"),
    ], scopes=["domain:report"]),
],
    slips=[(P, "domain:report", "异常批次单独拎出来")],
)
