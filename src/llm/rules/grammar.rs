//! The pattern families of the offline extractor: small grammars over word
//! lists, one per kind, in Chinese and English. Each answers one question
//! about a sentence or a clause ("is this a lasting wish about answers?",
//! "does the user say what they do?") and is tested on its own with
//! positive and negative examples. The subject is optional (Chinese drops
//! 我), and a request about the answer at hand is told from a habit by its
//! markers (以后, always, as usual…) rather than by its words.

use regex::Regex;
use std::sync::LazyLock;

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("grammar patterns are valid")
}

/// Alternatives of a word list as one regex group.
fn words(list: &[&str]) -> String {
    format!("(?:{})", list.join("|"))
}

// ---------------------------------------------------------------- markers

/// Words that make a wish lasting: from now on, every time, a habit, the
/// same as before, a correction of an earlier wish, a wish in general.
const LASTING_ZH: &[&str] = &[
    "以后",
    "今后",
    "往后",
    "从现在",
    "从今",
    "每次",
    "每一次",
    "每份",
    "每个",
    "一律",
    "统一",
    "始终",
    "总是",
    "一直",
    "习惯",
    "保持",
    "记住",
    "记着",
    "记得",
    "老样子",
    "老规矩",
    "照旧",
    "照例",
    "还是",
    "也(?:是|按|用|要|都|整理|弄成|这样|这么|一样)",
    "一样",
    "又",
    "都(?:用|先|要|按|放|写|加|给|这样|这么|带|列|标|是)",
    "不管",
    "所有",
    "无论",
    "改一下",
    "更正",
    "改口",
    "不是[^，。]{1,14}[，,]?(?:而)?是",
    "不用再",
    "别再",
    "不要再",
    "的时候",
    "时候[，,]",
    "我(?:想|希望|喜欢|更喜欢|偏好|倾向|要的是)",
    "一定要",
    "尽量",
    "就这么",
    "就这样",
    "这么(?:写|给|整理|标)",
    "就用这种",
    "这种(?:格式|方式|表|样子)",
    "说过了",
    "之前",
    "为止",
    "期间",
    "不用写",
    "不要(?:写|用)",
    "别(?:写|用|给)",
    "只列",
    "就够了",
    "就行",
    "给我按",
    "按[^，。]{1,10}(?:写|排|列|算)",
    "用[^，。]{1,8}(?:列|写|给|排|标|表示)",
    "不要",
    "别",
    "^(?:嗯|对|好|可以|行)[，,]",
    "每周",
    "每天",
    "每月",
    "平时",
    "少(?:夹|用|加|写|来|放|整)点?",
    "别(?:老|总)",
    "老是",
];
const LASTING_EN: &[&str] = &[
    r"\bfrom\s+now\s+on\b",
    r"\bgoing\s+forward\b",
    r"\bfrom\s+here\s+on\b",
    r"\bin\s+(?:the\s+)?future\b",
    r"\balways\b",
    r"\bevery\s+time\b",
    r"\beach\s+time\b",
    r"\bevery\s+\w+",
    r"\bwhenever\b",
    r"\bwhen\s+(?:you|I)\s+\w+",
    r"\bany\s+(?:standard|report|project|formula)",
    r"\bkeep\s+\w+",
    r"\bas\s+usual\b",
    r"\bas\s+always\b",
    r"\bas\s+before\b",
    r"\blike\s+last\s+time\b",
    r"\blike\s+I\s+said\b",
    r"\bsame\s+(?:as|for|goes)\b",
    r"\bdo\s+the\s+same\b",
    r"\bagain\b",
    r"\bany\s?more\b",
    r"\bno\s+longer\b",
    r"\binstead\b",
    r"\bas\s+well\b",
    r"\bI(?:\s+(?:prefer|like|want|need|would\s+like|would\s+rather)|'d\s+(?:like|rather|prefer))\b",
    r"\bI'd\s+like\b",
    r"\bplease\s+(?:don't|do\s+not|stop|keep|always)\b",
    r"\bdon't\b",
    r"\bstop\b",
    r"\bshould\s+(?:be|always|list|open|have|start|come)\b",
    r"\bhouse\s+style\b",
    r"\bexactly\s+right\b",
    r"\ball\s+I\s+(?:ever\s+)?need\b",
    r"\bregardless\b",
    r"\bfor\s+(?:all|every|any)\b",
    r"\bonly\s+in\b",
    r"\bonly,",
    r"\bis\s+the\s+format\b",
    r"\bfor\s+these\b",
    r"\bfor\s+[a-z\-]+(?:\s+[a-z\-]+)?\s+(?:comparisons|questions|results|reports|updates|meetings|searches|data|work)\b",
    r"^(?:right|yes|yep|good|great|nice|perfect)\s*[,\-–—]",
    r"\b(?:weekly|daily|monthly)\b",
    r"\b(?:everything|anything)\s+(?:you|I)\b",
    r"\buntil\b",
    r"\b(?:usually|normally|generally|in\s+general)\b",
    r"\bif\s+(?:anything|any\s+\w+)\b",
    r"\bskip\s+the\b",
    r"\bno\s+more\b",
    r"\bever\b",
];

/// Words that tie a request to the answer at hand: this report, that one,
/// today, redo that; they make a sentence one-off unless a lasting marker says otherwise.
const AT_HAND_ZH: &[&str] = &[
    "这份",
    "这一份",
    "这批",
    "这组",
    "这三个",
    "这个问题",
    "这周的",
    "今天",
    "刚才",
    "下午",
    "上午",
    "明天",
    "上面(?:的|这|那)",
    "下面(?:的|这|那)",
    "在下面",
    "这里",
    "那段",
    "那份",
    "帮我(?:把|看|查|找|写|算|起草|整理|准备|过|读|拉|调)",
    "调出",
    "拉一下",
    "给我看",
    "把这",
    "一下",
    "回头",
    "压缩",
    "赶时间",
    "开会要用",
];
const AT_HAND_EN: &[&str] = &[
    r"\b(?:this|that|these|those)\s+(?:one|report|answer|email|summary|document|time|week|spec|draft)\b",
    r"\bthis\s+week's\b",
    r"\bhere(?:'s|\s+is|\s+are)\b",
    r"^(?:make|redo|turn|expand|draft|pull|write|summarise|summarize|compare|give\s+me\s+the|tell\s+me|list|show|suggest|walk\s+me)\b",
    r"\btoday\b",
    r"\bfor\s+a\s+slide\b",
    r"\bin\s+this\s+one\b",
    r"\bjust\s+for\s+this\b",
    r"\bin\s+a\s+rush\b",
    r"\bfor\s+this\s+\w+\s+only\b",
];

/// Named house formats: asking for one is a standing preference even
/// phrased as a request for the answer at hand (spec §2's "flow card").
const HOUSE_FORMAT: &[&str] = &[r"流程卡", r"(?i:\bflow[- ]card)", r"(?i:\bstep[- ]card)"];

