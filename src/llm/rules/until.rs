//! Time-bound wishes (spec §5 `until`): "12月15号审核结束之前…", "until the
//! FSSC audit on 20 March…", "…到15号为止". A wish with an end marker and a
//! date holds until the end of that day; the date's missing month or year is
//! the next one after the message was written.

use crate::domain::Time;
use chrono::{Datelike, NaiveDate, TimeZone, Utc};
use regex::Regex;
use std::sync::LazyLock;

static END_MARKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"之前|为止|以前|截止|结束前|(?i:\buntil\b|\btill\b|\bthrough\b|\bup\s+to\b)")
        .expect("valid pattern")
});

const MONTHS_EN: [&str; 12] =
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

static DATE_ZH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:(\d{1,2})月)?(\d{1,2})[号日]").expect("valid pattern"));
static DAY_MONTH_EN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b")
        .expect("valid pattern")
});
static MONTH_DAY_EN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+(\d{1,2})(?:st|nd|rd|th)?\b")
        .expect("valid pattern")
});
static THE_DAY_EN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b").expect("valid pattern"));

/// When a time-bound wish said at `said_at` ends: the start of the day after
/// its date, or `None` when the text names no end.
pub fn valid_until(text: &str, said_at: Time) -> Option<Time> {
    if !END_MARKER.is_match(text) {
        return None;
    }
    let (month, day) = month_and_day(text)?;
    let date = next_date(said_at, month, day)?;
    let end = date.succ_opt()?.and_hms_opt(0, 0, 0)?;
    Some(Utc.from_utc_datetime(&end))
}

/// Whether the text names an end with a date ("12月15号之前", "until 20
/// March"): such a wish holds beyond the answer at hand, until that day.
pub fn names_an_end(text: &str) -> bool {
    END_MARKER.is_match(text) && month_and_day(text).is_some()
}

/// The month (when given) and day the text names.
fn month_and_day(text: &str) -> Option<(Option<u32>, u32)> {
    let number = |m: Option<regex::Match>| m.and_then(|m| m.as_str().parse::<u32>().ok());
    let month_en = |m: Option<regex::Match>| {
        let name = m?.as_str().to_lowercase();
        MONTHS_EN.iter().position(|n| name.starts_with(n)).map(|i| i as u32 + 1)
    };
    if let Some(c) = DATE_ZH.captures(text) {
        return Some((number(c.get(1)), number(c.get(2))?));
    }
    if let Some(c) = DAY_MONTH_EN.captures(text) {
        return Some((month_en(c.get(2)), number(c.get(1))?));
    }
    if let Some(c) = MONTH_DAY_EN.captures(text) {
        return Some((month_en(c.get(1)), number(c.get(2))?));
    }
    let c = THE_DAY_EN.captures(text)?;
    Some((None, number(c.get(1))?))
}

/// The first date on or after the day of `said_at` with this month (or any
/// month, when none is given) and day.
fn next_date(said_at: Time, month: Option<u32>, day: u32) -> Option<NaiveDate> {
    let from = said_at.date_naive();
    let candidates = (0..=13).filter_map(|ahead| {
        let months = from.month0() + ahead;
        let (year, month0) = (from.year() + (months / 12) as i32, months % 12);
        NaiveDate::from_ymd_opt(year, month0 + 1, day)
    });
    candidates.filter(|d| month.is_none_or(|m| d.month() == m)).find(|d| *d >= from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Time {
        s.parse().unwrap()
    }

    #[test]
    fn an_end_marker_and_a_date_give_the_end_of_that_day() {
        let said = at("2026-12-04T01:20:00Z");
        assert_eq!(
            valid_until("12月15号审核结束之前，日报里把偏差项放第一段", said),
            Some(at("2026-12-16T00:00:00Z"))
        );
        assert_eq!(
            valid_until("审核期间还是偏差项打头，到15号为止", said),
            Some(at("2026-12-16T00:00:00Z"))
        );
        let march = at("2027-03-05T09:40:00Z");
        assert_eq!(
            valid_until("Until the FSSC audit on 20 March, CAPAs on top", march),
            Some(at("2027-03-21T00:00:00Z"))
        );
        assert_eq!(
            valid_until("as agreed until the 20th", march),
            Some(at("2027-03-21T00:00:00Z"))
        );
        assert_eq!(
            valid_until("till April 2nd, numbers in bold", march),
            Some(at("2027-04-03T00:00:00Z"))
        );
        assert_eq!(
            valid_until("1月5号之前周报加一栏风险", at("2026-12-20T00:00:00Z")),
            Some(at("2027-01-06T00:00:00Z"))
        );
    }

    #[test]
    fn no_marker_or_no_date_is_no_end() {
        let said = at("2026-12-04T01:20:00Z");
        assert_eq!(valid_until("以后日报把偏差项放第一段", said), None);
        assert_eq!(valid_until("12月15号的日报先写偏差", said), None);
        assert_eq!(valid_until("until the audit is over, CAPAs first", said), None);
        assert!(names_an_end("3月2号之前，周报都附上偏差"));
        assert!(!names_an_end("之前的周报附上偏差"));
    }
}
