//! What each user said to the model in this run, as runs of characters, so
//! that a text the model writes for one user carries no run of words only
//! another user said (model review of December 2026, M4): a model that
//! was shown one user's conversation may not write it into another user's
//! slips or memories. Pure: stage one records the messages it sends, both
//! stages ask before they keep a text.

use crate::text::{is_cjk, loose_form};
use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Mutex, PoisonError};

/// Chinese characters in a run that names who said it (`在财务部负责`).
const CHINESE_RUN: usize = 6;
/// Letters and digits in a run that names who said it (about three words).
const LATIN_RUN: usize = 16;

/// Who said a run: one user, or several (a common phrase, nobody's own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Speaker {
    One(u32),
    Several,
}

/// The runs of characters said in this run's conversations, by speaker.
#[derive(Debug, Default)]
pub struct SaidInRun(Mutex<Said>);

#[derive(Debug, Default)]
struct Said {
    users: HashMap<String, u32>,
    runs: HashMap<u64, Speaker>,
}

impl SaidInRun {
    /// Notes what `user_id` said (a message sent to the model).
    pub fn record(&self, user_id: &str, text: &str) {
        let mut said = self.lock();
        let next = said.users.len() as u32;
        let user = *said.users.entry(user_id.to_owned()).or_insert(next);
        for run in runs_of(text) {
            said.runs
                .entry(run)
                .and_modify(|s| {
                    if *s != Speaker::One(user) {
                        *s = Speaker::Several;
                    }
                })
                .or_insert(Speaker::One(user));
        }
    }

    /// Whether `text`, written for `user_id`, holds a run of characters
    /// that one other user said this run and that `own` (what the text was
    /// written from) does not hold.
    pub fn carries_anothers_words<'a>(
        &self,
        user_id: &str,
        text: &str,
        own: impl IntoIterator<Item = &'a str>,
    ) -> bool {
        let said = self.lock();
        let user = said.users.get(user_id).copied();
        let others: Vec<u64> = runs_of(text)
            .into_iter()
            .filter(|run| match said.runs.get(run) {
                Some(Speaker::One(speaker)) => Some(*speaker) != user,
                _ => false,
            })
            .collect();
        if others.is_empty() {
            return false;
        }
        let own: HashSet<u64> = own.into_iter().flat_map(runs_of).collect();
        others.iter().any(|run| !own.contains(run))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Said> {
        // Every change is whole before the next: a poisoned map is whole.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The runs a text is read as: its letters and digits as [`loose_form`]
/// reads them (punctuation, spaces, width, case and Traditional characters
/// aside), each window of [`CHINESE_RUN`] characters that starts with a
/// Chinese character, and of [`LATIN_RUN`] that starts with another.
fn runs_of(text: &str) -> HashSet<u64> {
    let chars: Vec<char> = loose_form(text).chars().collect();
    let mut runs = HashSet::new();
    for start in 0..chars.len() {
        let length = if is_cjk(chars[start]) { CHINESE_RUN } else { LATIN_RUN };
        if let Some(window) = chars.get(start..start + length) {
            let mut hasher = DefaultHasher::new();
            window.hash(&mut hasher);
            runs.insert(hasher.finish());
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said() -> SaidInRun {
        let said = SaidInRun::default();
        said.record("jay", "我在研发中心质检部，负责乳品微生物检测");
        said.record("jay", "We mainly run total plate counts and coliforms");
        said.record("bob", "我在财务部，负责成本核算和供应商对账");
        said.record("bob", "I run the payroll team in finance and handle the vendor payments.");
        said.record("amy", "以后报告都先说结论，再给数据");
        said.record("lin", "以后报告都先说结论");
        said
    }

    #[test]
    fn another_users_words_are_found_in_any_wrapping() {
        let said = said();
        let own = ["我在研发中心质检部，负责乳品微生物检测"];
        for text in [
            "我在财务部，负责成本核算和供应商对账",
            "在研发中心质检部负责乳品微生物检测并在財務部負責成本核算",
            "质检部；财务部；成本核算和供应商对账",
            "在质检部负责成本核算和供应商对账",
            "Works in QA and runs the payroll team in finance",
        ] {
            assert!(said.carries_anothers_words("jay", text, own), "{text}");
        }
    }

    #[test]
    fn ones_own_words_and_common_phrases_are_not_anothers() {
        let said = said();
        let own = ["我在研发中心质检部，负责乳品微生物检测"];
        for text in [
            "用户在研发中心质检部，负责乳品微生物检测",
            "mainly runs total plate counts",
            // Two other users said it: a common phrase, nobody's own.
            "以后报告都先说结论",
            "回答简短一点",
        ] {
            assert!(!said.carries_anothers_words("jay", text, own), "{text}");
        }
        // A phrase one other user said, which this user's evidence says too.
        assert!(!said.carries_anothers_words("jay", "负责成本核算", ["我也负责成本核算"]));
        // A user never recorded (a dry run's stage two) is still checked.
        assert!(said.carries_anothers_words("zoe", "负责成本核算和供应商对账", []));
    }
}
