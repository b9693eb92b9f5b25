//! Live business facts (spec §2): a price or an exchange rate, a stock level,
//! quantity on hand or days of cover, an order, shipment, approval or ticket
//! status, a plant's state or an expected arrival, stated as a current
//! value. They change by the hour and must be queried each time.
//!
//! What passes: formatting wishes and definitions that *name* a column or
//! a status (`审批状态那一列标绿`, `订单状态：完成 是最终态`, `单价 3 列`,
//! `show the price column last`), conditions (`订单状态为已发货时通知我`),
//! budgets, counts of tokens, recipe quantities; figures a condition, a
//! plan or a past year at the head of their sentence frames (`如果明年收购价
//! 涨到 4.5 元/公斤，成本增加 380 元`, `2021 年…库存一度积压到 30 吨`),
//! changes and bounds in rules (`每变动 1 元/公斤`, `5000 元以下`), and
//! statuses in minutes and reports without a word of now.

use super::context::{WordSet, clause_of, mentions, statement_of};
use regex::{Captures, Regex};
use std::sync::LazyLock;

/// A quantity: Arabic digits (with thousands commas and decimals) or
/// Chinese numerals (三百, 二十三点五, 几百), with an optional magnitude.
const QTY: &str = r"(?:\d+(?:,\d{3})*(?:\.\d+)?|[零〇一二两三四五六七八九十百千万亿几半壹贰叁肆伍陆柒捌玖拾佰仟]+(?:点[零〇一二三四五六七八九]+)?)\s*(?:万|千|百|亿|k|K|w|W)?";

/// Money units, Chinese and English.
const MONEY: &str = r"(?:元|块钱|块|毛钱|美元|美金|欧元|英镑|日元|港币|港元|人民币|(?i:rmb|cny|usd|eur|gbp|jpy|yuan|dollars?|euros?|bucks)\b)";

/// Currency codes and names an exchange rate is quoted between.
const CURRENCY: &str = "usd|eur|gbp|jpy|hkd|cny|rmb|chf|aud|cad|sgd|nzd|krw|twd|rub|inr|brl|mxn";
const CURRENCY_ZH: &str =
    "美元|美金|欧元|英镑|日元|港币|港元|人民币|瑞郎|澳元|加元|新加坡元|新元|韩元|卢布|卢比|新台币";

/// Units a price is quoted per.
const PER_UNIT: &str = r"(?:公斤|千克|(?i:kg)|吨|(?i:t)\b|斤|箱|袋|件|瓶|桶|升|(?i:l)\b|个|盒|包|托|克|(?i:g)\b|(?i:ml)\b|份|支|罐|(?i:lb)\b|磅|(?i:ton|tonne|litre|liter|unit|case|bag|pack|piece|pallet|drum|carton|bottle|box)s?\b)";

/// Units of goods in stock.
const GOODS: &str = r"(?:吨桶|吨包|(?i:IBC)s?|箱|袋|吨|公斤|千克|(?i:kg)|斤|桶|瓶|罐|件|托盘|托|包|盒|卷|升|(?i:l)\b|(?i:t)\b|立方|方|车|柜|支|(?i:pcs)\b)";

/// Words after a number that make it something other than a price or a
/// stock level: a column, a count of items, a duration, a share.
static NOT_AN_AMOUNT: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)^\s*(?:列|栏|行|位|个字段|字段|项|条|种|次|天|年|月|日|号|%|倍|份|档|版|页|张|章|节|步|级|小数|字|分钟|小时|秒|周|批次|率|分|度|°|℃|\bcolumns?\b|\bcols?\b|\brows?\b|\bdecimals?\b|\bdigits?\b|\bplaces\b|\bpercent\b|\bcharacters?\b|\bchars\b|\btimes\b|\bitems\b|\bpages\b|\bdays?\b|\bhours?\b|\bmins?\b|\bminutes?\b|\bweeks?\b|\bmonths?\b|\byears?\b|\btokens?\b|\bsteps?\b|\bx\b|\bsops?\b|\bmethods?\b|\bdocuments?\b|\bdocs\b|\bfiles?\b|\btests?\b|\breports?\b|\bsamples?\b|\bprojects?\b|\brecords?\b|\bentries\b|\bpeople\b|\busers?\b|\bmembers?\b|\bpapers?\b|\bslides?\b|\bquestions?\b|\btasks?\b|\bissues?\b|\btickets?\b|个问题|份报告|个样品|篇|人|名|个项目|个任务)",
    )
});

/// An exchange rate stated as today's: `USD/CNY is 7.12 today`, `欧元兑人民币
/// 7.86`, `汇率现在是 7.12`. A rate is quoted with decimals; conditions,
/// planning rates and formats (`汇率超过 7.3 时提醒我`, `a planning rate of
/// USD/CNY 7.20`, `FX rates at 4 dp`) are no live value.
static RATES: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    let link = r"(?:\s+(?:is|was|at|stands\s+at|today|now|currently|around|about)|\s*[:=]|\s*(?:现在|目前|当前|今天|今日|最新|已经|已|又|是|为|报|涨到了?|跌到了?|降到了?|到了))*";
    let rate = r"(?P<amount>\d+\.\d{1,4})(?P<after>.{0,8})";
    [
        format!(r"(?i)(?:\b(?:{CURRENCY})\s*(?:/|to|vs\.?|兑|对|\s)\s*(?:{CURRENCY})\b|(?:{CURRENCY_ZH})(?:兑|对|兑换|换)(?:{CURRENCY_ZH}))(?:\s*(?:exchange\s+|fx\s+)?rates?|\s*汇率)?{link}\s*{rate}"),
        format!(r"(?i)(?:汇率|\b(?:exchange|fx|forex)\s+rates?\b)(?:\s+(?:of|for)\s+[\w/\s\-]{{1,20}}?)?{link}\s*{rate}"),
    ]
    .iter()
    .map(|p| super::re(p))
    .collect()
});

/// Words that make a rate a condition, a plan or a format.
static NOT_A_LIVE_RATE: WordSet = WordSet::new(&[
    "超过", "低于", "高于", "不到", "如果", "时", "假设", "按", "统一", "预算", "计划", "保留",
    "位", "if", "when", "above", "below", "over", "under", "planning", "plan", "budget", "assume",
    "assuming", "use", "dp", "decimals", "format",
]);

fn has_rate(words: &str) -> bool {
    RATES.iter().any(|r| {
        r.captures_iter(words).any(|c| {
            // Group 0 is the whole match: every capture has it.
            let m = c.get(0).expect("group 0");
            let end = c.name("amount").map_or(m.end(), |a| a.end());
            let clause = clause_of(words, m.start(), end);
            !mentions(clause, &NOT_A_LIVE_RATE) && !mentions(clause, &NOT_A_PRICE)
        })
    })
}

static PRICES: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    let filler = r"(?:\s*(?:现在|目前|当前|现时|今天|今日|昨天|本周|这周|这个月|本月|最近|最新|眼下|已经|已|刚|又|再|都|也|还|就|只|大概|约|大约|差不多|是|为|:|=|涨到了?|涨至|涨了|上涨到|降到了?|降至|降了|下调到|下调至|上调到|上调至|跌到了?|跌了|调到了?|报到|报了|调整为|调整到|调为|变成了?|定为|定在|报|在|要|得|达到|到了|有|才|只要|不到|超过|了|的|含税|不含税|未税))*";
    let named_cur = r"(?:[¥$€£₹]|(?:US|HK|NT|S|A|C|NZ)\$|(?i:rmb|cny|usd|eur|hkd|twd|ntd|sgd|myr|inr|rs\.?)\s?|(?-i:RM)\s?)";
    let cur = format!("{named_cur}?");
    [
        // 单价是 23.5 / 现在单价二十三块五 / 采购价这周涨到了 25 元.
        format!(r"(?:价格|单价|售价|报价|采购价|收购价|成本价|进价|出厂价|批发价|零售价|市场价|现价|价钱|价位|卖价|买价|到岸价|离岸价|挂牌价|结算价|合同价|中标价|均价|行情价|开价|要价|标价){filler}\s*(?:(?:每|一)(?:吨|公斤|千克|斤|箱|袋|件|桶|瓶|公升|升))?{filler}\s*{cur}\s*(?P<amount>{QTY})(?P<after>.{{0,8}})"),
        // 每公斤 HK$52 / 每噸 NT$38,500: an amount per unit in a named currency.
        format!(r"(?:每|一)(?:吨|公斤|千克|斤|箱|袋|件|桶|瓶|公升|升){filler}\s*{named_cur}\s*(?P<amount>{QTY})(?P<after>.{{0,8}})"),
        // 23.5 元/kg, 9800 元一吨, $4.20 per litre.
        format!(r"(?i)(?P<amount>[¥$€£]\s*{QTY}|{QTY}\s*{MONEY}|(?:rmb|cny|usd|eur)\s?{QTY})\s*(?:/|每|一|per\s+|a\s+|an\s+)\s*{PER_UNIT}"),
        // 报价今天又涨了 3 毛 / 大豆油今天又跌了 200: a price moved today.
        r"(?:今天|今日|今早|刚刚|刚才|这周|本周|今年以来|比(?:昨天|前天|上周|上个月|昨日))(?:又|已经|再)?(?:(?:每|一)(?:吨|公斤|千克|斤|箱|袋|件|桶|瓶|升))?(?:又|已经|再)?(?:涨|跌|降|上调|下调|上涨|下跌)了\s*(?P<moved>\d+(?:\.\d+)?|[一二两三四五六七八九十百千半]+)\s*(?:毛|分|块|元|个点|%|美元|美金)?(?P<after>.{0,4})".to_string(),
        // like 40 ringgit lower than yesterday / 甘油每吨涨了三百 / 期货今天跌停了 / 报价说降了5%.
        r"(?i)\b(?P<moved>\d+(?:\.\d+)?)\s*(?:%|[a-z]+)?\s+(?:lower|higher|cheaper|dearer|up|down)\s+(?:than|on|from)\s+(?:yesterday|last\s+week|this\s+morning|last\s+month)\b(?P<after>)".to_string(),
        r"(?:每|一)(?:吨|公斤|千克|斤|箱|袋|件|桶|瓶|升)(?:又|已经|再)?(?:涨|跌|降|上调|下调|上涨|下跌)了\s*(?P<moved>\d+(?:\.\d+)?|[一二两三四五六七八九十百千半]+)\s*(?:毛|分|块|元|个点|%|美元|美金)?(?P<after>.{0,4})".to_string(),
        r"(?:今天|今日)(?:又)?(?P<moved>跌停|涨停)(?P<after>)".to_string(),
        // 供应商本周上调价格约百分之五 / 这两天一吨落了两百块: a price moved lately.
        r"(?:今天|今日|今早|刚刚|刚才|这周|本周|这两天|这几天|近两天|近几天|最近|昨天|这个月|本月)[^,;。!?\n]{0,16}?(?:涨|跌|降|落|上调|下调|上涨|下跌|调高|调低|提价|降价|涨价)(?:了|价格|价)?(?:了)?(?:约|大约|大概|近|将近|了)?\s*(?P<moved>百分之[一二两三四五六七八九十\d.]+|\d+(?:\.\d+)?\s*(?:%|个点|块|元|毛|美元)|[一二两三四五六七八九十百千半]+(?:块|元|毛|个点))(?P<after>.{0,4})".to_string(),
        // 豆油期货今天收在七千八左右: a market's close today.
        r"(?:期货|现货|主力|合约|盘面)[^,;。!?\n]{0,8}?(?:今天|今日|昨天|早盘|午盘|尾盘|现在)[^,;。!?\n]{0,2}?(?:收在|收于|报收|收盘在?|站上|跌破|涨到|跌到)\s*(?P<amount>\d{3,}(?:\.\d+)?|[一二两三四五六七八九]千[一二三四五六七八九]?百?|[一二两三四五六七八九]万[一二三四五六七八九]?千?)(?P<after>.{0,4})".to_string(),
        // the supplier put its price up 8% this week / futures closed at 7,800 today.
        r"(?i)\b(?:put\s+(?:its|their|the)\s+prices?\s+up|(?:raised|increased|hiked|upped|cut|lowered|dropped)\s+(?:its|their|the)\s+prices?|prices?\s+(?:are|is|went|have\s+gone|has\s+gone)\s+(?:up|down))\s+(?:by\s+)?(?:about\s+|around\s+|roughly\s+|another\s+)?(?P<moved>\d+(?:\.\d+)?)\s*(?:%|percent)[^.;!?\n]{0,40}?\b(?:this\s+(?:month|week|morning)|today|from\s+(?:today|monday|next\s+month))\b(?P<after>)".to_string(),
        r"(?i)\bfutures\b[^.;!?\n]{0,20}?\b(?:closed|settled|finished|ended)\s+(?:at|around|near)\s+(?P<amount>\d+(?:,\d{3})*(?:\.\d+)?)[^.;!?\n]{0,20}?\b(?:today|yesterday|this\s+(?:morning|afternoon))\b(?P<after>)".to_string(),
        r"报价[^,;。!?\n]{0,8}?(?:涨|降|跌|上调|下调)了\s*(?P<moved>\d+(?:\.\d+)?)\s*%(?P<after>)".to_string(),
        // the polyol went up 6% with this month's price letter / 无水乙醇是每升八块五.
        r"(?i)\b(?:went\s+up|rose|increased|dropped|fell|went\s+down)\s+(?:by\s+)?(?P<moved>\d+(?:\.\d+)?)\s*%[^.;!?\n]{0,40}?\b(?:this\s+(?:month|week|morning)|today|from\s+(?:today|monday|next\s+month))\b(?P<after>)".to_string(),
        r"(?:每|一)(?:升|公斤|千克|吨|斤|瓶|桶|箱|袋)\s*(?:是|要|卖)?\s*(?P<moved>[一二两三四五六七八九十百千]+块[一二三四五六七八九]?)(?P<after>)".to_string(),
        // 蔗糖早上报5400 / 乙二醇这周出厂价报到5200: a price quoted today.
        r"(?:今天|今日|今早|早上|上午|下午|刚刚|刚才|刚|这周|本周)[^,;。!?\n]{0,4}?报(?:价|到|了|出)?\s*(?P<amount>\d{3,}(?:\.\d+)?)(?P<after>.{0,4})".to_string(),
        // 刚报了新价，一吨一千三 / 目前每吨 2.1 万: a price per unit, in words or with 万.
        r"(?:每|一)(?:吨|公斤|千克)\s*(?P<amount>[一二两三四五六七八九]千[一二三四五六七八九]?百?|[一二两三四五六七八九]万[一二三四五六七八九]?千?|\d+(?:\.\d+)?\s*万)(?P<after>\s*(?:[,;。!?\n]|$))".to_string(),
        // spot is up to 9.80 a kilo today / freight is sitting at 2,150 per box this week.
        format!(r"(?i)\b(?:is|are|'s)\s+(?:now\s+|currently\s+)?(?:(?:sitting\s+at|running\s+at|trading\s+at|at|up\s+to|down\s+to)\s+)?{cur}\s*(?P<amount>\d+(?:,\d{{3}})*(?:\.\d+)?)\s*(?:/|per\s+|a\s+|an\s+)\s*(?:{PER_UNIT}|kilos?|box(?:es)?|containers?|FEU|TEU|head)\b[^.;!?\n]{{0,40}}?\b(?:today|this\s+week|this\s+month|this\s+morning|rn|atm|right\s+now|currently|now)\b"),
        // 38.5p per litre / 41 c/lb: pence and cents per unit are a price.
        format!(r"(?i)(?P<amount>\d+(?:\.\d+)?)\s*(?:p|c|pence|cents?)\s*(?:/|per\s+|a\s+|an\s+)\s*{PER_UNIT}"),
        // 12000 一吨 / 1,050 a tonne: an amount per unit of weight is a price even without a currency.
        format!(r"(?i)(?P<amount>{QTY})\s*(?:/|每|一|per\s+|a\s+|an\s+)\s*(?:吨|公斤|千克|斤|(?:kg|ton|tonne|t)\b)"),
        // 一公斤 23 块, 每吨 9800 元.
        format!(r"(?:每|一)(?:公斤|千克|吨|斤|箱|袋|件|桶|瓶){filler}\s*{cur}\s*(?P<amount>{QTY})\s*{MONEY}"),
        // the price is 4.20 / WPC80 is priced at 9.5 / the current price of SMP is 23.5.
        format!(r"(?i)\b(?:price|prices|unit\s+price|unit\s+cost|priced|pricing|quote|quoted|quotes|list\s+price|spot\s+price|market\s+price|selling\s+price|purchase\s+price)\b(?:\s+(?:of|for)\s+[\w\s\-]{{1,30}}?)?(?:\s+(?:is|are|was|were|now|currently|today|stands\s+at|has\s+risen\s+to|has\s+gone\s+up\s+to|rose\s+to|went\s+up\s+to|dropped\s+to|fell\s+to|increased\s+to|decreased\s+to|came\s+in\s+at|at|of|for|to|around|about|roughly|just|only)|\s*[:=])*\s*{cur}\s*(?P<amount>\d+(?:,\d{{3}})*(?:\.\d+)?)(?P<after>.{{0,10}})"),
        // whey costs $1200 a ton / it sells for 30 dollars.
        format!(r"(?i)\b(?:costs?|costing|sells?|selling|sold|going|trading|offered|bid)\s+(?:(?:for|at|us|about|around|roughly|only|just)\s+)*(?P<amount>(?:[¥$€£]|US\$|(?:rmb|cny|usd|eur)\s?)\s*\d+(?:,\d{{3}})*(?:\.\d+)?|\d+(?:,\d{{3}})*(?:\.\d+)?\s*{MONEY})"),
    ]
    .iter()
    .map(|p| super::re(p))
    .collect()
});

/// A bare money amount: `¥23.5`, `$1,200`, `300 元`, `20 dollars`.
static MONEY_AMOUNT: LazyLock<Regex> = LazyLock::new(|| {
    super::re(&format!(
        r"(?i)(?:(?P<sym>[¥$€£₹]|(?:US|HK|NT|S|A|C|NZ)\$|\b(?:usd|rmb|cny|eur|gbp|hkd|sgd|aud|cad|chf|nzd|twd|ntd|myr|inr|rs\.?)\s|\b(?-i:RM)\s?)\s?(?P<num>\d+(?:,\d{{3}})*(?:\.\d+)?)|(?P<qty>{QTY})\s*(?P<unit>元|块钱|美元|美金|欧元|英镑|日元|港币|港元|人民币|\brmb\b|\bcny\b|\busd\b|\beur\b|\bgbp\b|\byuan\b|\bdollars?\b|\beuros?\b|\bbucks\b|\bringgit\b|\brupiah\b|\bbaht\b|\bpesos?\b|\brupees?\b|\byen\b|\bfrancs?\b|\bzloty\b|\bkron(?:or|er|a)\b|\bdirhams?\b|\breais\b))(?P<after>.{{0,3}})"
    ))
});

/// Budgets, funding, pay, targets and history: money that is no live price.
static NOT_A_PRICE: WordSet = WordSet::new(&[
    "rule of thumb",
    // Conditions in Dutch and German (`Als de melkprijs boven 50 cent per
    // liter komt`).
    "als",
    "wenn",
    "falls",
    "目标",
    "控制在",
    "target",
    "targets",
    "历史",
    "去年",
    "前年",
    "往年",
    "全年",
    "年均",
    "历史均价",
    "平均",
    "个月均价",
    "近三个月",
    "近半年",
    "过去",
    "上月",
    "上个月",
    "上周",
    "上季度",
    "historical",
    "historically",
    "last year",
    "peaked",
    "averaged",
    "预算",
    "经费",
    "资助",
    "投入",
    "投资",
    "工资",
    "薪",
    "奖金",
    "报销",
    "罚款",
    "拨款",
    "budget",
    "budgets",
    "funding",
    "grant",
    "salary",
    "bonus",
    "fine",
    "reimburse",
    "reimbursement",
    "compensation",
    "示例",
    "例如",
    "比如",
    "假设",
    "假如",
    "如果",
    "if",
    "were",
    "suppose",
    "supposing",
    "assume",
    "assuming",
    "hypothetical",
    "hypothetically",
    "example",
    "e.g",
    "格式",
    "format",
    "保留",
    "显示",
    "show",
    "display",
]);

