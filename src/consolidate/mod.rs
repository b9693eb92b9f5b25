//! Stage two (spec §6): a user's new slips and memories → operations the
//! model proposes → [`policy`] decides → one transaction per user.

pub mod policy;
