# Chinese terminology and query_default: never auto memories, they become
# suggestions for a person to accept.
from _dsl import case, C, U, A

TM = "terminology"
QD = "query_default"

# --- terminology --------------------------------------------------------------

case("zh-term-lc-lifecycle", [TM], convs=[
    C(3, "02:30", [
        U("LC 是实验的那些，帮我数一下有多少个。"),
        A("请问 LC 指的是什么？液相色谱还是别的？"),
        U("我说的LC就是生命周期，不是液相。"),
        A("明白，生命周期为“实验”的配方共 18 个。"),
    ]),
],
    slips=[(TM, "global", "LC就是生命周期")],
    sugs=[(TM, "global")],
)

case("zh-term-junzong", [TM], convs=[
    C(2, "06:15", [
        U("把上周成品的菌总都拉出来。"),
        A("“菌总”是指菌落总数吗？"),
        U("对，我们平时说的菌总就是菌落总数，以后不用再问了。"),
        A("好的，上周成品菌落总数如下……"),
    ]),
],
    slips=[(TM, "global", "菌总就是菌落总数")],
    sugs=[(TM, "global")],
)

case("zh-term-recipe-old-version", [TM], convs=[
    C(4, "01:40", [
        U("帮我找一下 FM-118 的老版配方。"),
        A("FM-118 共有 V1–V6 六个版本，您说的老版是指哪一个？"),
        U("查配方的时候，我说'老版'指的是 V3 之前的版本，V1 和 V2 都算。"),
        A("好的，FM-118 的 V1、V2 如下……"),
    ], scopes=["domain:recipe"]),
],
    slips=[(TM, "domain:recipe", "'老版'指的是")],
    sugs=[(TM, "domain:recipe")],
)

case("zh-term-xiaoyang", [TM], convs=[
    C(5, "07:05", [
        U("'小样'在我这儿就是实验室做的1升试制样，不是供应商寄来的样品，别搞混了。"),
        A("明白了。"),
        U("那把上个月做的小样记录整理一下。"),
        A("上个月实验室共试制 1 L 小样 23 份……"),
    ]),
],
    slips=[(TM, "global", "1升试制样")],
    sugs=[(TM, "global")],
)

case("zh-term-b-line", [TM], convs=[
    C(1, "03:05", [
        U("B线昨天的CIP记录有吗？"),
        A("请问B线是指哪条线？"),
        U("我讲的B线就是二车间那条酸奶灌装线，跟你说一次以后就记得哈。"),
        A("好的，二车间酸奶灌装线昨天的 CIP 记录如下……"),
    ]),
],
    slips=[(TM, "global", "二车间那条酸奶")],
    sugs=[(TM, "global")],
)

case("zh-term-baipi", [TM], convs=[
    C(3, "05:25", [
        U("我们组里说'白批'，意思是没有任何偏差记录的批次。"),
        A("了解。"),
        U("上个月白批占比多少？"),
        A("上个月共 186 批，其中无偏差记录的 171 批，占 91.9%。"),
    ]),
],
    slips=[(TM, "global", "'白批'，意思是")],
    sugs=[(TM, "global")],
)

case("zh-term-rawmat-zhuliao", [TM], convs=[
    C(2, "08:20", [
        U("原料这块我说'主料'，一般就是指生牛乳和奶粉，不包括糖和稳定剂。"),
        A("明白。"),
        U("那这个月主料的入厂检验有没有不合格的？"),
        A("本月生牛乳和奶粉的入厂检验共 96 批，全部合格。"),
    ], scopes=["domain:raw_material"]),
],
    slips=[(TM, "domain:raw_material", "我说'主料'")],
    sugs=[(TM, "domain:raw_material")],
)

case("zh-term-acidity-titratable", [TM], convs=[
    C(6, "02:50", [
        U("这批酸奶酸度多少？"),
        A("pH 4.35。"),
        U("我说'酸度'的时候指的是滴定酸度，单位°T，不是pH。"),
        A("抱歉，滴定酸度为 78 °T。"),
    ]),
],
    slips=[(TM, "global", "滴定酸度")],
    sugs=[(TM, "global")],
)

case("zh-term-zhongjian", [TM], convs=[
    C(4, "06:40", [
        U("我口中的'终检'就是成品放行前的那次全项检验，不是每天的过程检验。"),
        A("好的。"),
        U("那 1126 批的终检数据给我看下。"),
        A("1126 批成品全项检验结果如下……"),
    ]),
],
    slips=[(TM, "global", "'终检'就是")],
    sugs=[(TM, "global")],
)

