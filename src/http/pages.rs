//! The review pages for people (spec §13), rendered on the server with maud:
//! plain HTML forms, no script. A user's memories by scope; a memory with
//! its evidence (linked to the messages it came from), history and the
//! conversations that loaded it, with edit, disable, enable and delete (after
//! a confirmation page); pending suggestions with what would change and
//! accept / reject; a conversation with its messages and the memories used
//! in it. Every action goes through the shared tools, so the never-store
//! rule and the ownership checks are the API's.
//!
//! A browser logs in with its token into a session cookie (HttpOnly,
//! SameSite=Strict); every form of a session carries its CSRF token, checked
//! on submit. Requests with a bearer header (scripts, tests) need neither.

use super::App;
use super::api::status_of;
use super::auth::{self, LOGIN_COOKIE, SESSION_COOKIE, SESSION_LIFETIME};
use super::lang::{Lang, Text};
use crate::domain::{Evidence, MemoryRecord, Status, SuggestionOp, SuggestionRecord, Time};
use crate::tools::args::{
    ConversationArgs, EditArgs, MemoryArgs, MemoryQuery, SuggestionArgs, SuggestionQuery,
};
use crate::tools::{Access, Code, Conversation, Explained, Refusal};
use axum::Router;
use axum::extract::rejection::FormRejection;
use axum::extract::{Form, FromRequestParts, Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use http::request::Parts;
use http::{HeaderValue, StatusCode, header};
use maud::{DOCTYPE, Markup, PreEscaped, html};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// The pages' routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/", get(index))
        .route("/login", get(login_form).post(login))
        .route("/logout", post(logout))
        .route("/u", get(open_user))
        .route("/u/{user}", get(memories))
        .route("/u/{user}/memories/{id}", get(memory))
        .route("/u/{user}/memories/{id}/edit", post(edit_memory))
        .route("/u/{user}/memories/{id}/disable", post(disable_memory))
        .route("/u/{user}/memories/{id}/enable", post(enable_memory))
        .route("/u/{user}/memories/{id}/delete", get(confirm_delete).post(delete_memory))
        .route("/u/{user}/suggestions", get(suggestions))
        .route("/u/{user}/suggestions/{id}/{decision}", post(decide))
        .route("/u/{user}/conversations/{id}", get(conversation))
}

/// A person looking at the pages: whom they may act for, their session's
/// CSRF token (none for bearer requests, which browsers never send by themselves).
struct Viewer {
    access: Access,
    csrf: Option<String>,
    lang: Lang,
}

impl Viewer {
    /// A form of this viewer's session must carry its CSRF token; the
    /// refusal page when it does not.
    fn forged(&self, csrf: &str) -> Option<Response> {
        match &self.csrf {
            Some(expected) if !auth::same_secret(expected, csrf) => Some(error_page(
                self.lang,
                StatusCode::FORBIDDEN,
                self.lang.text().forbidden,
                self.lang.text().form_expired,
            )),
            _ => None,
        }
    }
}

impl FromRequestParts<Arc<App>> for Viewer {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Viewer, Response> {
        let lang = Lang::from_headers(&parts.headers);
        if let Some(token) = auth::bearer(&parts.headers) {
            return match app.tokens.access(token) {
                Some(access) => Ok(Viewer { access, csrf: None, lang }),
                None => Err(error_page(
                    lang,
                    StatusCode::UNAUTHORIZED,
                    lang.text().forbidden,
                    lang.text().login_failed,
                )),
            };
        }
        if let Some(session) =
            auth::cookie(&parts.headers, SESSION_COOKIE).and_then(|id| app.sessions.find(id))
        {
            return Ok(Viewer { access: session.access, csrf: Some(session.csrf), lang });
        }
        let here = parts.uri.path_and_query().map_or("/", |p| p.as_str());
        Err(Redirect::to(&format!("/login?next={}", encode(here))).into_response())
    }
}

/// Percent-encodes everything but unreserved characters: safe in a path
/// segment, a query value, a fragment and an `id` attribute.
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

fn user_url(user: &str) -> String {
    format!("/u/{}", encode(user))
}

fn memory_url(user: &str, id: &str) -> String {
    format!("/u/{}/memories/{}", encode(user), encode(id))
}

fn suggestions_url(user: &str) -> String {
    format!("/u/{}/suggestions", encode(user))
}

fn conversation_url(user: &str, id: &str) -> String {
    format!("/u/{}/conversations/{}", encode(user), encode(id))
}

/// The anchor of a message on its conversation's page.
fn message_anchor(message_id: &str) -> String {
    format!("m-{}", encode(message_id))
}

fn time(t: Time) -> String {
    t.format("%Y-%m-%d %H:%M UTC").to_string()
}

