//! SIGTERM and SIGINT: the first asks for a graceful stop, a second one for an
//! immediate one (transactions in flight roll back; nothing is half-written).
//! SIGHUP, whose default action would end the process (a closed terminal, a
//! `kill -HUP` meant as "reload"), is logged and ignored.
//! The service returns which it was; `main` chooses the exit code.

use std::future::Future;
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::watch;

/// The stop signals received so far.
pub struct StopSignals {
    count: watch::Receiver<u32>,
}

impl StopSignals {
    /// Registers the handlers now, so a signal that arrives during start-up is
    /// not lost, and counts them from then on.
    pub fn listen() -> std::io::Result<StopSignals> {
        let mut terminate = signal(SignalKind::terminate())?;
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut hangup = signal(SignalKind::hangup())?;
        let (counter, count) = watch::channel(0u32);
        tokio::spawn(async move {
            loop {
                let name = tokio::select! {
                    _ = terminate.recv() => "SIGTERM",
                    _ = interrupt.recv() => "SIGINT",
                    _ = hangup.recv() => {
                        tracing::warn!(
                            signal = "SIGHUP",
                            "ignored: the configuration is read at start; restart dreamd to apply a change"
                        );
                        continue;
                    }
                };
                // Logged before it is told, so the log reads in the order things happened.
                match *counter.borrow() + 1 {
                    1 => tracing::info!(
                        signal = name,
                        "stop requested; send it again to exit at once"
                    ),
                    _ => tracing::warn!(signal = name, "second stop signal: exiting at once"),
                }
                counter.send_modify(|n| *n += 1);
            }
        });
        Ok(StopSignals { count })
    }

    /// Completes on the first signal.
    pub fn first(&self) -> impl Future<Output = ()> + use<> {
        Self::at_least(self.count.clone(), 1)
    }

    /// Completes on the second signal.
    pub fn second(&self) -> impl Future<Output = ()> + use<> {
        Self::at_least(self.count.clone(), 2)
    }

    async fn at_least(mut count: watch::Receiver<u32>, n: u32) {
        if count.wait_for(|c| *c >= n).await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}
