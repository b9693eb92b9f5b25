# Chinese background (who the user is) and recent_focus (what they work on now).
# One conversation is enough for either to become an auto memory.
from _dsl import case, C, U, A

B = "background"
F = "recent_focus"

# --- background -------------------------------------------------------------

case("zh-bg-fermented-formulation", [B], convs=[
    C(3, "01:30", [
        U("我是做乳品配方研发的，主要负责发酵乳这块。先问个问题：风味发酵乳里加多少果酱比较常见？"),
        A("常见添加量在 8%–15% 之间，具体看果酱的固形物和风味强度。"),
        U("好的，谢谢。"),
    ]),
],
    slips=[(B, "global", "乳品配方研发")],
    mems=[(B, "global", ["发酵乳", "fermented", "配方", "formulation"])],
)

case("zh-bg-incoming-inspector", [B], convs=[
    C(2, "02:10", [
        U("我们组负责原料的入厂检验，我是组里的检验员。今天到了一批脱脂奶粉，要查哪些项目？"),
        A("通常包括感官、水分、蛋白质、脂肪、酸度、杂质度、微生物（菌落总数、大肠菌群）以及三聚氰胺等。"),
    ], scopes=["domain:raw_material"]),
],
    slips=[(B, "global", "检验员")],
    mems=[(B, "global", ["入厂检验", "来料", "检验员", "incoming", "inspect"])],
)

case("zh-bg-fssc-system", [B], convs=[
    C(5, "06:20", [
        U("FSSC 22000 第6版跟第5.1版比主要变了哪些？"),
        A("主要变化包括：食品安全文化、质量控制、食品损失和浪费……"),
        U("我在质量部做体系这块，主要是 FSSC 22000 的日常维护，所以问得细一点。"),
        A("明白，那我按条款逐项对比……"),
    ]),
],
    slips=[(B, "global", "质量部做体系")],
    mems=[(B, "global", ["体系", "FSSC", "质量部", "quality system", "QA"])],
)

case("zh-bg-plant-chem-lab", [B], convs=[
    C(4, "00:50", [
        U("我是工厂化验室的，日常做理化，水分脂肪蛋白这些。"),
        A("好的。有需要查方法或者处理数据可以随时找我。"),
        U("嗯，回头有事问你。"),
    ]),
],
    slips=[(B, "global", "工厂化验室")],
    mems=[(B, "global", ["化验室", "理化", "lab", "chemical", "chemistry"])],
)

case("zh-bg-sensory-panel-leader", [B], convs=[
    C(6, "07:10", [
        U("三点检验一般要多少人才够？"),
        A("GB/T 12311 建议至少 24 名评价员，具体取决于显著性水平……"),
        U("我是研发中心的感官评价员，带着一个十二人的评价小组，人数上有点紧张。"),
        A("12 人可以考虑每人重复评价两次……"),
    ]),
],
    slips=[(B, "global", "感官评价员")],
    mems=[(B, "global", ["感官", "sensory", "评价"])],
)

case("zh-bg-cheese-process-shanghai", [B], convs=[
    C(1, "03:00", [
        U("我负责奶酪产品线的工艺开发，在上海研发中心。想了解一下马苏里拉拉伸工序的温度一般怎么控？"),
        A("热烫拉伸一般在 70–80℃ 热水中进行，凝块温度控制在 55–60℃……"),
    ]),
],
    slips=[(B, "global", "奶酪产品线的工艺")],
    mems=[(B, "global", ["奶酪", "cheese", "工艺", "process"])],
)

case("zh-bg-moved-from-beverage", [B], convs=[
    C(3, "08:30", [
        U("我之前做饮料的，今年刚转到乳品事业部做配方，很多乳品的东西还不太熟，你多担待。"),
        A("没问题，有不清楚的随时问。"),
        U("那先讲讲酸奶凝固型和搅拌型的区别吧。"),
        A("凝固型在容器内发酵成型，搅拌型在罐内发酵后破乳灌装……"),
    ]),
],
    slips=[(B, "global", "乳品事业部做配方")],
    mems=[(B, "global", ["乳品", "dairy", "配方", "formulation"])],
)

