//! What the model may have seen of a user: the messages of their recent
//! conversations that hold a value the detectors find (a credential, an
//! identifier). Neither stage may store a piece of one (spec §2: every text
//! the model writes is checked, whatever it quotes): a model shown a
//! password in one call may write it in another, in another conversation
//! of the same user or in stage two, which sees only slips.

use crate::config::Config;
use crate::detect;
use crate::domain::Time;
use crate::error::Error;
use crate::store::Store;
use crate::text;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// The messages of `user_id`'s conversations that hold a value, as far
/// back as the lookback window or the slips stage two is shown, whichever
/// is longer, and the older ones stage one shows as context of the first.
pub async fn messages_with_values<S: Store>(
    store: &S,
    config: &Config,
    user_id: &str,
    now: Time,
) -> Result<Vec<String>, Error> {
    let since = now - config.selection.lookback.max(config.policy.slip_ttl);
    let detector = config.detector();
    let context = config.selection.context_messages;
    let texts = store.conversation_texts(user_id, since, context).await?;
    Ok(texts.into_iter().filter(|t| detector.finds_a_value(&text::normalize(t))).collect())
}

/// [`messages_with_values`] of each user, read once per run, when a text
/// the model wrote first could carry a piece of one.
#[derive(Default)]
pub struct SeenValues(Mutex<HashMap<String, Arc<Vec<String>>>>);

impl SeenValues {
    /// The user's messages with values when one of `texts` could carry a
    /// piece of one (a value-like word, four digits) or a code, else nothing.
    pub async fn for_texts<S: Store>(
        &self,
        store: &S,
        config: &Config,
        user_id: &str,
        now: Time,
        texts: &[&str],
    ) -> Result<Arc<Vec<String>>, Error> {
        if !detect::needs_what_the_user_said(texts) {
            return Ok(Arc::default());
        }
        if let Some(kept) = self.lock().get(user_id) {
            return Ok(kept.clone());
        }
        let values = Arc::new(messages_with_values(store, config, user_id, now).await?);
        self.lock().insert(user_id.to_owned(), values.clone());
        Ok(values)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Vec<String>>>> {
        // Every change is one insert: a poisoned map is whole.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
