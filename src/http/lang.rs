//! The review pages' words in English and Chinese, chosen by the browser's
//! `Accept-Language`: one table per language, so a missing phrase is a
//! compile error rather than a blank on the page.

use crate::domain::{Actor, Kind, Origin, Role, Status, SuggestionOp};
use http::HeaderMap;

/// A language the pages speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    En,
    Zh,
}

impl Lang {
    /// The first language of `Accept-Language` (by weight) the pages speak; English otherwise.
    pub fn from_headers(headers: &HeaderMap) -> Lang {
        let Some(value) = headers.get(http::header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok())
        else {
            return Lang::En;
        };
        let mut ranges: Vec<(f32, &str)> = value
            .split(',')
            .filter_map(|part| {
                let mut pieces = part.trim().split(';');
                let tag = pieces.next()?.trim();
                let weight = pieces
                    .find_map(|p| p.trim().strip_prefix("q="))
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .unwrap_or(1.0);
                Some((weight, tag))
            })
            .collect();
        ranges.sort_by(|a, b| b.0.total_cmp(&a.0));
        ranges
            .iter()
            .filter(|(weight, _)| *weight > 0.0)
            .find_map(|(_, tag)| {
                let primary = tag.split('-').next().unwrap_or_default().to_ascii_lowercase();
                match primary.as_str() {
                    "zh" => Some(Lang::Zh),
                    "en" => Some(Lang::En),
                    _ => None,
                }
            })
            .unwrap_or(Lang::En)
    }

    /// The `lang` attribute of the page.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    pub fn text(self) -> &'static Text {
        match self {
            Lang::En => &EN,
            Lang::Zh => &ZH,
        }
    }
}

/// Every phrase of the pages.
pub struct Text {
    pub app: &'static str,
    pub skip: &'static str,
    pub login: &'static str,
    pub login_intro: &'static str,
    pub token: &'static str,
    pub login_failed: &'static str,
    /// The login form's own cookie was missing or older than the form: the
    /// token was not even looked at.
    pub login_form_expired: &'static str,
    pub logout: &'static str,
    pub choose_user: &'static str,
    pub user_id: &'static str,
    pub open: &'static str,
    pub memories: &'static str,
    pub suggestions: &'static str,
    pub memories_of: fn(&str) -> String,
    pub pending_count: fn(usize) -> String,
    pub filter: &'static str,
    pub status: &'static str,
    pub kind: &'static str,
    pub scope: &'static str,
    pub any: &'static str,
    pub apply: &'static str,
    pub content: &'static str,
    pub origin: &'static str,
    pub expires: &'static str,
    pub never: &'static str,
    pub version: &'static str,
    pub updated: &'static str,
    pub no_memories: &'static str,
    pub next_page: &'static str,
    pub memory: &'static str,
    pub evidence: &'static str,
    pub no_evidence: &'static str,
    pub said_in: &'static str,
    pub history: &'static str,
    pub when: &'static str,
    pub who: &'static str,
    pub what: &'static str,
    pub before: &'static str,
    pub after: &'static str,
    pub loaded_in: &'static str,
    pub never_loaded: &'static str,
    pub edit: &'static str,
    pub text: &'static str,
    pub save: &'static str,
    pub edit_hint: &'static str,
    pub disable: &'static str,
    pub enable: &'static str,
    pub delete: &'static str,
    pub delete_title: &'static str,
    pub delete_warning: &'static str,
    pub delete_confirm: &'static str,
    pub cancel: &'static str,
    pub tombstone: &'static str,
    pub done_edit: &'static str,
    pub done_disable: &'static str,
    pub done_enable: &'static str,
    pub done_delete: &'static str,
    pub done_accept: &'static str,
    pub done_reject: &'static str,
    pub pending: &'static str,
    pub no_pending: &'static str,
    pub now: &'static str,
    pub would_become: &'static str,
    pub would_remember: &'static str,
    pub would_stop: &'static str,
    pub would_use_again: &'static str,
    pub accept: &'static str,
    pub reject: &'static str,
    pub see_memory: &'static str,
    pub conversation: &'static str,
    pub messages: &'static str,
    pub used_memories: &'static str,
    pub none_used: &'static str,
    /// A conversation known only by the memories loaded into it.
    pub no_messages: &'static str,
    pub loads: &'static str,
    pub forbidden: &'static str,
    pub not_found: &'static str,
    pub refused: &'static str,
    /// The title of a change the record has moved past (decided, deleted).
    pub changed_meanwhile: &'static str,
    pub failed: &'static str,
    pub back: &'static str,
    pub form_expired: &'static str,
}