case("zh-bg-procurement-aux", [B], convs=[
    C(2, "05:40", [
        U("我是采购部的，管辅料采购，主要是包材和稳定剂。结冷胶的批次差异一般怎么判断？"),
        A("可以从凝胶强度、透明度、钙离子敏感性几个指标判断……"),
    ]),
],
    slips=[(B, "global", "采购部的")],
    mems=[(B, "global", ["采购", "purchas", "procure", "辅料"])],
)

case("zh-bg-project-manager", [B], convs=[
    C(5, "02:45", [
        U("新品上市前一般要走哪些节点？我是项目经理，负责公司的新品项目。"),
        A("一般包括：概念评审、配方定型、中试、试产、稳定性、法规审核、上市评审……"),
        U("好，我对一下我们的流程。"),
    ]),
],
    slips=[(B, "global", "我是项目经理")],
    mems=[(B, "global", ["项目经理", "project manager", "PM", "新品"])],
)

case("zh-bg-regulatory-registration", [B], convs=[
    C(4, "09:15", [
        U("我负责法规注册，主要对接婴配粉的配方注册。你帮我看看注册资料里的稳定性研究一般要做多久？"),
        A("婴配粉注册的稳定性研究通常包括长期试验和加速试验，长期试验至少覆盖拟定保质期……"),
    ]),
],
    slips=[(B, "global", "法规注册")],
    mems=[(B, "global", ["法规", "注册", "regulatory", "registration"])],
)

case("zh-bg-pathogen-lab", [B], convs=[
    C(1, "06:05", [
        U("我是微生物实验室的，主要做致病菌检测，沙门氏菌、金黄色葡萄球菌这些。"),
        A("了解。需要查方法、判读还是质控方面的内容？"),
        U("先不用，以后有问题再说。"),
    ]),
],
    slips=[(B, "global", "微生物实验室")],
    mems=[(B, "global", ["微生物", "致病菌", "micro", "pathogen"])],
)

case("zh-bg-new-process-engineer", [B], convs=[
    C(6, "01:15", [
        U("你好，我是新来的工艺工程师，在液奶车间。"),
        A("你好！欢迎。有什么可以帮你的？"),
        U("想先了解一下我们用的均质机一般压力设多少。"),
        A("液态奶常用两级均质，一级 15–20 MPa，二级 3–5 MPa……"),
    ]),
],
    slips=[(B, "global", "工艺工程师")],
    mems=[(B, "global", ["工艺工程师", "process engineer", "液奶", "liquid milk"])],
)

case("zh-bg-packaging-migration", [B], convs=[
    C(3, "04:25", [
        U("我在包材组，负责瓶子和杯子的迁移测试。GB 31604 系列里总迁移量是哪一个？"),
        A("GB 31604.8-2021 食品接触材料及制品 总迁移量的测定。"),
    ]),
],
    slips=[(B, "global", "包材组")],
    mems=[(B, "global", ["包材", "迁移", "packag", "migration"])],
)

case("zh-bg-uht-process", [B], convs=[
    C(2, "07:35", [
        U("UHT 线的工艺是我负责的。问一下，板换结垢一般跟哪些因素有关？"),
        A("主要和原奶热稳定性、预热温度、CIP 频次有关……"),
        U("明白了。"),
    ]),
],
    slips=[(B, "global", "UHT 线的工艺")],
    mems=[(B, "global", ["UHT", "超高温"])],
)

case("zh-bg-nutritionist", [B], convs=[
    C(5, "03:50", [
        U("我是营养师，负责产品的营养成分计算和标签设计。"),
        A("好的。"),
        U("问一下，能量换算系数里膳食纤维是按 8 kJ/g 吗？"),
        A("是的，GB 28050 中膳食纤维的能量系数为 8 kJ/g。"),
    ]),
],
    slips=[(B, "global", "我是营养师")],
    mems=[(B, "global", ["营养", "nutrition", "标签", "label"])],
)

case("zh-bg-starter-cultures", [B], convs=[
    C(1, "02:20", [
        U("我是做菌种的，想问下保加利亚乳杆菌冻干粉怎么复活比较好？"),
        A("可以用 10% 脱脂乳于 37–42℃ 活化，连续传代 2–3 次……"),
    ]),
],
    slips=[(B, "global", "做菌种的")],
    mems=[(B, "global", ["菌种", "starter", "culture", "发酵剂"])],
)

