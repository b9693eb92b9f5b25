//! The review pages in a real browser: Debian's headless Chromium driven
//! through WebDriver (chromedriver + fantoccini), on the example
//! conversations after a run. A person logs in with a token, accepts a
//! suggestion and sees the explicit memory appear, deletes a memory and sees
//! the tombstone. Screenshots of each step go to
//! `target/browser-screenshots/` (the path is printed).
//!
//! Without chromium and chromedriver the test says so and passes, except in
//! CI (`CI=true`), where `.ci/run` installs them and their absence fails.

use crate::helpers::{Dreamd, NOW, examples};
use crate::served::{ADMIN_TOKEN, JAY_TOKEN, Served, with_tokens};
use fantoccini::{Client, ClientBuilder, Locator};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// The browser and driver, or `None` (with a note) outside CI when absent.
fn browser_installed() -> bool {
    if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI must install chromium and chromium-driver (.ci/run does, as root)");
    }
    eprintln!(
        "skipped: {CHROMIUM} or {CHROMEDRIVER} is missing (apt-get install chromium chromium-driver)"
    );
    false
}

/// chromedriver on a port it picks itself, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    /// chromedriver, started again when it exits before it says its port
    /// (seen once under the whole suite's load); the last attempt's output
    /// is in the failure.
    fn start() -> Driver {
        let mut said = String::new();
        for _ in 0..3 {
            match Self::try_start() {
                Ok(driver) => return driver,
                Err(output) => said = output,
            }
        }
        panic!("chromedriver never said on which port it listens; it printed:\n{said}");
    }

    fn try_start() -> Result<Driver, String> {
        let mut child = Command::new(CHROMEDRIVER)
            .arg("--port=0")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let stdout = child.stdout.take().unwrap();
        let (found, port) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let port = line.split("started successfully on port ").nth(1);
                let port = port.and_then(|rest| rest.trim_end_matches('.').parse::<u16>().ok());
                let _ = found.send((line, port));
            }
        });
        let mut said = String::new();
        while let Ok((line, port)) = port.recv_timeout(Duration::from_secs(20)) {
            if let Some(port) = port {
                return Ok(Driver { child, port });
            }
            said.push_str(&line);
            said.push('\n');
        }
        let _ = child.kill();
        let _ = child.wait();
        Err(said)
    }
}

/// Where screenshots go: `target/browser-screenshots`, or under `CARGO_TARGET_DIR`.
fn screenshot_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    let dir = target.join("browser-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn shoot(client: &Client, dir: &Path, name: &str) {
    let png = client.screenshot().await.expect("a screenshot");
    std::fs::write(dir.join(name), png).unwrap();
}

async fn headless_chromium(driver: &Driver, profile: &Path) -> Client {
    let options = serde_json::json!({
        "binary": CHROMIUM,
        "args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--window-size=1280,900", "--lang=en-US",
            format!("--user-data-dir={}", profile.display()),
        ],
        "prefs": {"intl.accept_languages": "en-US,en"},
    });
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("goog:chromeOptions".into(), options);
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a WebDriver session with headless Chromium")
}