/// How a stock pattern places its quantity: at a place (`库存`, `the
/// warehouse`), which makes it stock whatever follows; left over
/// (`还剩 3 箱`), which may be a task (`还有 3 袋要加`); or as days of
/// cover (`库存够用 4 天`), which may be a target (`库存要够用 7 天`).
enum StockShape {
    AtAPlace,
    Remaining,
    Cover,
}

static STOCK: LazyLock<Vec<(StockShape, Regex)>> = LazyLock::new(|| {
    let filler = r"(?:\s*(?:还有|还剩|剩下|剩余|剩|只有|只剩|仅剩|仅有|有|是|为|:|=|不到|不足|约|大概|大约|现在|目前|当前|就|才|已经|已|只|还|共|一共|总共|合计|降到了?|减少到|掉到|了|的|都|也|就剩|仅))*";
    [
        // 库存还剩三百箱 / 仓库里还有 20 吨乳清粉 / 库存: 1200.
        (StockShape::AtAPlace, format!(r"(?:库存|存货|现货|余量|余货|结存|在库|库里|仓库里?|仓里|货架上|冷库里?|库房里?|库存量|库存数|可用库存|实际库存|账面库存)(?:量|数量|数)?{filler}\s*(?P<amount>{QTY})\s*(?P<unit>{GOODS})?(?P<after>.{{0,8}})")),
        // 库存：WPC80 共 18 袋 (an item named between the word and the amount).
        (StockShape::AtAPlace, format!(r"(?:库存|存货|现货|余量|结存|在库|库里|仓库里?|仓里|冷库里?|库房里?){filler}\s*[\p{{Han}}A-Za-z][\p{{Han}}A-Za-z0-9\-]{{0,11}}?\s*{filler}\s*(?P<amount>{QTY})\s*(?P<unit>{GOODS})(?P<after>.{{0,8}})")),
        // 3 号罐还有 8 吨原奶 / 奶仓里剩 20 吨: what a vessel holds now.
        (StockShape::AtAPlace, format!(r"(?:(?:(?:\d+\s*号|[A-Za-z]\d?\s*)(?:罐|仓|奶罐|储罐|奶仓|冷库)|储奶罐|奶罐|储罐|奶仓)(?:里|内)?|罐(?:里|内))\s*(?:目前|现在|当前)?\s*(?:还有|还剩|剩下|剩余|还|只有|只剩|仅剩|就剩|剩|有|装着|装了)\s*了?\s*(?P<amount>{QTY})\s*(?P<unit>{GOODS})(?P<after>)")),
        // 冷库 2 号目前还有脱脂奶粉 3.2 吨: a numbered store, what it holds now, by name.
        (StockShape::AtAPlace, format!(r"(?:冷库|仓库|库房|奶仓|储罐|奶罐|罐|仓)\s*\d+\s*号(?:库)?(?:里|内)?\s*(?:目前|现在|当前)?\s*(?:还有|还剩|剩下|剩余|只有|只剩|仅剩|就剩|剩|有|装着|装了)\s*了?\s*(?:[\p{{Han}}A-Za-z][\p{{Han}}A-Za-z0-9\-]{{0,11}}?)?\s*(?P<amount>{QTY})\s*(?P<unit>{GOODS})(?P<after>.{{0,8}})")),
        // 氢氧化钠罐里还剩三分之一 / 胶囊壳只够用到明天上午了: a share left, cover to a day.
        (StockShape::AtAPlace, r"(?:还剩|只剩|剩下|就剩|仅剩|(?:现在|目前)(?:只有|不到|不足))\s*(?:大概|大约|约|差不多|不到)?\s*(?P<share>[一二两三四五六七八九十]分之[一二三四五六七八九]|一半|半罐|半桶|半袋|半箱|半托|[一二两三四五六七八九]成)(?P<after>)".to_string()),
        (StockShape::AtAPlace, r"(?:只够|就够|还够|够|能)用到(?P<share>明天|后天|今晚|周[一二三四五六日天]|下周[一二三四五六日天]?|月底)(?P<after>)".to_string()),
        // 目前还有脱脂奶粉 3.2 吨: goods named between "now left" and the amount.
        (StockShape::Remaining, format!(r"(?:目前|现在|当前|眼下)\s*(?:还有|还剩|只剩|仅剩|剩下|只有|就剩)\s*了?\s*[\p{{Han}}A-Za-z][\p{{Han}}A-Za-z0-9\-]{{0,11}}?\s*(?P<amount>{QTY})\s*(?P<unit>{GOODS})(?P<after>.{{0,8}})")),
        // 只剩十二袋 / 还有 3 箱 (of goods, not days or samples to test).
        (StockShape::Remaining, format!(r"(?:只剩|还剩|仅剩|剩下|剩余|只有|还有|仅有|总共有|一共有|共有|就剩)\s*了?\s*(?:大概|大约|约|差不多)?\s*(?P<amount>{QTY})\s*(?:个)?(?P<unit>{GOODS})(?P<after>.{{0,8}})")),
        // stock of SMP is 4 tons / inventory: 1,200 kg / on-hand quantity is 250.
        (StockShape::AtAPlace, r"(?i)\b(?:stock|stocks|inventory|inventories|on[- ]hand(?:\s+quantity|\s+qty)?|stock\s+levels?|stock\s+on\s+hand|warehouse\s+stock|available\s+stock|qty\s+on\s+hand)(?:\s+(?:of|for|at|in)\s+[\w\s\-]{1,40}?)?(?:\s*\([^()\n]{1,30}\))?(?:\s+(?:is|are|was|stands\s+at|at|of|now|currently|like|down\s+to|dropped\s+to|fell\s+to|sits\s+at|only|just|about|around|roughly|~|level|levels|shows|reads|says|lists|has|have)|\s*[:=])+\s*(?P<amount>\d+(?:,\d{3})*(?:\.\d+)?)(?P<after>.{0,10})".to_string()),
        // stock 500kg / inventory: 40 pallets: a bare note of what is held.
        (StockShape::AtAPlace, r"(?i)\b(?:stock|inventory|on[- ]hand)\s*(?:right\s+now|rn|currently|now|today)?\s*[:=]?\s*(?P<amount>\d[\d,.]*)\s*(?:kg|kgs|t|tons?|tonnes?|pallets?|cases?|bags?|drums?|units?|pcs|cartons?|boxes|litres?|liters?|l)\b(?P<after>.{0,10})".to_string()),
        // there's only one vial of the reference standard left / caustic is down to half a tote.
        (StockShape::AtAPlace, r"(?i)\b(?:only|just)\s+(?P<share>one|two|three|four|five|a\s+couple\s+of|a\s+few|half\s+a)\s+(?:vials?|bags?|drums?|totes?|cases?|boxes|bottles?|cartons?|pallets?|sacks?|kegs?|tubs?|jars?|kits?|rolls?|packs?)\s+(?:of\s+(?:the\s+)?[\w\s\-%.]{1,30}?\s+)?left\b(?P<after>)".to_string()),
        // Three drums of 35% peroxide left / about three quarters of a pallet of mango puree left.
        (StockShape::Remaining, r"(?i)\b(?P<share>one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+couple\s+of|a\s+few|half\s+a|(?:a|one|two)\s+(?:third|quarter)s?\s+of\s+a|three\s+quarters\s+of\s+a)\s+(?:vials?|bags?|drums?|totes?|IBCs?|cases?|boxes|bottles?|cartons?|pallets?|sacks?|kegs?|tubs?|jars?|kits?|rolls?|packs?|silos?|tanks?|tonnes?|tons?|litres?|liters?|cylinders?|bins?|barrels?|pails?)\s+(?:of\s+(?:the\s+)?[\w\s\-%.]{1,30}?\s+)?(?:left|remaining|on\s+hand|in\s+stock)\b(?P<after>.{0,16})".to_string()),
        (StockShape::AtAPlace, r"(?i)\b(?:is|are|'s|we're|we\s+are)\s+down\s+to\s+(?P<share>half\s+a|a\s+quarter\s+of\s+a|the\s+last(?:\s+(?:one|two|three|few|couple\s+of|\d+))?|one|two|three|\d+)\s+(?:IBCs?|totes?|drums?|bags?|pallets?|cases?|boxes|bottles?|sacks?|kegs?|cylinders?|tanks?)\b(?P<after>)".to_string()),
        // silo 3 has about 9,000 L of raw milk in it at the moment: what a vessel holds now.
        (StockShape::AtAPlace, r"(?i)\b(?:silo|tank|vessel|tote|fridge|freezer|cold\s+store|store|warehouse|bin|hopper)\s*[\w-]{0,6}\s+(?:has|holds|contains|has\s+got)\s+(?:(?:about|around|roughly|only|just|approximately|~)\s*)?(?P<amount>\d[\d,.]*)\s*(?:k\s*)?(?:l|litres?|liters?|kg|t|tons?|tonnes?|m3|pallets?|bags?|drums?)\b[^.;!?\n]{0,40}?\b(?:right\s+now|rn|atm|at\s+the\s+moment|currently|today|this\s+morning)\b(?P<after>)".to_string()),
        // Tank B currently holds 6,000 litres of orange concentrate.
        (StockShape::AtAPlace, r"(?i)\b(?:silo|tank|vessel|tote|cold\s+store|warehouse|bin|hopper)\s*[\w-]{0,6}\s+(?:currently|right\s+now|now|at\s+the\s+moment)\s+(?:has|holds|contains)\s+(?:(?:about|around|roughly|only|just|approximately|~)\s*)?(?P<amount>\d[\d,.]*)\s*(?:k\s*)?(?:l|litres?|liters?|kg|t|tons?|tonnes?|m3|pallets?|bags?|drums?)\b(?P<after>)".to_string()),
        // we're down to 6 drums / the warehouse has 40 pallets / we're holding 40 t.
        (StockShape::Remaining, r"(?i)\b(?:we|they|there|the\s+(?:warehouse|plant|store|site|cold\s+store|dc))(?:'re|\s+(?:is|are)|\s+are|'ve|\s+have|\s+has|\s+still\s+have|\s+only\s+have|\s+got)?(?:\s+(?:got|down\s+to|left\s+with|holding|only|just|about|around|still))*\s+(?P<amount>\d[\d,.]*)\s*(?:k\s+)?(?:kg|kgs|tons?|tonnes?|t|cases|boxes|bags|pallets|drums|cartons|bottles|litres?|liters?|totes|sacks|barrels|crates|cans|jars|rolls|packs|units|pcs)\b(?P<after>.{0,16})".to_string()),
        // 300 cases in stock / only 12 bags left / 40 pallets of whey in the warehouse.
        (StockShape::Remaining, r"(?i)\b(?P<amount>\d+(?:,\d{3})*(?:\.\d+)?)\s*(?:k\s+)?(?:units?|pcs|pieces|kg|kgs|tons?|tonnes?|t|cases|boxes|bags|pallets|drums|cartons|bottles|litres?|liters?|l|totes|sacks|barrels|crates|cans|jars|rolls|packs|vials|ampoules|tubes|kits|reels|IBCs)?(?:\s+(?:bag|sack|drum|pack|box|case|tub|pail|bottle|jar|tote|vial|kit)s?)?\s+(?:of\s+(?:the\s+)?[\w\s\-%.]{1,30}?\s+)?(?:left\s+in\s+stock|left|remaining|in\s+stock|on\s+hand|in\s+the\s+warehouse|in\s+inventory|in\s+the\s+cold\s+store|available\s+in\s+stock|in\s+storage)\b".to_string()),
        // 包材库存够用 4 天 / stock will last 3 more days.
        (StockShape::Cover, format!(r"(?:库存|存货|现货|余量|包材|原料|原奶|奶粉|物料)(?:[^,;。!?\n]{{0,8}}?)(?:够用|能用|够|能撑|撑)\s*了?\s*(?P<amount>{QTY})\s*(?P<unit>天|周|个月|小时|个星期|个班)(?P<after>)")),
        // 6 weeks of cover on sucrose / 2 days of cartons left.
        // 9 spare SSDs in the IT store right now / Currently we have only 4 spare laptops: things on hand, counted.
        (StockShape::AtAPlace, r"(?i)\b(?P<amount>\d+)\s+(?:spare|unused|unassigned|free|available)\s+(?:[\w-]+\s+){0,3}?[\w-]+\b[^.;!?\n]{0,40}?(?:\b(?:right\s+now|rn|atm|at\s+the\s+moment|currently|today)\b|\bin\s+(?:the\s+|our\s+)?(?:[\w-]+\s+){0,2}?(?:store|storeroom|stockroom|warehouse|inventory|cage|pool)\b)(?P<after>)".to_string()),
        (StockShape::AtAPlace, r"(?i)\b(?:currently|right\s+now|at\s+the\s+moment|atm)\b[^.;!?\n]{0,30}?\b(?P<amount>\d+)\s+(?:spare|unused|unassigned|free)\s+[\w-]+(?P<after>)".to_string()),
        (StockShape::Cover, r"(?i)\b(?P<amount>\d+)\s+(?:days?|weeks?|shifts?)\s+of\s+(?:cover|stock|supply|[\w-]+(?:\s+[\w-]+)?\s+left)\b(?P<after>)".to_string()),
        (StockShape::Cover, r"(?i)\b(?:stock|stocks|inventory|supply|supplies)\b(?:[^,.;?!\n]{0,30}?)\b(?:covers?|will\s+last|lasts?|is\s+enough\s+for|are\s+enough\s+for|is\s+good\s+for)\s+(?:about\s+|around\s+|only\s+|another\s+|just\s+)?(?P<amount>\d+)\s+(?:more\s+)?(?:days?|weeks?|shifts?)\b(?P<after>)".to_string()),
    ]
    .into_iter()
    .map(|(shape, p)| (shape, super::re(&p)))
    .collect()
});

/// Out of stock, stated as now.
static STOCK_OUT: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:断货|缺货|没货|售罄|无库存|零库存|库存为零|库存清零|卖完了|用完了|库存(?:是|为)(?:零|0)(?:[^\d.]|$)|\b(?:we|they)\s+(?:have|'ve\s+got|got)\s+no\s+[\w\s-]{1,30}?\s+left\s+(?:rn|atm|right\s+now|at\s+the\s+moment|now|today)\b|\bon\s+allocation\b|\bwe(?:'re|\s+are)\s+out\s+of\s+[\w\s.-]{1,40}?,\s+next\s+(?:delivery|shipment)\b|\bno\s+[\w\s-]{1,30}?\s+left\s+(?:in|at)\s+(?:the\s+)?(?:lab|store|stores|warehouse|stock|site|plant)\b|没(?:有)?了\s*,?\s*(?:新的|下一批|补的货)?还没(?:到|来|补)|\bout\s+of\s+[\w\s-]{1,30}?\s+(?:completely|entirely|totally)\b|快见底|见底了|撑不过(?:这个班|今天|明天|今晚)|一(?:滴|粒|袋|箱|桶|包|点)都(?:没了|没有了|不剩)|\bwe(?:'re|\s+are)\s+(?:completely\s+|totally\s+)?out\s+of\s+[\w\s-]{1,40}?\s+(?:right\s+now|rn|atm|at\s+the\s+moment|today)\b|\bwe(?:'re|\s+are)\s+(?:completely\s+|totally\s+)?out\s+of\s+[\w\s-]{1,30}?\s+(?:till|until|til)\b|\bout\s+of\s+stock\b|\bsold\s+out\b|\bstocked\s+out\b|\bon\s+back-?order\b)",
    )
});

/// Words around a remaining quantity that make it a task (`还有 3 袋要加`).
static NOT_STOCK: WordSet = WordSet::new(&[
    "要",
    "需要",
    "待",
    "没",
    "未",
    "得",
    "再",
    "加入",
    "添加",
    "预警",
    "阈值",
    "安全库存",
    "最低",
    "上限",
    "下限",
    "threshold",
    "minimum",
    "reorder",
    "safety",
    "to test",
    "to go",
    "to add",
    "per",
    "每",
]);

const STATUS_ZH: &str = r"(?:调查中|超期|等待[\p{Han}]{1,4}|等备件|缺件|还是\s*(?i:open)|(?i:open)\s*状态|还在审|审着|没人跟|过期了?还没续|未处理|还没发车|没发车|拣完货|已拣货|已装车|装车了|走到第[一二三四五六七八九十\d]+步|在隔离区|隔离中|已放行|放行了|还没关|没关|未关闭|打开状态|还开着|开着|没人接|没人回|还没签|没签|未签|还没人处理|交付|已交付|交货|签了|已签|已开票|开票了|没批|未批|还没批|没通过|未通过|没发货|未发货|没到|未到货|审批通过|审核通过|通过了|通过|已经发了|发了|还没过|没过|已审批|已审核|已批准|已核准|核准|获批准|获批|获准|核可|审批完成|批准|批下来|批了|驳回|拒绝|退回|打回|完成|完结|办结|审批中|审核中|处理中|待审批|待审核|待处理|待发货|发货|已出货|出货|发出|出库|签收|到货|送达|取消|作废|关闭|挂起|冻结|在途|运输中|配送中|配送途中|运输途中|在路上|清关|已清关|没人接|无人接|没人处理|未受理|已受理|已接单|付款|支付|生效|结案|撤回|超时|逾期|延期|卡住|卡在|中转中|在中转|还在中转|转运中|在转运|待放行|待检验|待入库|待签收|待付款|批复|查验中|海关查验|报关中|清关中|质检中|检验中|待检|在检|处理完|已处理|处理好|办完|搞定|检测中|分析中|派工|待派工|部分(?:发货|出货|到货|入库|出库|签收|付款)|(?:到了?|在|卡在|停在|压在|堵在|扣在|被扣在|滞留在)[^,;。!?\n]{1,10}?(?:那边|那里|那儿|手里|手上|那一步|那步|这一步)|在[^,;。!?\n做搞弄]{0,10}?(?:审批|审核|会签|签字|签批|复核|批复|审)(?:中|着|节点|环节|阶段)?|[\p{Han}]{1,6}?(?:审批|审核|会签|复核)中)";