impl Text {
    pub fn kind(&self, kind: Kind) -> &'static str {
        match (self.is_zh(), kind) {
            (false, Kind::Presentation) => "presentation",
            (false, Kind::Background) => "background",
            (false, Kind::RecentFocus) => "recent focus",
            (false, Kind::Terminology) => "terminology",
            (false, Kind::QueryDefault) => "query default",
            (true, Kind::Presentation) => "表达方式",
            (true, Kind::Background) => "工作背景",
            (true, Kind::RecentFocus) => "近期关注",
            (true, Kind::Terminology) => "术语",
            (true, Kind::QueryDefault) => "查询默认",
        }
    }

    pub fn status(&self, status: Status) -> &'static str {
        match (self.is_zh(), status) {
            (false, Status::Active) => "active",
            (false, Status::Disabled) => "disabled",
            (false, Status::Expired) => "expired",
            (false, Status::Retired) => "retired",
            (false, Status::Deleted) => "deleted",
            (true, Status::Active) => "生效中",
            (true, Status::Disabled) => "已停用",
            (true, Status::Expired) => "已过期",
            (true, Status::Retired) => "已被取代",
            (true, Status::Deleted) => "已删除",
        }
    }

    pub fn origin(&self, origin: Origin) -> &'static str {
        match (self.is_zh(), origin) {
            (false, Origin::Explicit) => "explicit",
            (false, Origin::Auto) => "auto-learned",
            (true, Origin::Explicit) => "明确设置",
            (true, Origin::Auto) => "自动学习",
        }
    }

    pub fn op(&self, op: SuggestionOp) -> &'static str {
        match (self.is_zh(), op) {
            (false, SuggestionOp::Create) => "New memory",
            (false, SuggestionOp::Update) => "Change a memory",
            (false, SuggestionOp::Retire) => "Stop using a memory",
            (false, SuggestionOp::Enable) => "Use a memory again",
            (true, SuggestionOp::Create) => "新建记忆",
            (true, SuggestionOp::Update) => "修改记忆",
            (true, SuggestionOp::Retire) => "停用记忆",
            (true, SuggestionOp::Enable) => "重新启用记忆",
        }
    }

    pub fn actor(&self, actor: Actor) -> &'static str {
        match (self.is_zh(), actor) {
            (false, Actor::User) => "a person",
            (false, Actor::Dreamd) => "dreamd",
            (true, Actor::User) => "用户",
            (true, Actor::Dreamd) => "dreamd",
        }
    }

    pub fn role(&self, role: Role) -> &'static str {
        match (self.is_zh(), role) {
            (false, Role::User) => "user",
            (false, Role::Assistant) => "assistant",
            (false, Role::System) => "system",
            (false, Role::Tool) => "tool",
            (true, Role::User) => "用户",
            (true, Role::Assistant) => "助手",
            (true, Role::System) => "系统",
            (true, Role::Tool) => "工具",
        }
    }

    fn is_zh(&self) -> bool {
        std::ptr::eq(self, &ZH)
    }
}

pub static EN: Text = Text {
    app: "dreamd review",
    skip: "Skip to content",
    login: "Log in",
    login_intro: "Log in with a dreamd access token (one of http.tokens). The browser then keeps a session for 12 hours; the token itself is not stored.",
    token: "Access token",
    login_failed: "That token is not valid.",
    login_form_expired: "This login form has expired (opened over an hour ago, or in another tab since), or the browser refused its cookie: enter the token again here; cookies must be allowed for this site.",
    logout: "Log out",
    choose_user: "Whose memories?",
    user_id: "User id",
    open: "Open",
    memories: "Memories",
    suggestions: "Suggestions",
    memories_of: |user| format!("Memories of {user}"),
    pending_count: |n| match n {
        1 => "1 suggestion waits for a decision".to_owned(),
        n => format!("{n} suggestions wait for a decision"),
    },
    filter: "Filter",
    status: "Status",
    kind: "Kind",
    scope: "Scope",
    any: "Any",
    apply: "Apply",
    content: "Memory",
    origin: "Origin",
    expires: "Expires",
    never: "never",
    version: "Version",
    updated: "Updated",
    no_memories: "No memories match.",
    next_page: "Next page",
    memory: "Memory",
    evidence: "Evidence",
    no_evidence: "No evidence: a person set it.",
    said_in: "said in",
    history: "History",
    when: "When",
    who: "Who",
    what: "What",
    before: "Before",
    after: "After",
    loaded_in: "Loaded into conversations",
    never_loaded: "No agent has loaded it yet.",
    edit: "Edit",
    text: "Text",
    save: "Save",
    edit_hint: "Your correction makes the memory explicit: dreamd will not change it on its own.",
    disable: "Disable",
    enable: "Enable",
    delete: "Delete",
    delete_title: "Delete this memory?",
    delete_warning: "Its text is erased from the memory, its history and its evidence, and it will not be learned again from old conversations. Only a tombstone without text remains. This cannot be undone.",
    delete_confirm: "Delete for good",
    cancel: "Cancel",
    tombstone: "Deleted: only a tombstone remains; the text is erased everywhere.",
    done_edit: "Saved.",
    done_disable: "Disabled: agents no longer load it.",
    done_enable: "Enabled: agents load it again.",
    done_delete: "Deleted.",
    done_accept: "Accepted.",
    done_reject: "Rejected: dreamd will not suggest it again for a while.",
    pending: "Suggestions waiting for you",
    no_pending: "No suggestions wait for a decision.",
    now: "Now",
    would_become: "Would become",
    would_remember: "Would remember",
    would_stop: "Would stop using",
    would_use_again: "Would use again",
    accept: "Accept",
    reject: "Reject",
    see_memory: "See the memory",
    conversation: "Conversation",
    messages: "Messages",
    used_memories: "Memories used in this conversation",
    none_used: "No memories were loaded into this conversation.",
    no_messages: "No messages of this conversation have reached dreamd yet.",
    loads: "Loads",
    forbidden: "Not allowed",
    not_found: "Not found",
    refused: "Refused",
    changed_meanwhile: "Already changed",
    failed: "Something went wrong",
    back: "Back",
    form_expired: "This form has expired: reload the page and try again.",
};