static LASTING: LazyLock<Regex> =
    LazyLock::new(|| re(&format!("{}|(?i:{})", words(LASTING_ZH), words(LASTING_EN))));
static AT_HAND: LazyLock<Regex> =
    LazyLock::new(|| re(&format!("{}|(?i:{})", words(AT_HAND_ZH), words(AT_HAND_EN))));
static NAMED_FORMAT: LazyLock<Regex> = LazyLock::new(|| re(&words(HOUSE_FORMAT)));

/// Whether the sentence says the wish lasts beyond this answer.
pub fn has_lasting_marker(sentence: &str) -> bool {
    LASTING.is_match(sentence)
}

/// Whether the sentence is about the answer at hand (this report, redo that, today…).
/// "更正一下", "跟你说一下" announce a statement; they ask for nothing now.
pub fn is_at_hand(sentence: &str) -> bool {
    static ANNOUNCING: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?:更正|改|更新|补充|说明|提醒|说)一下"));
    AT_HAND.is_match(&ANNOUNCING.replace_all(sentence, "，"))
}

/// A sentence that is only a marker ("Always.", "以后都这样。"): it makes the one before it lasting.
pub fn is_marker_only(sentence: &str) -> bool {
    static ONLY: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?:以后|每次|一直)?都?(?:这样|这么办|如此)(?:吧|哈)?$|^(?i:always|ever|never|every\s+time|from\s+now\s+on|as\s+usual|as\s+always)$",
        )
    });
    ONLY.is_match(sentence.trim())
}

/// Requests for the answer at hand that no stop word marks: "今天赶时间", "just for this email".
pub fn is_one_off(sentence: &str) -> bool {
    static NOT_ONLY_THIS: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?i)\bnot\s+(?:just|only)\s+(?:for\s+)?this\s+\w+"));
    static ONE_OFF: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"赶时间|临时|(?i:\bjust\s+for\s+this\b|\bin\s+this\s+one\b|\bfor\s+this\s+\w+\s+only\b|\bin\s+a\s+rush\b)",
        )
    });
    let sentence = NOT_ONLY_THIS.replace_all(sentence, " ");
    crate::text::has_one_off_marker(&sentence) || ONE_OFF.is_match(&sentence)
}

// ---------------------------------------------------------- presentation

/// What answers look like: order, format, length, language, units, emphasis.
const FORMAT_CUES_ZH: &[&str] = &[
    "表格",
    "一列",
    "那列",
    "列出",
    "分条",
    "要点",
    "项目符号",
    "一条一条",
    "大纲",
    "PPT",
    "格式",
    "样子",
    "排版",
    "流程卡",
    "结论",
    "结果(?:放|在|先)",
    "先说",
    "先写",
    "先给",
    "先看",
    "先列",
    "先解释",
    "前面",
    "第一段",
    "最后",
    "末尾",
    "在前",
    "在后",
    "打头",
    "先行",
    "简洁",
    "简短",
    "短一点",
    "啰嗦",
    "详细",
    "重点",
    "开场白",
    "客套",
    "中文",
    "英文",
    "小数",
    "单位",
    "百分比",
    "千克",
    "每100克",
    "摄氏度",
    "小时",
    "加粗",
    "标出来",
    "标上",
    "标注",
    "标'",
    "倒序",
    "顺序",
    "对照",
    "打比方",
    "举例",
    "来源",
    "(?:趋势|柱状|折线|饼|曲线|流程)图",
    "图表",
    "年份",
    "写全",
    "写清楚",
    "注明",
    "带上",
    "附上",
    "五行",
    "行以内",
    "长度",
    "篇幅",
    "依据",
    "数据表",
    "成本占比",
    "三列",
    "批号",
    "第几法",
    "这种表",
    "列表",
    "适用范围",
    "单独拎出来",
    "一句话带过",
    "表情",
    "p值",
    "显著性",
    "序号",
    "总结",
    "缩写",
    "术语",
    "通俗",
    "复杂",
    "基本概念",
    "标(?:一下|明|清楚)",
    "[一二三两四五\\d]段",
];
const FORMAT_CUES_EN: &[&str] = &[
    r"\btables?\b",
    r"\bcolumns?\b",
    r"\brows?\b",
    r"\bformat\b",
    r"\blayout\b",
    r"\bbullet",
    r"\bnumbered\b",
    r"\bnumber\s+the\b",
    r"\bsteps?\b",
    r"\bcard\b",
    r"\w+\s+first\b",
    r"\bfirst\s+and\b",
    r"\bup\s+front\b",
    r"\bup\s+top\b",
    r"\bat\s+the\s+top\b",
    r"\bon\s+top\b",
    r"\blead\s+with\b",
    r"\bopen\s+with\b",
    r"\bstart\s+with\b",
    r"\blast\b",
    r"\bshort\b",
    r"\bbrief\b",
    r"\bconcise\b",
    r"\bdetail",
    r"\blength\b",
    r"\bEnglish\b",
    r"\bChinese\b",
    r"\bspelling\b",
    r"\bunits?\b",
    r"\bper\s+(?:100|serving)",
    r"\bdecimal",
    r"\bbold\b",
    r"\bin\s+red\b",
    r"\bhighlight",
    r"\bchronological",
    r"\bday\s+by\s+day\b",
    r"\bside\s+by\s+side\b",
    r"\bvs\b",
    r"\breferences?\b",
    r"\bclause\b",
    r"\byear\b",
    r"\bnotation\b",
    r"\bemojis?\b",
    r"\bdisclaimer\b",
    r"\bchecklist\b",
    r"\baction-item\b",
    r"\bsentences\b",
    r"\btotal\s+(?:row|line)\b",
    r"\bverdict\b",
    r"\bconclusions?\b",
    r"\bevidence\b",
    r"\breasoning\b",
    r"\bwho/what\b",
    r"\bbatch\s+numbers\b",
    r"\bbefore\s+and\s+after\b",
    r"\bbullet\s+points?\b",
    r"\bg/100\b",
    r"\badd\s+up\s+to\b",
    r"\bdecisions\s+first\b",
    r"\blist\b",
    r"\b(?:charts?|graphs?|plots?)\b",
    r"\bper\s+(?:kilo|kg|tonne|ton|litre|liter|portion|serving|100)",
    r"\b(?:euros?|dollars?|USD|EUR|RMB|grams|kilos|celsius|fahrenheit|percent)\b",
    r"\b24-hour\b",
    r"\b(?:mPa·s|cP|ppm|ppb|CFU|kcal|kJ)\b",
    r"\bstandard\s+deviations?\b",
    r"\bp-values?\b",
    r"\bjargon\b",
    r"\bplain\s+(?:language|English|words)\b",
    r"\bsummary\b",
    r"\bheadings?\b",
    r"\bsections?\b",
    r"\bintros?\b",
    r"\bpreambles?\b",
    r"\bfluff\b",
    r"\bpleasantries\b",
    r"\bthe\s+basics\b",
    r"\bgo\s+deep\b",
    r"\bin\s+depth\b",
    r"\bflag\b",
    r"\bat\s+the\s+very\s+top\b",
    r"\b(?:abbreviations|acronyms)\b",
    r"\b\w+/\w+/[\w\-]+",
];

