//! ISO 8601 timestamps as the manifest stores them.
//!
//! The reference writes `datetime.now(UTC).isoformat()` at seconds precision
//! (`2026-11-30T04:01:23+00:00`) and reads with Python's `datetime.fromisoformat`, requiring a
//! timezone offset. [`parse`] accepts the calendar-date forms of `fromisoformat` (extended and
//! basic, any one-character separator, fractions, `Z` or an offset) and returns the instant.

use std::time::{SystemTime, UNIX_EPOCH};

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        _ => 28,
    }
}

/// `2026-11-30T04:01:23+00:00` for a Unix time in seconds.
pub fn format_utc(unix_seconds: i64) -> String {
    let days = unix_seconds.div_euclid(86_400);
    let secs = unix_seconds.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}+00:00",
        secs / 3600,
        (secs / 60) % 60,
        secs % 60
    )
}

/// Compact UTC stamp `20261130T040340Z`, used in folder names.
pub fn format_stamp(unix_seconds: i64) -> String {
    let text = format_utc(unix_seconds);
    format!("{}Z", text[..19].replace(['-', ':'], ""))
}

/// Now, as [`format_utc`] writes it (the time reports, records and manifests carry).
pub fn now_utc() -> String {
    format_utc(now_unix())
}

/// Now, as whole seconds since the Unix epoch.
pub fn now_unix() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Why a timestamp was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimestampError {
    /// Not a form `fromisoformat` reads.
    NotIso,
    /// Valid, but without a timezone offset.
    NoOffset,
}

fn number(s: &str) -> Option<i64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `HH[:MM[:SS[.f+]]]` or the basic forms; returns seconds of the day.
fn parse_time(s: &str) -> Option<f64> {
    let (main, fraction) = match s.find(['.', ',']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let fields: Vec<&str> = if main.contains(':') {
        main.split(':').collect()
    } else {
        if main.len() % 2 != 0 {
            return None;
        }
        (0..main.len())
            .step_by(2)
            .map(|i| &main[i..i + 2])
            .collect()
    };
    if fields.is_empty() || fields.len() > 3 || fields.iter().any(|f| f.len() != 2) {
        return None;
    }
    let h = number(fields[0])?;
    let m = fields.get(1).map_or(Some(0), |f| number(f))?;
    let sec = fields.get(2).map_or(Some(0), |f| number(f))?;
    if h > 23 || m > 59 || sec > 59 {
        return None;
    }
    let mut total = (h * 3600 + m * 60 + sec) as f64;
    if let Some(f) = fraction {
        if fields.len() != 3 || number(f).is_none() {
            return None;
        }
        total += format!("0.{f}").parse::<f64>().ok()?;
    }
    Some(total)
}

/// Parses a timestamp the way Python 3.11's `datetime.fromisoformat` does (calendar dates) and
/// returns the Unix time; a timestamp without an offset is [`TimestampError::NoOffset`].
pub fn parse(text: &str) -> Result<f64, TimestampError> {
    use TimestampError::*;
    if !text.is_ascii() {
        return Err(NotIso);
    }
    let (date, rest) = if text.len() >= 10 && text.as_bytes().get(4) == Some(&b'-') {
        (&text[..10], &text[10..])
    } else if text.len() >= 8 {
        (&text[..8], &text[8..])
    } else {
        return Err(NotIso);
    };
    let (y, m, d) = if date.len() == 10 {
        if &date[7..8] != "-" {
            return Err(NotIso);
        }
        (
            number(&date[..4]),
            number(&date[5..7]),
            number(&date[8..10]),
        )
    } else {
        (number(&date[..4]), number(&date[4..6]), number(&date[6..8]))
    };
    let (Some(y), Some(m), Some(d)) = (y, m, d) else {
        return Err(NotIso);
    };
    if y < 1 || !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
        return Err(NotIso);
    }
    let mut seconds = (days_from_civil(y, m, d) * 86_400) as f64;
    if rest.is_empty() {
        return Err(NoOffset);
    }
    let time_and_zone = &rest[1..]; // any single separator character
    let zone_at = time_and_zone.find(['+', '-', 'Z']);
    let (time, zone) = match zone_at {
        Some(i) => (&time_and_zone[..i], Some(&time_and_zone[i..])),
        None => (time_and_zone, None),
    };
    seconds += parse_time(time).ok_or(NotIso)?;
    let Some(zone) = zone else {
        return Err(NoOffset);
    };
    if zone == "Z" {
        return Ok(seconds);
    }
    let sign = if zone.starts_with('-') { -1.0 } else { 1.0 };
    let offset = parse_time(&zone[1..]).ok_or(NotIso)?;
    if offset >= 86_400.0 {
        return Err(NotIso);
    }
    Ok(seconds - sign * offset)
}

/// Python's `datetime.isoformat()` of the Unix time `t` in the fixed offset `offset`
/// (`+00:00`): microseconds are shown only when not zero.
pub fn format_with_offset(t: f64, offset: &str) -> String {
    let sign = if offset.starts_with('-') { -1 } else { 1 };
    let hours: i64 = offset.get(1..3).and_then(|h| h.parse().ok()).unwrap_or(0);
    let minutes: i64 = offset.get(4..6).and_then(|m| m.parse().ok()).unwrap_or(0);
    let local = t + (sign * (hours * 3600 + minutes * 60)) as f64;
    let whole = local.floor();
    let micros = ((local - whole) * 1e6).round() as i64;
    let (whole, micros) = if micros >= 1_000_000 {
        (whole + 1.0, 0)
    } else {
        (whole, micros)
    };
    let base = format_utc(whole as i64);
    let stem = &base[..19];
    if micros == 0 {
        format!("{stem}{offset}")
    } else {
        format!("{stem}.{micros:06}{offset}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_python_isoformat() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00+00:00");
        assert_eq!(format_utc(1_796_011_283), "2026-11-30T04:01:23+00:00");
        assert_eq!(format_stamp(1_796_011_283), "20261130T040123Z");
    }

    #[test]
    fn parses_what_fromisoformat_reads() {
        assert_eq!(parse("2026-11-30T04:01:23+00:00"), Ok(1_796_011_283.0));
        assert_eq!(parse("2026-11-30T05:01:23+01:00"), Ok(1_796_011_283.0));
        assert_eq!(parse("2026-11-30 04:01:23Z"), Ok(1_796_011_283.0));
        assert_eq!(parse("20261130T040123+0000"), Ok(1_796_011_283.0));
        assert!(parse("2026-11-30T04:01:23.5+00:00").is_ok());
        assert_eq!(parse("2026-01-01T00:00:00"), Err(TimestampError::NoOffset));
        assert_eq!(parse("2026-01-01"), Err(TimestampError::NoOffset));
        assert_eq!(parse("yesterday"), Err(TimestampError::NotIso));
        assert_eq!(
            parse("2026-02-30T00:00:00+00:00"),
            Err(TimestampError::NotIso)
        );
        assert_eq!(
            parse("2026-01-01T25:00:00+00:00"),
            Err(TimestampError::NotIso)
        );
    }
}