case("zh-term-stabilizer-combo", [TM], convs=[
    C(1, "01:55", [
        U("以后我说'稳定剂组合'，指的就是果胶加结冷胶那一套，不是单用果胶。"),
        A("明白。"),
    ]),
],
    slips=[(TM, "global", "稳定剂组合")],
    sugs=[(TM, "global")],
)

case("zh-term-report-yichang", [TM], convs=[
    C(3, "07:30", [
        U("看报告时我说的'异常'只算超内控的，超国标的我叫'不合格'，这两个别混。"),
        A("明白：异常 = 超内控未超国标；不合格 = 超国标。"),
        U("那这份月报里有几个异常？"),
        A("共 4 个异常，0 个不合格。"),
    ], scopes=["domain:report"]),
],
    slips=[(TM, "domain:report", "超内控")],
    sugs=[(TM, "domain:report")],
)

case("zh-term-sangao", [TM], convs=[
    C(5, "04:35", [
        U("'三高'在我们这儿是指高蛋白、高钙、高膳食纤维的那个产品系列，不是医学上那个三高。"),
        A("哈哈，明白了。"),
        U("三高系列目前有几个在售SKU？"),
        A("这个需要查询产品主数据，我来查一下……"),
    ]),
],
    slips=[(TM, "global", "高蛋白、高钙")],
    sugs=[(TM, "global")],
)

case("zh-term-standard-method-one", [TM], convs=[
    C(2, "03:40", [
        U("查标准的时候，我说'方法一'就是 GB 4789.2 里的平板计数法。"),
        A("好的。"),
        U("方法一的稀释液用什么？"),
        A("无菌磷酸盐缓冲液或生理盐水。"),
    ], scopes=["domain:standard"]),
],
    slips=[(TM, "domain:standard", "平板计数法")],
    sugs=[(TM, "domain:standard")],
)

case("zh-term-wpc80", [TM], convs=[
    C(4, "08:55", [
        U("WPC 现在还有多少个合格供应商？"),
        A("WPC35 有 2 家，WPC80 有 3 家。"),
        U("我说 WPC 指的都是 WPC80，35 的我们基本不用。"),
        A("明白，WPC80 合格供应商 3 家……"),
    ]),
],
    slips=[(TM, "global", "WPC80")],
    sugs=[(TM, "global")],
)

# --- query_default ------------------------------------------------------------

case("zh-qd-recipe-status-basic", [QD], convs=[
    C(3, "01:25", [
        U("帮我筛一下状态是'试产'的配方。"),
        A("配方的状态可能指基本属性中的“生命周期”，也可能指版本状态，请确认？"),
        U("配方里的状态，我没说的话就默认按基本属性里的生命周期查。"),
        A("好的，基本属性生命周期为“试产”的配方共 7 个。"),
    ], scopes=["domain:recipe"]),
],
    slips=[(QD, "domain:recipe", "默认按基本属性")],
    sugs=[(QD, "domain:recipe")],
)

case("zh-qd-rawmat-jiaxing", [QD], convs=[
    C(2, "05:50", [
        U("果胶的检验记录调一下。"),
        A("请问查哪个工厂的？目前有嘉兴、天津、成都三个工厂的数据。"),
        U("原料没说工厂的话，默认查嘉兴工厂的，我主要跟那边。"),
        A("好的，嘉兴工厂果胶检验记录如下……"),
    ], scopes=["domain:raw_material"]),
],
    slips=[(QD, "domain:raw_material", "默认查嘉兴工厂")],
    sugs=[(QD, "domain:raw_material")],
)

case("zh-qd-report-sampling-date", [QD], convs=[
    C(6, "02:05", [
        U("查一下 11 月的检验报告。"),
        A("按报告日期还是取样日期？"),
        U("查检验报告，日期默认按取样日期算，不是出报告的日期。"),
        A("好的，取样日期在 11 月的报告共 312 份。"),
    ], scopes=["domain:report"]),
],
    slips=[(QD, "domain:report", "默认按取样日期")],
    sugs=[(QD, "domain:report")],
)

case("zh-qd-standard-current-only", [QD], convs=[
    C(1, "06:55", [
        U("乳粉水分测定的标准有哪些？"),
        A("GB 5009.3-2016（现行）、GB 5413.8-1997（已废止）……"),
        U("查标准默认只看现行有效的，废止的别带出来，看着乱。"),
        A("明白。现行有效：GB 5009.3-2016。"),
    ], scopes=["domain:standard"]),
],
    slips=[(QD, "domain:standard", "默认只看现行")],
    sugs=[(QD, "domain:standard")],
)