static FORMAT_CUE: LazyLock<Regex> =
    LazyLock::new(|| re(&format!("{}|(?i:{})", words(FORMAT_CUES_ZH), words(FORMAT_CUES_EN))));
/// "the first one", "the last time": ordinals, not an order of parts.
static ORDINAL: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\bthe\s+(?:first|last)\b|\blast\s+(?:time|week|month|year)\b|\bfirst\s+(?:one|time)\b")
});

/// Whether a sentence names something about how answers look.
pub fn has_format_cue(sentence: &str) -> bool {
    let without_ordinals = ORDINAL.replace_all(sentence, " ");
    FORMAT_CUE.is_match(&without_ordinals) || NAMED_FORMAT.is_match(sentence)
}

/// A lasting wish about how answers look: a format cue with a lasting
/// marker, or a house format asked for; never a one-off or a request tied to
/// the answer at hand without a marker.
pub fn is_presentation(sentence: &str, next_is_marker: bool) -> bool {
    if is_one_off(sentence) || !has_format_cue(sentence) {
        return false;
    }
    if NAMED_FORMAT.is_match(sentence) {
        return true;
    }
    let lasting = has_lasting_marker(sentence) || next_is_marker;
    lasting
        && (has_strong_marker(sentence)
            || super::until::names_an_end(sentence)
            || !is_at_hand(sentence))
}

/// Whether a clean part of a one-off sentence still states something
/// lasting ("这次先按依据写，平时还是结果在前", "just this once the raw counts;
/// normally the summary"): it needs a marker that holds against the one-off.
/// "还是" and "again" do not: in "这次先用表格，还是按批号排" they mean "or rather".
pub fn outlasts_one_off(part: &str) -> bool {
    static HABIT: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"平时|以后|今后|往后|每次|一直|一律|老规矩|照旧|(?i:\bfrom\s+now\s+on\b|\balways\b|\bevery\s+time\b|\b(?:usually|normally|generally)\b)",
        )
    });
    HABIT.is_match(part) || QUERY_DEFAULT_MARK.is_match(part)
}

/// Markers that hold against a request at hand ("这份月报也是…", "same for this report").
fn has_strong_marker(sentence: &str) -> bool {
    static STRONG: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"以后|今后|每次|一律|统一|一直|习惯|保持|记得|记着|老样子|老规矩|照旧|还是|平时|也(?:是|按|用|整理|一样)|一样|又|说过了|为止|期间|(?i:\bfrom\s+now\s+on\b|\balways\b|\bevery\b|\bas\s+(?:usual|always|before)\b|\blike\s+(?:last\s+time|I\s+said)\b|\bsame\s+(?:as|for|goes)\b|\bagain\b|\bwhenever\b|\bany\s?more\b|\b(?:usually|normally|generally)\b)",
        )
    });
    STRONG.is_match(sentence)
}

/// A request phrased as a question that asks for a lasting change
/// ("能不能以后…", "Can you stop … every answer?").
pub fn is_request_question(sentence: &str) -> bool {
    static REQUEST: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?:能不能|可不可以|能否|可以)以后|(?i:^(?:can|could|would)\s+you\s+(?:stop|always|please\s+always)\b[^?]*\bevery\b)",
        )
    });
    REQUEST.is_match(sentence.trim())
}

/// A wish that only says "the same as before" ("就这么给", "as agreed",
/// "like that") and corrects nothing: it restates an earlier one.
pub fn is_restatement(text: &str) -> bool {
    static BACK: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"这么(?:写|给|办|整理|标|列)|就这样|都这样|照这样|这种(?:表|格式|方式|样子)|那种|这个(?:习惯|做法|格式|样子)|照旧|老样子|老规矩|跟以前一样|跟上回(?:说的)?一样|也一样|继续|也(?:是|按|用)|(?i:\bthis\s+way\b|\bthat\s+way\b|\blike\s+(?:that|this|last\s+time|I\s+said)\b|\bsame\s+(?:as|for|goes)\b|\bas\s+(?:before|usual|always|agreed|well)\b|\bagain\b|\bkeep\s+doing\b)",
        )
    });
    BACK.is_match(text) && !corrects(text)
}

/// Whether a statement takes back or changes an earlier one ("不是…是…", "算了", "not … any more").
pub fn corrects(text: &str) -> bool {
    static CORRECTS: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"不是|改|更正|算了|不用|不要再|别再|想了想|(?i:\bnot\b|\bno\s+longer\b|\bany\s?more\b|\binstead\b|\bcorrection\b|\bchange\s+of\s+plan\b|\bactually\b|\bon\s+(?:reflection|second\s+thought)\b)",
        )
    });
    CORRECTS.is_match(text)
}

// ------------------------------------------------------------ background

const ROLE_NOUNS_ZH: &[&str] = &[
    "工程师",
    "检验员",
    "化验员",
    "评价员",
    "营养师",
    "项目经理",
    "经理",
    "主管",
    "专员",
    "研究员",
    "技术员",
    "分析员",
    "采购",
    "班长",
    "品控",
    "研发人员",
    "质检员",
    "负责人",
    "组长",
    "主任",
    "总监",
    "设计师",
    "配方师",
    "审核员",
    "管培生",
    "实习生",
];
const UNITS_ZH: &[&str] = &[
    "部",
    "组",
    "中心",
    "实验室",
    "化验室",
    "车间",
    "团队",
    "事业部",
    "工厂",
    "科",
    "研究院",
    "小组",
    "牧场",
    "基地",
];
const ROLE_NOUNS_EN: &[&str] = &[
    "engineer",
    "scientist",
    "technologist",
    "analyst",
    "specialist",
    "lead",
    "manager",
    "microbiologist",
    "chemist",
    "technician",
    "nutritionist",
    "auditor",
    "buyer",
    "developer",
    "researcher",
    "coordinator",
    "officer",
    "inspector",
    "head",
    "director",
    "supervisor",
    "planner",
    "dietitian",
    "formulator",
    "intern",
    "trainee",
    "leader",
    "PM",
    "analysts",
    "engineers",
    "scientists",
];
const TEAMS_EN: &[&str] = &[
    "team",
    "lab",
    "laboratory",
    "group",
    "department",
    "unit",
    "division",
    "site",
    "plant",
    "function",
];
/// Functions of a company one works in ("I'm in regulatory affairs").
const FUNCTIONS_EN: &[&str] = &[
    "regulatory",
    "quality",
    "QA",
    "QC",
    "R&D",
    "procurement",
    "purchasing",
    "production",
    "operations",
    "packaging",
    "sensory",
    "microbiology",
    "food\\s+safety",
    "supply\\s+chain",
];