/// What a document or a consignment is in right now, in English, beyond
/// [`STATUS_EN`]: held, waiting with someone, stuck on the way
/// (`on credit hold`, `sitting with finance`, `with the client for
/// sign-off`, `stuck at Felixstowe customs`, `on the water`, `70% picked`).
const LIVE_STATUS_EN: &str = r"(?:(?:just\s+)?queued|in\s+['\x22]?awaiting\s+[\w-]+|in\s+(?:[\w-]+\s+)?review|on\s+(?:[\w-]+\s+){0,2}?hold\s+(?:until|till)\s+[^.;!?\n,]{1,40}|rolled\s+(?:to|onto)\s+(?:the\s+)?next\s+(?:vessel|sailing|ship)|on\s+(?:[\w-]+\s+){0,2}?hold|on\s+[\w-]+'s\s+desk|escalated|at\s+step\s+\d+(?:\s+of\s+\d+)?|picked|pending|awaiting\s+[\w-]+|waiting\s+(?:on|for)\s+[\w-]+|under\s+review|in\s+review|unpaid|outstanding|overdue|sitting\s+(?:with|in|at)\s+[\w-]+|with\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+for\s+(?:sign-?off|approval|review|signature|signing)|stuck\s+(?:at|in|with|on)\s+[\w-]+|held\s+(?:up\s+)?(?:at|in)\s+[\w-]+|being\s+held|blocked(?:\s+(?:in|for)\s+[\w-]+)?|in\s+quarantine|quarantined|on\s+the\s+(?:water|vessel|ship|boat)|at\s+the\s+(?:gate|dock|port|border)|packed(?:\s+and\s+waiting(?:\s+for\s+(?:the\s+)?[\w-]+)?)?|ready\s+for\s+(?:pickup|dispatch|collection|shipping)|\d+\s*%\s+(?:picked|packed|complete|done|shipped|loaded)|running\s+(?:\d+\s+(?:days?|hours?|weeks?)\s+)?(?:late|behind)|delayed(?:\s+(?:until|till|to)\s+[^.;!?\n,]{1,40})?|in\s+transit|out\s+for\s+delivery)\b|(?:approved|open(?:\s+(?:with|at|since)\s+[\w-]+)?)\s*(?:[,;]|\.(?:\s|$)|$|\s+(?:rn|atm|right\s+now|at\s+the\s+moment|today|as\s+of)\b|\s+and\s+(?:released|pending|currently|still|waiting|awaiting|assigned|nobody|no\s+one|unassigned)\b)";

/// What [`LIVE_STATUS_EN`] is said of: a document, a consignment, a batch.
const LIVE_SUBJECT_EN: &str = r"(?:[\w-]+\s+we\s+(?:ordered|bought|requested)|PRs?|SDSs?|MSDSs?|change\s+controls?|complaints?|spec(?:ification)?\s+sheets?|documents?|agreements?|samples?|goods|cargo|parcels?|declarations?|orders?|POs?|purchase\s+orders?|SOs?|sales\s+orders?|shipments?|deliver(?:y|ies)|consignments?|containers?|reefers?|tankers?|trucks?|lorr(?:y|ies)|approvals?|requests?|tickets?|invoices?|payments?|change\s+requests?|CRs?|requisitions?|purchase\s+req(?:uisition)?s?|reqs?|RMAs?|claims?|deviations?|CAPAs?|work\s+orders?|batch(?:es)?|lots?|licen[cs]es?|permits?|certificates?|reports?|artworks?|guarantees?|results?|quotes?|contracts?|applications?|submissions?|registrations?|dossiers?|filings?|refunds?|credit\s+notes?|qualifications?|validations?|sign-?offs?|renewals?|onboarding|capex|expenses?)";

const STATUS_EN: &str = r"(?:approved|rejected|declined|pending\s+(?:[\w-]+\s+){0,2}?(?:approval|sign-?off|review|release|signature)|pending|shipped|dispatched|delivered|cancell?ed|closed|resolved|reopened|open|on\s+hold|in\s+transit|received|paid|invoiced|fulfilled|completed|complete|done|escalated|in\s+progress|under\s+review|awaiting\s+(?:[\w-]+\s+){0,2}?(?:approval|sign-?off|release|review)|out\s+for\s+delivery|back-?ordered|overdue|delayed|stuck|signed\s+off|released|accepted|denied|voided|refunded|returned|blocked|late|went\s+out|arrived|landed|cleared\s+customs|came\s+through|went\s+through|bounced)\b";

/// When something is expected to arrive: a day, a date, a clock time, a span.
const ARRIVAL_TIME: &str = r"(?:(?:this|next|coming)\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|tonight|today|next\s+week|\d{1,2}[/.]\d{1,2}|\d{4}-\d{2}-\d{2}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}|in\s+\d+\s+(?:days?|hours?|minutes?|mins?)|\d{1,2}:\d{2}(?:\s*[ap]\.?m\.?)?|\d{1,2}\s*[ap]\.?m\b|this\s+(?:afternoon|morning|evening)|noon|midnight|end\s+of\s+(?:the\s+)?day|下周[一二三四五六日天]|明天|后天|今天|\d{1,2}月\d{1,2}[日号]";

