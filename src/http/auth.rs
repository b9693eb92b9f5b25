//! Who is calling (spec §13): bearer tokens from `http.tokens`, read from
//! the environment at start-up and compared in constant time; the session
//! cookie a browser gets by logging in with its token; the CSRF token every
//! form of a session carries.
//!
//! Sessions live in memory, keyed by a digest of their random id: a restart
//! logs everybody out, which costs a person one login and spares dreamd a
//! table of secrets.

use crate::config::HttpToken;
use crate::error::Error;
use crate::tools::{Access, Grant};
use http::HeaderMap;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use subtle::ConstantTimeEq;

/// The shortest token accepted: anything shorter can be guessed.
pub const MIN_TOKEN_CHARS: usize = 16;
/// How long a browser session lasts after login.
pub const SESSION_LIFETIME: Duration = Duration::from_secs(12 * 60 * 60);
/// Sessions kept at most; beyond it, logging in drops the oldest.
const MAX_SESSIONS: usize = 10_000;
/// The session cookie's name.
pub const SESSION_COOKIE: &str = "dreamd_session";
/// The cookie that ties a login form to the browser that loaded it.
pub const LOGIN_COOKIE: &str = "dreamd_login";

pub(crate) type Digest32 = [u8; 32];

pub(crate) fn digest(secret: &str) -> Digest32 {
    Sha256::digest(secret.as_bytes()).into()
}

/// A fresh random value of 32 bytes as hex: session ids and CSRF tokens.
pub fn random_token() -> Result<String, Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| Error::Io {
        context: "reading the system's random source".into(),
        source: std::io::Error::other(e.to_string()),
    })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Equal in time that does not depend on where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    digest(a).ct_eq(&digest(b)).into()
}

struct Token {
    digest: Digest32,
    users: Vec<String>,
}

/// The configured bearer tokens, as digests (the values are not kept).
pub struct Tokens(Vec<Token>);

impl Tokens {
    /// Reads every token from the variable its entry names. An unset, empty
    /// or short one is a configuration error naming the variable (never the value).
    pub fn from_env(entries: &[HttpToken]) -> Result<Tokens, Error> {
        Self::from_lookup(entries, |name| std::env::var(name).ok())
    }

    /// As [`Tokens::from_env`], with the variables looked up by `lookup`.
    pub fn from_lookup(
        entries: &[HttpToken],
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<Tokens, Error> {
        let mut tokens = Vec::new();
        for entry in entries {
            let name = &entry.token_env;
            let value = lookup(name).ok_or_else(|| {
                Error::Config(format!(
                    "http.tokens: environment variable {name} is not set (it holds a bearer token)"
                ))
            })?;
            if value.trim().chars().count() < MIN_TOKEN_CHARS {
                return Err(Error::Config(format!(
                    "http.tokens: the token in {name} is shorter than {MIN_TOKEN_CHARS} characters"
                )));
            }
            let token = Token { digest: digest(value.trim()), users: entry.users.clone() };
            if let Some(i) = tokens.iter().position(|t: &Token| t.digest == token.digest) {
                let other = &entries[i].token_env;
                return Err(Error::Config(if other == name {
                    format!("http.tokens: {name} is listed twice; list it once with all its users")
                } else {
                    format!(
                        "http.tokens: {name} holds the same token as {other}; a token shared by \
                         two entries acts for the users of both, so give each caller a token of its own"
                    )
                }));
            }
            tokens.push(token);
        }
        Ok(Tokens(tokens))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The users a token may act for, or `None` for an unknown token. Every
    /// configured token is compared, each in constant time, so the answer's
    /// timing tells nothing about which one matched or how much of it.
    pub fn access(&self, token: &str) -> Option<Access> {
        let given = digest(token.trim());
        let mut users: Vec<String> = Vec::new();
        let mut matched = false;
        for t in &self.0 {
            if bool::from(t.digest.ct_eq(&given)) {
                matched = true;
                users.extend(t.users.iter().cloned());
            }
        }
        matched.then(|| Access::new(users, Grant::HttpToken))
    }
}

/// The token of an `Authorization: Bearer …` header, if there is exactly
/// one such header: with two, a proxy and dreamd could each read a different
/// caller, so neither is believed.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let mut all = headers.get_all(http::header::AUTHORIZATION).iter();
    let (value, None) = (all.next()?.to_str().ok()?, all.next()) else {
        return None;
    };
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then_some(token.trim())
}

/// The value of cookie `name` in the request's `Cookie` headers.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// A `Set-Cookie` value: HttpOnly, SameSite=Strict, for the whole site.
pub fn set_cookie(name: &str, value: &str, max_age: Duration) -> String {
    format!("{name}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}", max_age.as_secs())
}

/// A logged-in browser: whom it may act for and its forms' CSRF token.
#[derive(Clone)]
pub struct Session {
    pub access: Access,
    pub csrf: String,
    expires: Instant,
}

/// The sessions of logged-in browsers.
#[derive(Default)]
pub struct Sessions(Mutex<HashMap<Digest32, Session>>);

impl Sessions {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<Digest32, Session>> {
        // A panic while holding the lock leaves the map itself consistent
        // (every change is one insert or remove), so a poisoned lock is used as is.
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Starts a session; returns its id (for the cookie) and the session.
    pub fn start(&self, access: Access) -> Result<(String, Session), Error> {
        let id = random_token()?;
        let session =
            Session { access, csrf: random_token()?, expires: Instant::now() + SESSION_LIFETIME };
        let mut map = self.map();
        let now = Instant::now();
        map.retain(|_, s| s.expires > now);
        if map.len() >= MAX_SESSIONS
            && let Some(oldest) = map.iter().min_by_key(|(_, s)| s.expires).map(|(k, _)| *k)
        {
            map.remove(&oldest);
        }
        map.insert(digest(&id), session.clone());
        Ok((id, session))
    }