case("zh-bg-infant-stability-team", [B], convs=[
    C(4, "05:55", [
        U("我们团队是做婴幼儿配方奶粉的，我在里面负责稳定性试验。"),
        A("明白。"),
        U("加速试验一般用 37℃ 还是 40℃？"),
        A("常见的是 37℃/75%RH，也有用 40℃/75%RH 的……"),
    ]),
],
    slips=[(B, "global", "负责稳定性试验")],
    mems=[(B, "global", ["婴幼儿", "婴配", "infant", "稳定性", "stability"])],
)

# --- recent_focus ---------------------------------------------------------------

case("zh-rf-dairy-formulation", [F], convs=[
    C(2, "01:45", [
        U("最近在做奶制品配方的研发。你先帮我理一下常见的几类乳制品国标吧。"),
        A("主要有：GB 19301 生乳、GB 19645 巴氏杀菌乳、GB 25190 灭菌乳、GB 19302 发酵乳、GB 19644 乳粉……"),
    ]),
],
    slips=[(F, "global", "奶制品配方的研发")],
    mems=[(F, "global", ["奶制品", "乳制品", "dairy"])],
)

case("zh-rf-lowsugar-stabilizer", [F], convs=[
    C(3, "06:30", [
        U("这阵子我在弄低糖酸奶的稳定剂筛选，果胶、结冷胶、变性淀粉都在试。"),
        A("低糖体系固形物下降，建议关注乳清析出和口感变稀……"),
        U("对，就是析出的问题最头疼。"),
    ]),
],
    slips=[(F, "global", "稳定剂筛选")],
    mems=[(F, "global", ["稳定剂", "stabili", "低糖", "low-sugar", "reduced-sugar"])],
)

case("zh-rf-project-oat-pilot", [F, "project"], convs=[
    C(4, "02:00", [
        U("最近主要在推燕麦饮的中试，下周要上线试产。"),
        A("中试阶段建议重点关注酶解程度、均质压力和杀菌后的沉淀情况。"),
        U("好，酶解那块我再确认一下。"),
    ], scopes=["project:燕麦饮"]),
],
    slips=[(F, "project:燕麦饮", "燕麦饮的中试")],
    mems=[(F, "project:燕麦饮", ["中试", "试产", "pilot", "trial"])],
)

case("zh-rf-gb19302-gap", [F], convs=[
    C(1, "07:20", [
        U("我最近在跟 GB 19302 新版的对标，看看我们几个发酵乳产品哪些地方要改。"),
        A("新版主要变化集中在：术语定义、理化指标、乳酸菌数要求……"),
    ]),
],
    slips=[(F, "global", "19302")],
    mems=[(F, "global", ["19302", "对标", "发酵乳", "fermented"])],
)

case("zh-rf-a2-launch", [F], convs=[
    C(5, "03:35", [
        U("手上在做一个 A2 牛奶的新品立项，想先看看市面上 A2 奶的宣称一般怎么写。"),
        A("常见宣称包括'A2 β-酪蛋白'、'更易消化'等，需注意……"),
    ]),
],
    slips=[(F, "global", "A2 牛奶")],
    mems=[(F, "global", ["A2"])],
)

case("zh-rf-cheese-sodium", [F], convs=[
    C(2, "08:05", [
        U("最近在搞奶酪棒降钠，目标减 25%。氯化钾替代的话苦味怎么压？"),
        A("可以配合使用酵母抽提物或风味掩蔽剂，氯化钾替代比例一般不超过 30%……"),
    ]),
],
    slips=[(F, "global", "奶酪棒降钠")],
    mems=[(F, "global", ["降钠", "减盐", "sodium", "salt"])],
)

case("zh-rf-swelling-investigation", [F], convs=[
    C(3, "00:40", [
        U("这两周在排查酸奶胀包的问题，怀疑是酵母污染。"),
        A("可以先对胀包样品做霉菌酵母计数，同时排查灌装环境和果酱……"),
        U("果酱那边已经在查了。"),
    ]),
],
    slips=[(F, "global", "酸奶胀包")],
    mems=[(F, "global", ["胀包", "胀袋", "swell", "bloat", "酵母", "yeast"])],
)

case("zh-rf-project-ambient-shelf", [F, "project"], convs=[
    C(6, "05:15", [
        U("我现在主要在做常温酸奶的货架期试验，9个月的那种。"),
        A("9 个月货架期建议设置 0、1、3、6、9、10 月取样点……"),
    ], scopes=["project:常温酸奶"]),
],
    slips=[(F, "project:常温酸奶", "货架期试验")],
    mems=[(F, "project:常温酸奶", ["货架期", "保质期", "shelf"])],
)