case("zh-qd-recipe-released-only", [QD], convs=[
    C(4, "03:15", [
        U("含阿洛酮糖的配方有几个？"),
        A("共 11 个，其中已发布 4 个、草稿 7 个。"),
        U("查配方默认只看已发布的版本，草稿的不用管。"),
        A("好的，已发布的 4 个如下……"),
    ], scopes=["domain:recipe"]),
],
    slips=[(QD, "domain:recipe", "默认只看已发布")],
    sugs=[(QD, "domain:recipe")],
)

case("zh-qd-rawmat-approved-list", [QD], convs=[
    C(5, "07:45", [
        U("有哪些供应商能供稀奶油？"),
        A("系统里登记过的有 9 家，其中合格供方 4 家。"),
        U("查供应商默认就查合格供方名录里的，其他的我没说就不用列。"),
        A("合格供方 4 家：……"),
    ], scopes=["domain:raw_material"]),
],
    slips=[(QD, "domain:raw_material", "合格供方名录")],
    sugs=[(QD, "domain:raw_material")],
)

case("zh-qd-report-last-month-natural", [QD], convs=[
    C(2, "01:10", [
        U("上个月的投诉报告有几份？"),
        A("按最近 30 天算有 5 份。"),
        U("查报告的时候'上个月'默认按自然月算，不是最近30天。"),
        A("按自然月，上个月共 4 份。"),
    ], scopes=["domain:report"]),
],
    slips=[(QD, "domain:report", "按自然月")],
    sugs=[(QD, "domain:report")],
)

case("zh-qd-project-oat-branch", [QD, "project"], convs=[
    C(3, "04:50", [
        U("把燕麦饮的配方拉一下。"),
        A("燕麦饮有一代和二代两个配方分支，要看哪个？"),
        U("这个项目里查配方默认看二代那个分支，一代已经停了。"),
        A("好的，二代分支当前版本 V4……"),
    ], scopes=["project:燕麦饮"]),
],
    slips=[(QD, "project:燕麦饮", "默认看二代")],
    sugs=[(QD, "project:燕麦饮")],
)

case("zh-qd-fat-method", [QD], convs=[
    C(6, "06:35", [
        U("把这周乳粉的脂肪数据导出来。"),
        A("本周脂肪数据有罗紫-哥特里法和盖勃法两种结果，导哪个？"),
        U("查检测数据的时候，脂肪默认取罗紫-哥特里法的结果，盖勃法那个是车间快检用的。"),
        A("好的，罗紫-哥特里法结果如下……"),
    ], scopes=["domain:report"]),
],
    slips=[(QD, "domain:report", "罗紫-哥特里法")],
    sugs=[(QD, "domain:report")],
)

case("zh-qd-rawmat-unopened-shelf", [QD], convs=[
    C(1, "08:40", [
        U("麦芽糊精还有多少天过期？"),
        A("开封前保质期至 2027-03-01，开封后 30 天，请问查哪个？"),
        U("以后查原料有效期，默认看开封前的那个字段。"),
        A("好的，开封前有效期至 2027-03-01。"),
    ], scopes=["domain:raw_material"]),
],
    slips=[(QD, "domain:raw_material", "默认看开封前")],
    sugs=[(QD, "domain:raw_material")],
)

case("zh-qd-recipe-factory-version", [QD], convs=[
    C(4, "02:25", [
        U("YG-2207 的糖用量是多少？"),
        A("研发配方 6.5%，工厂配方 6.3%，您要看哪个？"),
        U("我问配方的时候默认按工厂配方，研发配方我会单独说。"),
        A("工厂配方 6.3%。"),
    ], scopes=["domain:recipe"]),
],
    slips=[(QD, "domain:recipe", "默认按工厂配方")],
    sugs=[(QD, "domain:recipe")],
)

case("zh-qd-stability-25c", [QD], convs=[
    C(5, "05:05", [
        U("调出常温酸奶第 6 个月的稳定性数据。"),
        A("有 25℃ 长期组和 37℃ 加速组，需要哪组？"),
        U("稳定性数据默认只看 25℃ 那组，加速的我要的时候会说。"),
        A("25℃ 长期组第 6 个月数据如下……"),
    ], scopes=["domain:report"]),
],
    slips=[(QD, "domain:report", "默认只看 25℃")],
    sugs=[(QD, "domain:report")],
)