/// Fills the login page's form with `token` and waits for the page it leads to.
async fn log_in(client: &Client, token: &str) {
    client.find(Locator::Id("token")).await.unwrap().send_keys(token).await.unwrap();
    client
        .find(Locator::Css("main form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    client.wait().for_element(Locator::Css("main h1")).await.unwrap();
}

async fn text_of(client: &Client, css: &str) -> String {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .text()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_person_reviews_memories_in_a_browser() {
    if !browser_installed() {
        return;
    }
    let d = with_tokens(Dreamd::sqlite());
    assert_eq!(d.run(&["ingest", examples().to_str().unwrap()]).code, 0);
    d.run_once(NOW, &[]);
    let path = format!("/srv/share/{}/results.csv", "stability_run_".repeat(30));
    let unbroken =
        ["memories", "set", "--user", "ops", "--kind", "background", "--scope", "global"];
    let with_path = format!("数据在 {path}");
    let set = d.run(&[&unbroken[..], &[with_path.as_str()]].concat());
    assert_eq!(set.code, 0, "{}", set.stderr);
    let served = Served::start(&d);
    let driver = Driver::start();
    let profile = tempfile::TempDir::new().unwrap();
    let client = headless_chromium(&driver, profile.path()).await;
    let shots = screenshot_dir();
    eprintln!("browser screenshots: {}", shots.display());

    client.goto(&served.url("/u/jay")).await.unwrap();
    assert!(client.current_url().await.unwrap().path().starts_with("/login"));
    shoot(&client, &shots, "01-login.png").await;
    log_in(&client, JAY_TOKEN).await;
    assert_eq!(client.current_url().await.unwrap().path(), "/u/jay");
    assert_eq!(text_of(&client, "main h1").await, "Memories of jay");
    let listed = text_of(&client, "main").await;
    assert!(listed.contains("我在研发中心质检部，负责乳品微生物检测"), "{listed}");
    assert!(listed.contains("auto-learned") && !listed.contains("explicit"), "{listed}");
    shoot(&client, &shots, "02-memories.png").await;
    if let Some(readme) = std::env::var_os("DREAMD_README_SCREENSHOT") {
        shoot(
            &client,
            Path::new(&readme).parent().unwrap(),
            Path::new(&readme).file_name().unwrap().to_str().unwrap(),
        )
        .await;
    }

    client.find(Locator::LinkText("Suggestions")).await.unwrap().click().await.unwrap();
    client.wait().for_element(Locator::Css("section.card")).await.unwrap();
    assert_eq!(client.find_all(Locator::Css("section.card")).await.unwrap().len(), 2);
    shoot(&client, &shots, "03-suggestions.png").await;
    let accept = "//section[contains(., 'LC')]//button[normalize-space()='Accept']";
    client.find(Locator::XPath(accept)).await.unwrap().click().await.unwrap();
    client.wait().for_element(Locator::Css("p.notice")).await.unwrap();
    assert!(text_of(&client, "p.notice").await.starts_with("Accepted."));
    assert_eq!(client.find_all(Locator::Css("section.card")).await.unwrap().len(), 1);
    client.find(Locator::LinkText("See the memory")).await.unwrap().click().await.unwrap();
    client.wait().for_element(Locator::Css("dl.facts")).await.unwrap();
    let accepted = text_of(&client, "main").await;
    assert!(
        accepted.contains("我说的LC指的是生命周期") && accepted.contains("explicit"),
        "{accepted}"
    );
    shoot(&client, &shots, "04-accepted.png").await;
    client.find(Locator::LinkText("Memories")).await.unwrap().click().await.unwrap();
    let row = "//tr[contains(., '我说的LC指的是生命周期')]";
    let row = client.wait().for_element(Locator::XPath(row)).await.unwrap().text().await.unwrap();
    assert!(row.contains("explicit") && row.contains("terminology"), "{row}");

    client
        .find(Locator::LinkText("我在研发中心质检部，负责乳品微生物检测"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    client
        .wait()
        .for_element(Locator::XPath("//main//a[starts-with(normalize-space(), 'Delete')]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    client.wait().for_element(Locator::Css("button.danger")).await.unwrap();
    assert_eq!(text_of(&client, "main h1").await, "Delete this memory?");
    shoot(&client, &shots, "05-confirm-delete.png").await;
    client.find(Locator::Css("button.danger")).await.unwrap().click().await.unwrap();
    client.wait().for_element(Locator::Css("p.notice")).await.unwrap();
    let tombstone = text_of(&client, "main").await;
    assert!(tombstone.contains("only a tombstone remains"), "{tombstone}");
    assert!(!tombstone.contains("我在研发中心质检部"), "the text is erased: {tombstone}");
    shoot(&client, &shots, "06-tombstone.png").await;
    client.find(Locator::LinkText("Memories")).await.unwrap().click().await.unwrap();
    client.wait().for_element(Locator::Css("main h1")).await.unwrap();
    let after = text_of(&client, "main").await;
    assert!(
        after.contains("only a tombstone remains") && !after.contains("我在研发中心质检部"),
        "{after}"
    );

    client.find(Locator::Css("header form button")).await.unwrap().click().await.unwrap();
    client.wait().for_element(Locator::Id("token")).await.unwrap();
    client.goto(&served.url("/u/jay")).await.unwrap();
    assert!(client.current_url().await.unwrap().path().starts_with("/login"), "logged out");

    // A long unbroken token (a path, a URL) wraps instead of widening the
    // page past the window (HTTP round 4, L5: /u/jay was 4,259 px wide).
    log_in(&client, ADMIN_TOKEN).await;
    client.goto(&served.url("/u/ops")).await.unwrap();
    client.wait().for_element(Locator::Css("main table")).await.unwrap();
    assert!(text_of(&client, "main").await.contains("stability_run_stability_run_"));
    let wider = "return document.documentElement.scrollWidth - window.innerWidth";
    for (shot, page) in [("07-long-path.png", "memories"), ("08-long-path-memory.png", "memory")] {
        if page == "memory" {
            client.find(Locator::Css("main td a")).await.unwrap().click().await.unwrap();
            client.wait().for_element(Locator::Css("dl.facts")).await.unwrap();
        }
        let overflow = client.execute(wider, Vec::new()).await.unwrap();
        shoot(&client, &shots, shot).await;
        assert!(
            overflow.as_i64().is_some_and(|px| px <= 0),
            "a 450-character path widens the {page} page by {overflow} px"
        );
    }
    client.close().await.unwrap();
}