case("zh-rf-brc-audit", [F], convs=[
    C(2, "04:10", [
        U("正在准备下个月的 BRC 审核，文件一堆。"),
        A("可以先按 BRCGS 第 9 版条款做一遍差距分析……"),
        U("嗯，先这样。"),
    ]),
],
    slips=[(F, "global", "BRC 审核")],
    mems=[(F, "global", ["BRC"])],
)

case("zh-rf-whey-supplier-validation", [F], convs=[
    C(4, "06:45", [
        U("最近在验证一个新的乳清蛋白供应商，小样已经到了。"),
        A("建议对比溶解性、热稳定性、风味和微生物，再做一次应用试验。"),
    ]),
],
    slips=[(F, "global", "乳清蛋白供应商")],
    mems=[(F, "global", ["乳清", "whey"])],
)

case("zh-rf-hplc-vitamins", [F], convs=[
    C(1, "09:00", [
        U("最近在学 HPLC，准备把维生素 A、D 的检测方法在我们实验室建起来。"),
        A("可以参考 GB 5009.82，注意皂化和避光……"),
    ]),
],
    slips=[(F, "global", "维生素")],
    mems=[(F, "global", ["维生素", "vitamin", "HPLC"])],
)

case("zh-rf-icecream-plantbased-with-bg", [F, B], convs=[
    C(5, "01:05", [
        U("我是做冰淇淋的，最近在做一款植物基的雪糕，用椰子油和豌豆蛋白。"),
        A("豌豆蛋白的豆腥味需要注意，椰子油的熔点也会影响抗融性……"),
    ]),
],
    slips=[(B, "global", "做冰淇淋的"), (F, "global", "植物基的雪糕")],
    mems=[(B, "global", ["冰淇淋", "ice cream", "冷饮"]),
          (F, "global", ["植物基", "plant-based", "plant based", "雪糕"])],
)

case("zh-rf-powder-caking", [F], convs=[
    C(3, "03:20", [
        U("这段时间一直在弄乳粉结块的问题，夏天特别严重。"),
        A("结块多与水分活度、玻璃化转变温度以及包装阻隔性有关……"),
        U("包装我们换过了，还是结。"),
    ]),
],
    slips=[(F, "global", "乳粉结块")],
    mems=[(F, "global", ["结块", "caking", "乳粉", "powder"])],
)

case("zh-rf-project-cheese-packaging", [F, "project"], convs=[
    C(2, "07:50", [
        U("我们在改奶酪棒的包装，换成独立小包，我这边在对接包材打样。"),
        A("独立小包需关注热封强度和阻氧性……"),
    ], scopes=["project:奶酪棒"]),
],
    slips=[(F, "project:奶酪棒", "独立小包")],
    mems=[(F, "project:奶酪棒", ["包装", "小包", "pack"])],
)

case("zh-rf-esl-evaluation", [F], convs=[
    C(6, "02:30", [
        U("最近在做巴氏奶 ESL 工艺的评估，比较微滤和高温短时两条路线。"),
        A("微滤路线能较好保留风味，但设备投入高……"),
    ]),
],
    slips=[(F, "global", "ESL")],
    mems=[(F, "global", ["ESL", "巴氏", "pasteuri", "延长货架期", "extended shelf"])],
)

case("zh-rf-annual-stability-summary", [F], convs=[
    C(4, "08:15", [
        U("眼下主要在整理去年的稳定性数据，要写年度总结。数据太多，有没有什么好的归类方法？"),
        A("可以按产品类别 × 储存条件 × 指标三个维度建透视表……"),
    ]),
],
    slips=[(F, "global", "稳定性数据")],
    mems=[(F, "global", ["稳定性", "stability", "年度", "annual"])],
)

case("zh-rf-probiotic-clinical", [F], convs=[
    C(1, "05:30", [
        U("最近在跟进益生菌酸奶的临床合作，医院那边要我们提供菌株资料。"),
        A("一般需要菌株鉴定报告、安全性资料、活菌数稳定性数据……"),
    ]),
],
    slips=[(F, "global", "益生菌酸奶")],
    mems=[(F, "global", ["益生菌", "probiotic", "临床", "clinical"])],
)
