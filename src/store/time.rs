//! One time type for both backends, so each query is written once: UTC text
//! with milliseconds on SQLite (`2026-11-29T12:00:00.000Z`, fixed width, so
//! text order is time order and the schema's CHECKs hold), `timestamptz` on
//! PostgreSQL.

use crate::domain::Time;
use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::{Database, Decode, Encode, Postgres, Sqlite, Type};

/// A time as stored: milliseconds, UTC. In JSON built by either database,
/// an RFC 3339 string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize)]
#[serde(transparent)]
pub struct DbTime(pub Time);

impl From<Time> for DbTime {
    fn from(t: Time) -> DbTime {
        DbTime(t)
    }
}

/// The SQLite text form: fixed width, milliseconds, `Z`.
pub fn sqlite_text(t: Time) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

impl Type<Sqlite> for DbTime {
    fn type_info() -> <Sqlite as Database>::TypeInfo {
        <String as Type<Sqlite>>::type_info()
    }

    fn compatible(ty: &<Sqlite as Database>::TypeInfo) -> bool {
        <String as Type<Sqlite>>::compatible(ty)
    }
}

impl Encode<'_, Sqlite> for DbTime {
    fn encode_by_ref(
        &self,
        buf: &mut <Sqlite as Database>::ArgumentBuffer,
    ) -> Result<IsNull, BoxDynError> {
        <String as Encode<Sqlite>>::encode(sqlite_text(self.0), buf)
    }
}

impl<'r> Decode<'r, Sqlite> for DbTime {
    fn decode(value: <Sqlite as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
        let text = <&str as Decode<Sqlite>>::decode(value)?;
        let time = chrono::DateTime::parse_from_rfc3339(text)
            .map_err(|e| format!("'{text}' is not a time: {e}"))?;
        Ok(DbTime(time.to_utc()))
    }
}

impl Type<Postgres> for DbTime {
    fn type_info() -> <Postgres as Database>::TypeInfo {
        <Time as Type<Postgres>>::type_info()
    }

    fn compatible(ty: &<Postgres as Database>::TypeInfo) -> bool {
        <Time as Type<Postgres>>::compatible(ty)
    }
}

impl Encode<'_, Postgres> for DbTime {
    fn encode_by_ref(
        &self,
        buf: &mut <Postgres as Database>::ArgumentBuffer,
    ) -> Result<IsNull, BoxDynError> {
        <Time as Encode<Postgres>>::encode_by_ref(&self.0, buf)
    }
}

impl<'r> Decode<'r, Postgres> for DbTime {
    fn decode(value: <Postgres as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(DbTime(<Time as Decode<Postgres>>::decode(value)?))
    }
}