static STATUSES: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    let filler_zh = r"(?:\s*(?:现在|目前|当前|已经|已|刚|刚刚|都|也|还|仍|尚|还在|正在|被|是|为|:|=|了|今天|昨天|终于|已被|到现在|至今))*";
    let filler_en = r"(?:\s+(?:is|was|has\s+been|have\s+been|had\s+been|has|have|got|gets|is\s+now|are|were|now|currently|just|already|finally|still|been)|\s*[:=])*";
    [
        // 订单状态：已发货 / 审批已经通过了 / 工单 #5521 已关闭 / 我的报销批下来了.
        format!(r"(?P<subject>审批流|报关单|请购单|许可证|出口许可|进口许可|许可|批文|证书|投诉单|投诉|协议|槽车|罐车|货车|卡车|批次|批号|这批|该批|偏差单|偏差|不合格品单|事件单|单子|单号|这单|那单|该单|审批|订单|到货|清关|报关|工单|申请|采购单|采购申请|报销单|报销|发货|物流|快递|合同|变更单|变更|付款|请购单|入库单|出库单|退货单|退货|单据|这批货|那批货|货|(?:维修|检测|送检|委托|派工|领料|处置|验收|报价|调拨|申请|审批)单|备件|配件|样品|物料|原料|包材|快递|集装箱|货柜|(?i:PO|SO|PR|CR|ECN|WO|ticket|order))(?:\s*(?:单号|号|#|编号|单)?\s*(?P<id>(?:[A-Za-z]{{1,6}}\s)?[A-Za-z0-9\-]*\d[A-Za-z0-9\-]*))?(?:\s*(?:那批|这批|该批))?(?:\s*\([^()\n]{{1,40}}\))?{filler_zh}\s*(?:的)?(?:状态|进度)?{filler_zh}\s*[\x22']?\s*(?:已经|已|被[\p{{Han}}A-Za-z]{{0,4}}?|(?:系统|物流|查询)?显示(?:在|已)?)?(?P<status>{STATUS_ZH})(?P<after>.{{0,6}})"),
        // PO-2231 已审批通过 / RCP-2024-0012 审核通过.
        r"\b(?P<id>[A-Z]{1,6}-?\d{2,}[A-Za-z0-9\-]*)\s*(?:已经被|已经|已被|已|刚|目前|现在|被)?\s*(?:处于|正在)?\s*(?:审批|审核)?(?:偏差单|工单|单)?\s*(?:还)?(?P<status>通过|驳回|批准|发货|签收|关闭|取消|到货|出库|付款|退回|进行中|执行中|处理中|放行|没关|没人接|未关闭)(?P<after>.{0,6})".to_string(),
        // order 4471 shipped / ticket 88 is closed / my PO is approved / approval status: pending.
        format!(r"(?i)(?P<det>\b(?:my|our|the|this|that|his|her|their|your|latest|last)\s+(?:[\w-]+\s+){{0,3}}?)?\b(?P<subject>order|orders|PO|purchase\s+order|SO|sales\s+order|shipment|shipments|delivery|deliveries|consignment|approval|approval\s+request|request|ticket|case|invoice|payment|change\s+request|CR|ECN|requisition|RMA|return|claim|deviation|CAPA|work\s+order|WO|reimbursement|expense\s+report)(?:\s*(?:no\.?|number|#|id)?\s*#?\s*(?P<id>[A-Za-z0-9\-]*\d[A-Za-z0-9\-]*))?(?:\s*\([^()\n]{{1,40}}\))?(?:\s+(?:for|of|to|from)\s+(?:the\s+|a\s+|our\s+)?[\w\-]+(?:\s+[\w\-]+){{0,3}}?)?(?:'s)?(?P<state>\s+status)?{filler_en}\s+(?P<status>{STATUS_EN})(?P<after>.{{0,10}})"),
        // the PO for the rotavap is still sitting with finance / SO 4500123 is on
        // credit hold atm / sterility results for lot 2311 are still pending:
        // a document or a consignment in a state now, said with is or are.
        format!(r"(?i)(?P<det>\b(?:my|our|the|this|that|his|her|their|your)\s+(?:[\w-]+\s+){{0,3}}?)?\b(?P<thing>{LIVE_SUBJECT_EN})(?:\s*(?:no\.?|number|#)?\s*#?\s*(?P<id>[A-Za-z0-9\-]*\d[A-Za-z0-9\-]*))?(?P<of>\s+(?:for|of|from|with|on|regarding|about)\s+(?:the\s+|a\s+|an\s+|our\s+)?[\w\-%.]+(?:\s+[\w\-%.]+){{0,4}}?)?(?:\s+(?:is|are|has\s+been|have\s+been|shows|is\s+showing|says|reads|got)|\s*'s)(?:\s+(?:still|currently|now|already|just))*\s+['\x22]?(?P<status>{LIVE_STATUS_EN})(?P<after>.{{0,10}})"),
        // the deviation hasn't been approved yet / PO 4471 still hasn't cleared finance.
        format!(r"(?i)(?P<det>\b(?:my|our|the|this|that|his|her|their|your)\s+(?:[\w-]+\s+){{0,3}}?)?\b(?P<thing>{LIVE_SUBJECT_EN})(?:\s*(?:no\.?|number|#)?\s*#?\s*(?P<id>[A-Za-z0-9\-]*\d[A-Za-z0-9\-]*))?(?P<of>\s+(?:for|of|from|with|on)\s+(?:the\s+|a\s+|an\s+|our\s+)?[\w\-%.]+(?:\s+[\w\-%.]+){{0,4}}?)?\s+(?:still\s+)?(?:hasn't|has\s+not|haven't|have\s+not|isn't|is\s+not|aren't|are\s+not)\s+(?:been\s+)?(?P<status>approved|signed(?:\s+off)?|released|cleared|paid|shipped|delivered|processed|arrived|come\s+through|come\s+in)(?:\s+[\w-]+)?\s+yet\b(?P<after>)"),
        r"(?i)\bstill\s+(?:hasn't|has\s+not|haven't|have\s+not)\s+(?P<status>cleared|arrived|shipped|been\s+(?:approved|signed|released|paid|cleared))\b(?P<after>)".to_string(),
        // finance approved the capex an hour ago / the truck left the depot ten minutes ago.
        r"(?i)\b(?P<status>approved|signed\s+off|released|rejected|shipped|dispatched|left|departed|cleared(?:\s+customs)?|arrived|landed|docked)\b[^.;!?\n]{0,40}?\b(?:an?|\d+|one|two|three|five|ten|twenty|thirty|half\s+an)\s+(?:minutes?|mins?|hours?|hrs?)\s+ago\b(?P<after>)".to_string(),
        // ETA slipped to Thursday.
        format!(r"(?i)\bETA\s+(?:has\s+)?(?:slipped|moved|pushed|changed|shifted)\s+(?:back\s+)?to\s+(?P<status>{ARRIVAL_TIME})(?P<after>)"),
        // line 2 is down atm / cold store 1 is full rn / the blister lines are
        // running at 95% utilisation right now: a plant's state, said as now.
        r"(?i)\b(?:line|lines|filler|packer|machine|plant|cold\s+store|store|warehouse|freezer|fridge|loop|autoclave|dryer|fermenter|reactor|tank|silo|forklift|lab|system|server|LIMS|MES|ERP|SAP)\s*[\w-]{0,6}\s+(?:is|are)\s+(?:(?P<status>down|full|offline|out\s+of\s+service|in\s+for\s+repair|booked\s+out|fully\s+booked|occupied|at\s+full\s+capacity)|running\s+at\s+(?:half|full|reduced|\d+(?:\.\d+)?\s*%)\s*(?:speed|capacity|utili[sz]ation|rate|output)?)(?:\s+(?:for|because\s+of|due\s+to)\s+[\w\s-]{1,30}?)?\s+(?:right\s+now|rn|atm|at\s+the\s+moment|currently|today|this\s+morning)\b(?P<after>)".to_string(),
        // silo 2 is at about 35%, enough for tomorrow's run only.
        r"(?i)\b(?:tank|silo|vessel|tote)\s*[\w-]{0,6}\s+(?:is|'s)\s+(?:at\s+)?(?:about\s+|around\s+|roughly\s+)?\d+(?:\.\d+)?\s*%\s*,?\s+(?:enough|good)\s+for\b[^.;!?\n,]*(?P<after>)".to_string(),
        // the nitrogen tank reading is 35% this morning: a level read now.
        r"(?i)\b(?:tank|silo|vessel|level|reading|gauge)\b[^.;!?\n]{0,20}?\b(?:is|reads|shows|at)\s+\d+(?:\.\d+)?\s*%\s+(?:right\s+now|rn|atm|at\s+the\s+moment|currently|today|this\s+morning)\b(?P<after>)".to_string(),
        // the DSC is out of service until the engineer comes / the spray dryer is
        // fully booked until the end of next week: a plant's or an instrument's
        // state for now, with how long it lasts.
        r"(?i)\b(?:the\s+)?[\w-]+(?:\s+[\w-]+){0,2}\s+(?:is|are|'s)\s+(?:(?:currently|still|now)\s+)?(?P<status>down|out\s+of\s+(?:service|order)|in\s+for\s+(?:repair|service|maintenance)|under\s+repair|booked\s+out|fully\s+booked|booked\s+solid|booked\s+by\s+[\w&-]+|tied\s+up|flat|unusable|occupied|at\s+full\s+capacity|full|offline|unavailable)\b[^.;!?\n]{0,40}?\b(?:until|till|til|all\s+day|for\s+another\s+(?:hour|\d+\s+(?:hours?|minutes?|mins?))|no\s+more\s+[\w-]+\s+can|today|tonight|this\s+(?:morning|afternoon|week|month)|right\s+now|rn|atm|at\s+the\s+moment|currently)\b(?P<after>)".to_string(),
        // 3 batches waiting in the QA release queue right now / a backlog of 47 samples atm.
        r"(?i)\b\d+\s+(?:batches|lots|orders|POs|samples|requests|tickets|deviations|invoices|trucks|containers)(?:\s+(?:from|for|of)\s+[\w-]+)?\s+(?:(?:are\s+)?(?:waiting|pending|queued|on\s+hold|stuck|back-?ordered|delayed|overdue)|in\s+the\s+[\w\s-]{0,20}?queue)\b[^.;!?\n]{0,40}?\b(?:right\s+now|rn|atm|at\s+the\s+moment|currently|today|as\s+of\s+(?:now|today|this\s+morning))\b(?P<after>)".to_string(),
        r"(?i)\b(?:right\s+now|rn|atm|at\s+the\s+moment|currently)\s*,?\s+\d+\s+(?:batches|lots|orders|POs|samples|requests|tickets|deviations|invoices|trucks|containers)(?:\s+(?:from|for|of)\s+[\w-]+)?\s+(?:are\s+)?(?P<status>waiting|pending|queued|on\s+hold|stuck|back-?ordered|delayed|overdue)\b(?P<after>)".to_string(),
        r"(?i)\bbacklog\s+of\s+\d+\s+[\w-]+\s+(?:right\s+now|rn|atm|at\s+the\s+moment|currently|today)\b(?P<after>)".to_string(),
        // PO-2231 is approved / INC-4471 resolved.
        r"(?i)\b(?P<id>[A-Z]{2,6}-\d{2,}[A-Za-z0-9\-]*)(?:\s*\([^()\n]{1,40}\))?(?:\s+(?:is|was|has\s+been|got|just|now|still))*\s+(?P<status>unresolved|open|assigned\s+to\s+(?:the\s+)?[\w-]+|approved|rejected|shipped|closed|resolved|cancell?ed|delivered|dispatched|signed\s+off|released|paid|pending(?:\s+(?:approval|review|sign-?off|release))?|awaiting\s+(?:approval|review|sign-?off|release)|under\s+review|on\s+hold)\b(?P<after>.{0,10})".to_string(),
        // HACCP plan v7 is still pending approval / the recall notice for lot L2405-118 got approved.
        r"(?i)(?P<det>\b(?:my|our|the|this|that|his|her|their)\s+(?:[\w-]+\s+){0,2}?)?\b(?P<subject>plan|document|doc|SOP|spec|specification|notice|certificate|CoA|procedure|amendment|protocol|batch\s+record|audit|assessment|submission|application|registration|dossier|filing)\s*(?P<id>v\d+(?:\.\d+)?|rev\.?\s*\w+|#?\d[\w-]*)?(?:\s+(?:for|of)\s+(?:the\s+|our\s+)?(?:lot\s+|batch\s+)?[\w-]+(?:\s+[\w-]+){0,2}?)?\s+(?:is|are|has\s+been|have\s+been|got|gets)\s+(?:still\s+|now\s+|just\s+|finally\s+)?(?P<status>pending\s+(?:[\w-]+\s+){0,2}?(?:approval|sign-?off|review|release)|awaiting\s+(?:[\w-]+\s+){0,2}?(?:approval|sign-?off|review|release)|approved|rejected|signed\s+off|under\s+review|on\s+hold)\b(?P<after>.{0,10})".to_string(),
        // 放行审批还在品保那边: an approval held by a department now.
        r"(?:审批|审核|放行|签字|签批)(?:单|流程|申请)?\s*(?:[A-Za-z0-9][A-Za-z0-9\-]*)?[^,;。!?\n员人部组]{0,4}?(?:还在|仍在|卡在|停在|压在)[^,;。!?\n]{0,8}?(?P<status>那边|这边|那里|手里|手上)(?P<after>)".to_string(),
        // 二号线目前停机检修 / line 3 is down right now: a plant's state now.
        r"(?:线|产线|生产线|灌装线|包装线|杀菌机|灌装机|均质机|发酵罐|储罐|罐|设备|机器|锅炉|喷雾塔|干燥塔|冷库|仓库|系统)\s?[A-Za-z0-9\-]{0,6}\s*(?:目前|现在|正在|当前|今天)\s*(?:在|处于|是)?\s*(?P<status>停机|停产|停线|故障|检修|维修|保养|做\s*CIP|CIP|清洗|待料|满负荷|空转|宕机|瘫痪|离线)(?:\s*(?:检修|维修|保养|中|了))*\s*(?:$|[,;。!?\n])(?P<after>)".to_string(),
        r"(?i)\b(?:line|filler|packer|machine|tank|pasteuri[sz]er|homogeni[sz]er|dryer|evaporator|oven|boiler|reactor|fermenter|separator|chiller|compressor|system|server|MES|LIMS|ERP|SAP)\s*[\w-]{0,6}\s+(?:is|are)\s+(?:down|offline|stopped|out\s+of\s+service|under\s+maintenance|being\s+(?:cleaned|repaired)|in\s+CIP)\s+(?:right\s+now|currently|today|at\s+the\s+moment|since\s+(?:this\s+morning|yesterday|last\s+night|[0-9]))(?P<after>)".to_string(),
        r"(?i)\b(?:line|filler|packer|machine|plant)\s*[\w-]{0,6}\s+(?:is\s+)?(?:currently|right\s+now|now|at\s+the\s+moment)\s+running\s+at\s+\d+(?:\.\d+)?\s*%(?P<after>)".to_string(),
        r"(?i)\b(?:tank|silo|tower|bin|hopper)\s*[\w-]{0,6}\s+(?:is|are)\s+(?:at|sitting\s+at|filled\s+to)\s+\d+(?:\.\d+)?\s*%(?:\s+(?:full|capacity|level))?\s+(?:right\s+now|currently|at\s+the\s+moment|now)\b(?P<after>)".to_string(),
        r"(?i)\b(?:line|filler|packer|machine)\s*[\w-]{0,6}\s+(?:is\s+)?running\s+at\s+\d+(?:\.\d+)?\s*%(?:\s+[A-Za-z]{2,5})?\s+(?:right\s+now|rn|currently|at\s+the\s+moment|today)(?P<after>)".to_string(),
        r"(?i)\b(?:line|filler|packer|machine)\s*[\w-]{0,6}\s+(?:is\s+)?running\s+at\s+[\d,]+(?:\.\d+)?\s*(?:bottles|units|packs|cases|cups|pouches|cartons|kg|l|litres?|liters?|tons?)\s*(?:per|/|an?)\s*(?:hour|hr|h|min(?:ute)?)\s+(?:right\s+now|rn|currently|at\s+the\s+moment|today)(?P<after>)".to_string(),
        // The shipment has an ETA of Thursday / 那批菌种下周二到厂: an arrival now expected.
        format!(r"(?i)\b(?:ETA|estimated\s+(?:time\s+of\s+)?arrival)\b(?:\s+(?:for|of|on)\s+(?:the\s+|our\s+|that\s+|this\s+)?[\w\-]+(?:\s+[\w\-]+){{0,3}}?)?(?:\s+(?:is|of|at|for)|\s*[:=])+\s*(?:(?:now|still|about|around|roughly)\s+)?(?P<status>{ARRIVAL_TIME})(?P<after>)"),
        // new ETA tomorrow 9am / in transit, ETA this Thursday: an estimate needs no verb.
        format!(r"(?i)(?:\b(?:new|revised|updated|latest|current)\s+|(?:^|[,;(]|\bwith\s+an?)\s*)ETA\s+(?:now\s+)?(?P<status>{ARRIVAL_TIME}|\d+\s+days?\b)(?P<after>)"),
        r"(?:(?:下|本|这)?周[一二三四五六日天]|(?:下|本|这)?(?:星期|礼拜)[一二三四五六日天]|这周|本周|下周|这个月|月底|明天|后天|今天|今晚|\d{1,2}月\d{1,2}[日号]|\d{1,2}\s*[号日])(?:上午|下午|晚上|早上)?(?:就|能|会|才)?(?P<status>到厂|到货|到港|到仓|送到|抵达)(?P<after>.{0,4})".to_string(),
        // the shipment arrives tomorrow: an arrival told, not asked.
        format!(r"(?i)\b(?:shipment|delivery|order|ordered|container|truck|tanker|load|consignment|parcel|pallets?)\b[^.;!?\n]{{0,30}}?\b(?:arrives?|arriving|will\s+arrive|lands?|will\s+land|is\s+due|gets\s+in|(?:is|are)\s+(?:expected|due|scheduled|supposed)\s+to\s+(?:arrive|land|get\s+here|be\s+(?:here|delivered)))\s+(?:on\s+|at\s+|by\s+)?(?P<status>{ARRIVAL_TIME})\b(?P<after>)"),
        // 奶罐车还有 40 分钟到厂 / the tanker is 40 min out: an arrival in minutes or hours.
        r"(?:还有|大概|大约|约|预计)?\s*(?:\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)\s*(?:个)?(?:分钟|小时|钟头|天)(?:左右)?(?:后|以后|之后)?(?:就|能|才)?(?P<status>到厂|到货|到港|到仓|送到|送达|抵达|到站|到达)(?P<after>.{0,4})".to_string(),
        r"(?:预计|预期|估计)(?:明早|明晚|明天|今晚|今天|后天|今早|下午|上午|晚上|中午)[^,;。!?\n]{0,8}?(?P<status>到厂|到货|到港|到仓|送到|送达|抵达|到达)(?P<after>.{0,4})".to_string(),
        r"(?i)\b(?:truck|tanker|lorry|van|driver|shipment|delivery|container|courier|trailer)\b[^,.;!?\n]{0,30}?\b(?:will\s+(?:arrive|be\s+here|get\s+here|land)|should\s+(?:arrive|be\s+here|land)|is\s+(?:arriving|due|landing)|arrives|gets\s+in)\s+(?:in\s+)?(?:about\s+|around\s+|roughly\s+|another\s+)?(?P<status>\d+\s*(?:min(?:ute)?s?|h(?:ou)?rs?)|(?:an?|half\s+an?)\s+(?:hour|minute))\b(?P<after>)".to_string(),
        // 冷库 2 号库位目前是空的 / 库位只剩 12 个: room in a store now.
        r"(?:库位|仓位|货位|储位|托位)[^,;。!?\n]{0,6}?(?:(?:目前|现在|当前)(?:是|都)?(?P<status>空的|满的|满了|空着|已满|没有空)|(?:只剩|还剩|仅剩|剩下|剩)\s*(?:\d+|[一二两三四五六七八九十]+)\s*个)(?P<after>)".to_string(),
        // 1 号发酵罐现在 42.3℃: a reading of a plant now.
        r"(?:罐|线|塔|机|炉|库|仓)[^,;。!?\n]{0,4}?(?:现在|目前|当前)\s*(?:是|在|有)?\s*(?P<status>\d+(?:\.\d+)?\s*(?:℃|°C|%|度))(?P<after>)".to_string(),
        // {"qty_on_hand": 420}: stock as a record.
        r#"(?i)"(?:[a-z]+_)?(?:qty_on_hand|on_hand|onhand|stock|stock_qty|inventory|qty_available|available_qty|quantity_on_hand|in_stock)(?:_[a-z]+)?"\s*:\s*(?P<status>\d)(?P<after>)"#.to_string(),
        r"(?i)\b(?:truck|tanker|lorry|van|driver|shipment|delivery|container|courier|trailer|load|reefer|vessel|ship)\b[^,.;!?\n]{0,30}?\b(?:is|are|'s)\s+(?:about\s+|around\s+|roughly\s+|only\s+|still\s+|like\s+|maybe\s+)*(?:\d+\s*(?:min(?:ute)?s?|h(?:ou)?rs?)|(?:an?|half\s+an)\s+hour)\s+(?P<status>out|away)\b(?P<after>)".to_string(),
        // PO-2024-0871 还在等财务审批: waiting on an approval or a shipment now.
        r"(?:还在|仍在|正在|还|仍)(?:等待?|等着)[^,;。!?\n]{0,8}?(?P<status>审批|批复|签批|审核|放行|付款|发货|到货|清关|签字|核准|批准|签核|确认)(?P<after>.{0,4})".to_string(),
        // 系统里目前是部分发货状态 / 目前还在海关清关 / 现在在部门经理审批节点:
        // a document's or a consignment's state now, its subject said before.
        r#"(?P<now>目前|现在|当前|眼下)\s*(?:还|仍|依然|依旧|一直)?\s*(?:是|处于|还是|仍是)?\s*["']?\s*(?P<status>(?:还在|仍在|在|卡在|停在)[^,;。!?\n做搞弄进"']{0,8}?(?:审批|审核|会签|签批|复核|批复|检测|检验|质检|清关|查验|报关|中转)(?:中|节点|环节|阶段)?|[\p{Han}A-Za-z]{0,8}?(?:审批|审核|会签|签批|复核|检测|检验|质检|查验|清关|报关|运输|配送|派送)中|(?:部分|全部)?(?:发货|到货|入库|出库|签收|付款|退货)状态|[\p{Han}]{0,4}?(?:冻结|锁定|隔离|暂停)状态|待(?:派工|排产|排期|发货|付款|审批|审核|放行|检测|检|入库|出库|签收|收货|到货|受理|领料|复核|会签|批)(?:状态)?|在途)\s*["']?\s*(?:了|呢)?(?P<after>\s*(?:[,;。!?\n]|$))"#.to_string(),
        // 那批货还压在海关 / 进口明胶还在检验检疫 / 偏差报告还在李总那里等签字:
        // goods or papers held somewhere now.
        r"(?P<now>还|仍|一直|已经|已)(?:在|压在|卡在|停在|扣在|滞留在?)\s*[^,;。!?\n]{0,10}?(?P<status>检验|质检|检测|化验|海关|港口|码头|口岸|船上|海上|检验检疫|商检|等签字|等审批|等批|等放行)(?P<after>.{0,4})".to_string(),
        // 氮气槽车刚到门口，正在过磅 / 上午那批片剂被 QA 扣住了 / 预计周四靠港.
        r"(?:槽车|罐车|货车|卡车|集装箱|货柜|物流车)(?:已经|刚|刚刚|已)?(?P<status>到了?(?:门口|厂门口|厂里|仓库|码头|收货区)|在过磅|正在过磅|在卸货|正在卸货)(?P<after>)".to_string(),
        // 干燥机故障，今天都不能用 / 3号反应釜被研发占着 / 那批山梨酸钾QA还扣着，没放行.
        r"(?:机|塔|线|罐|釜|炉|叉车|设备|站|秤)[^。;!?\n]{0,12}?(?:今天|现在|目前|这会)[^,;。!?\n]{0,3}?(?P<status>不能用|用不了|没法用|排不上)(?P<after>)".to_string(),
        r"(?:机|塔|线|罐|釜|炉|设备|站)[^,;。!?\n]{0,6}?被[^,;。!?\n]{1,8}?(?P<status>占着|占用着|占了)(?P<after>)".to_string(),
        r"(?:批|货|柜)[^,;。!?\n]{0,12}?(?P<status>还在\s*(?i:hold)|还扣着|还没放行|尚未放行)(?P<after>)".to_string(),
        // 剩下的在路上 / 柜刚从蛇口开船 / 大概四十分钟到 / 排了七八辆车 / 工单排第五个 / 液位只有两成.
        r"(?:剩下的|另一半|其余的|余下的)(?:还)?(?P<status>在路上)(?P<after>)".to_string(),
        r"(?:柜|船|货|集装箱)[^,;。!?\n]{0,12}?(?:刚|已经|已)(?:从[\p{Han}]{1,6})?(?P<status>开船|离港|出港|起运)(?P<after>)".to_string(),
        r"(?:\d+|[一二两三四五六七八九十半]+)\s*(?:个)?(?:分钟|小时)(?:左右)?(?:后)?(?:就|能)?(?P<status>到)(?P<after>\s*(?:[,;。!?\n]|$|了))".to_string(),
        r"(?P<status>排了[一二两三四五六七八九十几\d]{1,4}(?:辆|台|个|张))(?P<after>)".to_string(),
        r"(?P<status>排第[一二两三四五六七八九十\d]{1,3}(?:个|位)?)(?P<after>)".to_string(),
        r"液位[^,;。!?\n]{0,6}?(?:现在|目前)?(?:只有|还有|剩|是)?\s*(?P<status>[一二两三四五六七八九]成|\d+(?:\.\d+)?\s*%)(?P<after>)".to_string(),
        r"(?i)\bqueue\s+of\s+(?:about\s+|around\s+|roughly\s+)?(?P<status>\d+)\s+(?:trucks|tankers|lorries|containers|batches|samples|orders|tickets)\b(?P<after>)".to_string(),
        // The new HPLC is still in transit / the standards are held at customs / 卡在海关了 / 还在路上.
        r"(?i)\b(?:is|are|'s)\s+(?:still\s+|currently\s+|now\s+)?(?P<status>in\s+transit|held\s+at\s+customs|stuck\s+at\s+customs|sitting\s+(?:in|at)\s+[\w-]+\s+port)\b(?P<after>)".to_string(),
        r"(?:卡在|扣在|压在|滞留在)(?P<status>海关|港口|码头|口岸)(?P<after>)".to_string(),
        r"(?P<now>还|仍)(?P<status>在路上)(?P<after>)".to_string(),
        // SAP shows 3 pallets of the acrylic emulsion sitting in quarantine / the bulk tank is at 18 percent.
        r"(?i)\b\d+\s+(?:pallets|drums|bags|batches|lots|totes|IBCs)\b[^.;!?\n]{0,40}?\b(?P<status>(?:sitting|held)\s+in\s+quarantine)\b(?P<after>)".to_string(),
        r"(?i)\b(?:tank|silo|vessel|dewar)\s*[\w-]{0,6}\s+(?:is|'s)\s+(?:at\s+)?(?:about\s+|around\s+)?(?P<status>\d+(?:\.\d+)?\s*(?:%|percent))\s*,\s+(?:refill|top-?up|delivery|the\s+refill)\b(?P<after>)".to_string(),
        // 质量协议还在法务张律师手上 / 投诉单现在在厂长那里等回复: papers held by someone now.
        r"(?:单|协议|合同|申请|报告|文件|发票|订单|批件|证书|报价单|许可)[^,;。!?\n]{0,4}?(?:还|仍|一直|现在|目前)?(?:还|仍)?在[^,;。!?\n]{1,10}?(?P<status>那里|那边|那儿|手上|手里|桌上)(?P<after>)".to_string(),
        // 二号库已经满了 / 那车蔗糖现在堵在G15上 / 55A批次黄原胶在隔离区等微生物结果.
        r"(?:库|仓|冷库|仓库|库房|罐|筒仓)[^,;。!?\n]{0,4}?(?:已经|都|已|现在|目前)*(?P<status>满了|放满了|堆满了|装满了|爆仓了?|没地方放|放不下了)(?P<after>)".to_string(),
        r"(?:车|货|柜|船|司机)[^,;。!?\n]{0,8}?(?:现在|目前|还)?(?P<status>堵在|被扣在|扣在|滞留在|困在)[^,;。!?\n]{1,12}(?P<after>)".to_string(),
        r"(?:批次|批号|批)[\p{Han}A-Za-z0-9]{0,8}?(?P<status>在隔离区|隔离中|被隔离|等[\p{Han}]{0,4}?(?:结果|报告|放行))(?P<after>)".to_string(),
        r"被\s*(?:(?i:QA)|质量部|质检|海关|财务)\s*(?P<status>扣住|扣下|拦下|冻结|锁定|扣了|退回)(?P<after>.{0,4})".to_string(),
        r"(?:预计|估计)[^,;。!?\n]{0,6}?(?P<status>靠港|到港|到厂|进港)(?P<after>)".to_string(),
        // 那批椰奶今早已经清关了: a consignment's logistics state now.
        r"(?:那批|这批|该批)[^,;。!?\n]{0,10}?(?:今早|今天|今天上午|刚刚|刚|昨天|已经|已|都)*(?P<status>已经清关|已清关|清关了|到港了|到厂了|到货了|发出去了|发货了|放行了|签收了|出库了|入库了|装车了)(?P<after>)".to_string(),
        // 准入审批财务那边还没签: a department holds a paper unsigned.
        r"(?:审批|审核|会签|签字|签批|合同|协议|申请|采购单|订单|报价单|付款)[^,;。!?\n]{0,8}?(?:那边|那里|这边|那儿)(?:还|仍|一直|到现在)?(?P<status>没签|没批|未批|没通过|没回|没审|没放行|没处理|没付)(?P<after>)".to_string(),
        // HK customs cleared the UHT order this morning / finance hasn't
        // signed off the payment terms yet: a department acted, or not yet.
        r"(?i)\b(?:customs|finance|accounts|QA|QC|legal|procurement|purchasing|the\s+(?:customer|bank|supplier|warehouse|port))\s+(?:has\s+|have\s+|just\s+|finally\s+)*(?P<status>cleared|released|approved|rejected|shipped|received|paid|signed\s+off)\s+(?:on\s+)?(?:the\s+|our\s+|that\s+|this\s+)?[\w\s-]{1,30}?\s+(?:this\s+morning|today|an?\s+hour\s+ago|just\s+now|yesterday|last\s+night)\b(?P<after>)".to_string(),
        r"(?i)\b(?:customs|finance|accounts|QA|QC|legal|procurement|purchasing|the\s+(?:customer|bank|supplier|warehouse|port))\s+(?:still\s+)?(?:hasn't|has\s+not|haven't|have\s+not)\s+(?:yet\s+)?(?P<status>signed\s+off|approved|released|cleared|paid|signed)\s+(?:on\s+)?(?:the\s+|our\s+|that\s+|this\s+)?[\w\s-]{1,50}?\s+yet\b(?P<after>)".to_string(),
        // - Xanthan gum container: held at Tianjin customs for inspection.
        r"(?i)[:：]\s*(?P<status>(?:held|stuck|detained|sitting)\s+(?:up\s+)?(?:at|in)\s+(?:[\w-]+\s+){0,2}?customs)\b(?P<after>)".to_string(),
        // the tanker is about 40 minutes from the plant.
        r"(?i)\b(?:truck|tanker|lorry|van|driver|shipment|delivery|container|courier|trailer|load|reefer|vessel|ship)\b[^,.;!?\n]{0,40}?\b(?:is|are|'s)\s+(?:about\s+|around\s+|roughly\s+|only\s+|still\s+|like\s+|maybe\s+)*(?:\d+\s*(?:min(?:ute)?s?|h(?:ou)?rs?)|(?:an?|half\s+an)\s+hour)\s+(?P<status>from\s+(?:the\s+)?(?:plant|site|factory|depot|dock|warehouse|gate|us|here))\b(?P<after>)".to_string(),
        // the ethanol tank farm is nearly full / warehouse B is completely full.
        r"(?i)\b(?:tank\s+farm|tanks?|silos?|warehouse|store|cold\s+store|freezer|chiller|yard|depot|bay|racking|stores)\s*[\w-]{0,6}\s+(?:is|are|'s)\s+(?:now\s+|currently\s+)?(?P<status>(?:nearly|almost|completely|totally|practically|pretty\s+much|already|basically)\s+full)\b(?P<after>)".to_string(),
        // 批次 240315-02 目前状态：待放行 / "status": "shipped".
        r"(?:目前|当前|现在|,)\s*(?:的)?状态\s*(?:[:=：]|是|为)\s*(?P<status>未[\p{Han}]{1,3}|待[\p{Han}]{1,4}|已[\p{Han}]{1,4}|审批中|审核中|处理中|在途)(?P<after>.{0,4})".to_string(),
        // 订单 status：shipped / 这个 batch 的 release status 现在是 on hold /
        // 最新订单状态：部分出货: a document's state, in either language or both.
        format!(r#"(?i)(?:订单|单|货|批次|批|(?-i:PR|PO|SO)|\bbatch|\blot|\border|\bshipment|\brelease|\bapproval|\btracking|\bshipping|\bdelivery)[^,;。!?\n]{{0,12}}?(?:状态|\bstatus)\s*(?:现在|目前|当前|今天|今日|最新)?\s*(?:[:：]|是|为|变了|变成了?|改成了?)\s*[「"“']?\s*(?P<status>{STATUS_EN}|{STATUS_ZH})(?P<after>.{{0,4}})"#),
        format!(r#"(?i)"(?:status|state|order_status|approval_status|shipping_status)"\s*:\s*"(?P<status>{STATUS_EN})"(?P<after>)"#),
    ]
    .iter()
    .map(|p| super::re(p))
    .collect()
});

/// Words in a clause that make a status a definition, a condition, a
/// filter or a formatting wish rather than a current value.
static NOT_A_STATUS: WordSet = WordSet::new(&[
    "rule of thumb",
    "必须",
    "如果",
    "若",
    "假如",
    "当",
    "只看",
    "筛选",
    "过滤出",
    "过滤掉",
    "过滤一下",
    "过滤条件",
    "把",
    "将",
    "显示",
    "标",
    "高亮",
    "颜色",
    "列",
    "栏",
    "字段",
    "最终态",
    "终态",
    "状态之一",
    "定义",
    "枚举",
    "取值",
    "选项",
    "可选",
    "分为",
    "包括",
    "哪些",
    "什么",
    "吗",
    "?",
    "怎么",
    "如何",
    "流程图",
    "规则",
    "规定",
    "制度",
    "不是",
    "默认",
    "一般",
    "通常",
    "usually",
    "typically",
    "normally",
    "generally",
    "on average",
    "if",
    "when",
    "whenever",
    "every",
    "each time",
    "once",
    "until",
    "where",
    "whose",
    "filter",
    "show",
    "highlight",
    "color",
    "colour",
    "only",
    "column",
    "field",
    "final state",
    "terminal",
    "values",
    "value",
    "one of",
    "e.g",
    "example",
    "such as",
    "list",
    "should",
    "can be",
    "could",
    "would",
    "will be",
    "after",
    "before",
    "how",
    "what",
    "which",
    "whether",
    "mark",
    "sort",
    "group by",
    "rows",
    "state",
    "states",
    "enum",
    "label them",
    "label it",
    "label as",
    "labels",
    "status code",
]);

