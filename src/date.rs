//! The calendar date, for the headers of books and the tags of game records: today's date in UTC,
//! computed from the system clock without a time-zone database.

use std::time::{SystemTime, UNIX_EPOCH};

/// A day of the proleptic Gregorian calendar.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Date {
    /// The year (negative before 1 BC is never needed, but the arithmetic allows it).
    pub year: i64,
    /// The month, 1 to 12.
    pub month: u32,
    /// The day of the month, 1 to 31.
    pub day: u32,
}

impl Date {
    /// Today's date in UTC (1970-01-01 if the clock is set before it).
    pub fn today() -> Date {
        let days = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() / 86_400);
        Date::from_days(i64::try_from(days).unwrap_or(0))
    }

    /// The date of a day counted from 1970-01-01, by eras of 400 years (Hinnant's algorithm).
    fn from_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        Date { year, month, day }
    }

    /// `YYYY-MM-DD`, as book headers write it.
    pub fn iso(self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    /// `YYYY.MM.DD`, as the `Date` tag of a game record writes it.
    pub fn pgn(self) -> String {
        format!("{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
    use super::Date;

    fn ymd(days: i64) -> (i64, u32, u32) {
        let d = Date::from_days(days);
        (d.year, d.month, d.day)
    }

    #[test]
    fn dates_of_known_days() {
        assert_eq!(ymd(0), (1970, 1, 1));
        assert_eq!(ymd(11_016), (2000, 2, 29));
        assert_eq!(ymd(20_780), (2026, 11, 23));
        assert_eq!(ymd(-1), (1969, 12, 31));
        assert_eq!(Date::from_days(20_780).iso(), "2026-11-23");
        assert_eq!(Date::from_days(20_780).pgn(), "2026.11.23");
    }
}