pub static ZH: Text = Text {
    app: "dreamd 记忆审阅",
    skip: "跳到正文",
    login: "登录",
    login_intro: "请用 dreamd 访问令牌（http.tokens 之一）登录。浏览器随后保留 12 小时的会话，令牌本身不会被保存。",
    token: "访问令牌",
    login_failed: "令牌无效。",
    login_form_expired: "登录表单已失效（打开已超过一小时，或之后在其他标签页又打开过），或浏览器拒绝了它的 Cookie：请在此重新输入令牌；本站需要允许 Cookie。",
    logout: "退出",
    choose_user: "查看谁的记忆？",
    user_id: "用户 ID",
    open: "打开",
    memories: "记忆",
    suggestions: "建议",
    memories_of: |user| format!("{user} 的记忆"),
    pending_count: |n| format!("有 {n} 条建议等待处理"),
    filter: "筛选",
    status: "状态",
    kind: "类型",
    scope: "范围",
    any: "全部",
    apply: "应用",
    content: "记忆",
    origin: "来源",
    expires: "到期",
    never: "不过期",
    version: "版本",
    updated: "更新于",
    no_memories: "没有符合条件的记忆。",
    next_page: "下一页",
    memory: "记忆",
    evidence: "依据",
    no_evidence: "无依据：由人直接设置。",
    said_in: "出自",
    history: "历史",
    when: "时间",
    who: "操作者",
    what: "操作",
    before: "之前",
    after: "之后",
    loaded_in: "加载过它的对话",
    never_loaded: "还没有智能体加载过它。",
    edit: "修改",
    text: "文本",
    save: "保存",
    edit_hint: "修改后这条记忆变为明确设置，dreamd 不会自行改动它。",
    disable: "停用",
    enable: "启用",
    delete: "删除",
    delete_title: "删除这条记忆？",
    delete_warning: "它的文本将从记忆、历史和依据中抹去，也不会再从旧对话中学到。只留下不含文本的墓碑。此操作无法撤销。",
    delete_confirm: "永久删除",
    cancel: "取消",
    tombstone: "已删除：只剩墓碑，文本已在各处抹去。",
    done_edit: "已保存。",
    done_disable: "已停用：智能体不再加载它。",
    done_enable: "已启用：智能体会再次加载它。",
    done_delete: "已删除。",
    done_accept: "已接受。",
    done_reject: "已拒绝：dreamd 一段时间内不会再提出。",
    pending: "等待你处理的建议",
    no_pending: "没有待处理的建议。",
    now: "现在",
    would_become: "将改为",
    would_remember: "将记住",
    would_stop: "将不再使用",
    would_use_again: "将重新使用",
    accept: "接受",
    reject: "拒绝",
    see_memory: "查看记忆",
    conversation: "对话",
    messages: "消息",
    used_memories: "本对话用到的记忆",
    none_used: "本对话没有加载任何记忆。",
    no_messages: "dreamd 尚未收到本对话的消息。",
    loads: "加载记录",
    forbidden: "无权访问",
    not_found: "未找到",
    refused: "被拒绝",
    changed_meanwhile: "已有变更",
    failed: "出错了",
    back: "返回",
    form_expired: "表单已失效：请刷新页面后重试。",
};

#[cfg(test)]
mod tests {
    use super::*;

    fn with(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(http::header::ACCEPT_LANGUAGE, value.parse().unwrap());
        headers
    }

    #[test]
    fn the_language_follows_accept_language_by_weight() {
        assert_eq!(Lang::from_headers(&HeaderMap::new()), Lang::En);
        assert_eq!(Lang::from_headers(&with("zh-CN,zh;q=0.9,en;q=0.8")), Lang::Zh);
        assert_eq!(Lang::from_headers(&with("en-US,en;q=0.9,zh;q=0.8")), Lang::En);
        assert_eq!(Lang::from_headers(&with("fr;q=1, zh-TW;q=0.5")), Lang::Zh);
        assert_eq!(Lang::from_headers(&with("de, en;q=0.1, zh;q=0.3")), Lang::Zh);
        assert_eq!(Lang::from_headers(&with("zh;q=0")), Lang::En);
        assert_eq!(Lang::Zh.text().kind(Kind::Terminology), "术语");
        assert_eq!(Lang::En.text().origin(Origin::Auto), "auto-learned");
    }
}
