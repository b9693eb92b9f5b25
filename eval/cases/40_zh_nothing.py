# Chinese conversations that must teach dreamd nothing: one-off requests,
# questions, small talk, and what only the assistant (or a tool) said.
from _dsl import case, C, U, A, T, S, E

# --- one-off requests ---------------------------------------------------------

case("zh-oneoff-evidence-first-this-time", ["one_off", "explicit", "seed"],
    explicit=[E("presentation", "domain:report", "看报告时先说结果，再列依据", 20)],
    convs=[
        C(2, "02:00", [
            U("这份稳定性报告，这次先逐项解释依据，最后再下结论，我要拿去跟供应商对质。"),
            A("好的。依据一：第 4 周起乳清析出量……结论：批次 0921 的果胶不达标。"),
            U("行，就这样。"),
        ], scopes=["domain:report"]),
    ],
)

case("zh-oneoff-no-table-email", ["one_off"], convs=[
    C(3, "06:10", [
        U("这份检测结果汇总先别用表格，我要直接贴到邮件正文里。"),
        A("好的，以下为纯文本：蛋白质 3.2%，脂肪 3.6%……"),
    ], scopes=["domain:report"]),
])

case("zh-oneoff-rushing-today", ["one_off"], convs=[
    C(1, "07:40", [
        U("今天赶时间，回答短一点。冷冻干燥菌粉的储存温度？"),
        A("-18℃ 以下。"),
        U("好。"),
    ]),
])

case("zh-oneoff-include-english", ["one_off"], convs=[
    C(4, "03:25", [
        U("这一次把英文原文也附上，我要转给外方的工厂。"),
        A("好的，中英对照如下……"),
    ], scopes=["domain:standard"]),
])

case("zh-oneoff-chronological-for-now", ["one_off"], convs=[
    C(5, "01:50", [
        U("把这周的投诉记录列一下。"),
        A("按问题类型分类如下……"),
        U("先按时间顺序列一下就行，回头我再自己分类。"),
        A("好的，按时间顺序：……"),
    ], scopes=["domain:report"]),
])

case("zh-oneoff-compare-protein-fat-only", ["one_off"], convs=[
    C(2, "08:15", [
        U("本次对比只看蛋白和脂肪两项，其他指标先不管。YG-2207 和 YG-2301。"),
        A("| 指标 | YG-2207 | YG-2301 |\n| 蛋白 | 3.1% | 3.4% |\n| 脂肪 | 3.0% | 2.8% |"),
    ], scopes=["domain:recipe"]),
])

case("zh-oneoff-one-sentence", ["one_off"], convs=[
    C(3, "05:35", [
        U("这个问题你就用一句话回答我：生乳冰点的国标要求是多少？"),
        A("GB 19301 要求生乳冰点 -0.500 ~ -0.560℃。"),
    ]),
])

case("zh-oneoff-tab-separated", ["one_off"], convs=[
    C(6, "02:45", [
        U("这回给我用能直接粘进 Excel 的格式，制表符分隔。"),
        A("批号\t蛋白\t脂肪\n1101\t3.1\t3.6\n……"),
    ], scopes=["domain:report"]),
])

case("zh-oneoff-expand-point-two", ["one_off"], convs=[
    C(1, "06:20", [
        U("为什么低温酸奶的货架期比常温的短？"),
        A("1. 活菌持续产酸 2. 未二次杀菌，杂菌风险 3. 冷链要求"),
        U("刚才那段再展开讲讲第二条。"),
        A("第二条：低温酸奶发酵后不再杀菌，环境中的酵母、霉菌一旦进入……"),
    ]),
])

case("zh-oneoff-data-first-for-boss", ["one_off", "explicit"],
    explicit=[E("presentation", "domain:report", "报告先写结论", 15)],
    convs=[
        C(4, "07:05", [
            U("这次先把数据表放最前面，领导要先看数据。"),
            A("好的，数据表如下……结论：……"),
        ], scopes=["domain:report"]),
    ],
)

case("zh-oneoff-include-inactive-suppliers", ["one_off"], convs=[
    C(2, "04:30", [
        U("这次查原料把停用的供应商也带上，往前推三年。"),
        A("包括停用供应商在内，近三年共有 14 家供应过果胶……"),
    ], scopes=["domain:raw_material"]),
])

case("zh-oneoff-clause-by-clause", ["one_off"], convs=[
    C(5, "03:10", [
        U("就这一份标签，按 GB 7718 的条款顺序逐条核对一下。"),
        A("4.1.1 食品名称：符合……"),
    ], scopes=["domain:standard"]),
])

case("zh-oneoff-temp-remark-column", ["one_off"], convs=[
    C(3, "08:50", [
        U("临时加一列'备注'，这份交完就不用了。"),
        A("好的，已加备注列。"),
    ], scopes=["domain:report"]),
])

case("zh-oneoff-one-page-meeting", ["one_off"], convs=[
    C(1, "01:30", [
        U("下午开会要用，帮我把燕麦饮中试总结压缩到一页。"),
        A("燕麦饮中试总结（一页版）：……"),
        U("可以。"),
    ], scopes=["project:燕麦饮"]),
])

# --- questions and small talk -------------------------------------------------

case("zh-q-tpc-incubation", ["question"], convs=[
    C(2, "02:35", [
        U("GB 4789.2 里菌落总数的培养温度是多少？"),
        A("36±1℃，培养 48±2h；水产品 30±1℃，72±3h。"),
        U("好的，谢谢。"),
    ], scopes=["domain:standard"]),
])

case("zh-q-fermented-protein", ["question"], convs=[
    C(4, "06:55", [
        U("发酵乳的蛋白质要求是多少来着？"),
        A("发酵乳 ≥2.9 g/100g，风味发酵乳 ≥2.3 g/100g。"),
    ]),
])