const STYLE: &str = "
:root{color-scheme:light;--fg:#1a1a1a;--muted:#505050;--line:#c8c8c8;--accent:#0b57d0;--bg:#fff;--soft:#f3f5f8;--bad:#a50e0e;--ok:#146c2e}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,'Segoe UI','PingFang SC','Noto Sans CJK SC','Microsoft YaHei',sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
a:focus,button:focus,input:focus,select:focus,textarea:focus{outline:3px solid #f9ab00;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:1}
header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:.75rem 1.25rem;border-bottom:1px solid var(--line);background:var(--soft)}
header .brand{font-weight:700;margin-right:auto;text-decoration:none;color:var(--fg)}
header nav a{margin-right:1rem}
main{max-width:72rem;margin:0 auto;padding:1rem 1.25rem 3rem}
h1{font-size:1.6rem;margin:.5rem 0 1rem}h2{font-size:1.25rem;margin:1.75rem 0 .5rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}
th,td{text-align:left;vertical-align:top;padding:.4rem .5rem;border-bottom:1px solid var(--line)}
th{font-weight:600;background:var(--soft)}
td a,td .text,li,p,h1,dd,blockquote,code{overflow-wrap:anywhere}
.muted{color:var(--muted)}
.notice{border-left:4px solid var(--ok);background:#e6f4ea;padding:.5rem .75rem;margin:.5rem 0 1rem}
.problem{border-left:4px solid var(--bad);background:#fce8e6;padding:.5rem .75rem;margin:.5rem 0 1rem}
.badge{display:inline-block;padding:0 .4rem;border:1px solid var(--line);border-radius:.25rem;font-size:.875rem;white-space:nowrap}
.explicit{border-color:#0b57d0;color:#0b57d0}.auto{border-color:#505050}
blockquote{margin:.25rem 0;padding:.25rem .75rem;border-left:4px solid var(--line);background:var(--soft)}
form.inline{display:inline}
button{font:inherit;padding:.35rem .9rem;border:1px solid #0b57d0;border-radius:.25rem;background:#0b57d0;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#0b57d0}
button.danger{background:var(--bad);border-color:var(--bad)}
label{font-weight:600;display:block;margin:.5rem 0 .25rem}
input,select,textarea{font:inherit;padding:.35rem;border:1px solid #767676;border-radius:.25rem;max-width:100%}
textarea{width:100%;min-height:5rem}
.filters{display:flex;flex-wrap:wrap;gap:1rem;align-items:end}
.filters label{margin:0}
.card{border:1px solid var(--line);border-radius:.375rem;padding:.75rem 1rem;margin:.75rem 0}
.card h2{margin-top:.25rem}.card h3{font-size:1.05rem;margin:.75rem 0 .25rem}
.change{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
ol.messages{list-style:none;padding:0}
ol.messages li{padding:.5rem .75rem;border-bottom:1px solid var(--line)}
ol.messages li:target{background:#fff4ce;outline:2px solid #f9ab00}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dl.facts dt{font-weight:600}dl.facts dd{margin:0}
";

/// A whole page, with the security headers every page carries.
fn page(lang: Lang, title: &str, viewer: Option<(&Viewer, &str)>, body: Markup) -> Response {
    let t = lang.text();
    let markup = html! {
        (DOCTYPE)
        html lang=(lang.tag()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · " (t.app) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                a.skip href="#main" { (t.skip) }
                header {
                    a.brand href="/" { (t.app) }
                    @if let Some((viewer, user)) = viewer {
                        nav aria-label=(t.app) {
                            a href=(user_url(user)) { (t.memories) }
                            a href=(suggestions_url(user)) { (t.suggestions) }
                        }
                        @if let Some(csrf) = &viewer.csrf {
                            form.inline method="post" action="/logout" {
                                input type="hidden" name="csrf" value=(csrf);
                                button.secondary type="submit" { (t.logout) }
                            }
                        }
                    }
                }
                main #main { (body) }
            }
        }
    };
    html_response(StatusCode::OK, markup)
}

fn html_response(status: StatusCode, markup: Markup) -> Response {
    let mut response = (status, markup.into_string()).into_response();
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_TYPE, "text/html; charset=utf-8"),
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        ),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "same-origin"),
        (header::CACHE_CONTROL, "no-store"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

fn error_page(lang: Lang, status: StatusCode, title: &str, message: &str) -> Response {
    let t = lang.text();
    let mut response = page(
        lang,
        title,
        None,
        html! {
            h1 { (title) }
            p.problem role="alert" { (message) }
            p { a href="/" { (t.back) } }
        },
    );
    *response.status_mut() = status;
    response
}

/// A refused action as a page: its status, the tool's message.
fn refused(lang: Lang, refusal: Refusal) -> Response {
    let t = lang.text();
    let title = match refusal.code {
        Code::Forbidden => t.forbidden,
        Code::NotFound => t.not_found,
        Code::Internal | Code::Unavailable => t.failed,
        Code::Stale => t.changed_meanwhile,
        Code::InvalidArgument | Code::NeverStore => t.refused,
    };
    error_page(lang, status_of(refusal.code), title, &refusal.message)
}

/// Any other path: a page, or the API's JSON under `/v1`.
pub async fn not_found(uri: http::Uri, headers: http::HeaderMap) -> Response {
    if uri.path().starts_with("/v1/") || uri.path() == "/v1" {
        return super::api::no_such_endpoint().await.into_response();
    }
    let lang = Lang::from_headers(&headers);
    error_page(lang, StatusCode::NOT_FOUND, lang.text().not_found, lang.text().not_found)
}

async fn index(viewer: Viewer) -> Response {
    let users = viewer.access.users();
    if let [only] = users
        && only != "*"
    {
        return Redirect::to(&user_url(only)).into_response();
    }
    let t = viewer.lang.text();
    page(
        viewer.lang,
        t.choose_user,
        None,
        html! {
            h1 { (t.choose_user) }
            ul {
                @for user in users.iter().filter(|u| *u != "*") {
                    li { a href=(user_url(user)) { (user) } }
                }
            }
            form method="get" action="/u" {
                label for="user" { (t.user_id) }
                input #user name="user" required autocomplete="off";
                " "
                button type="submit" { (t.open) }
            }
        },
    )
}

#[derive(Deserialize)]
struct OpenUser {
    user: String,
}

async fn open_user(_: Viewer, Query(q): Query<OpenUser>) -> Redirect {
    Redirect::to(&user_url(&q.user))
}

#[derive(Deserialize, Default)]
struct Next {
    next: Option<String>,
}

/// Where to go after login: a path on this site only, else `/`. Browsers
/// drop tabs and line breaks from a `Location` and read `\` as `/`, so
/// `/<TAB>/evil.example` would leave the site: only visible ASCII is kept
/// (what the pages' own links hold, percent-encoded), which is also always
/// a valid header value.
fn safe_next(next: Option<&str>) -> &str {
    match next {
        Some(n) if is_same_site_path(n) => n,
        _ => "/",
    }
}

/// One leading `/`, not `//`, no `\`, and nothing but visible ASCII.
fn is_same_site_path(path: &str) -> bool {
    path.starts_with('/')
        && !path.starts_with("//")
        && path.bytes().all(|b| b.is_ascii_graphic() && b != b'\\')
}

/// The `Location` of the answer to a login, built before the session
/// starts and infallible, so that a session is never set on a failed answer.
fn after_login(next: Option<&str>) -> HeaderValue {
    HeaderValue::from_str(safe_next(next)).unwrap_or_else(|_| HeaderValue::from_static("/"))
}

async fn login_form(headers: http::HeaderMap, Query(q): Query<Next>) -> Response {
    render_login(Lang::from_headers(&headers), q.next.as_deref(), None)
}

/// The login page; the form's nonce is also set as a cookie, so a form
/// posted from elsewhere does not log a browser in.
fn render_login(lang: Lang, next: Option<&str>, problem: Option<&'static str>) -> Response {
    let t = lang.text();
    let Ok(nonce) = auth::random_token() else {
        return error_page(lang, StatusCode::INTERNAL_SERVER_ERROR, t.failed, t.failed);
    };
    let mut response = page(
        lang,
        t.login,
        None,
        html! {
            h1 { (t.login) }
            @if let Some(problem) = problem { p.problem role="alert" { (problem) } }
            p { (t.login_intro) }
            form method="post" action="/login" {
                input type="hidden" name="csrf" value=(nonce);
                input type="hidden" name="next" value=(safe_next(next));
                label for="token" { (t.token) }
                input #token type="password" name="token" required autocomplete="current-password" size="48";
                " "
                button type="submit" { (t.login) }
            }
        },
    );
    if problem.is_some() {
        *response.status_mut() = StatusCode::UNAUTHORIZED;
    }
    set_cookie(&mut response, &auth::set_cookie(LOGIN_COOKIE, &nonce, Duration::from_secs(3600)));
    response
}

fn set_cookie(response: &mut Response, value: &str) {
    if let Ok(value) = HeaderValue::from_str(value) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
}

#[derive(Deserialize)]
struct LoginForm {
    token: String,
    csrf: String,
    next: Option<String>,
}

async fn login(
    State(app): State<Arc<App>>,
    headers: http::HeaderMap,
    form: Result<Form<LoginForm>, FormRejection>,
) -> Response {
    let lang = Lang::from_headers(&headers);
    let t = lang.text();
    let Ok(Form(form)) = form else {
        return render_login(lang, None, Some(t.login_failed));
    };
    // The form's own check first: a stale form says so, whatever the token.
    let nonce_ok = auth::cookie(&headers, LOGIN_COOKIE)
        .is_some_and(|nonce| auth::same_secret(nonce, &form.csrf));
    if !nonce_ok {
        return render_login(lang, form.next.as_deref(), Some(t.login_form_expired));
    }
    let Some(access) = app.tokens.access(&form.token) else {
        return render_login(lang, form.next.as_deref(), Some(t.login_failed));
    };
    let location = after_login(form.next.as_deref());
    let Ok((id, _)) = app.sessions.start(access) else {
        let t = lang.text();
        return error_page(lang, StatusCode::INTERNAL_SERVER_ERROR, t.failed, t.failed);
    };
    let mut response = (StatusCode::SEE_OTHER, [(header::LOCATION, location)]).into_response();
    set_cookie(&mut response, &auth::set_cookie(SESSION_COOKIE, &id, SESSION_LIFETIME));
    set_cookie(&mut response, &auth::set_cookie(LOGIN_COOKIE, "", Duration::ZERO));
    response
}

#[derive(Deserialize)]
struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

async fn logout(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    headers: http::HeaderMap,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Response {
    let csrf = form.map(|Form(f)| f.csrf).unwrap_or_default();
    if let Some(refusal) = viewer.forged(&csrf) {
        return refusal;
    }
    if let Some(id) = auth::cookie(&headers, SESSION_COOKIE) {
        app.sessions.end(id);
    }
    let mut response = Redirect::to("/login").into_response();
    set_cookie(&mut response, &auth::set_cookie(SESSION_COOKIE, "", Duration::ZERO));
    response
}

#[derive(Deserialize, Default)]
struct MemoryFilter {
    status: Option<String>,
    kind: Option<String>,
    scope: Option<String>,
    cursor: Option<String>,
    done: Option<String>,
}

/// An empty form field means "any".
fn given(value: Option<String>) -> Option<String> {
    value.filter(|v| !v.trim().is_empty())
}

async fn memories(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(user): Path<String>,
    Query(filter): Query<MemoryFilter>,
) -> Response {
    let lang = viewer.lang;
    let t = lang.text();
    let query = MemoryQuery {
        user_id: user.clone(),
        status: given(filter.status.clone()),
        kind: given(filter.kind.clone()),
        scope: given(filter.scope.clone()),
        limit: Some(crate::tools::MAX_PAGE),
        cursor: filter.cursor.clone(),
    };
    let listed = match app.engine.memories(&viewer.access, query).await {
        Ok(listed) => listed,
        Err(refusal) => return refused(lang, refusal),
    };
    let pending = SuggestionQuery {
        user_id: user.clone(),
        status: Some("pending".into()),
        limit: Some(crate::tools::MAX_PAGE),
        ..SuggestionQuery::default()
    };
    let pending = match app.engine.suggestions(&viewer.access, pending).await {
        Ok(page) => page.suggestions.len(),
        Err(refusal) => return refused(lang, refusal),
    };
    let mut by_scope: BTreeMap<(std::cmp::Reverse<u8>, String), Vec<&MemoryRecord>> =
        BTreeMap::new();
    for record in &listed.memories {
        let scope = &record.memory.scope;
        by_scope
            .entry((std::cmp::Reverse(scope.specificity()), scope.to_string()))
            .or_default()
            .push(record);
    }
    let next_url = listed.next_cursor.as_ref().map(|cursor| {
        let mut url = format!("{}?cursor={}", user_url(&user), encode(cursor));
        for (key, value) in
            [("status", &filter.status), ("kind", &filter.kind), ("scope", &filter.scope)]
        {
            if let Some(v) = value.as_deref().filter(|v| !v.is_empty()) {
                url.push_str(&format!("&{key}={}", encode(v)));
            }
        }
        url
    });
    let title = (t.memories_of)(&user);
    let body = html! {
        h1 { (title) }
        @if let Some(done) = filter.done.as_deref() { (notice(t, done, None)) }
        @if pending > 0 {
            p.notice { a href=(suggestions_url(&user)) { ((t.pending_count)(pending)) } }
        }
        (filters(t, &user, &filter))
        @if listed.memories.is_empty() { p { (t.no_memories) } }
        @for ((_, scope), records) in &by_scope {
            h2 { (t.scope) ": " code { (scope) } }
            table {
                thead { tr {
                    th scope="col" { (t.content) }
                    th scope="col" { (t.kind) }
                    th scope="col" { (t.origin) }
                    th scope="col" { (t.status) }
                    th scope="col" { (t.expires) }
                    th scope="col" { (t.version) }
                } }
                tbody {
                    @for record in records { (memory_row(t, &user, record)) }
                }
            }
        }
        @if let Some(url) = next_url { p { a href=(url) rel="next" { (t.next_page) } } }
    };
    page(lang, &title, Some((&viewer, &user)), body)
}

fn filters(t: &Text, user: &str, filter: &MemoryFilter) -> Markup {
    let chosen = |value: &Option<String>, option: &str| value.as_deref() == Some(option);
    html! {
        form.filters method="get" action=(user_url(user)) aria-label=(t.filter) {
            div {
                label for="status" { (t.status) }
                select #status name="status" {
                    option value="" { (t.any) }
                    @for s in Status::ALL {
                        option value=(s.as_str()) selected[chosen(&filter.status, s.as_str())] { (t.status(*s)) }
                    }
                }
            }
            div {
                label for="kind" { (t.kind) }
                select #kind name="kind" {
                    option value="" { (t.any) }
                    @for k in crate::domain::Kind::ALL {
                        option value=(k.as_str()) selected[chosen(&filter.kind, k.as_str())] { (t.kind(*k)) }
                    }
                }
            }
            div {
                label for="scope" { (t.scope) }
                input #scope name="scope" value=(filter.scope.as_deref().unwrap_or_default()) placeholder="domain:recipe";
            }
            div { button type="submit" { (t.apply) } }
        }
    }
}

fn origin_badge(t: &Text, record: &MemoryRecord) -> Markup {
    let origin = record.memory.origin;
    html! { span class={"badge " (origin.as_str())} { (t.origin(origin)) } }
}

fn memory_row(t: &Text, user: &str, record: &MemoryRecord) -> Markup {
    let m = &record.memory;
    html! {
        tr {
            td {
                a href=(memory_url(user, &m.memory_id)) {
                    @match &m.content {
                        Some(content) => (content),
                        None => span.muted { (t.tombstone) },
                    }
                }
            }
            td { (t.kind(m.kind)) }
            td { (origin_badge(t, record)) }
            td { (t.status(m.status)) }
            td { (m.expires_at.map(time).unwrap_or_else(|| t.never.to_owned())) }
            td { (m.version) }
        }
    }
}

/// A line saying what the last action did, with a link to the memory it touched.
fn notice(t: &Text, done: &str, memory: Option<String>) -> Markup {
    let text = match done {
        "edit" => t.done_edit,
        "disable" => t.done_disable,
        "enable" => t.done_enable,
        "delete" => t.done_delete,
        "accept" => t.done_accept,
        "reject" => t.done_reject,
        _ => return html! {},
    };
    html! {
        p.notice role="status" {
            (text)
            @if let Some(url) = memory { " " a href=(url) { (t.see_memory) } }
        }
    }
}

fn evidence_list(t: &Text, user: &str, evidence: &[Evidence]) -> Markup {
    html! {
        @if evidence.is_empty() { p.muted { (t.no_evidence) } }
        ul {
            @for e in evidence {
                li {
                    @if let Some(quote) = &e.quote { blockquote { (quote) } }
                    span.muted {
                        (t.said_in) " "
                        a href={(conversation_url(user, &e.conversation_id)) "#" (message_anchor(&e.message_id))} {
                            (e.conversation_id) " / " (e.message_id)
                        }
                        " · " (time(e.expressed_at))
                    }
                }
            }
        }
    }
}

#[derive(Deserialize, Default)]
struct Done {
    done: Option<String>,
}

async fn memory(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path((user, id)): Path<(String, String)>,
    Query(done): Query<Done>,
) -> Response {
    let lang = viewer.lang;
    let args = MemoryArgs { user_id: user.clone(), memory_id: id };
    match app.engine.explain(&viewer.access, args).await {
        Ok(explained) => {
            let t = lang.text();
            let body = memory_body(t, &viewer, &user, &explained, done.done.as_deref());
            page(lang, t.memory, Some((&viewer, &user)), body)
        }
        Err(refusal) => refused(lang, refusal),
    }
}

fn memory_body(t: &Text, viewer: &Viewer, user: &str, e: &Explained, done: Option<&str>) -> Markup {
    let record = &e.memory;
    let m = &record.memory;
    let url = memory_url(user, &m.memory_id);
    let csrf = viewer.csrf.clone().unwrap_or_default();
    html! {
        h1 { (t.memory) }
        @if let Some(done) = done { (notice(t, done, None)) }
        @match &m.content {
            Some(content) => p { strong { (content) } },
            None => p.problem { (t.tombstone) },
        }
        dl.facts {
            dt { (t.kind) } dd { (t.kind(m.kind)) }
            dt { (t.scope) } dd { code { (m.scope) } }
            dt { (t.origin) } dd { (origin_badge(t, record)) }
            dt { (t.status) } dd { (t.status(m.status)) }
            dt { (t.expires) } dd { (m.expires_at.map(time).unwrap_or_else(|| t.never.to_owned())) }
            dt { (t.version) } dd { (m.version) }
            dt { (t.updated) } dd { (time(m.updated_at)) }
        }
        @if m.status != Status::Deleted {
            h2 { (t.edit) }
            form method="post" action={(url) "/edit"} {
                input type="hidden" name="csrf" value=(csrf);
                label for="text" { (t.text) }
                textarea #text name="text" required aria-describedby="edit-hint" { (m.content.as_deref().unwrap_or_default()) }
                p #edit-hint .muted { (t.edit_hint) }
                button type="submit" { (t.save) }
            }
            p {
                @if m.status == Status::Active {
                    (action_button(&url, "disable", &csrf, t.disable, "secondary"))
                }
                @if m.status == Status::Disabled {
                    (action_button(&url, "enable", &csrf, t.enable, "secondary"))
                }
                " "
                a href={(url) "/delete"} { (t.delete) "…" }
            }
        }
        h2 { (t.evidence) }
        (evidence_list(t, user, &record.evidence))
        h2 { (t.history) }
        table {
            thead { tr {
                th scope="col" { (t.when) }
                th scope="col" { (t.who) }
                th scope="col" { (t.what) }
                th scope="col" { (t.before) }
                th scope="col" { (t.after) }
            } }
            tbody {
                @for event in &e.history {
                    tr {
                        td { (time(event.at)) }
                        td { (t.actor(event.actor)) }
                        td { (event.action) }
                        td { (snapshot_text(event.before.as_ref())) }
                        td { (snapshot_text(event.after.as_ref())) }
                    }
                }
            }
        }
        h2 { (t.loaded_in) }
        @if e.loads.is_empty() { p.muted { (t.never_loaded) } }
        ul {
            @for load in &e.loads {
                li {
                    a href=(conversation_url(user, &load.conversation_id)) { (load.conversation_id) }
                    span.muted { " · " (time(load.at)) }
                }
            }
        }
    }
}

/// What a history snapshot says: its status and text (erased ones show none).
fn snapshot_text(snapshot: Option<&serde_json::Value>) -> Markup {
    let Some(s) = snapshot else { return html! { span.muted { "—" } } };
    html! {
        @if let Some(status) = s.get("status").and_then(|v| v.as_str()) { span.badge { (status) } " " }
        @if let Some(content) = s.get("content").and_then(|v| v.as_str()) { span.text { (content) } }
    }
}

fn action_button(url: &str, action: &str, csrf: &str, label: &str, class: &str) -> Markup {
    html! {
        form.inline method="post" action={(url) "/" (action)} {
            input type="hidden" name="csrf" value=(csrf);
            button class=(class) type="submit" { (label) }
        }
    }
}

async fn confirm_delete(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path((user, id)): Path<(String, String)>,
) -> Response {
    let lang = viewer.lang;
    let t = lang.text();
    let args = MemoryArgs { user_id: user.clone(), memory_id: id.clone() };
    let explained = match app.engine.explain(&viewer.access, args).await {
        Ok(e) => e,
        Err(refusal) => return refused(lang, refusal),
    };
    let url = memory_url(&user, &id);
    let csrf = viewer.csrf.clone().unwrap_or_default();
    let body = html! {
        h1 { (t.delete_title) }
        @if let Some(content) = &explained.memory.memory.content { blockquote { (content) } }
        p.problem { (t.delete_warning) }
        form.inline method="post" action={(url) "/delete"} {
            input type="hidden" name="csrf" value=(csrf);
            button.danger type="submit" { (t.delete_confirm) }
        }
        " "
        a href=(url) { (t.cancel) }
    };
    page(lang, t.delete_title, Some((&viewer, &user)), body)
}

#[derive(Deserialize)]
struct MemoryForm {
    #[serde(default)]
    csrf: String,
    text: Option<String>,
}

/// What a form on a memory's page does.
#[derive(Debug, Clone, Copy)]
enum Change {
    Edit,
    Disable,
    Enable,
    Delete,
}

impl Change {
    /// The word in the page's address after it is done (`?done=…`).
    fn done(self) -> &'static str {
        match self {
            Change::Edit => "edit",
            Change::Disable => "disable",
            Change::Enable => "enable",
            Change::Delete => "delete",
        }
    }
}

type MemoryPath = Path<(String, String)>;
type MemoryFormBody = Result<Form<MemoryForm>, FormRejection>;

async fn edit_memory(
    app: State<Arc<App>>,
    v: Viewer,
    p: MemoryPath,
    f: MemoryFormBody,
) -> Response {
    change_memory(app, v, p, f, Change::Edit).await
}

async fn disable_memory(
    app: State<Arc<App>>,
    v: Viewer,
    p: MemoryPath,
    f: MemoryFormBody,
) -> Response {
    change_memory(app, v, p, f, Change::Disable).await
}

async fn enable_memory(
    app: State<Arc<App>>,
    v: Viewer,
    p: MemoryPath,
    f: MemoryFormBody,
) -> Response {
    change_memory(app, v, p, f, Change::Enable).await
}

async fn delete_memory(
    app: State<Arc<App>>,
    v: Viewer,
    p: MemoryPath,
    f: MemoryFormBody,
) -> Response {
    change_memory(app, v, p, f, Change::Delete).await
}

/// Checks the form's CSRF token, makes the change through the tools and
/// returns to the memory's page, or shows why not.
async fn change_memory(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path((user, id)): MemoryPath,
    form: MemoryFormBody,
    change: Change,
) -> Response {
    let lang = viewer.lang;
    let Ok(Form(form)) = form else {
        return refused(lang, Refusal::new(Code::InvalidArgument, "the form could not be read"));
    };
    if let Some(refusal) = viewer.forged(&form.csrf) {
        return refusal;
    }
    let access = &viewer.access;
    let args = MemoryArgs { user_id: user.clone(), memory_id: id.clone() };
    let result = match change {
        Change::Edit => {
            let text = form.text.unwrap_or_default();
            let args = EditArgs { user_id: user.clone(), memory_id: id.clone(), text };
            app.engine.edit(access, args).await
        }
        Change::Disable => app.engine.disable(access, args).await,
        Change::Enable => app.engine.enable(access, args).await,
        Change::Delete => app.engine.forget(access, args).await,
    };
    match result {
        Ok(_) => {
            let back = format!("{}?done={}", memory_url(&user, &id), change.done());
            Redirect::to(&back).into_response()
        }
        Err(refusal) => refused(lang, refusal),
    }
}

#[derive(Deserialize, Default)]
struct SuggestionsShown {
    done: Option<String>,
    memory: Option<String>,
}

async fn suggestions(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path(user): Path<String>,
    Query(shown): Query<SuggestionsShown>,
) -> Response {
    let lang = viewer.lang;
    let t = lang.text();
    let query = SuggestionQuery {
        user_id: user.clone(),
        status: Some("pending".into()),
        limit: Some(crate::tools::MAX_PAGE),
        ..SuggestionQuery::default()
    };
    let pending = match app.engine.suggestions(&viewer.access, query).await {
        Ok(page) => page.suggestions,
        Err(refusal) => return refused(lang, refusal),
    };
    let mut cards = Vec::new();
    for s in &pending {
        let target = match &s.suggestion.memory_id {
            Some(id) => app.engine.memory(&viewer.access, id.clone()).await.ok().map(|e| e.memory),
            None => None,
        };
        cards.push(suggestion_card(t, &viewer, &user, s, target.as_ref()));
    }
    let body = html! {
        h1 { (t.pending) }
        @if let Some(done) = shown.done.as_deref() {
            (notice(t, done, shown.memory.as_deref().map(|id| memory_url(&user, id))))
        }
        @if pending.is_empty() { p { (t.no_pending) } }
        @for card in cards { (card) }
    };
    page(lang, t.pending, Some((&viewer, &user)), body)
}

/// One pending suggestion: what would change (before and after for an
/// update), its evidence, and the buttons that decide it.
fn suggestion_card(
    t: &Text,
    viewer: &Viewer,
    user: &str,
    record: &SuggestionRecord,
    target: Option<&MemoryRecord>,
) -> Markup {
    let s = &record.suggestion;
    let target_text = target.and_then(|m| m.memory.content.as_deref()).unwrap_or_default();
    let proposed = s.content.as_deref().unwrap_or_default();
    let url = format!("{}/{}", suggestions_url(user), encode(&s.suggestion_id));
    let csrf = viewer.csrf.clone().unwrap_or_default();
    let heading = format!("{} · {} · {}", t.op(s.op), t.kind(s.kind), s.scope);
    html! {
        section.card aria-label=(heading) {
            h2 { (t.op(s.op)) " " span.badge { (t.kind(s.kind)) } " " code { (s.scope) } }
            div.change {
                @match s.op {
                    SuggestionOp::Create => {
                        strong { (t.would_remember) } span { (proposed) }
                    }
                    SuggestionOp::Update => {
                        strong { (t.now) } span { (target_text) }
                        strong { (t.would_become) } span { (proposed) }
                    }
                    SuggestionOp::Retire => {
                        strong { (t.would_stop) } span { (target_text) }
                    }
                    SuggestionOp::Enable => {
                        strong { (t.would_use_again) } span { (target_text) }
                    }
                }
            }
            @if let Some(m) = target {
                p.muted { a href=(memory_url(user, &m.memory.memory_id)) { (t.see_memory) } }
            }
            h3 { (t.evidence) }
            (evidence_list(t, user, &record.evidence))
            p {
                (action_button(&url, "accept", &csrf, t.accept, ""))
                " "
                (action_button(&url, "reject", &csrf, t.reject, "secondary"))
            }
        }
    }
}

async fn decide(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path((user, id, decision)): Path<(String, String, String)>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Response {
    let csrf = form.map(|Form(f)| f.csrf).unwrap_or_default();
    if let Some(refusal) = viewer.forged(&csrf) {
        return refusal;
    }
    let args = SuggestionArgs { user_id: user.clone(), suggestion_id: id };
    let back = suggestions_url(&user);
    let result =
        match decision.as_str() {
            "accept" => app.engine.accept_suggestion(&viewer.access, args).await.map(|a| {
                format!("{back}?done=accept&memory={}", encode(&a.memory.memory.memory_id))
            }),
            "reject" => app
                .engine
                .reject_suggestion(&viewer.access, args)
                .await
                .map(|_| format!("{back}?done=reject")),
            _ => return not_found(http::Uri::from_static("/"), http::HeaderMap::new()).await,
        };
    match result {
        Ok(url) => Redirect::to(&url).into_response(),
        Err(refusal) => refused(viewer.lang, refusal),
    }
}

async fn conversation(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Path((user, id)): Path<(String, String)>,
) -> Response {
    let lang = viewer.lang;
    let t = lang.text();
    let args = ConversationArgs { user_id: user.clone(), conversation_id: id };
    let c = match app.engine.conversation(&viewer.access, args).await {
        Ok(c) => c,
        Err(refusal) => return refused(lang, refusal),
    };
    page(lang, t.conversation, Some((&viewer, &user)), conversation_body(t, &c))
}

fn conversation_body(t: &Text, c: &Conversation) -> Markup {
    let user = &c.user_id;
    html! {
        h1 { (t.conversation) " " code { (c.conversation_id) } }
        h2 { (t.used_memories) }
        @if c.memories.is_empty() { p.muted { (t.none_used) } }
        @else {
            table {
                thead { tr {
                    th scope="col" { (t.content) }
                    th scope="col" { (t.kind) }
                    th scope="col" { (t.origin) }
                    th scope="col" { (t.status) }
                    th scope="col" { (t.expires) }
                    th scope="col" { (t.version) }
                } }
                tbody { @for record in &c.memories { (memory_row(t, user, record)) } }
            }
            h3 { (t.loads) }
            ul {
                @for load in &c.loads {
                    li {
                        (time(load.at)) ": "
                        @for (i, m) in load.memories.iter().enumerate() {
                            @if i > 0 { ", " }
                            a href=(memory_url(user, &m.memory_id)) { "v" (m.version) }
                        }
                    }
                }
            }
        }
        h2 { (t.messages) }
        @if c.messages.is_empty() { p.muted { (t.no_messages) } }
        ol.messages {
            @for m in &c.messages {
                li id=(message_anchor(&m.message_id)) {
                    span.badge { (t.role(m.role)) } " "
                    span.muted { (time(m.created_at)) } " "
                    bdi { (without_direction_controls(&m.content)) }
                }
            }
        }
    }
}

/// A message as written, but for the characters that reorder what follows
/// them (bidi embeddings, overrides and isolates), shown as `�`: a message
/// may hold them (stored texts may not), and they would make the page
/// read otherwise than the message does.
fn without_direction_controls(text: &str) -> String {
    text.chars()
        .map(|c| {
            if matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') {
                '\u{fffd}'
            } else {
                c
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_cannot_reorder_the_page() {
        let shown = without_direction_controls("手机 \u{202e}8765 \u{2067}x\u{2069} ok");
        assert_eq!(shown, "手机 \u{fffd}8765 \u{fffd}x\u{fffd} ok");
    }

    #[test]
    fn urls_encode_ids_and_login_returns_only_to_this_site() {
        assert_eq!(memory_url("jay/x", "a b"), "/u/jay%2Fx/memories/a%20b");
        assert_eq!(encode("周"), "%E5%91%A8");
        assert_eq!(safe_next(Some("/u/jay")), "/u/jay");
        for bad in [
            "//evil.example",
            "https://evil.example",
            "/\\evil",
            "",
            "/\t/evil.example/x",
            "/\r/evil.example",
            "/\n/evil.example",
            "/\x0b/evil.example",
            "/ /evil.example",
            "/\u{3000}/evil.example",
            "/u/jay\u{7f}",
        ] {
            assert_eq!(safe_next(Some(bad)), "/", "{bad}");
        }
        assert_eq!(safe_next(None), "/");
    }

    #[test]
    fn scopes_group_most_specific_first() {
        let key = |s: &str| {
            let scope: crate::domain::Scope = s.parse().unwrap();
            (std::cmp::Reverse(scope.specificity()), scope.to_string())
        };
        let mut keys = [key("global"), key("project:A"), key("domain:recipe")];
        keys.sort();
        assert_eq!(
            keys.iter().map(|k| k.1.as_str()).collect::<Vec<_>>(),
            ["project:A", "domain:recipe", "global"]
        );
    }
}