/// Words in what a document is of (`the report to show which invoices are
/// unpaid`) that make its status a question or a view, not a value.
static ASKS_OR_SHOWS: WordSet = WordSet::new(&[
    "which", "whether", "what", "how", "show", "shows", "list", "lists", "if", "when", "whenever",
    "every", "each",
]);

/// Words after a status that make the sentence its definition
/// (`已发货表示已出库`, `approved means signed by QA`). Before the status
/// they are only reporting verbs (`用户表示订单已审批通过`).
static DEFINES_A_STATUS: WordSet = WordSet::new(&[
    "表示",
    "代表",
    "含义",
    "意思是",
    "指的是",
    "means",
    "stands for",
    "definition",
    "defined",
    "refers to",
]);

/// Words right after a status that make it part of a name, a measure or a
/// filter (`完成率`, `交付周期`, `已发货的订单`, `closed tickets`).
static STATUS_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)^\s*(?:地|方式|计划|安排|通知|仓|人员|的|时|后|之后|以后|就|则|才|状态|的时候|与|和|或|、|/|率|度|量|数|情况|时间|日期|周期|效率|速度|时效|能力|水平|流程|节点|环节|条件|\bor\b|\band\b|\borders\b|\bones\b|\brows\b|\bitems\b|\bstate\b|\bstatus\b|\btickets\b|\brequests\b|\bshipments\b|\bdate\b|\bcolumn\b|\bfield\b|\bflag\b)",
    )
});

pub(crate) fn has_live_fact(words: &str) -> bool {
    let words = &*with_now_said_plainly(words);
    if told_as_history(words) || mentions(words, &A_CASE_OR_A_MEANING) || IN_CASE.is_match(words) {
        return false;
    }
    (has_a_word_of_now(words)
        && LIVE_RECORD.find_iter(words).any(|m| !mentions(m.as_str(), &NOT_A_LIVE_RECORD)))
        || (PRICE_TRIGGERS.is_match(words) && has_price(words))
        || (STOCK_TRIGGERS.is_match(words) && has_stock(words))
        || (STATUS_TRIGGERS.is_match(words) && has_status(words))
        || (READING_TRIGGERS.is_match(words) && has_reading(words))
        || (ELSEWHERE_TRIGGERS.is_match(words) && has_live_fact_elsewhere(words))
        || has_live_fact_in_more_languages(words)
}

/// Words that make a whole text a case imagined (`假设乳清粉断货两周…`,
/// `Imagine we held 20 days of cover…`; not 万一, which is also 1 of 2.35
/// 万一吨), the meaning of a word (`“卡单”是指
/// 订单被信用冻结`) or how things go in general (`一般来说，清关要 3 到 7 个
/// 工作日`): no value in them is a current one.
static A_CASE_OR_A_MEANING: WordSet = WordSet::new(&[
    "假设",
    "假如",
    "设想",
    "imagine",
    "suppose",
    "supposing",
    "hypothetically",
    "what if",
    "是指",
    "指的是",
    "的意思是",
    "意思是",
    "一般来说",
    "通常来说",
    "一般情况下",
    "in general",
    "generally speaking",
    "typically",
]);

/// 万一 ("in case") where it opens a clause, not where it is part of a
/// number (`2.35 万一吨`, `两万一一吨`): `万一审批被驳回，需要准备哪些材料？`.
static IN_CASE: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?:^|[,.;:!?，。；：！？、\n]|[\p{Han}&&[^零〇一二两三四五六七八九十百千万亿]])\s*万一",
    )
});

/// Whether `words` hold any word a live-fact pattern needs (the patterns'
/// triggers): the learned second opinion ([`super::learned`]) reads only
/// such texts, and most stored texts hold none.
pub(crate) fn may_state_a_live_fact(words: &str) -> bool {
    [&PRICE_TRIGGERS, &STOCK_TRIGGERS, &STATUS_TRIGGERS, &READING_TRIGGERS, &ELSEWHERE_TRIGGERS]
        .iter()
        .any(|trigger| trigger.is_match(words))
}

/// `words` with the ways of saying "now" that the patterns do not list
/// (`as we speak`, `at present`, `此刻`, `这会儿`) said as they list it
/// (`right now`, `现在`).
fn with_now_said_plainly(words: &str) -> std::borrow::Cow<'_, str> {
    static NOW_SAID_OTHERWISE: LazyLock<Regex> = LazyLock::new(|| {
        super::re(
            r"(?i)\b(?:as\s+we\s+speak|as\s+of\s+(?:right\s+)?now|at\s+present|presently|at\s+this\s+(?:moment|point(?:\s+in\s+time)?))\b|此刻|这会儿|眼下",
        )
    });
    if !NOW_SAID_OTHERWISE.is_match(words) {
        return std::borrow::Cow::Borrowed(words);
    }
    std::borrow::Cow::Owned(
        NOW_SAID_OTHERWISE
            .replace_all(
                words,
                |c: &regex::Captures| {
                    if c[0].is_ascii() { "right now" } else { "现在" }
                },
            )
            .into_owned(),
    )
}

/// Whether `words` tell of the past in another language, with no word of
/// now beside it: then no live-fact pattern counts (`Letztes Jahr im August
/// kostete Butter 7.400 Euro pro Tonne`).
fn told_as_history(words: &str) -> bool {
    PAST_ELSEWHERE.is_match(words) && !NOW_MORE.is_match(words) && !NOW.is_match(words)
}

/// A word of now in the languages [`ELSEWHERE`] does not read, and in those
/// it reads, as their speakers put it in passing (`Сейчас`, `Neste
/// momento`, `Al momento`, `Şu anda`, `Obecnie`, `hôm nay`, `Op dit
/// moment`, `Saat ini`, `ตอนนี้`, `اليوم`, `今`): the words view has dropped
/// Latin accents (and `i'm Moment` is German `im Moment` as the claim
/// view spells it).
static NOW_MORE: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)\b(?:neste\s+momento|agora|atualmente|hoje|al\s+momento|attualmente|adesso|oggi|actualmente|ahora|en\s+este\s+momento|gerade|derzeit|aktuell|i'?m\s+moment|jetzt|heute|en\s+ce\s+moment|actuellement|su\s+anda|su\s+an|bugun|obecnie|teraz|dzisiaj|w\s+tej\s+chwili|hom\s+nay|hien\s+tai|bay\s+gio|op\s+dit\s+moment|momenteel|vandaag|saat\s+ini|sekarang|hari\s+ini|pagi\s+ini|ainda|ancora|todavia|encore|jelenleg|just\s+nu|momentalne|in\s+acest\s+moment|acum|hien\s+[dđ]ang|hien\s+nay|nu)\b|αυτή\s+τη\s+στιγμή|τώρα|σήμερα|الحالي|अभी|今朝|(?:^|[^\p{Cyrillic}])(?:сейчас|сегодня|на\s+данный\s+момент|в\s+настоящее\s+время)|ตอนนี้|วันนี้|ขณะนี้|اليوم|حاليا|الآن|현재|지금|오늘|現在|现在|今[、,，]?|今日",
    )
});

/// What a word of now makes live: stock, a price, a rate, goods in a store
/// or a tank, in those languages.
static HELD_OR_PRICED: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)\b(?:estoque|armazem|preco|cambio|dolar|tanque|magazzino|prezzo|giacenza|\w*lager\w*|bestand|preis|kurs|silo|tank|entrepot|stock|prix|cours|depo\w*|stok|fiyat|doviz|magazyn\w*|cena|kho|ty\s+gia|gia\s+ban|voorraad|prijs|koers|magazijn|harga|gudang|kur\w*|almoxarifado|tartaly\w*|lagr\w*|sklad\w*|na\s+stanie|zending|sendung|envio|spedizione|remessa)\b|склад|остат|цен[аы]|курс|стоимост|สต็อก|คลัง|ราคา|อัตราแลกเปลี่ยน|سعر|مخزون|المستودع|재고|가격|시세|환율|창고|गोदाम|τιμή|仓库|倉庫|ユーロ|ドル|レート|在[庫库]|[価价]格|相[場场]|[為为]替|汇率",
    )
});

/// An order, a request or a ticket, and a status it is in, in those
/// languages (`El pedido … está actualmente pendiente de aprobación`,
/// `発注書…は今、部長の承認待ち`, `zamówienie … ma status „w realizacji”`).
static ORDER_IN_STATUS: LazyLock<[Regex; 2]> = LazyLock::new(|| {
    [
        super::re(
            r"(?i)\b(?:pedido|zamowienie|ticket|order|commande|ordine|siparis|don\s+hang|bestelling|pesanan|bestellung|auftrag|solicitud|richiesta|demande|comanda|zending|sendung|envio|spedizione|remessa|wysylka|sevkiyat|pengiriman)\b|[dđ]on\s+mua\s+hang|заказ|ใบสั่งซื้อ|수입|заявк|発注|[発发]注|注文|طلب|คำสั่งซื้อ|주문",
        ),
        super::re(
            r#"(?i)\b(?:pendiente|pendente|em\s+transito|en\s+transito|in\s+transito|in\s+progress|w\s+realizacji|w\s+drodze|in\s+bearbeitung|unterwegs|en\s+attente|en\s+cours|in\s+attesa|in\s+lavorazione|bekliyor|yolda|dang\s+xu\s+ly|dang\s+giao|in\s+behandeling|onderweg|dalam\s+proses|dalam\s+perjalanan|bloquee?|en\s+douane|retenid[oa]|em\s+alfandega|in\s+dogana|im\s+zoll|oczekuje|in\s+tranzit|cho\s+duyet)\b|на\s+согласовании|в\s+статусе|통관|ожидает|в\s+пути|в\s+работе|承[認认]待ち|処理中|[輸输]送中|配送中|قيد\s+(?:التنفيذ|المعالجة)|في\s+الطريق|กำลังดำเนินการ|รออนุมัติ|처리\s*중|배송\s*중|승인\s*대기"#,
        ),
    ]
});

/// A quantity with its unit or currency: `120 мешков`, `1.200 litros`,
/// `R$ 5,42`, `2.35 ريال`, `1,084원`, `35袋`.
static AMOUNT: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:r\$|rp|\$|€|£|¥)\s?\d[\d.,]*|\d[\d.,]*\s+per\s+(?:dolar|dollar|euro|usd|eur)\b|\d[\d.,]*\s?(?:%|kg|t\b|l\b|liter|litros?|litri|litres?|tonnes?|toneladas?|tonnellate|ton\b|palet\w*|pallet\w*|sack\w*|sacos?|sacchi|sacs?|cartoni|cartons?|caixas?|fusti|barel\w*|barril\w*|cuval|pall\w*|sacos?|tl\b|rupiah|dolar|dollar|euro|ευρώ|برميل\w*|बोरी|กระสอบ|포대|kisten?|kartons?|worek|work\w*|bao|thung|zak\w*|dozen|adet|kutu|mesk\w*|мешк\w*|меш\w*|кг|тонн\w*|литр\w*|рубл\w*|руб|евро|долл\w*|вдол|vnd|usd|eur|brl|idr|try|pln|sar|ريال|درهم|جنيه|لتر|كيلو|ถุง|กิโล|ลิตร|บาท|원|톤|개|박스|袋|箱|本|kg|円|元)",
    )
});

/// A time in the past in the languages [`ELSEWHERE`] and [`NOW_MORE`] read
/// (`Letztes Jahr im August`, `L'anno scorso a giugno`, `In maart`, `Vorig
/// jaar`), or a verb in a past tense of a price or a holding (`kostete`,
/// `costava`, `était à`, `hadden`): history, not a fact of now.
static PAST_ELSEWHERE: LazyLock<Regex> = LazyLock::new(|| {
    let month = r"(?:januar[iy]?|februar[iy]?|marz|maart|march|april|avril|abril|aprile|mai|may|mei|maggio|mayo|juni|june|juin|giugno|junio|junho|juli|july|juillet|luglio|julio|julho|august|augustus|aout|agosto|september|septembre|settembre|septiembre|setembro|oktober|october|octobre|ottobre|octubre|outubro|november|novembre|noviembre|novembro|dezember|december|decembre|dicembre|diciembre|dezembro|janvier|fevrier|mars|enero|febrero|marzo|gennaio|febbraio|janeiro|fevereiro|marco)";
    super::re(&format!(
        r"(?i)\b(?:letztes\s+jahr|vorig(?:e)?\s+(?:jaar|maand|week)|l'anno\s+scorso|l'annee\s+derniere|el\s+ano\s+pasado|o\s+ano\s+passado|gecen\s+yil|w\s+zeszlym\s+roku|nam\s+ngoai|tahun\s+lalu|(?:im|en|a|em|au\s+mois\s+de|ad)\s+{month}|in\s+(?:januari|februari|maart|mei|juni|juli|augustus|oktober)|kostete|kosteten|kostte|kostten|costava|costavano|costaba|costaban|custava|etait|etaient|hadden|hatten|teniamos|tinhamos|avevamo)\b|в\s+прошлом\s+году|昨年|去年|작년|지난해"
    ))
});

/// A statement with a word of now and what it makes live (stock, a price or
/// a rate with an amount; an order in a status), in the languages of
/// [`NOW_MORE`]
/// (`Сейчас на складе 120 мешков`, `Hoje o dólar está a R$ 5,42`); a
/// figure of the past or a plan stays (`il y a 40 palettes en mars`).
fn has_live_fact_in_more_languages(words: &str) -> bool {
    NOW_MORE.find_iter(words).any(|now| {
        // The whole sentence: a word of now set off by a comma (`今、倉庫に
        // …20袋残っています`) still speaks for all of it.
        let statement = sentence_of(words, now.start(), now.end());
        let held = HELD_OR_PRICED.is_match(statement) && AMOUNT.is_match(statement);
        let in_status = ORDER_IN_STATUS.iter().all(|r| r.is_match(statement));
        (held || in_status)
            && !NOT_LIVE_ELSEWHERE.is_match(statement)
            && !super::claims::ends_with_question(words, statement)
    })
}

/// Words that make a [`LIVE_RECORD`] match a schema, a list or a rule
/// (`| 当前状态 | varchar | 16 |`, `current price list v2: 3 tiers`).
static NOT_A_LIVE_RECORD: WordSet = WordSet::new(&[
    "varchar",
    "char",
    "int",
    "integer",
    "bigint",
    "decimal",
    "numeric",
    "boolean",
    "datetime",
    "timestamp",
    "类型",
    "字段",
    "list",
    "formula",
    "rule",
    "policy",
    "template",
    "format",
    "公式",
    "规则",
    "模板",
]);

/// Whether `words` hold one of the words [`LIVE_RECORD`] needs: most texts
/// hold none, and a literal search spares the pattern.
fn has_a_word_of_now(words: &str) -> bool {
    let lower = words.to_ascii_lowercase();
    [
        "now",
        "current",
        "live",
        "realtime",
        "real_time",
        "latest",
        "spot",
        "当前",
        "实时",
        "目前",
        "现在",
        "最新",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// A value in a record or a table marked as now: a key or a column that
/// says so (`"price_now": 1260`, `on_hand_now: 9`, `wpc80 = 38.5  # 现价`,
/// `物料,当前库存,单位 脱脂奶粉,1840,袋`, `审批状态（实时）：`), or `current
/// stock of … : 14 bottles`.
static LIVE_RECORD: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r#"(?i)\b(?:(?:current|live|realtime|real_time|latest)_(?:price|stock|inventory|on_hand|qty|status)|(?:price|stock|inventory|on_hand|qty|status)(?:_[a-z]+)?_(?:now|current|live|realtime)|spot_price|[a-z0-9]+_spot_price)\b["']?\s*[:=]\s*["']?[\w.]|\bcurrent\s+(?:stock|inventory|price)\b[^.;!?\n]{0,60}?[:=]\s*[$¥€]?\d|(?:^|[,|])\s*(?:当前|实时|目前)(?:库存|存量|状态|价格|报价)\s*[,|][^。]{0,120}?[,|]\s*(?:\d[\d.]*|[\p{Han}]{0,6}中|待[\p{Han}]{1,3}|已[\p{Han}]{1,3})\s*(?:[,|]|$)|(?:状态|库存|价格|报价)\s*[(（]\s*(?:实时|当前|最新)\s*[)）]\s*[:：]|(?:目前|当前|现在)[^。\n,]{0,12}?(?:存量|库存|余量)[^。]{0,40}?=\s*\d|\b[a-z0-9_]+\s*=\s*\d[\d.]*\s*#\s*(?:现价|实时|当前|今日|今天|目前)"#,
    )
});

/// Words every pattern of [`ELSEWHERE`] needs one of.
static ELSEWHERE_TRIGGERS: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)\b(?:preis|kurs|lagerbestand|bestand|vorrat|bestellung|auftrag|lieferung|sendung|freigabe|antrag|precio|stock|inventario|existencias|quedan|pedido|envio|solicitud|prix|inventaire|reste|commande|livraison|expedition|demande|estoque|preco|saldo|encomenda|remessa|aprovacao|solicitacao|giacenza|scorta|prezzo|stato|ordine|spedizione|consegna|richiesta|approvazione)|在[庫库]|残量|[価价]格|[単单][価价]|[値值]段|相[場场]|注文|[発发]注|出荷|承[認认]|配送|荷物|재고|가격|단가|시세|주문|발주|배송|승인|결재|출하",
    )
});

