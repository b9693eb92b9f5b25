//! `dreamd serve` as a child process on a free port (`--listen 127.0.0.1:0`),
//! found through its log line, with three tokens: one for jay, one for
//! emma and one for every user. Its log is kept, to check that no token and
//! no refused text ever reaches it.

use crate::helpers::{Dreamd, NOW};
use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const JAY_TOKEN: &str = "jay-token-4f1c9a77e2b84d0c";
pub const EMMA_TOKEN: &str = "emma-token-9b2e61d4c7a0f3e5";
pub const ADMIN_TOKEN: &str = "all-users-token-1d8e5c2b9a7f";

/// The configuration and variables of the three tokens.
pub fn with_tokens(d: Dreamd) -> Dreamd {
    d.env(
        "DREAMD_HTTP__TOKENS",
        r#"[{token_env = "TOKEN_JAY", users = ["jay"]}, {token_env = "TOKEN_EMMA", users = ["emma"]}, {token_env = "TOKEN_ALL", users = ["*"]}]"#,
    )
    .env("TOKEN_JAY", JAY_TOKEN)
    .env("TOKEN_EMMA", EMMA_TOKEN)
    .env("TOKEN_ALL", ADMIN_TOKEN)
}

/// A running server, killed when dropped.
pub struct Served {
    child: Child,
    pub base: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// Starts `dreamd serve --now NOW` with JSON logs and waits for its address.
    pub fn start(d: &Dreamd) -> Served {
        Served::start_with(d, &["serve", "--listen", "127.0.0.1:0", "--now", NOW], &[])
    }

    /// Starts `dreamd ARGS --format json` with extra environment and waits
    /// for the address of its HTTP server.
    pub fn start_with(d: &Dreamd, args: &[&str], env: &[(&str, &str)]) -> Served {
        let mut child = d
            .command(&[args, &["--format", "json"]].concat())
            .env("DREAMD_LOG__LEVEL", "info")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (found, address) = std::sync::mpsc::channel();
        let kept = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Ok(entry) = serde_json::from_str::<serde_json::Value>(&line)
                    && entry["message"] == "HTTP server listening"
                {
                    let _ = found.send(entry["address"].as_str().unwrap_or_default().to_owned());
                }
                kept.lock().unwrap().push(line);
            }
        });
        let address = address.recv_timeout(Duration::from_secs(30)).unwrap_or_else(|_| {
            panic!("no 'HTTP server listening' line: {:?}", log.lock().unwrap())
        });
        Served { child, base: format!("http://{address}"), log }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Everything the server logged so far.
    pub fn log(&self) -> String {
        self.log.lock().unwrap().join("\n")
    }

    /// Sends SIGTERM and waits for the exit code.
    pub fn stop(mut self) -> i32 {
        self.terminate();
        self.exit_code()
    }

    /// Sends SIGTERM, and again once the first is heard (`stop requested`
    /// in the log); the exit code.
    pub fn stop_twice(mut self) -> i32 {
        self.terminate();
        let start = Instant::now();
        while !self.log().contains("stop requested") {
            assert!(start.elapsed() < Duration::from_secs(15), "the first SIGTERM is not heard");
            std::thread::sleep(Duration::from_millis(20));
        }
        self.terminate();
        self.exit_code()
    }

    fn terminate(&self) {
        let status = std::process::Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Waits for the exit (at most 15 s); its code.
    fn exit_code(&mut self) -> i32 {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            assert!(start.elapsed() < Duration::from_secs(15), "still serving 15 s after SIGTERM");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}