static BACKGROUND_ZH: LazyLock<Regex> = LazyLock::new(|| {
    let role = words(ROLE_NOUNS_ZH);
    let unit = words(UNITS_ZH);
    let role_en = words(ROLE_NOUNS_EN);
    let years = "[一二三四五六七八九十两几\\d]+[几多来]?年";
    re(&format!(
        "我(?:是|算是)[^，。；,]{{0,14}}{role}|我(?:是|算是)[^，。；,]{{0,24}}(?i:{role_en})\\b|\
         ^我?(?:已经)?(?:干|做|搞|从事)了?[^，。；,]{{1,12}}?{years}|我(?:常驻|驻在?)[^，。；,]{{2,16}}|\
         ^(?:现在|目前)在[^，。；,]{{1,14}}{unit}$|从[^，。；,]{{1,14}}(?:调|转)过来了?$|\
         我们{unit}(?:就|一共|总共|只有)?[一二三两四五六七八九十几\\d]+个?人|我(?:带队|带团队|带着[^，。；,]{{1,8}}(?:组|团队|人|员))|^我?是(?:做|搞|管|负责)[^，。；,]{{1,16}}的|我是[^，。；,做]{{1,14}}{unit}的|\
         我(?:现在|目前)?在[^，。；,想看]{{1,14}}{unit}|我(?:主要)?负责[^，。；,？?]{{2,30}}|是我(?:在)?负责的|\
         (?:转到|调到|调去|转去|加入了?)[^，。；,]{{1,14}}(?:{unit}|做)|我们(?:组|团队|部门|实验室|科室|车间)(?:是做|负责|主要做)|\
         我(?:之前|以前)(?:是)?做[^，。；,]{{1,10}}的|我在里面负责"
    ))
});
static BACKGROUND_EN: LazyLock<Regex> = LazyLock::new(|| {
    let role = words(ROLE_NOUNS_EN);
    let team = words(TEAMS_EN);
    let forms = [
        r"\bI\s+work\s+(?:in|on|at|for|with)\b".to_owned(),
        format!(
            r"\bI(?:'m|\s+am)\s+(?:a|an|the|one\s+of\s+the)\s+(?:[\w\-&/]+\s+){{0,5}}?{role}\b"
        ),
        format!(
            r"\bI(?:'m|\s+am)\s+(?:now\s+)?(?:in|on|with|part\s+of)\s+(?:the|our)\s+(?:[\w\-&/]+\s+){{0,4}}?{team}\b"
        ),
        r"\bI\s+(?:lead|manage|run|head|handle|coordinate|oversee|supervise|look\s+after|take\s+care\s+of)\b"
            .to_owned(),
        r"\bI(?:'m|\s+am)\s+responsible\s+for\b".to_owned(),
        r"\bI\s+do\s+[\w\-]+(?:\s+[\w\-]+)?\s+(?:trials|testing|work|analysis|audits)\b".to_owned(),
        r"\bmy\s+(?:job|role|field|background)\s+is\b".to_owned(),
        r"\b(?:are|is)\s+my\s+(?:area|field|job)\b".to_owned(),
        format!(r"\b[\w\-]+\s+{role}\s+here\b"),
        r"\bas\s+the\s+(?:person|one)\s+who\b".to_owned(),
        r"\bby\s+training\b".to_owned(),
        r"\bI(?:'ve|\s+have)?\s+(?:just\s+|recently\s+)?(?:moved|transferred|switched)\s+(?:over\s+)?(?:from\s+[^,.]{1,40}?\s+)?to\b".to_owned(),
        format!(
            r"\bI(?:'m|\s+am)\s+(?:now\s+)?in\s+(?:{})(?:\s+(?:affairs|assurance|control|team|department))?(?:$|\s*,|\s+(?:at|for|on|and|since|mostly|mainly)\b)",
            words(FUNCTIONS_EN)
        ),
        format!(r"\bI(?:'m|\s+am)\s+(?:a\s+|an\s+|the\s+)?{}", words(ROLE_NOUNS_ZH)),
        r"(?:^|\bI(?:'ve|\s+have)\s+)(?:been|years\s+of)\s+(?:doing|working\s+(?:in|on|as))\b[^,.]{2,40}?\bfor\s+(?:\d+|a\s+few|many|several|over\s+\w+|\w+)\s+years\b".to_owned(),
        r"\b(?:we're|we\s+are)\s+a\s+(?:team|lab|group)\s+of\s+\w+\b".to_owned(),
        r"\bI(?:'ve|\s+have)?\s+joined\b".to_owned(),
    ];
    re(&format!("(?i){}", forms.join("|")))
});
/// What is not a work background though it looks like one: negations, thoughts, privileges.
static NOT_BACKGROUND: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"不在|不是|没在|管理员|权限|如果|假如|要是|(?i)\bif\s+I\s+were\b|\b(?:not|no\s+longer|admin|administrator|rights|authori[sz]ed|allowed)\b|\bhow\s+I\s+work\b",
    )
});
/// A clause that goes on about the role just stated ("负责…", "mostly on…").
static BACKGROUND_MORE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:主要|负责|在|带着|日常|做|现在在)|(?i)^(?:mostly|mainly|handling|covering|in\s+charge\s+of)\b",
    )
});

/// A clause about someone else ("我同事是做QA的", "my colleague has…"):
/// the clauses after it, often without a subject, are about them, not the user.
pub fn names_someone_else(clause: &str) -> bool {
    static OTHERS: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?:我(?:的)?)?(?:同事|领导|老板|师傅|他|她|他们|她们)|(?i:^(?:my\s+)?(?:colleagues?|boss|manager|he|she|they)\b)",
        )
    });
    OTHERS.is_match(clause)
}

/// Whether a clause states the user's own work background: role, team, field.
pub fn is_background(clause: &str) -> bool {
    (BACKGROUND_ZH.is_match(clause) || BACKGROUND_EN.is_match(clause))
        && !NOT_BACKGROUND.is_match(clause)
}

/// Whether a clause continues a background statement ("负责乳品微生物检测").
pub fn continues_background(clause: &str) -> bool {
    BACKGROUND_MORE.is_match(clause) && !NOT_BACKGROUND.is_match(clause)
}

// ---------------------------------------------------------- recent focus

const NOW_ZH: &[&str] = &[
    "最近",
    "近期",
    "目前",
    "现在",
    "这段时间",
    "这阵子",
    "这两周",
    "这几周",
    "这几天",
    "这两天",
    "这些天",
    "这个月",
    "这个季度",
    "这周",
    "本周",
    "这礼拜",
    "眼下",
    "手上",
    "手头",
    "正在",
];
const WORK_VERBS_ZH: &[&str] = &[
    "做",
    "弄",
    "搞",
    "推",
    "跟进",
    "跟",
    "排查",
    "验证",
    "准备",
    "筹备",
    "学",
    "研究",
    "整理",
    "负责",
    "对接",
    "改",
    "评估",
    "写",
    "开发",
    "测",
    "试",
    "对标",
    "忙",
    "卡在",
    "处理",
    "攻关",
    "优化",
    "调",
    "关注",
    "筛",
    "对比",
    "比较",
    "摸索",
    "搭建",
    "建",
    "盯",
    "赶",
    "申报",
    "注册",
    "调试",
    "在跑",
    "focus",
    "聚焦",
    "转去做",
    "转而做",
    "改做",
];