/// Live facts in German, Spanish, French, Japanese and Korean: a current
/// price (`Der aktuelle Preis … liegt bei 2,90 €`, `価格は1200円`), stock
/// (`Le stock actuel … est de 40 sachets`, `재고는 300kg`) or status (`El
/// pedido 7781 está en tránsito`). The words view has dropped the accents.
static ELSEWHERE: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    let of_de = r"(?:\s+(?:fur|von|des|der|an)\s+[\w\s\-]{1,30}?)?";
    let of_es = r"(?:\s*(?:del?|de\s+la|de\s+los|de\s+las)\s+[\w\s\-]{1,30}?)?";
    let of_fr = r"(?:\s*\b(?:du|de\s+la|des|de)\s+[\w\s\-]{1,30}?|\s*\bd'[\w\s\-]{1,30}?)?";
    let qty = r"\d[\d.,]*";
    [
        // German.
        format!(r"(?i)\b(?:aktuelle[rn]?\s+)?(?:preis|einkaufspreis|tagespreis|marktpreis|stuckpreis|kurs)\b{of_de}\s+(?:liegt|steht|betragt|ist)\s+(?:derzeit\s+|aktuell\s+|heute\s+|gerade\s+|jetzt\s+|bei\s+|ca\.?\s+|um\s+)*[€$]?\s*{qty}"),
        format!(r"(?i)\b(?:aktuelle[rn]?\s+)?(?:lagerbestand|restbestand|bestand|vorrat)\b{of_de}\s+(?:liegt|betragt|ist|sind|:)\s+(?:derzeit\s+|aktuell\s+|noch\s+|nur\s+|bei\s+|ca\.?\s+)*{qty}"),
        r"(?i)\b(?:bestellung|auftrag|lieferung|sendung|freigabe|antrag|ticket)\b[^.;!?\n]{0,30}?\b(?:ist|wurde|sind)\s+(?:bereits\s+|gerade\s+|noch\s+|jetzt\s+|schon\s+|heute\s+)*(?:genehmigt|freigegeben|versandt|verschickt|unterwegs|storniert|abgelehnt|ausstehend|in\s+bearbeitung|geliefert|zugestellt|abgeschlossen)\b".to_string(),
        // Spanish.
        format!(r"(?i)\bprecio\s+(?:actual\s+)?{of_es}\s*(?:actual\s+)?(?:es|esta|ronda|anda)\s+(?:de\s+|en\s+|los\s+|unos\s+|hoy\s+|ahora\s+)*[€$]?\s*{qty}"),
        format!(r"(?i)\b(?:stock|inventario|existencias)\s+(?:actual(?:es)?\s+)?{of_es}\s*(?:actual(?:es)?\s+)?(?:es|son|esta|:)\s+(?:de\s+|en\s+|solo\s+|hoy\s+)*{qty}"),
        r"(?i)\b(?:quedan|nos\s+quedan|tenemos)\s+(?:solo\s+|solamente\s+)?\d+\s+(?:sacos|cajas|kg|kilos|toneladas|palets|bidones|bolsas)\b".to_string(),
        r"(?i)\b(?:pedido|orden|envio|aprobacion|solicitud|ticket|factura|entrega)\b[^.;!?\n]{0,30}?\b(?:esta|fue|ha\s+sido|sigue)\s+(?:ya\s+|todavia\s+|aun\s+)?(?:en\s+transito|en\s+camino|en\s+aduana|aprobad[oa]|rechazad[oa]|pendiente|enviad[oa]|entregad[oa]|cancelad[oa]|retenid[oa])\b".to_string(),
        // French.
        format!(r"(?i)\bprix\s+(?:actuel\s+)?{of_fr}\s*(?:actuel\s+)?(?:est|s'eleve|tourne)\s+(?:de\s+|a\s+|autour\s+de\s+|environ\s+|aujourd'hui\s+)*[€$]?\s*{qty}"),
        format!(r"(?i)\b(?:stock|inventaire)\s+(?:actuel\s+)?{of_fr}\s*(?:actuel\s+)?(?:est|:)\s+(?:de\s+|d'environ\s+|seulement\s+)*{qty}"),
        r"(?i)\bil\s+(?:nous\s+)?reste\s+(?:seulement\s+|encore\s+)?\d+\s+(?:sacs|sachets|cartons|kg|tonnes|palettes|futs|bidons)\b".to_string(),
        r"(?i)\b(?:commande|livraison|expedition|demande|ticket|facture|envoi)\b[^.;!?\n]{0,30}?\b(?:est|a\s+ete)\s+(?:deja\s+|toujours\s+|maintenant\s+)?(?:en\s+transit|en\s+cours\s+de\s+livraison|approuvee?|validee?|rejetee?|expediee?|livree?|annulee?|en\s+attente|bloquee?\s+en\s+douane)\b".to_string(),
        // Japanese.
        r"(?:在[庫库]数?|残量)(?:は|が|:)?\s*(?:[現现]在|今|[約约]|まだ|残り)?\s*\d[\d,.]*\s*(?:トン|(?i:kg|t)\b|キロ|[個个]|箱|袋|本|ケース|パレット|缶|リットル)".to_string(),
        r"(?:[価价]格|[単单][価价]|[値值]段|相[場场]|[売卖][値值]|仕入れ[値值])(?:は|が|:)\s*(?:[現现]在|今|[約约]|今日)?\s*(?:\d+\s*(?:(?i:kg|t|l)|キロ|トン|リットル)\s*(?:あたり|当たり|当り)\s*)?[¥$]?\d[\d,.]*\s*(?:円|ドル|元|ユーロ)".to_string(),
        r"(?:注文|[発发]注|出荷|承[認认]|申[請请]|配送|荷物|チケット)[^。、\n]{0,12}?(?:は|が)\s*(?:[現现]在|まだ|もう|既に|すでに)?\s*(?:承[認认]済み|承[認认]待ち|出荷済み|[発发]送済み|[輸输]送中|配送中|保留中|却下|キャンセル済み|到着済み)".to_string(),
        // Portuguese and Italian.
        format!(r"(?i)\b(?:estoque|preco|saldo)\s+(?:atual\s+)?{of_es}\s*(?:atual\s+)?(?:e|esta|:)\s+(?:de\s+|hoje\s+|apenas\s+)*[€$]?\s*(?:r\$\s*)?{qty}"),
        r"(?i)\b(?:pedido|encomenda|remessa|aprovacao|solicitacao|ordine|spedizione|consegna|richiesta|approvazione)\b[^.;!?\n]{0,30}?\b(?:esta|foi|e|e\s+stato|e\s+stata|risulta)\s*:?\s+(?:ainda\s+|ancora\s+|gia\s+|ja\s+)?(?:em\s+transito|aprovad[oa]|pendente|enviad[oa]|entregue|cancelad[oa]|in\s+transito|in\s+attesa(?:\s+di\s+approvazione)?|approvat[oa]|spedit[oa]|consegnat[oa]|annullat[oa]|bloccat[oa])\b".to_string(),
        format!(r"(?i)\b(?:giacenza|scorta|prezzo|stato)\s+attuale\b[^.;!?\n]{{0,40}}?\s(?:e|:)\s*:?\s*(?:di\s+)?(?:in\s+attesa|approvat[oa]|spedit[oa]|in\s+transito|consegnat[oa]|annullat[oa]|[€$]?\s*{qty})"),
        // Korean.
        r"재고(?:는|가|량은|량이|:)?\s*(?:현재|지금|약)?\s*\d[\d,.]*\s*(?:(?i:kg|t)|톤|개|박스|포대|통|병)".to_string(),
        r"(?:가격|단가|시세)(?:은|는|이|:)?\s*(?:현재|지금|약|오늘)?\s*\d[\d,.]*\s*(?:원|달러|위안|유로)".to_string(),
        r"(?:주문|발주|배송|승인|결재|출하|티켓)[^.,\n]{0,12}?(?:은|는|이|가)\s*(?:현재|지금|이미|아직)?\s*(?:승인\s*완료|승인\s*대기|배송\s*중|출하\s*완료|보류|반려|결재\s*대기|처리\s*중)".to_string(),
    ]
    .iter()
    .map(|p| super::re(p))
    .collect()
});

/// Words that make one of [`ELSEWHERE`] a condition, an example or a
/// figure from the past, in the languages it reads.
static NOT_LIVE_ELSEWHERE: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)\b(?:wenn|falls|beispiel|si|se|ejemplo|exemple|esempio|exemplo|cuando|quand|lorsque|quando)\b|z\.\s?b\.|もし|場合|例えば|만약|경우|예를|(?:^|[\s(])(?:19|20)\d{2}(?:$|[\s,.)年])|\?",
    )
});

fn has_live_fact_elsewhere(words: &str) -> bool {
    ELSEWHERE.iter().any(|r| {
        r.find_iter(words).any(|m| {
            let statement = statement_of(words, m.start(), m.end());
            !NOT_LIVE_ELSEWHERE.is_match(statement)
                && !super::claims::ends_with_question(words, statement)
        })
    })
}

/// Words every reading pattern needs one of: "now" in some form.
static READING_TRIGGERS: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)现在|目前|当前|实时|刚|currently|right\s+now|\brn\b|at\s+the\s+moment|\bnow\b|\bjust\s+(?:dropped|fell|rose|climbed|hit|reached|jumped|went)|\bas\s+of\b|\b(?:stock|inventory)\s+(?:check|count|take|level)",
    )
});

/// A plant's measurement now (`发酵罐当前pH是4.52`, `当前冷库温度 -18.6℃`,
/// `the dryer outlet temperature is currently 88 C`, `is reading 72.4°C
/// right now`) or goods held now (`we currently have 14 pallets of …`).
static READINGS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    let quantity =
        r"(?:温度|(?i:ph)|湿度|压力|液位|流量|转速|浓度|读数|水分|酸度|黏度|粘度|固形物)";
    let quantity_en = r"(?:temperature|temp|ph|humidity|pressure|level|flow(?:\s+rate)?|speed|concentration|moisture|viscosity|brix|reading)";
    let unit_en = r"(?:°\s?[CF]|[CF]\b|%|bar\b|kpa\b|psi\b|rpm\b|deg(?:rees?)?\b)";
    [
        format!(r"(?:现在|目前|当前|实时)\s*(?:的)?[^,;。!?\n]{{0,10}}?{quantity}\s*(?:是|为|在|有|:|=)?\s*-?\d+(?:\.\d+)?"),
        format!(r"{quantity}\s*(?:现在|目前|当前|实时)\s*(?:是|为|在|有|:|=)?\s*-?\d+(?:\.\d+)?"),
        format!(r"(?i)\b{quantity_en}\s+(?:is|are|reads|shows)\s+(?:currently|now|at\s+the\s+moment|right\s+now)\s+(?:at\s+)?-?\d+(?:\.\d+)?"),
        format!(r"(?i)\b(?:(?:is|are)\s+)?(?:reading|showing|at|sitting\s+at)\s+-?\d+(?:\.\d+)?\s*{unit_en}\s*(?:right\s+now|rn|currently|at\s+the\s+moment)\b"),
        format!(r"(?i)\b(?:currently|right\s+now)\s+(?:reading|showing)\s+-?\d+(?:\.\d+)?\s*{unit_en}"),
        // Right now the outlet is reading 72.4°C / pH just dropped to 4.58 / 温度刚升到 45.
        format!(r"(?i)\b(?:right\s+now|currently|at\s+the\s+moment)\b[^.;!?\n]{{0,60}}?\b(?:is|are)\s+(?:reading|showing|at|sitting\s+at)\s+-?\d+(?:\.\d+)?\s*{unit_en}"),
        format!(r"(?i)\b{quantity_en}\s+(?:has\s+)?just\s+(?:dropped|fell|rose|climbed|hit|reached|jumped|went\s+(?:up|down))\s+(?:to\s+)?-?\d+(?:\.\d+)?"),
        format!(r"{quantity}\s*(?:刚刚|刚才|刚)\s*(?:降到|跌到|升到|涨到|到了|达到|掉到)\s*-?\d+(?:\.\d+)?"),
        // tank 5 is at 18,200 L as of 14:05 / stock check just now: 26 pallets.
        r"(?i)\b(?:is|are|reads|shows|at)\s+(?:at\s+)?-?\d[\d,]*(?:\.\d+)?\s*(?:°\s?[CF]\b|%|(?:l|kg|t|tons?|tonnes?|pallets?|cases?|bags?|litres?|liters?|hl|m3|bar|psi)\b)\s*,?\s+as\s+of\s+(?:\d{1,2}:\d{2}|\d{1,2}\s*[ap]\.?m\b|now|right\s+now|today|this\s+(?:morning|afternoon|evening))".to_string(),
        r"(?i)\b(?:stock|inventory)\s+(?:check|count|take|level)s?\s+(?:just\s+now|right\s+now|this\s+(?:morning|afternoon)|today|now)\s*[:,\-]\s*\d".to_string(),
        r"(?i)\b(?:we|I)\s+(?:currently|now|still)\s+(?:have|hold|got)\s+\d+(?:,\d{3})*(?:\.\d+)?\s*(?:pallets?|cases?|bags?|drums?|tons?|tonnes?|kg|litres?|liters?|units?|cartons?|boxes?|totes?)\s+of\b".to_string(),
    ]
    .iter()
    .map(|p| super::re(p))
    .collect()
});

/// Words that make a number beside "now" a rule rather than a reading: a
/// setpoint, a target, a limit, a range, a question.
static NOT_A_READING: WordSet = WordSet::new(&[
    "标准",
    "要求",
    "目标",
    "设定",
    "工艺",
    "规定",
    "规格",
    "上限",
    "下限",
    "范围",
    "控制在",
    "应该",
    "应",
    "需要",
    "不低于",
    "不高于",
    "不超过",
    "以上",
    "以下",
    "吗",
    "多少",
    "如果",
    "setpoint",
    "set point",
    "target",
    "spec",
    "limit",
    "should",
    "must",
    "required",
    "range",
    "between",
    "below",
    "above",
    "max",
    "min",
    "if",
    "what",
    "how",
    "?",
]);

fn has_reading(words: &str) -> bool {
    READINGS.iter().any(|r| {
        r.find_iter(words)
            .any(|m| !mentions(statement_of(words, m.start(), m.end()), &NOT_A_READING))
    })
}

/// Words or signs every price pattern needs one of: a price word, a money
/// unit or sign, a per-weight rate. One literal search spares the patterns
/// on texts without any. Keep these in step with the patterns.
static PRICE_TRIGGERS: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)价|[¥$€£元]|块|毛钱|美金|欧|英镑|港币|人民币|汇率|\b(?:exchange|fx|forex|hkd|chf|aud|cad|sgd|nzd|krw|twd|rub|inr|brl|mxn)\b|吨|公斤|千克|斤|rmb|cny|usd|eur|gbp|jpy|yuan|dollar|buck|price|pricing|quote|cost|sell|sold|going|trading|offered|\bbid\b|\bkg\b|\bton|(?:/|per|\ban?)\s*t\b|涨|跌|降|落|报|上调|下调|调高|调低|期货|收在|收于|收盘|futures|kilo|went\s+up|rose|increased|dropped|fell|went\s+down|litre|liter|每|lower|higher|cheaper|dearer|\bbox|\bspot\b|sitting\s+at|trading\s+at|running\s+at",
    )
});

/// Words every stock pattern needs one of.
static STOCK_TRIGGERS: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)库|存|仓|货|剩|有|够|spare|unused|unassigned|不到半|不足半|能用|撑|包材|原料|原奶|奶粉|物料|supply|supplies|stock|inventor|hand|left|remaining|\bout\s+of\b|没了|没有了|见底|撑不过|都没了|没有了|不剩|warehouse|storage|cold\s+store|sold\s+out|back-?order|allocation|cover|holding|silo|tank|vessel|down\s+to|用到|\b(?:kgs?|tons?|tonnes?|t|cases|boxes|bags|pallets|drums|cartons|bottles|litres?|liters?|totes|sacks|barrels|crates|cans|jars|rolls|packs|units|pcs)\b",
    )
});

/// Words every status pattern needs one of: the status itself.
static STATUS_TRIGGERS: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)通过|批|核准|核可|获准|驳回|拒绝|退回|打回|完成|完结|办结|审批中|审核中|处理中|待|发货|出货|发出|发了|没过|出库|签|到货|送达|取消|作废|关闭|挂起|冻结|在途|运输|配送|付款|支付|生效|结案|撤回|超时|逾期|延期|卡|交付|交货|开票|没到|approv|reject|declin|pending|ship|dispatch|deliver|cancel|closed|resolved|open|hold|transit|received|paid|invoiced|fulfilled|complete|done|escalated|progress|review|awaiting|ordered|overdue|delayed|stuck|signed|released|accepted|denied|voided|refunded|returned|blocked|late|went\s+out|arrived|landed|customs|came\s+through|went\s+through|bounced|停机|停产|停线|故障|检修|维修|保养|CIP|清洗|待料|满负荷|空转|宕机|瘫痪|离线|查验|报关|质检|检验|待检|在检|处理|办完|搞定|\bdown\s|offline|stopped|out\s+of\s+service|under\s+maintenance|being\s+(?:cleaned|repaired)|running\s+at|\bETA\b|estimated\s+(?:time\s+of\s+)?arrival|到厂|到港|到仓|送到|抵达|(?:min(?:ute)?s?|h(?:ou)?rs?)\s+(?:out|away|from)|开着|没人回|%\s+(?:full\s+|capacity\s+|level\s+)?(?:right\s+now|currently|at\s+the\s+moment|now|this\s+morning|today|atm|rn)|到达|到站|途中|在路上|还在等|仍在等|正在等|还等|还在|仍在|卡在|压在|放行|清关|没人接|无人接|受理|接单|检测|审核|会签|复核|派工|派送|分析中|那边|那里|那儿|手里|手上|库位|仓位|货位|储位|托位|(?:现在|目前|当前)\s*(?:是|在|有)?\s*\d|will\s+(?:arrive|be\s+here|get\s+here|land)|should\s+(?:arrive|be\s+here|land)|arriving|\bdue\b|arrives|gets\s+in|on_?hand|stock|inventory|qty_available|available_qty|sitting|unpaid|outstanding|unavailable|海关|港口|码头|船上|检验检疫|商检|等签字|等审批|槽车|罐车|过磅|卸货|扣住|扣下|拦下|靠港|到港|转运|packed|ready\s+for|\byet\b|\bago\b|slipped|enough\s+for|out\s+of\s+order|没关|调查中|超期|等待|备件|缺件|quarantine|percent|review|unresolved|in\s+transit|路上|hour\s+out|用不了|没法用|排不上|占着|占用|开船|离港|起运|排了|排第|液位|过期|审着|还在审|没人跟|hold|扣着|rolled|come\s+through|tied\s+up|flat|unusable|分钟|hasn't|has\s+not|haven't|堵|扣在|满了|没地方放|爆仓|放不下|海上|发车|拣|步|隔离|结果|\bdesk\b|\bstep\b|escalat|sign|quarantin|on\s+the\s+water|at\s+the\s+(?:gate|dock|port|border)|picked|packed|loaded|behind|waiting|queue|backlog|\bfull\b|booked|occupied|capacity|repair|held",
    )
});

fn has_price(words: &str) -> bool {
    let priced = PRICES.iter().any(|r| {
        r.captures_iter(words).any(|c| {
            let after = c.name("after").map_or("", |m| m.as_str());
            !NOT_AN_AMOUNT.is_match(after) && !is_not_a_price(words, &c) && has_digitish(&c)
        })
    });
    priced
        || MONEY_AMOUNT.captures_iter(words).any(|c| money_is_a_price(words, &c))
        || has_rate(words)
}

/// The amount is a number: Arabic digits, or Chinese numerals with a
/// magnitude (`三百`) or followed by a unit (`五块`, `三箱`), so that `一律`
/// or `一直` is no amount.
fn has_digitish(c: &Captures) -> bool {
    c.name("amount").is_none_or(|m| {
        let amount = m.as_str().trim();
        let after = c.name("after").map_or("", |a| a.as_str()).trim_start();
        let unit = c.name("unit").is_some();
        !amount.is_empty()
            && (amount.bytes().any(|b| b.is_ascii_digit())
                || amount.chars().any(|ch| "十百千万亿拾佰仟".contains(ch))
                || unit
                || after.starts_with([
                    '块', '元', '毛', '角', '钱', '箱', '袋', '吨', '斤', '桶', '瓶', '件', '包',
                    '盒', '托',
                ]))
    })
}

fn is_not_a_price(words: &str, c: &Captures) -> bool {
    // Group 0 is the whole match: every capture has it.
    let m = c.get(0).expect("group 0");
    let clause = clause_of(words, m.start(), m.end());
    let sentence = sentence_of(words, m.start(), m.end());
    // A plan, a condition or a year at the head of the sentence (`如果明年
    // 收购价涨到 4.5 元/公斤，成本增加 380 元`) frames every clause after
    // it; words after the price's clause (`…，成本测算要更新`) do not, and
    // a word of now in its own clause (`原料奶今天收购价 4.35 元`) wins.
    let head = &sentence[..m.end().saturating_sub(offset(words, sentence)).min(sentence.len())];
    let now = NOW.is_match(clause);
    let amount = c.name("amount").or_else(|| c.name("sym")).or_else(|| c.name("qty"));
    let start = amount.map_or(m.start(), |a| a.start());
    mentions(clause, &NOT_A_PRICE)
        || (mentions(clause, &THEN) && !NOW_A_FIGURE.is_match(sentence))
        || mentions(clause, &PLANNED)
        || (!now
            && (A_YEAR.is_match(sentence)
                || mentions(head, &PLANNED)
                || mentions(head, &CONDITIONS)))
        || is_part_of_a_code(&words[..start])
        || is_a_change(&words[..start])
        || is_a_bound(
            &words[..start],
            &words[c.name("after").map_or(m.end(), |a| a.start())..],
            now,
        )
}