case("zh-q-pectin-vs-cmc", ["question"], convs=[
    C(3, "01:05", [
        U("果胶和 CMC 在酸性乳饮料里哪个稳定效果好？"),
        A("高酯果胶在 pH 3.8–4.2 时稳定效果较好，CMC 成本更低但口感略粘……"),
        U("那两个复配呢？"),
        A("复配常见，可兼顾稳定性与成本……"),
    ]),
])

case("zh-smalltalk-canteen", ["smalltalk"], convs=[
    C(1, "04:40", [
        U("今天食堂的红烧肉不错，你吃了吗哈哈"),
        A("我吃不了，不过听起来很香！"),
        U("哈哈，下午继续干活。"),
    ]),
])

case("zh-q-remember-caking", ["question"], convs=[
    C(5, "07:25", [
        U("你还记得我上次问的那个乳粉结块的事吗？"),
        A("我这边没有看到之前的对话记录，能再说一下情况吗？"),
        U("算了，我回头再找。"),
    ]),
])

case("zh-q-sugar-calc", ["question"], convs=[
    C(2, "03:55", [
        U("帮我算一下，1吨酸奶按7%加糖要多少白砂糖？"),
        A("1000 kg × 7% = 70 kg。"),
    ], scopes=["domain:recipe"]),
])

case("zh-smalltalk-friday", ["smalltalk"], convs=[
    C(3, "09:10", [
        U("周五下午大家都不太想干活啊"),
        A("哈哈，周五下午确实难集中。要不要先处理点轻松的？"),
        U("不用了，摸会儿鱼。"),
    ]),
])

case("zh-q-afm1-limit", ["question"], convs=[
    C(6, "05:15", [
        U("黄曲霉毒素 M1 在乳粉里的限量是多少？"),
        A("GB 2761 规定乳及乳制品中黄曲霉毒素 M1 ≤0.5 μg/kg（乳粉按折算）。"),
    ], scopes=["domain:standard"]),
])

case("zh-smalltalk-thanks", ["smalltalk"], convs=[
    C(4, "02:15", [
        U("昨天你给的那个方法挺有用的，谢谢！"),
        A("不客气，能帮上忙就好。"),
    ]),
])

case("zh-q-erythritol-allulose", ["question"], convs=[
    C(1, "08:30", [
        U("你觉得赤藓糖醇和阿洛酮糖哪个口感更接近蔗糖？"),
        A("阿洛酮糖甜味曲线更接近蔗糖，没有赤藓糖醇的清凉感……"),
    ]),
])

case("zh-smalltalk-humidity", ["smalltalk"], convs=[
    C(2, "06:00", [
        U("这阵子雨水多，哎，烦死了，出门鞋都湿透。"),
        A("梅雨季确实难受，注意别着凉。"),
    ]),
])

case("zh-q-post-acidification", ["question"], convs=[
    C(5, "01:35", [
        U("酸奶后酸化一般是什么原因？"),
        A("主要是保加利亚乳杆菌在冷藏期继续产酸……"),
        U("那选弱后酸的菌种能解决吗？"),
        A("可以明显改善，但也要控制冷链温度。"),
    ]),
])

case("zh-q-mpn-explain", ["question"], convs=[
    C(3, "07:15", [
        U("能给我解释一下 MPN 法吗？"),
        A("MPN（最可能数）法通过多管发酵，根据阳性管数查表估算样品中的活菌数……"),
    ], scopes=["domain:standard"]),
])

case("zh-q-musing-stabilizer", ["question"], convs=[
    C(4, "04:05", [
        U("我在想要不要换个稳定剂，你怎么看？"),
        A("要看现在遇到的具体问题，是析出、分层还是口感？"),
        U("还没想好，先这样吧。"),
    ]),
])

# --- only the assistant, a tool or the system said it -------------------------

case("zh-asst-offer-declined", ["assistant_only"], convs=[
    C(2, "03:30", [
        U("把这三个配方的糖含量对比一下。"),
        A("| 配方 | 糖 |\n| A | 6.5% |\n| B | 5.0% |\n| C | 4.2% |\n以后配方对比要不要都用表格给您？"),
        U("看情况吧。"),
    ], scopes=["domain:recipe"]),
])

case("zh-asst-claims-role", ["assistant_only"], convs=[
    C(1, "05:45", [
        S("用户画像（来自 HR 系统）：质检部，微生物检验组。"),
        U("帮我查一下 GB 4789.3 的最新版本。"),
        A("您是质检部微生物组的工程师，最新版本是 GB 4789.3-2016。作为微生物检验人员，您可能还关注……"),
    ], scopes=["domain:standard"]),
])

case("zh-asst-tool-contact", ["assistant_only", "never_store"], convs=[
    C(3, "02:55", [
        U("果胶供应商的联系人是谁？"),
        T("{\"supplier\": \"杭州某胶体公司\", \"contact\": \"王工\", \"phone\": \"13912345678\", \"email\": \"wang.gong@hz-colloid.com\"}"),
        A("联系人王工，电话 13912345678，邮箱 wang.gong@hz-colloid.com。"),
        U("好，我自己联系。"),
    ], scopes=["domain:raw_material"]),
],
    absent=["13912345678", "wang.gong@hz-colloid.com"],
)

case("zh-asst-summarises-wrongly", ["assistant_only"], convs=[
    C(5, "06:40", [
        U("乳糖酶的最适 pH 是多少？"),
        A("中性乳糖酶最适 pH 6.5–7.0。另外我注意到您经常问酶制剂的问题，看来您是负责酶制剂的工程师，以后我会优先给您讲酶的内容。"),
        U("……继续说温度吧。"),
        A("最适温度 35–40℃。"),
    ]),
])