static FOCUS_ZH: LazyLock<Regex> = LazyLock::new(|| {
    let now = words(NOW_ZH);
    let verb = words(WORK_VERBS_ZH);
    re(&format!(
        "{now}(?:我们?)?(?:一直|主要|正|还|都|就)*在?{verb}|\
         我们?(?:组|团队|部门|实验室|这边)?(?:都|还|一直|正|也)*在{verb}[^，。]{{2}}|\
         我们(?:那个|这个)[^，。]{{1,10}}?在{verb}[^，。时]{{2}}|^(?:正|还|一直)?在{verb}[^，。时]{{2,}}$|\
         (?:手上|手头|手里)(?:有|就)?[两俩三几一二\\d]+(?:件|个)?事|已经不(?:跟|做|负责|管)了"
    ))
});
static FOCUS_EN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:I(?:'m|\s+am)|im|we(?:'re|\s+are))\s+(?:currently\s+|now\s+|still\s+|mostly\s+|mainly\s+|busy\s+)*([a-z]+ing)\b|\b(?:I(?:'m|\s+am)|im|we(?:'re|\s+are))\s+(?:still\s+)?(?:stuck\s+[a-z]+ing|knee-deep\s+in|buried\s+in|swamped\s+with|deep\s+in)\b|\b(?:I(?:'m|\s+am)|we(?:'re|\s+are))\s+(?:now\s+|still\s+)?on\s+(?:round|phase|stage|step|iteration)\s+\w+\s+of\s+[\w\-\s]{0,30}?(?:ing|tests?|trials?|runs?|audits?|reviews?|transfer|validation|rollout|migration)\b|\bon\s+my\s+plate\b|^(?:working\s+on\s+\w+|(?:prepping|preparing)\s+for\s+(?:the|a|an|our|my)\b)|^(?:(?:mostly|mainly|still|currently|now)\s+)+(?:chasing|trialling|validating|developing|reformulating|troubleshooting|investigating|screening|scaling\s+up|setting\s+up|wrapping\s+up)\s+(?:the|a|an|our|my)\b|\bI(?:'m|\s+am)\s+(?:mainly\s+|mostly\s+)?(?:focused|busy|involved|tied\s+up)\s+(?:on|with|in)\b|\bI(?:'ve|\s+have)\s+been\s+(?:busy\s+with\b|([a-z]+ing)\b)|\b(?:these\s+days|lately|at\s+the\s+moment|right\s+now|currently|this\s+quarter|these\s+weeks)\b[^.]{0,30}?\bI(?:'m|\s+am)\s+(?:mostly\s+|mainly\s+)?on\b|^(?:currently\s+|now\s+|mostly\s+|mainly\s+)?(?:working\s+on|[a-z]+ing)\b[^.]{3,}\b(?:at\s+the\s+moment|right\s+now|these\s+days|this\s+(?:quarter|week|month))\b|^currently\s+[a-z]+ing\b|\bmy\s+(?:main\s+)?(?:task|project|focus|priority)\s+(?:right\s+now\s+|at\s+the\s+moment\s+|these\s+days\s+|currently\s+|now\s+)?is\b|\bI(?:'m|\s+am)\s+(?:mostly\s+|mainly\s+)?on\s+the\s+[\w\-\s]+?(?:trials?|project|study|problem|issue|launch|prep|preparation|audit|review|recertification|validation|rollout|migration|transfer|screening|investigation)\b|\bmost\s+of\s+my\s+time\b",
    )
});
/// "-ing" words after "I'm" that are no work in progress.
const NOT_WORK_EN: &[&str] = &[
    "going",
    "thinking",
    "wondering",
    "asking",
    "hoping",
    "reading",
    "looking",
    "waiting",
    "writing",
    "calling",
    "talking",
    "saying",
    "sorry",
    "getting",
    "leaving",
    "kidding",
    "joking",
    "trying",
];

/// Whether a clause says what the user is working on these days.
pub fn is_recent_focus(clause: &str) -> bool {
    static MOVED: LazyLock<Regex> = LazyLock::new(|| re(r"调到|调去|转到|转去|调入"));
    static TO_WORK: LazyLock<Regex> = LazyLock::new(|| re(r"转去做|转而做|改做"));
    if FOCUS_ZH.is_match(clause) {
        return !clause.contains("想") && (!MOVED.is_match(clause) || TO_WORK.is_match(clause));
    }
    static SUBORDINATE: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?i)^(?:when|whenever|if|while)\b"));
    if SUBORDINATE.is_match(clause) {
        return false;
    }
    FOCUS_EN.captures_iter(clause).any(|c| {
        let verb = c.get(1).or_else(|| c.get(2)).map(|m| m.as_str().to_lowercase());
        match verb {
            Some(v) if v == "trying" => clause.to_lowercase().contains("trying to"),
            Some(v) => !NOT_WORK_EN.contains(&v.as_str()),
            None => true,
        }
    })
}

/// Whether a focus names its work only by pointing back ("这几天都在弄这个",
/// "that's what I'm on all week"): the clause before it says what the work is.
pub fn points_back(clause: &str) -> bool {
    static BACK: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?:这个|这事儿?|这些|它)了?$|(?i:\b(?:this|that|it)$)"));
    BACK.is_match(clause.trim_end_matches(['。', '.', '！', '!']))
}

// ------------------------------------------------------------ terminology

const QUOTED: &str = r#"['‘’"“”「」]"#;