    /// The live session with this id.
    pub fn find(&self, id: &str) -> Option<Session> {
        let key = digest(id);
        let mut map = self.map();
        match map.get(&key) {
            Some(s) if s.expires > Instant::now() => Some(s.clone()),
            Some(_) => {
                map.remove(&key);
                None
            }
            None => None,
        }
    }

    pub fn end(&self, id: &str) {
        self.map().remove(&digest(id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(env: &str, users: &[&str]) -> HttpToken {
        HttpToken { token_env: env.into(), users: users.iter().map(|u| u.to_string()).collect() }
    }

    #[test]
    fn tokens_come_from_the_named_variables_and_map_to_their_users() {
        let env = |name: &str| match name {
            "T_JAY" => Some("jay-token-0123456789".to_owned()),
            "T_ALL" => Some("all-token-0123456789".to_owned()),
            _ => None,
        };
        let tokens =
            Tokens::from_lookup(&[entry("T_JAY", &["jay"]), entry("T_ALL", &["*"])], env).unwrap();
        assert_eq!(tokens.access("jay-token-0123456789").unwrap().users(), ["jay"]);
        assert!(tokens.access("all-token-0123456789").unwrap().allows("emma"));
        assert!(tokens.access("jay-token-012345678").is_none());
        assert!(tokens.access("").is_none());
        let err = Tokens::from_lookup(&[entry("T_MISSING", &["jay"])], env).err().unwrap();
        assert!(err.to_string().contains("T_MISSING"), "{err}");
        let short = Tokens::from_lookup(&[entry("T_SHORT", &["jay"])], |_| Some("short".into()))
            .err()
            .unwrap()
            .to_string();
        assert!(short.contains("T_SHORT") && !short.contains("short\""), "{short}");
        let shared = |_: &str| Some("one-token-for-both-0123".to_owned());
        let twice = Tokens::from_lookup(&[entry("T_A", &["jay"]), entry("T_B", &["emma"])], shared)
            .err()
            .unwrap()
            .to_string();
        assert!(twice.contains("T_B holds the same token as T_A"), "{twice}");
        assert!(!twice.contains("one-token-for-both"), "{twice}");
        let listed =
            Tokens::from_lookup(&[entry("T_A", &["jay"]), entry("T_A", &["emma"])], shared)
                .err()
                .unwrap()
                .to_string();
        assert!(listed.contains("T_A is listed twice"), "{listed}");
    }

    #[test]
    fn headers_give_the_bearer_token_and_cookies() {
        let mut headers = HeaderMap::new();
        headers.insert(http::header::AUTHORIZATION, "Bearer abc".parse().unwrap());
        headers.insert(http::header::COOKIE, "a=1; dreamd_session=xyz".parse().unwrap());
        assert_eq!(bearer(&headers), Some("abc"));
        assert_eq!(cookie(&headers, SESSION_COOKIE), Some("xyz"));
        assert_eq!(cookie(&headers, "missing"), None);
        headers.append(http::header::AUTHORIZATION, "Bearer other".parse().unwrap());
        assert_eq!(bearer(&headers), None, "two Authorization headers: no caller");
    }

    #[test]
    fn sessions_are_found_by_their_id_until_they_end() {
        let sessions = Sessions::default();
        let access = Access::new(vec!["jay".into()], Grant::HttpToken);
        let (id, session) = sessions.start(access.clone()).unwrap();
        assert_eq!(id.len(), 64);
        assert_eq!(sessions.find(&id).unwrap().csrf, session.csrf);
        assert!(sessions.find("not-a-session").is_none());
        sessions.end(&id);
        assert!(sessions.find(&id).is_none());
        assert!(same_secret("a", "a") && !same_secret("a", "b"));
    }
}