/// Where `part` (a slice of `words`) starts in it.
fn offset(words: &str, part: &str) -> usize {
    part.as_ptr() as usize - words.as_ptr() as usize
}

/// A time gone by (`当年试制的时候奶粉 2.4 万元一吨`): a price then,
/// unless the sentence sets a figure of now against it (`当时报价 2.4 万，
/// 现在 3.1 万`).
static THEN: WordSet = WordSet::new(&[
    "当年",
    "当时",
    "那时候",
    "那时",
    "那会儿",
    "曾经",
    "早年",
    "前些年",
    "back then",
    "at the time",
]);

/// A word of now with a figure right after it (`现在 3.1 万`, `now 2,900`).
static NOW_A_FIGURE: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:现在|目前|如今|眼下|当前|\bnow\b|\btoday\b|\bcurrently\b)[^,;。，；\d]{0,10}\d",
    )
});

/// Words that make a sentence's prices hypothetical from its head on.
static CONDITIONS: WordSet = WordSet::new(&[
    "如果",
    "假如",
    "假设",
    "要是",
    "若是",
    "if",
    "suppose",
    "supposing",
    "assuming",
]);

/// An amount glued to the letters of a code before it (`T-017/T-018`,
/// `SKU12/kg`): part of an identifier; a currency code (`RMB23.5`) is not
/// one. `before` is what comes before the amount.
fn is_part_of_a_code(before: &str) -> bool {
    let b = before.strip_suffix(['-', '_']).unwrap_or(before);
    let start = b.trim_end_matches(|c: char| c.is_ascii_alphanumeric()).len();
    let word = &b[start..];
    word.bytes().any(|c| c.is_ascii_alphabetic())
        && !["rmb", "cny", "usd", "eur", "gbp", "hkd", "jpy", "us"]
            .contains(&word.to_ascii_lowercase().as_str())
}

/// An amount that is a change, not a level (`每变动 1 元/公斤`, `成本增加
/// 380 元`, `up by $20 a ton`): `text` is what comes before it.
fn is_a_change(text: &str) -> bool {
    static CHANGE: LazyLock<Regex> = LazyLock::new(|| {
        super::re(
            r"(?i)(?:变动|增加|减少|浮动|波动|相差|差价|差了|涨了|降了|跌了|上涨|下降|下跌|增长|提高|降低|多了|少了|差额|\b(?:up|down|increased?|decreased?|rose|fell|changes?|changed|moves?|moved)\s+by)\s*(?:了|约|大约|大概|about|around|roughly|~)?\s*$",
        )
    });
    let tail = text.len().saturating_sub(24);
    let tail = (tail..=text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(text.len());
    CHANGE.is_match(&text[tail..])
}

/// An amount that is a bound in a rule: a sign before it (`≤2000 元`,
/// `>10000 元`), 以下/以上/以内 right after it (`5000 元以下可以走备用金`), or
/// a range (`2000–10000 元由部门经理审批`) without a word of now (`现在乳清粉
/// 3000-5000 元一吨` is a quote).
fn is_a_bound(before: &str, after: &str, now: bool) -> bool {
    // Past the amount's unit: `元`, `元/公斤`, `per kg`.
    static UNIT: LazyLock<Regex> = LazyLock::new(|| {
        super::re(&format!(
            r"^\s*(?:万元|块钱|美元|元|块|万)?\s*(?:(?:/|每|一|per\s+)\s*{PER_UNIT})?\s*"
        ))
    });
    let after = &after[UNIT.find(after).map_or(0, |m| m.end())..];
    if ["以下", "以上", "以内", "之内", "封顶"].iter().any(|w| after.starts_with(w)) {
        return true;
    }
    let before = before.trim_end();
    let before = before.strip_suffix(['¥', '$', '€', '£']).unwrap_or(before).trim_end();
    if before.ends_with(['≤', '≥', '<', '>', '＜', '＞', '≦', '≧']) {
        return true;
    }
    // A range: a number, then a dash, a tilde, 至 or 到, then the amount.
    !now && before
        .strip_suffix(['-', '–', '—', '~', '～', '至', '到'])
        .map(|b| b.trim_end())
        .and_then(|b| b.chars().next_back())
        .is_some_and(|ch| ch.is_ascii_digit() || "元万千kK".contains(ch))
}

/// Words at the head of a sentence or in a price's clause that make it
/// planned or assumed (`FY25 budget assumptions: SMP 2,800 USD/t, …`).
static PLANNED: WordSet = WordSet::new(&[
    "assumption",
    "assumptions",
    "planning",
    "forecast",
    "forecasts",
    "scenario",
    "预算",
    "预测",
    "测算",
    "假设",
    "情景",
    "敏感性",
    "仅供讨论",
    "sensitivity",
]);

/// The sentence around `start..end`: a year at its head (`2020年做对标时，
/// 对方零售价298元`) dates every clause after it.
fn sentence_of(words: &str, start: usize, end: usize) -> &str {
    // A '.' between digits (`1.5kg`) is a decimal point, not a sentence's end.
    let ends_at = |i: usize, c: char| {
        matches!(c, '!' | '?' | ';' | '\n' | '。' | '！' | '？' | '；')
            || (c == '.' && !words[i + 1..].starts_with(|d: char| d.is_ascii_digit()))
    };
    let from = words[..start].char_indices().rev().find(|&(i, c)| ends_at(i, c));
    let from = from.map_or(0, |(i, c)| i + c.len_utf8());
    let to = words[end..].char_indices().find(|&(i, c)| ends_at(end + i, c));
    &words[from..to.map_or(words.len(), |(i, _)| end + i)]
}

/// A year named as the time of an event (`2021 年 6 月那次停产期间`, `in
/// 2022`), not a date stamp (`2024-09-14 08:01 ERP status …`), which
/// dates a snapshot rather than puts it in the past.
static YEAR_THEN: LazyLock<Regex> = LazyLock::new(|| {
    super::re(r"(?i)(?:19|20)\d{2}\s*年|\b(?:in|during|since|back\s+in)\s+(?:19|20)\d{2}\b")
});

/// A year or a quarter of one (`2022年`, `in 2021 Q3`): a price then, not now.
static A_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)(?:19|20)\d{2}\s*(?:年|Q[1-4]\b)|\b(?:in|for|from|since|during)\s+(?:19|20)\d{2}\b|\b(?:19|20)\d{2}\s*[-–~]\s*(?:19|20)?\d{2}\b",
    )
});

/// A money amount counts as a live price unless it is a budget or pay, or
/// the "元" belongs to another word (`一元二次`, `三元组`, `元素`), or it is a
/// `$1`-style placeholder.
fn money_is_a_price(words: &str, c: &Captures) -> bool {
    // Group 0 is the whole match: every capture has it.
    let m = c.get(0).expect("group 0");
    if is_not_a_price(words, c) || mentions(clause_of(words, m.start(), m.end()), &A_LIMIT) {
        return false;
    }
    let after = c.name("after").map_or("", |m| m.as_str());
    if let Some(unit) = c.name("unit") {
        let qty = c.name("qty").map_or("", |m| m.as_str().trim());
        if unit.as_str() == "元" {
            let next = after.chars().next();
            if next.is_some_and(|ch| "素组件数化宵旦器老年代线次方函回胞件宝首帅".contains(ch))
            {
                return false;
            }
            let chinese_single =
                qty.chars().count() == 1 && !qty.chars().any(|ch| ch.is_ascii_digit());
            if chinese_single {
                return false;
            }
        }
        return !qty.is_empty();
    }
    let num = c.name("num").map_or("", |m| m.as_str());
    // `$10^4$`, `${PRICE}`: mathematics and templates, not money.
    if after.starts_with(['^', '_', '$', '{', '}']) {
        return false;
    }
    let sym_start = c.name("sym").map_or(0, |m| m.start());
    let glued = words[..sym_start]
        .chars()
        .next_back()
        .is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '{' || ch == '\\');
    !glued && (num.len() >= 2 || num.contains('.'))
}

/// Words that make a bare amount a limit in a rule (`采购申请超过 5 万元要走总经理审批`,
/// `orders over $500 need a second signature`), not a price.
static A_LIMIT: WordSet = WordSet::new(&[
    "超过",
    "低于",
    "高于",
    "不超过",
    "above",
    "over",
    "under",
    "exceeding",
    "exceeds",
    "more than",
    "less than",
    "up to",
]);

/// Words that make "out of stock" a topic or a rule rather than a fact.
static NOT_OUT_OF_STOCK: WordSet = WordSet::new(&[
    "去年",
    "上个月",
    "上月",
    "以前",
    "曾经",
    "有过",
    "last year",
    "last month",
    "in the past",
    "previously",
    "used to",
    "预警",
    "风险",
    "规则",
    "怎么办",
    "处理",
    "如何",
    "risk",
    "alert",
    "rule",
    "policy",
    "handle",
    "avoid",
    "prevent",
    "一度",
    "那会儿",
    "那时",
    "当时",
    // A formatting wish that names the words (`Always put 'out of stock' in
    // bold`, `报告里出现"缺货"就加粗`).
    "bold",
    "italic",
    "italics",
    "in red",
    "加粗",
    "粗体",
    "斜体",
    "标红",
    "出现",
]);

/// Words after a status that make it a display rule (`缺货标红`,
/// `sold out → show in grey`).
static DISPLAYED: WordSet = WordSet::new(&[
    "显示",
    "标",
    "高亮",
    "颜色",
    "列",
    "字段",
    "筛选",
    "过滤",
    "show",
    "shown",
    "highlight",
    "colour",
    "color",
    "mark",
    "marked",
    "flag",
    "flagged",
    "column",
    "field",
    "filter",
    "label",
    "means",
    "表示",
    "代表",
    "?",
    "吗",
    "should",
    "sort",
    "sorted",
    "list",
    "listed",
    "last",
    "first",
    "appear",
    "排",
    "放",
]);

/// Words that make days of cover a target (`库存要够用 7 天`) or a shelf
/// life (`奶粉开封后能用 1 个月`, `the NaOH stock solution lasts 30 days`).
static TARGET: WordSet = WordSet::new(&[
    "开封",
    "打开",
    "opened",
    "opening",
    "solution",
    "solutions",
    "culture",
    "cultures",
    "standard",
    "standards",
    "reagent",
    "reagents",
    "starter",
    "要",
    "需要",
    "应",
    "应该",
    "至少",
    "保证",
    "保持",
    "最少",
    "不少于",
    "必须",
    "should",
    "must",
    "need",
    "needs",
    "at least",
    "always",
    "target",
    "typically",
    "usually",
    "normally",
    "generally",
    "on average",
    "aim",
    "minimum",
]);

/// Words that make a stock number a threshold or a condition.
static NOT_A_STOCK_LEVEL: WordSet = WordSet::new(&[
    "预警",
    "阈值",
    "安全库存",
    "threshold",
    "reorder point",
    "safety stock",
    "如果",
    "if",
    "when",
    "?",
    "吗",
]);

/// `we 40 pallets`: a subject and an amount with no verb between.
fn bare_subject_and_amount(matched: &str) -> bool {
    static BARE: LazyLock<Regex> = LazyLock::new(|| super::re(r"(?i)^(?:we|they|there)\s+\d"));
    BARE.is_match(matched)
}

fn has_stock(words: &str) -> bool {
    let out_of_stock = STOCK_OUT.find_iter(words).any(|m| {
        let statement = statement_of(words, m.start(), m.end());
        let from = statement.as_ptr() as usize - words.as_ptr() as usize;
        let after = &words[m.end()..];
        let rest = words.get(m.end()..from + statement.len()).unwrap_or("");
        let said = &words[from..m.end()];
        let said = super::context::after_lead_in(said);
        !mentions(said, &NOT_A_STATUS)
            && !mentions(statement, &NOT_OUT_OF_STOCK)
            && (!PAST.is_match(statement) || now_told(statement))
            && !mentions(rest, &DISPLAYED)
            && !after.trim_start().starts_with(['的', '率', '时'])
    });
    out_of_stock
        || STOCK.iter().any(|(shape, r)| {
            r.captures_iter(words).any(|c| {
                // Group 0 is the whole match: every capture has it.
                let m = c.get(0).expect("group 0");
                let after = c.name("after").map_or("", |m| m.as_str());
                let clause = clause_of(words, m.start(), m.end());
                let not_stock = match shape {
                    StockShape::AtAPlace => false,
                    // `只剩 6 袋了，今天就要补货`: a task word counts in the
                    // quantity's own clause only.
                    // `hadden we 40 pallets`, `testen we 3 liter`: Dutch puts
                    // `we` after its verb; English says `we have …`.
                    StockShape::Remaining if bare_subject_and_amount(m.as_str()) => true,
                    StockShape::Remaining => mentions(
                        after.split([',', ';', '。', '!', '?', '\n']).next().unwrap_or(""),
                        &NOT_STOCK,
                    ),
                    StockShape::Cover => mentions(clause, &TARGET),
                };
                !NOT_AN_AMOUNT.is_match(after)
                    && has_digitish(&c)
                    && !not_stock
                    && !mentions(clause, &NOT_A_STOCK_LEVEL)
                    && !is_a_collection(words, m.start())
                    && !is_in_the_past(words, m.start(), m.end(), clause)
            })
        })
}

/// A time in the past at the head of the sentence (`去年 8 月的时候乳清粉库存
/// 一度只有 5 吨`, `2021 年 6 月那次停产期间，稀奶油库存一度积压到 30 吨`),
/// without a word of now in the quantity's own clause: a figure then.
fn is_in_the_past(words: &str, start: usize, end: usize, clause: &str) -> bool {
    static ONCE: LazyLock<Regex> = LazyLock::new(|| {
        super::re(
            r"(?i)一度|曾经|当时|那次|那时候|那会儿|\b(?:at\s+one\s+point|back\s+then|at\s+the\s+time|used\s+to|previously)\b",
        )
    });
    let sentence = sentence_of(words, start, end);
    let head = &sentence[..end.saturating_sub(offset(words, sentence)).min(sentence.len())];
    let ended = ENDED_ON.is_match(record_of(words, start, end).unwrap_or(sentence));
    (PAST.is_match(head) || YEAR_THEN.is_match(head) || ONCE.is_match(head) || ended)
        && !now_told(clause)
}

/// `"safety_stock_days": 14`, `"reorder_point_stock": 200`: a record's
/// key that names a rule about stock, not stock on hand.
fn is_a_stock_rule(matched: &str) -> bool {
    matched.starts_with('"')
        && ["safety", "reorder", "min_", "max_", "target", "threshold", "_days"]
            .iter()
            .any(|w| matched.contains(w))
}

/// The JSON object (`{…}` without another inside) that holds `start..end`:
/// one record's end date speaks for that record only.
fn record_of(words: &str, start: usize, end: usize) -> Option<&str> {
    let open = words[..start].rfind(['{', '}']).filter(|&i| words[i..].starts_with('{'))?;
    let close =
        end + words[end..].find(['{', '}']).filter(|&i| words[end + i..].starts_with('}'))?;
    Some(&words[open..=close])
}

/// The date a record ended on (`"closed_at": "2025-03-02"`, `"received":
/// "2025-04-02"`, `放行日期 2025-03-14`): its status is history, where a
/// bare time stamp dates a snapshot of now.
static ENDED_ON: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r#"(?i)\b(?:closed|completed|resolved|delivered|cancell?ed|released|received)(?:_?on|_?at|_?date|\s+on)?["']?\s*[:=]?\s*["']?(?:19|20)\d{2}-\d{2}-\d{2}|(?:关闭|完成|结案|取消|放行|签收)(?:日期|时间|于)[^。]{0,40}?(?:19|20)\d{2}[-/年]\d{1,2}"#,
    )
});

/// The `库` at `start` ends the name of a collection of records, not of
/// goods: `配方库里目前有 340 个配方版本`, `数据库存了 12 万条`.
fn is_a_collection(words: &str, start: usize) -> bool {
    const COLLECTIONS: &[&str] = &[
        "配方", "数据", "知识", "题", "代码", "文献", "资料", "素材", "图", "模板", "词", "标准",
        "案例", "方法", "文档", "规则", "向量",
    ];
    words[start..].starts_with('库') && COLLECTIONS.iter().any(|c| words[..start].ends_with(c))
}

fn has_status(words: &str) -> bool {
    let record = is_a_record(words);
    STATUSES.iter().any(|r| {
        r.captures_iter(words).any(|c| {
            // Group 0 is the whole match: every capture has it.
            let m = c.get(0).expect("group 0");
            // What the pattern matched up to its trailing context is the
            // status itself (`should arrive in 30 minutes`): only the words
            // around it can make it a rule. The context may run past the
            // status's clause (`已经发货了，物流显示…`); the clause is the status's.
            let status_end = c.name("after").map_or(m.end(), |a| a.start());
            let clause = statement_of(words, m.start(), status_end.max(m.start() + 1));
            let after = status_word_dropped(c.name("after").map_or("", |m| m.as_str()));
            let english_subject = c.name("subject").is_some_and(|s| s.as_str().is_ascii());
            let anchored = c.name("id").is_some()
                || c.name("state").is_some()
                || c.name("det").is_some()
                || NAMED_ID.is_match(m.as_str())
                || NAMED_ID
                    .is_match(words[..m.start()].trim_end().rsplit(' ').next().unwrap_or(""));
            // `orders are delayed until payment clears`: a kind of document
            // in the plural, none named, held until something happens, is a
            // rule about the kind.
            let a_kind = c.name("thing").is_some_and(|t| t.as_str().ends_with('s'))
                && c.name("det").is_none()
                && c.name("id").is_none()
                && c.name("of").is_none()
                && c.name("status").is_some_and(|s| {
                    let status = s.as_str().to_ascii_lowercase();
                    status.contains(" until ") || status.contains(" till ")
                });
            let subject_ok = (!english_subject || anchored || !is_word_subject(&c)) && !a_kind;
            let clause_end = clause.as_ptr() as usize - words.as_ptr() as usize + clause.len();
            let rest_of_clause = words.get(status_end..clause_end).unwrap_or("");
            let clause_start = clause.as_ptr() as usize - words.as_ptr() as usize;
            let before = words.get(clause_start..m.start()).unwrap_or("");
            // `quick context before my question: the PO is …`: a lead-in
            // before a colon frames nothing after it.
            let before = super::context::after_lead_in(before);
            // `a script that checks whether a PO is approved`: words the
            // determiner took in (`that checks whether a`) count as before.
            let det = c.name("det").map_or("", |d| d.as_str());
            subject_ok
                && !is_a_stock_rule(m.as_str())
                && !super::claims::ends_with_question(words, clause)
                && !mentions(before, &NOT_A_STATUS)
                && !mentions(det, &NOT_A_STATUS)
                && !c.name("of").is_some_and(|of| mentions(of.as_str(), &ASKS_OR_SHOWS))
                && !mentions(rest_of_clause, &NOT_A_STATUS)
                && (!PAST.is_match(clause) || now_told(clause))
                && !mentions(rest_of_clause, &DEFINES_A_STATUS)
                && !STATUS_AFTER.is_match(after)
                && (!record || NOW.is_match(clause))
                && !is_in_the_past(words, m.start(), m.end(), clause)
                && !c.name("now").is_some_and(|now| said_of_a_person(&words[..now.start()]))
        })
    })
}

