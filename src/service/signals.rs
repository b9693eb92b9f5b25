//! SIGTERM and SIGINT: the first asks for a graceful stop, a second one
//! exits at once (transactions in flight roll back; nothing is half-written).

use std::future::Future;
use tokio::signal::unix::{SignalKind, signal};

/// Registers the handlers now, so a signal that arrives during start-up is
/// not lost, and returns the future that completes on the first one.
pub fn shutdown_signal() -> std::io::Result<impl Future<Output = ()>> {
    let mut terminate = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    Ok(async move {
        let name = tokio::select! {
            _ = terminate.recv() => "SIGTERM",
            _ = interrupt.recv() => "SIGINT",
        };
        tracing::info!(signal = name, "stop requested; send it again to exit at once");
        tokio::spawn(async move {
            tokio::select! {
                _ = terminate.recv() => {}
                _ = interrupt.recv() => {}
            }
            tracing::warn!("second stop signal: exiting at once");
            std::process::exit(130);
        });
    })
}
