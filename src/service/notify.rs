//! systemd notifications (`Type=notify`): READY=1, STATUS= lines, WATCHDOG=1.
//! All are no-ops when not under systemd (no NOTIFY_SOCKET).

use sd_notify::NotifyState;

/// Tells systemd that dreamd is up: configuration and database are good.
pub fn ready(status: &str) {
    send(&[NotifyState::Ready, NotifyState::Status(status)]);
}

/// The one line `systemctl status` shows.
pub fn status(text: &str) {
    send(&[NotifyState::Status(text)]);
}

pub fn stopping() {
    send(&[NotifyState::Stopping, NotifyState::Status("stopping")]);
}

fn send(states: &[NotifyState]) {
    if let Err(e) = sd_notify::notify(states) {
        tracing::warn!(error = %e, "could not notify systemd");
    }
}

/// Pings the watchdog at half its interval while the returned task lives,
/// when the unit sets `WatchdogSec`.
pub fn spawn_watchdog() -> Option<tokio::task::JoinHandle<()>> {
    let interval = sd_notify::watchdog_enabled()?;
    Some(tokio::spawn(async move {
        let mut tick = tokio::time::interval(interval / 2);
        loop {
            tick.tick().await;
            send(&[NotifyState::Watchdog]);
        }
    }))
}