/// Minutes and reports (`会议纪要 2026-11-27`, `工作周报（第23周）`, `Weekly
/// report W47`): what their heading opens records what happened in the
/// period; a status in them is current only with a word of now.
fn is_a_record(words: &str) -> bool {
    static HEADING: WordSet = WordSet::new(&[
        "纪要",
        "周报",
        "月报",
        "会议记录",
        "例会记录",
        "minutes",
        "weekly report",
        "weekly update",
        "monthly report",
        "recap",
    ]);
    // The heading ends at a line break, a colon or a bar, and within 24
    // characters where a stored text's line breaks were folded to spaces.
    let start = words.trim_start();
    let end = start.find(['\n', ':', '|']).unwrap_or(start.len());
    let end = start.char_indices().nth(24).map_or(end, |(i, _)| i.min(end));
    mentions(&start[..end], &HEADING)
}

/// `我目前在审核` / `他们现在在检测`: a person at work, not a document's state.
fn said_of_a_person(before: &str) -> bool {
    ["我", "我们", "你", "你们", "他", "她", "他们", "她们", "咱们", "大家", "谁"]
        .iter()
        .any(|p| before.trim_end().ends_with(p))
}

/// Times that put a status or a stock-out in the past (`the shipment from
/// last March was delayed`, `In 2022 we stocked out of pectin twice`).
static PAST: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)\blast\s+(?:year|month|quarter|spring|summer|autumn|fall|winter|(?:jan|febr)uary|march|april|may|june|july|august|september|october|november|december)\b|\b(?:years?|months?)\s+ago\b|\bin\s+(?:19|20)\d{2}\b|\blessons\s+learned\b|去年|前年|上个?月|上季度",
    )
});

/// Words that keep a status current beside a past time (`the PO I raised
/// last month is still pending`).
/// Whether a word of now ([`NOW`]) stands in a clause that tells a value,
/// not one that says the value now is unknown (`去年盘点时库存是 800 箱，现在
/// 多少我不清楚`: last year's figure, and no figure of now).
fn now_told(statement: &str) -> bool {
    static UNKNOWN: LazyLock<Regex> = LazyLock::new(|| {
        super::re(
            r"(?i)不清楚|不知道|不确定|说不准|不好说|多少|\bnot\s+sure\b|\bdon'?t\s+know\b|\bno\s+idea\b|\bunknown\b",
        )
    });
    statement
        .split([',', ';', '。', '\n'])
        .any(|clause| NOW.is_match(clause) && !UNKNOWN.is_match(clause))
}

static NOW: LazyLock<Regex> = LazyLock::new(|| {
    super::re(
        r"(?i)\b(?:still|now|currently|right\s+now|rn|today)\b|现在|目前|还在|仍在|至今|当前|还没",
    )
});

/// A document's id anywhere in a status match (`approval of PO-77 is
/// pending`): the subject names one document, not a kind of them.
static NAMED_ID: LazyLock<Regex> = LazyLock::new(|| super::re(r"\b[A-Z]{1,6}-?\d{2,}"));

/// `待审批状态` at the end of a statement is the status itself; before
/// more words (`待审批状态的单子`) it names a set of them.
fn status_word_dropped(after: &str) -> &str {
    // `shipped and will arrive Thursday`: a new clause, not a list of statuses.
    static AND_THEN: LazyLock<Regex> = LazyLock::new(|| {
        super::re(
            r"(?i)^\s*and\s+(?:will|should|is|was|has|arriv|land|get|goes|expect|assig|await|wait|sitt|being|sched|need|still|currently)",
        )
    });
    if AND_THEN.is_match(after) {
        return "";
    }
    match after.strip_prefix("状态") {
        Some(rest) if rest.is_empty() || rest.starts_with(['了', '。', ',', ';', '!', '\n']) => {
            rest
        }
        _ => after,
    }
}

/// An English subject with neither an id, nor "status", nor a determiner
/// (`order shipped`), which is too weak on its own.
fn is_word_subject(c: &Captures) -> bool {
    c.name("subject").is_some_and(|s| s.as_str().chars().any(|ch| ch.is_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_values_are_facts() {
        for t in [
            "库存还剩三百箱",
            "现在单价二十三块五",
            "order 4471 shipped",
            "PO-2231 已审批通过",
            "ticket 88 is closed",
            "脱脂奶粉现在单价是 23.5 元/kg",
            "whey costs $1200 a ton",
            "only 12 units left in stock",
            "Today's USD/CNY rate is 7.12.",
            "今天欧元兑人民币 7.86",
            "Order SO-88213 shipped yesterday and should arrive Friday.",
            "the inulin we ordered is out of stock until next month",
            "目前包材库存够用 4 天",
            "杀菌机二号线目前停机检修",
            "那单样品还在等质量部放行",
            "这批原料当前状态：待检",
            "冷库 3 号库位现在是满的",
            "货架上的托位只剩 4 个",
            "牛奶车大约 20 分钟后到厂",
            "包裹预计明天下午送到",
            "the milk truck should arrive in about 30 minutes",
            "our courier is 15 min away",
            "the deviation is awaiting QA approval",
            "approval of CR-12 is pending",
            "ETA for the starter cultures is Friday",
            "Filler 1 is currently running at 65% speed",
            "the silo is at 80% right now",
            r#"{"id": 12, "status": "delivered"}"#,
            r#"{"item": "SMP", "qty_on_hand": 12}"#,
            "2 号发酵罐目前 43℃",
            "Cocoa butter is trading at 9,000 ringgit a tonne",
        ] {
            assert!(has_live_fact(t), "{t:?}");
        }
    }

    #[test]
    fn facts_inside_long_messages_are_facts() {
        for t in [
            // A price whose sentence goes on to plans and estimates.
            "今天白砂糖的现货价是 6.2 元/公斤,价格还在往下走,对比测算先按这个价格算。",
            "顺便说下原料奶今天收购价 4.35 元/公斤,比上周涨了 5 分,中试用奶的预算可能要调一下。",
            "the freight forwarder's rate right now is USD 2,850 per 40ft reefer",
            "现在乳清粉 3000-5000 元一吨",
            // Stock of goods named after "now left", or in a numbered store.
            "交接:冷库 2 号目前还有脱脂奶粉 3.2 吨、全脂奶粉 1.1 吨",
            "目前还剩菌种 5 箱",
            "仓库-老许:WPC80 只剩 6 袋了,今天就要补货",
            "Current stock of lactase enzyme (NOLA Fit) is down to 4 kg in cold room B",
            // A document's state now: at a step, with someone, or "X 中".
            "设备维修单 WO-3382(均质机高压柱塞漏油)现在还是待派工状态,中试车间说人手不够",
            "客户问试样订单 SO-4410 到哪了,系统里目前是部分发货状态,还有 2 箱没发",
            "这票进口乳铁蛋白(500 kg,婴配粉项目用)目前是海关查验中,要补一份原产地证明",
            "差旅报销单现在在部门经理审批节点,财务说月底前批不完",
            "采购申请 PR-7736(流变仪配件,CC27 转子)已经到总经理那边了,还没批",
            "ECN-2026-118(低乳糖奶配方变更)目前在质量部会签,卡在第三步已经两天了",
            "菌种那个采购单 PO-2291 还在财务审批中,供应商说没收到 PO 不发货",
            "直投式菌种目前还在海关清关,物流系统显示 on hold",
            "检测订单现在是\"检测中\",预计周五出报告",
            "会议纪要 11-27:PO-1223 目前还在财务审批中",
        ] {
            assert!(has_live_fact(t), "{t:?}");
        }
    }

    #[test]
    fn names_of_columns_and_statuses_pass() {
        for t in [
            "审批状态那一列标绿",
            "订单状态:完成 是最终态",
            "单价 3 列",
            "show the price column last",
            "max_tokens_per_run = 2000000",
            "订单状态为已发货时通知我",
            "项目预算 50 万元",
            "还有 3 天到期",
            "汇率保留 4 位小数",
            "库存要够用 7 天",
            "when line 3 is down, switch the report to line 4",
            "Budget for the tasting panel: $2,000 - $4,000",
            "目标售价控制在 12 元以内",
            "2023年全年均价约 25 元/kg",
            "back in 2020 WMP averaged $3,100 a tonne",
            "去年 5 月断过一次货",
            "the canteen is 10 minutes away",
            "the new label is approved by marketing style guide rules",
            "配方库里目前有 340 个配方版本",
            "采购申请超过 5 万元要走总经理审批",
            "假设白砂糖 6000 元/吨，帮我算每吨酸奶的糖成本",
            "If butter were €5,000/t, what would the margin be?",
        ] {
            assert!(!has_live_fact(t), "{t:?}");
        }
    }

    #[test]
    fn past_hypothetical_and_rule_figures_pass() {
        for t in [
            // A condition or an analysis at the head of the sentence.
            "如果明年原料奶收购价涨到 4.5 元/公斤,高蛋白奶的单吨成本大概增加 380 元",
            "价格敏感性分析(仅供讨论):乳粉价格每变动 1 元/公斤,成本变动约 1.1 元/公斤",
            // Changes, bounds and ranges in rules, amounts inside codes.
            "每吨成本增加 30 元",
            "审批金额规则:单价 ≤2000 元由课题组长审批,2000-10000 元由部门经理审批,>10000 元由中心主任审批",
            "研发样品采购 5000 元以下可以走备用金",
            "脱脂奶粉 23.5 元/kg 以上的报价都太贵",
            "稳定剂复配 T-017/T-018 结果已录入 LIMS",
            // Stock and statuses dated in the past at the head of the sentence.
            "去年 8 月的时候乳清粉库存一度只有 5 吨,导致中试停了一周",
            "2021 年 6 月那次停产检修期间,稀奶油库存一度积压到 30 吨",
            "去年年底的年度盘点,研发冷库的实际库存和账面差了 3 箱菌种",
            "项目已于 2025 年 6 月结题,相关的 12 张采购单和 3 张委外检测单都已关闭",
            // Minutes and reports record what happened.
            "会议纪要 2026-11-27(配方评审)\n1. 配方 RCP-YG-2611-05 通过评审,蛋白 6.0%",
            "工作周报(第23周)\n1. 完成 GB 19302 对标\n2. 稳定剂复配结果已录入 LIMS",
            // A task, and a person at work, not stock or a document's state.
            "还有 3 袋要加",
            "我目前在审核这批报告,稍后回复",
            "目前是人工审批,以后改成自动审批",
            "如果订单目前还在审批中,就先不要改",
            // A case imagined or a word's meaning (set AA).
            "假设乳清粉断货两周,产线能撑多久?",
            "万一审批被驳回,需要准备哪些补充材料?",
            "Imagine we held 20 days of cover on every SKU: would the warehouse fit it?",
            "“卡单”在我们这儿是指订单被信用冻结。",
            // A price then, and a measure of a process.
            "当年试制的时候奶粉 2.4 万元一吨,现在肯定不是这个价了",
            "Back then SMP was 2,400 USD a ton",
            "这季度我的重点是缩短订单交付周期。",
        ] {
            assert!(!has_live_fact(t), "{t:?}");
        }
        // 万一 inside a number is no case imagined; a figure of now set
        // against one then is live.
        for t in [
            "乳粉现在 2.35 万一吨",
            "钛白粉现在报价两万一一吨,上周还是两万",
            "当时报价 2.4 万元一吨,现在 3.1 万",
            "Back then SMP was 2,400 USD a ton, now it is 3,100",
        ] {
            assert!(has_live_fact(t), "{t:?}");
        }
    }

    /// A price per ton with 万 and no 元 (a hostile model's memory), and
    /// Taiwan's 核准 for an approval granted.
    #[test]
    fn prices_in_wan_and_approvals_in_taiwans_words_are_facts() {
        for t in
            ["脱脂奶粉目前每吨 2.1 万", "变更申请ECN-0412 已核准,可以开始试产", "偏差单已获批准"]
        {
            assert!(has_live_fact(t), "{t:?}");
        }
        for t in ["去年每吨 2.1 万", "核准流程一般要两周"] {
            assert!(!has_live_fact(t), "{t:?}");
        }
    }

    /// Hong Kong, Taiwan, Singapore and Malaysian money, written Cantonese
    /// and states named in English inside Chinese (held-out set AH).
    #[test]
    fn regional_money_cantonese_and_mixed_states_are_facts() {
        for t in [
            "今日报价：乳清蛋白 WPC80 每公斤 HK$52",
            "供应商刚刚报价，棕榈油每吨 NT$38,500",
            "现时生乳收购价每公升 HK$7.8",
            "订单 status：shipped，ETA 星期五",
            "这个 batch 的 release status 现在是 on hold",
            "最新订单状态：部分出货（已出 60%）",
            "RM 12.50 per kg today for the palm olein",
        ] {
            assert!(has_live_fact(&crate::detect::view(t)), "{t:?}");
        }
        for t in [
            "订单状态为已发货时通知我",
            "帮我写 SQL：select order_no, status from orders where status = 'PENDING'",
            "Quem aprova pedidos acima de R$ 50 mil é a diretoria",
            "去年每公斤 HK$40",
        ] {
            assert!(!has_live_fact(&crate::detect::view(t)), "{t:?}");
        }
    }

    #[test]
    fn documents_and_goods_held_now_in_english_are_facts() {
        for t in [
            "Per the user, there are 9 spare SSDs in the IT store right now.",
            "Currently we have only 4 spare laptops in the Pune store.",
            "the PO for the rotavap is still sitting with finance",
            "just so you know, SO 4500123 is on credit hold atm",
            "sterility results for lot 2311 are still pending",
            "the validation report is with the client for sign-off",
            "the reefer with our starter cultures is stuck at Felixstowe customs as of this morning",
            "the Unilever order is 70% picked, truck's booked for 3pm",
            "quick context before my question: purchase req for the freeze dryer is approved, we're waiting on the PO number",
            "line 2 is down atm, waiting for the fitter",
            "there are 3 batches waiting in the QA release queue right now",
            "we're holding 40 t of unsalted butter in cold store 3 right now",
            "only 18 cases of 70% IPA hand rub left in the stores as of this morning",
            "we've got 6 weeks of cover on sucrose at the current run rate",
            "silo 3 has about 9,000 L of raw milk in it at the moment",
            "skim price from the co-op this week is 38.5p per litre",
            "the shipment to Lagos left Antwerp yesterday, ETA 14 days",
            "the DSC is out of service until the engineer comes",
            "the spray dryer is fully booked until the end of next week",
            "ticket INC-20931 is still open and pending vendor response as of now",
            "供应商现在的交期是 6 周,库存是零。",
            "这单样品现在还在顺丰中转,卡在郑州了。",
        ] {
            assert!(has_live_fact(t), "{t:?}");
        }
        for t in [
            "deviations are approved by the QA manager or their named deputy",
            "we typically hold 4 to 6 weeks of cover on key raw materials",
            "I want the report to show which invoices are unpaid",
            "Our standard contracts are open for renegotiation every 3 years",
            "our results are open data under CC-BY",
            "Remind me if the PO is still pending after 3 days",
            "silo 3 holds 50,000 L",
            "ETA for imports is 6 weeks from order",
            "I'm on leave until monday, so keep answers for the team short",
            // Who is away is no price, stock or status (§2), whoever it is.
            "Rajesh is out sick today, so no HPLC runs this afternoon",
            "Dr. Schneider is on leave until the end of the month.",
            "if line 2 goes down, can line 3 run the 1 L format?",
            "we had the spray dryer booked solid for most of last summer",
            "Last year we had 4 spare laptops in the Pune store.",
            "Can you keep 2 spare copies of the report?",
        ] {
            assert!(!has_live_fact(t), "{t:?}");
        }
    }

    #[test]
    fn live_facts_in_other_languages_are_facts() {
        for t in [
            "Der aktuelle Preis für Magermilchpulver liegt bei 2,90 €/kg.",
            "Der Lagerbestand an Kulturen beträgt noch 40 Beutel.",
            "Die Bestellung 4471 wurde bereits versandt.",
            "El pedido 7781 está en tránsito desde ayer.",
            "El precio actual del suero es de 1.200 € por tonelada.",
            "Le stock actuel de ferments lactiques est de 40 sachets.",
            "La commande 5521 a été expédiée ce matin.",
            "現在の脱脂粉乳の在庫は 1.2 トンです。",
            "価格は1200円です",
            "注文は既に出荷済みです",
            "현재 유청 단백질 재고는 300kg입니다.",
            "단가는 현재 4500원입니다",
            "The cocoa powder shipment is in transit, ETA this Thursday.",
            "Ticket INC-48213 is currently open and assigned to IT.",
            "配方变更申请 ECN-2024-031 现在的审批状态是“已驳回”",
            "这批益生菌的到货状态：海关查验中",
        ] {
            assert!(has_live_fact(&crate::detect::view(t)), "{t:?}");
        }
        for t in [
            "Wenn der Preis über 3 € liegt, bitte melden.",
            "Le prix était de 2 € en 2019.",
            "¿El pedido 7781 está en tránsito?",
            "Der Bestand ist ein Begriff aus der Lagerhaltung.",
        ] {
            assert!(!has_live_fact(&crate::detect::view(t)), "{t:?}");
        }
    }

    #[test]
    fn stock_in_words_prices_moved_per_unit_and_papers_held_now_are_facts() {
        for t in [
            "Three drums of peroxide left in the chem store.",
            "About three quarters of a pallet of mango puree left.",
            "We're out of caps for the 1 L oat drink right now.",
            "Tank B currently holds 6,000 litres of orange concentrate",
            "Complaint 88 is escalated and waiting on the plant manager's reply as we speak.",
            "Our credit note request is still on jane's desk in accounts.",
            "The yeast extract sales order shows 'blocked for delivery' in SAP at the moment.",
            "PO 4471 still hasn't cleared finance",
            "the Danone order is delayed until the spray dryer is back up",
            "片碱今天每吨涨了50块。",
            "蔗糖早上报5400,比昨天降了十块。",
            "冰醋酸厂里现在就剩两个吨桶。",
            "质量协议还在法务张律师手上,没盖章。",
            "二号库已经满了,今天进的乳清没地方放。",
            "客户的订单已经发货了,物流显示今天下午到",
            "工单还没关",
            "Out of 25kg bags completely, the packing line is using 20s",
            "Container's still held at customs, they want the COA again",
            "the styrene tanker is about an hour out from the site gate",
            "The new HPLC is still in transit, the forwarder says it is in Rotterdam",
            "台南厂的干燥机故障,今天都不能用",
            "地磅那边排了七八辆车,要等好久",
            "氮气储罐现在只剩两成了",
            "那批参比品卡在海关了,到现在还没放行",
            "南通厂的危化品经营许可证过期了还没续上",
            "出口许可证还在商务局审着,没下来",
        ] {
            assert!(has_live_fact(&crate::detect::view(t)), "{t:?}");
        }
        for t in [
            "Always put 'out of stock' in bold when it shows up in a report.",
            "报告里出现\"缺货\"就加粗。",
            "In 2021 we had three drums of peroxide left after the audit.",
            "orders are delayed until payment clears, that's the rule",
            "如果二号库满了就放到三号库",
            "偏差关闭必须有QA会签,谁都不能例外",
            "2022年12月那会儿三氯蔗糖一度缺货,好多客户都在抢",
            "The rule of thumb in procurement is three quotes for anything above 10k.",
            "Als de melkprijs boven 50 cent per liter komt, passen we de kostprijs aan.",
            "我还在路上,十分钟后到公司",
        ] {
            assert!(!has_live_fact(&crate::detect::view(t)), "{t:?}");
        }
    }
}
