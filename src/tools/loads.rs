//! Loads recorded off the request path (spec §7; issue 13): an HTTP recall
//! answers as soon as it has chosen, and its load is written by one
//! background task in batches, so a request never waits for SQLite's write
//! lock while a run holds it. Reads of loads in the same process first wait
//! until every load queued before them is written ([`LoadWriter::flush`]);
//! stopping the server writes what is queued. A crash loses at most the
//! loads of the last few milliseconds, never a memory.

use crate::domain::{Load, Write};
use crate::error::Error;
use crate::store::Store;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

/// Loads queued before a request waits for room.
const QUEUE: usize = 4096;
/// Loads written in one transaction at most.
const BATCH: usize = 256;
/// Attempts at a batch before its loads are given up (with an error line).
const ATTEMPTS: u32 = 6;
/// The wait before the second attempt; doubled each time after.
const FIRST_BACKOFF: Duration = Duration::from_millis(100);

enum Message {
    Load(Load),
    /// Answered once every load queued before it is written (or given up).
    Flush(oneshot::Sender<()>),
}

/// The queue and its writer task.
pub struct LoadWriter {
    queue: mpsc::Sender<Message>,
    task: std::sync::Mutex<Option<JoinHandle<()>>>,
}

impl LoadWriter {
    /// Starts the writer task on `store`.
    pub fn start<S: Store + 'static>(store: S) -> LoadWriter {
        let (queue, received) = mpsc::channel(QUEUE);
        let task = tokio::spawn(write_loads(store, received));
        LoadWriter { queue, task: std::sync::Mutex::new(Some(task)) }
    }

    /// Queues a load; waits only when the queue is full.
    pub async fn record(&self, load: Load) -> Result<(), Error> {
        self.queue.send(Message::Load(load)).await.map_err(|_| {
            Error::Unreachable("the load writer has stopped (the server is stopping)".into())
        })
    }

    /// Waits until every load queued so far is written.
    pub async fn flush(&self) {
        let (done, written) = oneshot::channel();
        if self.queue.send(Message::Flush(done)).await.is_ok() {
            let _ = written.await;
        }
    }

    /// Writes what is queued and stops the task; later loads are refused.
    pub async fn close(&self) {
        self.flush().await;
        let task = self.task.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        if let Some(task) = task {
            task.abort();
            let _ = task.await;
        }
    }
}

/// The writer task: takes what is queued, up to a batch, and writes it in
/// one transaction; then answers the flushes that were queued with it.
async fn write_loads<S: Store>(store: S, mut received: mpsc::Receiver<Message>) {
    while let Some(first) = received.recv().await {
        let mut loads = Vec::new();
        let mut flushes = Vec::new();
        let mut next = Some(first);
        while let Some(message) = next {
            match message {
                Message::Load(load) => loads.push(load),
                Message::Flush(done) => flushes.push(done),
            }
            next = if loads.len() < BATCH { received.try_recv().ok() } else { None };
        }
        if !loads.is_empty() {
            write_batch(&store, loads).await;
        }
        for done in flushes {
            let _ = done.send(());
        }
    }
}

/// Writes a batch, retrying with backoff while the database is busy or
/// away; gives it up with an error line naming the loads after the last try.
async fn write_batch<S: Store>(store: &S, loads: Vec<Load>) {
    let mut backoff = FIRST_BACKOFF;
    for attempt in 1..=ATTEMPTS {
        let writes = loads.iter().cloned().map(Write::InsertLoad).collect();
        match store.apply(writes).await {
            Ok(()) => return,
            Err(e) if attempt < ATTEMPTS => {
                tracing::warn!(error = %e, loads = loads.len(), attempt, "could not record loads; trying again");
                tokio::time::sleep(backoff).await;
                backoff *= 2;
            }
            Err(e) => {
                let ids: Vec<&str> = loads.iter().map(|l| l.load_id.as_str()).collect();
                tracing::error!(error = %e, load_ids = ?ids, "gave up recording loads");
            }
        }
    }
}