static TERMINOLOGY_ZH: LazyLock<Regex> = LazyLock::new(|| {
    let unit = words(UNITS_ZH);
    re(&format!(
        "我们?(?:{unit}里?|平时|组里|这边|这儿|口中|嘴里)?(?:平时)?(?:说|讲|叫|打|写|口中|嘴里)的?\\s*{QUOTED}?[^，。'‘’\"“”「」]{{1,15}}?{QUOTED}?\\s*(?:的时候)?[，,]?\\s*(?:一般)?(?:就是|指的|是指|就是指|意思是|的意思是|只算|指)|\
         {QUOTED}[^'‘’\"“”「」]{{1,15}}{QUOTED}\\s*(?:在我们?(?:这儿|这里|这边|组里))?\\s*[，,]?\\s*(?:就是|是指|指的|意思是|只算)|\
         我叫{QUOTED}|[A-Za-z][A-Za-z0-9]{{0,9}}\\s*(?:就是|指的是|是指|指)[\\p{{Han}}]|\
         是指[^，。]{{2,}}|管[^，。]{{1,20}}?叫\\s*{QUOTED}|我们[^，。]{{0,12}}(?:里|中)的\\s*[A-Za-z][A-Za-z0-9]{{0,9}}\\s*是[\\p{{Han}}]"
    ))
});
static TERMINOLOGY_EN: LazyLock<Regex> = LazyLock::new(|| {
    let term = format!("{QUOTED}[^'‘’\"“”]{{1,30}}{QUOTED}");
    let forms = [
        r"\bwhen(?:ever)?\s+I\s+(?:say|write|mention|talk\s+about)\b[^.]{0,40}?\bI\s+(?:always\s+)?mean\b".to_owned(),
        format!(r"\bby\s+{term}\s*,?\s*I\s+(?:always\s+)?mean\b"),
        r"\bby\s+(?-i:[A-Z][A-Z0-9]{1,9})\s*,?\s*I\s+(?:always\s+)?mean\b".to_owned(),
        format!(r"\bI\s+use\s+{term}\s+to\s+mean\b"),
        format!(r"{term}\s+(?:is\s+)?what\s+I\s+call\b"),
        format!(r"{term}\s+in\s+(?:my|our)\s+\w+\s+is\b"),
        format!(r"{term}\s+(?:in\s+(?:my|our)\s+\w+\s+|in\s+[\w\s]{{1,25}}?\s+|for\s+(?:me|us)\s+)?(?:always\s+)?(?:should\s+)?(?:means?|stands\s+for|is\s+(?:a|an|the|our|my))\b"),
        r"(?-i:\b[A-Z][A-Z0-9]{1,9})\s+(?:for\s+(?:me|us)\s+|in\s+(?:my|our)\s+\w+\s+)?(?:means|stands\s+for)\b".to_owned(),
        r"(?-i:\b[A-Z][A-Z0-9]{1,9})\s+in\s+(?:my|our)\s+\w+\s+is\b".to_owned(),
        format!(r"\bwe\s+(?:\w+\s+)?(?:call|called|nicknamed|named|dubbed)\b[^.]{{0,60}}?{term}"),
        format!(r"{term}\s*=\s*\S"),
        r"^(?:[a-z]+:\s*)?[a-z][\w\-]*(?:\s+[\w\-]+){0,3}\s*=\s*[\w\-]+\s+[\w\-]+".to_owned(),
        r"\bfor\s+(?:us|me)\s*,?\s+(?:a\s+|an\s+|the\s+)?[\w\-]+(?:\s+[\w\-]+)?\s+(?:means|is\s+when)\b".to_owned(),
    ];
    re(&format!("(?i){}", forms.join("|")))
});

/// A name given after the fact ("一检是入厂检验，我们都这么叫", "that's just
/// what we call them"): the whole sentence is the definition.
static NAMING_TAIL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"我们?(?:都|一般|平时)?(?:这么|这样)(?:叫|称呼)|(?i:\bthat's\s+(?:just\s+)?what\s+(?:we|I)\s+call\s+(?:it|them)\b)",
    )
});

/// Where a terminology statement starts, when the sentence is one: what
/// comes before is its frame ("查配方的时候，", "In recipe questions, "), which says its scope.
pub fn terminology_at(sentence: &str) -> Option<usize> {
    if NAMING_TAIL.is_match(sentence) {
        return Some(0);
    }
    [&*TERMINOLOGY_ZH, &*TERMINOLOGY_EN]
        .iter()
        .filter_map(|r| r.find(sentence))
        .map(|m| m.start())
        .min()
}

// ---------------------------------------------------------- query default

static QUERY_DEFAULT_MARK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"默认|没(?:说|指定|特别说)[^，。]{0,8}(?:的话|就)|我(?:会|再)单独说|要的时候(?:会|再)说|除非我|(?i:\bdefaults?\s+to\b|\bby\s+default\b|\bunless\s+I\s+(?:say|name|ask|specify)\b|\bI'll\s+(?:say|ask)\b[^.]{0,40}\b(?:if|when|separately)\b|\bassume\b[^.]{0,40}\bunless\b|\bshould\s+default\b|\bstick\s+to\b|\bif\s+I\s+(?:don't|do\s+not|didn't)\s+(?:give|say|specify|mention|name|pick)\b)|(?i:default)\s*(?:用|查|看|按|取|是)",
    )
});
/// A lookup restricted by habit: a lookup frame ("查供应商的时候", "when I
/// search standards") with a restriction (只看, only, never, skip, the field
/// to read), or a version or date basis said as always.
static LOOKUP_HABIT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:查|问|搜|找)[^，。]{0,12}(?:的时候|时)[^。]{0,20}(?:只(?:看|查|要|算|取)|要查的是|查的是)|要查的是[^，。]{1,16}(?:栏|列|字段)|(?:都是|都|一律|以后|一直)按[^，。]{1,6}(?:日期|时间)(?:算|查|来|统计)|(?:都|一律|一直|总)是?(?:用|看|查|取)?最新(?:的)?(?:版|发布)|(?i:\b(?:when(?:ever)?|if)\s+I\s+(?:search|look\s+up|ask\s+(?:about|for)|query|pull|filter)\b[^.]{0,40}\b(?:only|never|skip|exclude)\b|\bwhen(?:ever)?\s+I\s+ask\b[^.]{0,40}\bcheck\s+the\s+[\w\s]{1,30}?\b(?:field|column)\b|\balways\s+(?:the\s+)?(?:latest|newest|most\s+recent)\s+(?:released\s+|approved\s+)?(?:one|version|revision|edition)\b|\b(?:always|from\s+now\s+on)\b[^.]{0,40}\bby\s+[\w\-]+\s+date\b|\bby\s+[\w\-]+\s+date\b[^.]{0,40}\b(?:always|from\s+now\s+on)\b)",
    )
});
/// What the answer explains is no lookup, whatever the words ("don't drop the reasoning by default").
static NOT_A_LOOKUP: LazyLock<Regex> = LazyLock::new(|| {
    re(r"推导|解释|思路|(?i:\breasoning\b|\bexplanations?\b|\b(?:sort|order|rank)(?:ed)?\b)")
});
/// A field chosen for a lookup, said as a habit: "生命周期照旧看基本属性".
static FIELD_HABIT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:一直|还是|照旧|老规矩|跟以前一样|都是)[^。]{0,12}(?:按|看|取|用)[^。]{0,12}(?:属性|字段|栏|分支|名录)|(?:用|取|看|按)[^，。]{0,10}(?:那一栏|那一列|那个字段|字段)[，,]\s*别用",
    )
});
/// What a term means in lookups ("When I search formulas, 'status' means…").
static LOOKUP_FRAME: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(?:search|look\s+up|lookups?|quer(?:y|ies)|filter)\b"));

/// Whether a sentence sets a default choice for the user's business queries.
pub fn is_query_default(sentence: &str) -> bool {
    (QUERY_DEFAULT_MARK.is_match(sentence)
        || FIELD_HABIT.is_match(sentence)
        || LOOKUP_HABIT.is_match(sentence)
        || (LOOKUP_FRAME.is_match(sentence) && TERMINOLOGY_EN.is_match(sentence)))
        && !NOT_A_LOOKUP.is_match(sentence)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Phrasings of a family that must be caught, and near misses that must not.
    fn check(family: fn(&str) -> bool, yes: &[&str], no: &[&str]) {
        let missed: Vec<&&str> = yes.iter().filter(|t| !family(t)).collect();
        assert!(missed.is_empty(), "missed: {missed:?}");
        let wrong: Vec<&&str> = no.iter().filter(|t| family(t)).collect();
        assert!(wrong.is_empty(), "wrongly caught: {wrong:?}");
    }

    #[test]
    fn complaints_about_a_habit_and_dated_ends_are_lasting_wishes() {
        let wish = |t: &str| is_presentation(t, false);
        check(
            wish,
            &[
                "回复里别老堆那么多术语",
                "能不能少用点缩写，车间同事看不懂",
                "平时还是先给总结",
                "Usually I want the summary in bullet points",
                "If any value is out of spec, flag it in bold",
                "skip the preamble and the pleasantries",
                "3月8号之前，周报里的偏差都标一下",
                "Until the audit on 9 April, flag every withdrawn method",
            ],
            &[
                "这份报告少写点背景",
                "帮我把这段的术语标一下",
                "Skip this one, I'll read it later",
                "Flag the odd result in this table",
                "之前的周报里偏差都标一下",
            ],
        );
        assert!(is_marker_only("Never"));
        assert!(outlasts_one_off("平时还是结论在前"));
        assert!(outlasts_one_off("默认查本厂"));
        assert!(!outlasts_one_off("先按依据在前写吧"));
        assert!(!outlasts_one_off("还是按批号排"));
    }

    #[test]
    fn background_without_i_am_and_a_role_noun() {
        check(
            is_background,
            &[
                "做乳品检测快二十年了",
                "干配方八年了",
                "Been working in dairy QA for six years",
                "我常驻宁夏那边的奶源基地",
                "现在在低温研发中心",
                "上个月从采购部转过来",
                "我们车间一共五个人",
                "我带着两个化验员",
                "我是集团这边的quality manager",
                "I'm 采购 for the Shanghai site",
                "I'm in food safety, mostly allergen control",
                "I've just moved over from sales to procurement",
                "I'm a trainee in the cheese plant",
                "we're a team of four in the pilot hall",
            ],
            &[
                "现在在实验室等结果",
                "这批货做了两天了",
                "I'm in a meeting until three",
                "That's how I work with suppliers",
                "Been waiting for the results for two days",
                "我们实验室的人都休假了",
                "从上海调过来的那批奶粉",
                "I'm in quality hell with this batch",
                "I'm the admin and I approve releases",
                "如果我是品控经理",
                "My colleague has been doing audits for ten years",
            ],
        );
        assert!(continues_background("handling the incoming milk"));
    }

    #[test]
    fn recent_focus_in_more_phrasings() {
        check(
            is_recent_focus,
            &[
                "这两天就在弄这个",
                "我们组在做高钙奶的配方验证",
                "我们那个奶茶的新配方在调甜度",
                "在准备下周的工厂审核",
                "我这周focus在包材迁移试验上",
                "现在转去做奶酪了",
                "手上三件事",
                "im running the salt trials this week",
                "I'm stuck rewriting the HACCP plan",
                "I'm knee-deep in supplier audits",
                "we're on phase two of the line transfer",
                "Mostly troubleshooting the homogeniser right now",
                "prepping for the customer audit",
                "a lot on my plate: the ESL launch and two audits",
                "I'm on the FSSC audit prep until Friday",
            ],
            &[
                "在做检测的时候要注意什么",
                "现在调到奶粉车间做工艺",
                "我们那边在下雨",
                "I'm stuck in traffic",
                "Preparing is half the work",
                "We're on the same page",
                "prepping for lunch",
                "we're on round two of coffee",
                "chasing the supplier for the CoA",
                "我们供应商那边在做新包材",
            ],
        );
        assert!(points_back("这两天就在弄这个"));
        assert!(points_back("that's what I'm chasing all week, this"));
        assert!(!points_back("这两天就在弄包材"));
    }

    #[test]
    fn terminology_by_naming_equation_and_owner() {
        let term = |t: &str| terminology_at(t).is_some();
        check(
            term,
            &[
                "我们化验室说的复检就是第二次取样",
                "我嘴里的'老配方'一般指2023年那版",
                "我打spc一般就是说过程控制图",
                "二次杀菌是指灌装后的再杀菌",
                "我们都管那条灌装线叫'老三'",
                "我们质量手册里的 CCP 是关键控制点",
                "初检是收货检验，终检是出厂检验，我们都这么叫",
                "we call the night-shift batches 'late lots'",
                "we nicknamed the new filler 'Bertha'",
                "'tank 4' = the cream silo in hall B",
                "first run = the commissioning batch after cleaning",
                "For us a hold means quarantine until micro clears",
                "CCP in our manuals is critical control point",
                "day one, day two, that's just what we call them",
            ],
            &[
                "LC 是实验的那些",
                "pull the specs with status = released",
                "What do you call this defect",
                "我们叫个外卖吧",
                "QA is busy today",
            ],
        );
        assert_eq!(terminology_at("初检是收货检验，我们都这么叫"), Some(0));
    }

    #[test]
    fn query_defaults_without_the_word_default() {
        check(
            is_query_default,
            &[
                "查供应商的时候只看已审核通过的",
                "问保质期的时候要查的是标签那一栏",
                "批次都是按灌装日期算",
                "样品以后按收样日期查",
                "配方一律用最新的版本",
                "查配方default用华东的",
                "if I don't say which plant, assume Wuxi",
                "when I look up specs, only show the released ones",
                "when I ask about shelf life, check the label claim field",
                "a spec is always the latest approved version",
                "count complaints by receipt date from now on",
            ],
            &[
                "帮我查一下上个月的批次",
                "I do like to see the reasoning by default",
                "always sort the lots by production date",
                "when I ask about specs, be brief",
                "the latest version looks fine",
            ],
        );
    }

    #[test]
    fn presentation_needs_a_format_cue_and_a_lasting_marker() {
        let wrong: Vec<&str> = [
            "以后汇总的时候，不合格项都放最前面",
            "表格这个习惯保持",
            "月度数据还是用柱状图和表格",
            "配方对比也按这种格式",
            "给我讲工艺的时候，先写原理再写参数",
            "更正一下，温度不是写华氏度，是写摄氏度",
            "From now on, give me the bottom line first.",
            "Keep the summaries short, two paragraphs at most",
            "Bold the out-of-spec values every time",
            "Audit findings: severity first, as usual",
            "I prefer the units in SI, please",
            "Good, that layout is exactly right",
            "I'd rather you keep the jargon out and use plain language",
            "Whenever you quote means, give the standard deviation too",
            "回复里以后别加表情符号",
        ]
        .into_iter()
        .filter(|yes| !is_presentation(yes, false))
        .collect();
        assert!(wrong.is_empty(), "{wrong:?}");
        let wrong: Vec<&str> = [
            "这份报告先说结论",
            "帮我把这批数据整理成表格",
            "这次用表格",
            "今天赶时间，回答短一点",
            "把上周的记录汇总一下",
            "以后多问你配方的问题",
            "Make that a table I can paste into Word",
            "Give me the short version for the slide deck",
            "Just for this email, make it formal",
            "I'd like the first one",
            "Summarise the stability report for batch 12",
        ]
        .into_iter()
        .filter(|no| is_presentation(no, false))
        .collect();
        assert!(wrong.is_empty(), "{wrong:?}");
        assert!(is_presentation("Sensory reports: panel means first, then the comments", true));
        assert!(is_presentation("把杀菌工艺的步骤整理成流程卡", false));
    }

    #[test]
    fn markers_alone_and_request_questions_are_recognised() {
        assert!(is_marker_only("以后都这样"));
        assert!(is_marker_only("Always"));
        assert!(!is_marker_only("Always bold the totals"));
        assert!(is_request_question("能不能以后列原料的时候把产地也写上"));
        assert!(is_request_question("Could you stop adding a summary at the end of every reply"));
        assert!(!is_request_question("能不能帮我查一下这个"));
        assert!(!is_request_question("Can you summarise this"));
    }

    #[test]
    fn a_restatement_points_back_and_corrects_nothing() {
        for yes in [
            "对，就这三列，以后原料都这么给",
            "Open CAPAs on top again, as agreed",
            "嗯，配方对比就用这种表",
        ] {
            assert!(is_restatement(yes), "{yes}");
        }
        for no in [
            "算了，以后还是用中文回答吧",
            "Not conclusion first any more, method first",
            "以后报告先写结论",
        ] {
            assert!(!is_restatement(no), "{no}");
        }
    }

    #[test]
    fn background_states_role_team_or_field_without_privilege() {
        let wrong: Vec<&str> = [
            "我是做奶粉工艺的",
            "是做乳品检测的",
            "我是研发中心的工艺工程师",
            "我在品控部",
            "我负责酸奶线的质量放行前检验",
            "去年调到了营养研究组",
            "我们团队是做奶酪的",
            "I work in the pilot plant",
            "I'm a shift engineer on the powder line",
            "I'm on the packaging development team",
            "I run the sensory lab",
            "Cheese is my area",
            "Quality engineer here",
            "I'm a chemist by training",
            "I look after the filling lines",
            "I've joined the sensory team",
            "我是这条线的班长",
        ]
        .into_iter()
        .filter(|yes| !(is_background(yes)))
        .collect();
        assert!(wrong.is_empty(), "{wrong:?}");
        let wrong: Vec<&str> = [
            "我已经不在原料组了",
            "我是系统管理员",
            "我在想要不要换个稳定剂",
            "我有审批权限",
            "I'm the admin of the LIMS",
            "I'm in a rush today",
            "I'm not in the micro lab",
            "I'm authorised to approve releases",
        ]
        .into_iter()
        .filter(|no| is_background(no))
        .collect();
        assert!(wrong.is_empty(), "{wrong:?}");
        assert!(continues_background("负责乳品微生物检测"));
        assert!(continues_background("mostly Listeria work"));
        assert!(!continues_background("你帮我看看"));
    }

    #[test]
    fn recent_focus_is_work_in_progress_with_or_without_a_subject() {
        let wrong: Vec<&str> = [
            "最近在做无乳糖牛奶",
            "这阵子我在弄奶酪的盐分",
            "这周主要在跑奶酪棒的加速货架期试验",
            "目前主要在跟进包材供应商的审核",
            "我们在改酸奶的杯型",
            "低脂奶那个我已经不跟了",
            "I'm validating a new lactose method",
            "These days I'm mostly on the kefir trials",
            "Currently setting up an HPLC method",
            "Working on the cheese brine at the moment",
            "I've been busy with the audit prep",
            "My main task right now is the label review",
            "I'm trying to fix the foaming",
            "We're trialling a new stabiliser this month",
            "This quarter I'm focused on water savings",
            "Most of my time right now goes into the audit",
        ]
        .into_iter()
        .filter(|yes| !(is_recent_focus(yes)))
        .collect();
        assert!(wrong.is_empty(), "{wrong:?}");
        let wrong: Vec<&str> = [
            "这阵子雨水多",
            "这周跑了三次步",
            "这周天气不错",
            "我在想要不要换个菌种",
            "果酱那边已经在查了",
            "我最近在看一本小说",
            "I'm going to ask about pectin",
            "I'm wondering about the dose",
            "I'm reading this on my phone",
            "I'll come back later",
            "When we're talking standards, Method A is ISO 4833",
            "现在调到奶粉车间做工艺",
        ]
        .into_iter()
        .filter(|no| is_recent_focus(no))
        .collect();
        assert!(wrong.is_empty(), "{wrong:?}");
    }

    #[test]
    fn terminology_is_the_users_name_for_something_and_where_it_starts() {
        let wrong: Vec<&str> = [
            "我说的CIP就是在线清洗",
            "我们平时说的大货就是量产批",
            "'试样'在我这儿就是中试的样品",
            "我说'旧线'，指的是一车间的灌装线",
            "看配方时我叫'基础款'的是不加果料的",
            "以后PT指的是巴氏杀菌温度",
            "By 'release' I mean the QA release, not the launch",
            "By SNF I mean solids-non-fat.",
            "When I say 'the pilot', I mean the 200 L line",
            "'Hold' in our team is a batch waiting on micro",
            "I use 'base' to mean the white mass",
            "For me, EM means environmental monitoring",
        ]
        .into_iter()
        .filter(|yes| terminology_at(yes).is_none())
        .collect();
        assert!(wrong.is_empty(), "{wrong:?}");
        let wrong: Vec<&str> = [
            "对，就是析出的问题最头疼",
            "LC 是实验的那些",
            "你说的是哪一版",
            "What does 'cheddaring' do",
            "The line means a lot to us",
        ]
        .into_iter()
        .filter(|no| terminology_at(no).is_some())
        .collect();
        assert!(wrong.is_empty(), "{wrong:?}");
        assert_eq!(terminology_at("查原料时，我说的A料就是奶粉"), Some("查原料时，".len()));
        assert_eq!(
            terminology_at("In audits, 'major' means a CCP failure"),
            Some("In audits, ".len())
        );
    }

    #[test]
    fn query_defaults_choose_what_a_lookup_means() {
        let wrong: Vec<&str> = [
            "查批次默认按生产日期",
            "我没说工厂的话就查本厂的",
            "生命周期照旧看基本属性",
            "单位用主单位那一栏，别用辅单位",
            "By default, show only released specs",
            "Default to the Shanghai warehouse for stock questions",
            "When I search suppliers, 'active' means approved and not blocked",
        ]
        .into_iter()
        .filter(|yes| !(is_query_default(yes)))
        .collect();
        assert!(wrong.is_empty(), "{wrong:?}");
        let wrong: Vec<&str> = [
            "配方还是按千克那种",
            "以后回答都用中文",
            "The default answer is fine",
            "When I say 'the panel', I mean the trained panel",
        ]
        .into_iter()
        .filter(|no| is_query_default(no))
        .collect();
        assert!(wrong.is_empty(), "{wrong:?}");
    }
}
