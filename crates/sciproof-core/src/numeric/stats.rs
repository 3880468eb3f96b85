//! Difference statistics: what a numeric comparison saw, beyond the first ten differences.
//!
//! Every comparison tallies, per group of values (a CSV/TSV column, a JSON key path with list
//! indices as `[*]`, a `.npy` array or an `.npz` member), how many values were compared, how
//! many were bit-identical, how many fell outside the tolerance, the largest absolute and
//! relative errors with their locations, and how much of its tolerance the value closest to it
//! used. [`Comparison::case`] sorts the outcome into one of three cases, so that CI can tell
//! "bit-identical" from "equal within tolerance" from "different".
//!
//! Structural leaves (`#keys`, `#len`, `rows`, `row<r>#cols`, an array's shape and dtype) are
//! not values: a structural difference makes the comparison "different" by itself, and the
//! values that still line up are counted.

use super::diff::Difference;
use super::rule::number_details;
use super::value::Scalar;
use crate::json::{Object, Value};
use crate::pyfmt::format_g;

/// At most this many groups are listed in a report (the totals always cover every value):
/// groups with values outside the tolerance first, then groups that are not bit-identical,
/// then the rest, each kept in file order.
pub const MAX_LISTED_GROUPS: usize = 100;

/// What the groups of a format are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupBy {
    /// CSV/TSV columns.
    Column,
    /// JSON key paths, list indices as `[*]`.
    KeyPath,
    /// `.npy` arrays and `.npz` members.
    Array,
}

impl GroupBy {
    /// The `grouped_by` string of the evidence.
    pub fn as_str(self) -> &'static str {
        match self {
            GroupBy::Column => "column",
            GroupBy::KeyPath => "key_path",
            GroupBy::Array => "array",
        }
    }

    /// The heading of a table's first column.
    pub fn title(self) -> &'static str {
        match self {
            GroupBy::Column => "Column",
            GroupBy::KeyPath => "Key path",
            GroupBy::Array => "Array",
        }
    }

    /// The singular for people.
    pub fn singular(self) -> &'static str {
        match self {
            GroupBy::Column => "column",
            GroupBy::KeyPath => "key path",
            GroupBy::Array => "array",
        }
    }

    /// The plural for people.
    pub fn plural(self) -> &'static str {
        match self {
            GroupBy::Column => "columns",
            GroupBy::KeyPath => "key paths",
            GroupBy::Array => "arrays",
        }
    }
}

/// A value at a location: a largest error, or the largest share of a tolerance.
#[derive(Debug, Clone, PartialEq)]
pub struct At {
    /// The value.
    pub value: f64,
    /// Where it was seen (`r5c2`, `$.loss[3]`, `data[1, 2]`).
    pub location: String,
}

/// What one pair of values that are not bit-identical measures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measured {
    /// `|a - b|`, when both are finite numbers.
    pub abs: Option<f64>,
    /// `|a - b| / max(|a|, |b|)`.
    pub rel: Option<f64>,
    /// The largest difference the tolerance accepts there.
    pub allowed: Option<f64>,
    /// Whether the pair is outside the tolerance (a difference).
    pub outside: bool,
}

impl Measured {
    /// Two numbers as `f64` (`None` where a side is not a number), judged by `outside`.
    pub fn numbers(e: Option<f64>, a: Option<f64>, rtol: f64, atol: f64, outside: bool) -> Self {
        let (abs, rel, allowed) = match (e, a) {
            (Some(x), Some(y)) => number_details(x, y, rtol, atol),
            _ => (None, None, None),
        };
        Measured {
            abs,
            rel,
            allowed,
            outside,
        }
    }

    /// Two leaf values, judged by `outside` (integers are exact: nothing is allowed).
    pub fn scalars(e: &Scalar, a: &Scalar, rtol: f64, atol: f64, outside: bool) -> Self {
        match (e, a) {
            (Scalar::Int(_), Scalar::Int(_)) => {
                Self::numbers(e.to_f64(), a.to_f64(), 0.0, 0.0, outside)
            }
            _ => Self::numbers(e.to_f64(), a.to_f64(), rtol, atol, outside),
        }
    }
}

/// Whether two leaf values are bit-identical: the same type and the same bits (a float's bit
/// pattern, so `0.0` and `-0.0` are not, and a NaN is identical to the same NaN).
pub fn identical(e: &Scalar, a: &Scalar) -> bool {
    match (e, a) {
        (Scalar::Float(x), Scalar::Float(y)) => x.to_bits() == y.to_bits(),
        _ => e == a,
    }
}

/// The tally of one group of values.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// `c1 (column 'loss')`, `$.history[*].loss`, `data`, `weights`.
    pub name: String,
    /// Values compared (present on both sides).
    pub values: u64,
    /// Of them, bit-identical.
    pub identical: u64,
    /// Of them, outside the tolerance.
    pub outside: u64,
    /// The largest absolute error.
    pub largest_abs: Option<At>,
    /// The largest relative error.
    pub largest_rel: Option<At>,
    /// The largest share of its tolerance (`|a - b| / allowed`) a value within it used; a value
    /// within a tolerance of zero uses none.
    pub closest: Option<At>,
}

fn keep_larger(slot: &mut Option<At>, value: Option<f64>, location: &mut dyn FnMut() -> String) {
    let Some(v) = value.filter(|v| v.is_finite()) else {
        return;
    };
    if slot.as_ref().is_none_or(|s| v > s.value) {
        *slot = Some(At {
            value: v,
            location: location(),
        });
    }
}

impl Group {
    /// An empty group.
    pub fn new(name: impl Into<String>) -> Self {
        Group {
            name: name.into(),
            values: 0,
            identical: 0,
            outside: 0,
            largest_abs: None,
            largest_rel: None,
            closest: None,
        }
    }

    /// Counts `n` bit-identical values.
    pub fn same(&mut self, n: u64) {
        self.values += n;
        self.identical += n;
    }

    /// Counts one value that is not bit-identical; `location` is asked only when it holds a new
    /// largest error.
    pub fn differ(&mut self, m: Measured, mut location: impl FnMut() -> String) {
        self.values += 1;
        if m.outside {
            self.outside += 1;
        }
        // The location is formatted at most once per call.
        let mut cached: Option<String> = None;
        let mut at = || cached.get_or_insert_with(&mut location).clone();
        keep_larger(&mut self.largest_abs, m.abs, &mut at);
        keep_larger(&mut self.largest_rel, m.rel, &mut at);
        if !m.outside {
            let share = match (m.abs, m.allowed) {
                (Some(a), Some(allowed)) if allowed > 0.0 => Some(a / allowed),
                _ => None,
            };
            keep_larger(&mut self.closest, share, &mut at);
        }
    }

    /// Adds another tally of the same group (a later part of the file: on ties the earlier
    /// location is kept).
    pub fn merge(&mut self, other: Group) {
        self.add(&other);
    }

    /// [`Group::merge`] of a group that stays where it is (only a new largest error is
    /// copied).
    fn add(&mut self, other: &Group) {
        self.values += other.values;
        self.identical += other.identical;
        self.outside += other.outside;
        let copy = |slot: &mut Option<At>, other: &Option<At>| {
            if let Some(o) = other
                && slot.as_ref().is_none_or(|s| o.value > s.value)
            {
                *slot = Some(o.clone());
            }
        };
        copy(&mut self.largest_abs, &other.largest_abs);
        copy(&mut self.largest_rel, &other.largest_rel);
        copy(&mut self.closest, &other.closest);
    }

    /// `outside / values` in per cent, `None` without values.
    pub fn outside_percent(&self) -> Option<f64> {
        (self.values > 0).then(|| 100.0 * self.outside as f64 / self.values as f64)
    }

    /// One line for people: `1,000 values, 3 outside the tolerance (0.3%), 990 bit-identical,
    /// largest absolute error 0.5 at r5c2, largest relative error 0.01 at r5c2`.
    pub fn describe(&self) -> String {
        let mut parts = vec![values(self.values)];
        if self.outside > 0 {
            parts.push(format!(
                "{} outside the tolerance ({})",
                thousands(self.outside),
                percent(self.outside_percent().unwrap_or(0.0))
            ));
        }
        parts.push(if self.identical == self.values {
            "all bit-identical".into()
        } else {
            format!("{} bit-identical", thousands(self.identical))
        });
        if let Some(a) = &self.largest_abs
            && a.value > 0.0
        {
            parts.push(format!(
                "largest absolute error {} at {}",
                number(a.value),
                a.location
            ));
        }
        if let Some(r) = &self.largest_rel
            && r.value > 0.0
        {
            parts.push(format!(
                "largest relative error {} at {}",
                number(r.value),
                r.location
            ));
        }
        parts.join(", ")
    }

    /// The evidence object.
    pub fn to_json(&self) -> Value {
        let at = |a: &Option<At>| {
            a.as_ref().map_or(Value::Null, |a| {
                Object::new()
                    .with("value", a.value)
                    .with("location", a.location.as_str())
                    .into()
            })
        };
        Object::new()
            .with("name", self.name.as_str())
            .with("values", self.values)
            .with("bit_identical", self.identical)
            .with("outside_tolerance", self.outside)
            .with(
                "outside_percent",
                self.outside_percent().map_or(Value::Null, Value::from),
            )
            .with("largest_abs_diff", at(&self.largest_abs))
            .with("largest_rel_diff", at(&self.largest_rel))
            .with("largest_tolerance_share", at(&self.closest))
            .into()
    }
}

/// The groups of one comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Statistics {
    /// What a group is.
    pub grouped_by: GroupBy,
    /// Every group, in file order.
    pub groups: Vec<Group>,
    /// The files were byte for byte the same: nothing was parsed, so nothing was counted.
    pub byte_identical: bool,
}

impl Statistics {
    /// No groups yet.
    pub fn new(grouped_by: GroupBy) -> Self {
        Statistics {
            grouped_by,
            groups: Vec::new(),
            byte_identical: false,
        }
    }

    /// The two files were byte-identical (the comparison was not run).
    pub fn byte_identical(grouped_by: GroupBy) -> Self {
        Statistics {
            byte_identical: true,
            ..Self::new(grouped_by)
        }
    }

    /// The tally of every value.
    pub fn total(&self) -> Group {
        let mut all = Group::new("all");
        for g in &self.groups {
            all.add(g);
        }
        all
    }

    /// The groups a report lists: at most [`MAX_LISTED_GROUPS`], those outside the tolerance
    /// first, then those not bit-identical, then the rest; in file order.
    pub fn listed(&self) -> Vec<&Group> {
        let rank = |g: &Group| {
            if g.outside > 0 {
                0
            } else if g.identical < g.values {
                1
            } else {
                2
            }
        };
        let mut order: Vec<usize> = (0..self.groups.len()).collect();
        order.sort_by_key(|&i| rank(&self.groups[i])); // stable: file order within a rank
        order.truncate(MAX_LISTED_GROUPS);
        order.sort_unstable();
        order.into_iter().map(|i| &self.groups[i]).collect()
    }
}

/// Which of the three cases a comparison is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// Every value compared has the same bits (or the files are the same bytes).
    BitIdentical,
    /// No difference, but some values differ within the tolerance.
    WithinTolerance,
    /// Differences: values outside the tolerance, or a different structure.
    Different,
}

impl Case {
    /// The `case` string of the evidence.
    pub fn as_str(self) -> &'static str {
        match self {
            Case::BitIdentical => "bit_identical",
            Case::WithinTolerance => "within_tolerance",
            Case::Different => "different",
        }
    }
}

/// A numeric comparison's outcome: the differences (at most ten and a summary line) and the
/// statistics of every value.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The differences; empty when the files are equivalent.
    pub differences: Vec<Difference>,
    /// What was compared.
    pub statistics: Statistics,
}

impl Comparison {
    /// Two files that are byte for byte the same.
    pub fn byte_identical(grouped_by: GroupBy) -> Self {
        Comparison {
            differences: Vec::new(),
            statistics: Statistics::byte_identical(grouped_by),
        }
    }

    /// Whether nothing differs beyond the tolerance.
    pub fn is_equivalent(&self) -> bool {
        self.differences.is_empty()
    }

    /// Which case this is; always "different" when there are differences.
    pub fn case(&self) -> Case {
        if !self.differences.is_empty() {
            return Case::Different;
        }
        let total = self.statistics.total();
        if self.statistics.byte_identical || total.identical == total.values {
            Case::BitIdentical
        } else {
            Case::WithinTolerance
        }
    }

    /// The sentence that says which case this is, for a check's message:
    /// `bit-identical: all 1,200 values`, `equal within tolerance: ...`, `different: ...`.
    pub fn sentence(&self) -> String {
        let s = &self.statistics;
        let total = s.total();
        match self.case() {
            Case::BitIdentical if s.byte_identical => {
                "bit-identical: byte for byte the recorded copy".into()
            }
            Case::BitIdentical => format!("bit-identical: all {}", values(total.values)),
            Case::WithinTolerance => {
                let mut text = format!(
                    "equal within tolerance: {}, {} bit-identical",
                    values(total.values),
                    thousands(total.identical)
                );
                if let Some(r) = &total.largest_rel {
                    text.push_str(&format!(
                        ", largest relative error {} at {}",
                        number(r.value),
                        r.location
                    ));
                }
                match &total.closest {
                    Some(c) => text.push_str(&format!(
                        "; the value closest to its tolerance, at {}, used {} of it",
                        c.location,
                        percent(100.0 * c.value)
                    )),
                    None => text.push_str("; every difference is within a tolerance of zero"),
                }
                text
            }
            Case::Different if total.outside == 0 => format!(
                "different in structure; the {} that line up are within the tolerance",
                values(total.values)
            ),
            Case::Different => {
                let mut text = format!(
                    "different: {} of {} ({}) outside the tolerance",
                    thousands(total.outside),
                    values(total.values),
                    percent(total.outside_percent().unwrap_or(0.0))
                );
                if let Some(a) = &total.largest_abs {
                    text.push_str(&format!(
                        ", largest absolute error {} at {}",
                        number(a.value),
                        a.location
                    ));
                }
                if let Some(r) = &total.largest_rel {
                    text.push_str(&format!(
                        ", largest relative error {} at {}",
                        number(r.value),
                        r.location
                    ));
                }
                text
            }
        }
    }

    /// The `statistics` evidence object (fields added to `rerun_output_numeric` and to a diff's
    /// `numeric` evidence).
    pub fn statistics_json(&self) -> Value {
        let s = &self.statistics;
        let listed = s.listed();
        let mut o = Object::new()
            .with("case", self.case().as_str())
            .with("byte_identical", s.byte_identical);
        if s.byte_identical {
            o.insert("total", Value::Null);
        } else {
            o.insert("total", s.total().to_json());
        }
        o.insert("grouped_by", s.grouped_by.as_str());
        o.insert("groups_total", s.groups.len());
        o.insert(
            "groups",
            Value::Array(listed.iter().map(|g| g.to_json()).collect()),
        );
        o.into()
    }

    /// The listed groups that are not bit-identical: the ones a report shows in detail.
    pub fn groups_not_identical(&self) -> Vec<&Group> {
        self.statistics
            .listed()
            .into_iter()
            .filter(|g| g.identical < g.values)
            .collect()
    }

    /// One line per listed group that is not bit-identical (for text and JUnit), then
    /// [`Comparison::others_line`].
    pub fn group_lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .groups_not_identical()
            .iter()
            .map(|g| format!("{}: {}", g.name, g.describe()))
            .collect();
        lines.extend(self.others_line());
        lines
    }

    /// The groups not shown in detail, in one line, when some are: `149 other key paths: all
    /// bit-identical`, or `130 other columns, 30 of them not bit-identical (a report shows at
    /// most 100 groups)`. `None` when every group is shown or none is (bit-identical files).
    pub fn others_line(&self) -> Option<String> {
        let s = &self.statistics;
        let shown = self.groups_not_identical().len();
        let others = s.groups.len() - shown;
        if shown == 0 || others == 0 {
            return None;
        }
        let kind = if others == 1 {
            s.grouped_by.singular()
        } else {
            s.grouped_by.plural()
        };
        let differing = s.groups.iter().filter(|g| g.identical < g.values).count() - shown;
        Some(if differing == 0 {
            format!(
                "{} other {kind}: all bit-identical",
                thousands(others as u64)
            )
        } else {
            format!(
                "{} other {kind}, {} of them not bit-identical (a report shows at most {MAX_LISTED_GROUPS} groups)",
                thousands(others as u64),
                thousands(differing as u64)
            )
        })
    }
}

/// `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn values(n: u64) -> String {
    format!("{} value{}", thousands(n), if n == 1 { "" } else { "s" })
}

/// An error for people: three significant digits (`0.0058`, `3.1e-12`).
pub fn number(x: f64) -> String {
    format_g(x, 3)
}

/// A percentage with three significant digits (`0.3%`, `0.00012%`); never "0%" for a share
/// that is not zero.
pub fn percent(p: f64) -> String {
    format!("{}%", format_g(p, 3))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(abs: f64, allowed: f64, outside: bool) -> Measured {
        Measured {
            abs: Some(abs),
            rel: Some(abs / 10.0),
            allowed: Some(allowed),
            outside,
        }
    }

    #[test]
    fn a_group_keeps_the_largest_errors_and_the_first_location_on_ties() {
        let mut g = Group::new("c1");
        g.same(5);
        g.differ(measured(0.5, 1.0, false), || "r1c1".into());
        g.differ(measured(0.5, 1.0, false), || "r2c1".into());
        g.differ(measured(2.0, 1.0, true), || "r3c1".into());
        assert_eq!((g.values, g.identical, g.outside), (8, 5, 1));
        assert_eq!(g.largest_abs.as_ref().unwrap().location, "r3c1");
        // the share of the tolerance counts values within it only
        let c = g.closest.as_ref().unwrap();
        assert_eq!((c.value, c.location.as_str()), (0.5, "r1c1"));
        assert_eq!(g.outside_percent(), Some(12.5));
    }

    #[test]
    fn merging_tallies_is_the_same_as_tallying_at_once() {
        let items = [(0.1, false), (3.0, true), (0.7, false), (3.0, true)];
        let mut once = Group::new("a");
        let (mut left, mut right) = (Group::new("a"), Group::new("a"));
        for (i, (abs, out)) in items.iter().enumerate() {
            let loc = move || format!("x[{i}]");
            once.differ(measured(*abs, 1.0, *out), loc);
            if i < 2 {
                left.differ(measured(*abs, 1.0, *out), loc);
            } else {
                right.differ(measured(*abs, 1.0, *out), loc);
            }
        }
        left.merge(right);
        assert_eq!(left, once);
    }

    #[test]
    fn the_location_is_formatted_only_for_a_new_largest_error() {
        let mut g = Group::new("a");
        let mut asked = 0;
        for abs in [1.0, 0.5, 0.25, 2.0] {
            g.differ(measured(abs, 10.0, false), || {
                asked += 1;
                "x".into()
            });
        }
        assert_eq!(asked, 2);
    }

    #[test]
    fn three_cases_and_their_sentences() {
        let mut s = Statistics::new(GroupBy::Column);
        let mut g = Group::new("c0");
        g.same(1_200);
        s.groups.push(g);
        let c = Comparison {
            differences: vec![],
            statistics: s.clone(),
        };
        assert_eq!(c.case(), Case::BitIdentical);
        assert_eq!(c.sentence(), "bit-identical: all 1,200 values");
        s.groups[0].differ(
            Measured {
                abs: Some(3.1e-12),
                rel: Some(3.1e-12),
                allowed: Some(1e-9),
                outside: false,
            },
            || "r5c0".into(),
        );
        let c = Comparison {
            differences: vec![],
            statistics: s.clone(),
        };
        assert_eq!(c.case(), Case::WithinTolerance);
        assert_eq!(
            c.sentence(),
            "equal within tolerance: 1,201 values, 1,200 bit-identical, largest relative error 3.1e-12 at r5c0; the value closest to its tolerance, at r5c0, used 0.31% of it"
        );
        s.groups[0].differ(
            Measured {
                abs: Some(0.25),
                rel: Some(0.005),
                allowed: Some(1e-9),
                outside: true,
            },
            || "r7c0".into(),
        );
        let c = Comparison {
            differences: vec![Difference::plain(
                super::super::Kind::Number,
                None,
                "x".into(),
            )],
            statistics: s,
        };
        assert_eq!(c.case(), Case::Different);
        assert_eq!(
            c.sentence(),
            "different: 1 of 1,202 values (0.0832%) outside the tolerance, largest absolute error 0.25 at r7c0, largest relative error 0.005 at r7c0"
        );
        assert_eq!(
            Comparison::byte_identical(GroupBy::Array).sentence(),
            "bit-identical: byte for byte the recorded copy"
        );
    }

    #[test]
    fn listed_groups_put_differences_first_and_keep_file_order() {
        let mut s = Statistics::new(GroupBy::KeyPath);
        for i in 0..150 {
            let mut g = Group::new(format!("$.k{i}"));
            g.same(1);
            if i == 140 {
                g.differ(measured(5.0, 1.0, true), || "$.k140".into());
            }
            s.groups.push(g);
        }
        let listed = s.listed();
        assert_eq!(listed.len(), MAX_LISTED_GROUPS);
        assert_eq!(listed[0].name, "$.k0");
        assert_eq!(listed.last().unwrap().name, "$.k140");
        let c = Comparison {
            differences: vec![],
            statistics: s,
        };
        assert_eq!(
            c.group_lines(),
            [
                "$.k140: 2 values, 1 outside the tolerance (50%), 1 bit-identical, largest absolute error 5 at $.k140, largest relative error 0.5 at $.k140",
                "149 other key paths: all bit-identical"
            ]
        );
        // past the listing limit, the groups left out that differ are counted, not hidden
        let mut s = Statistics::new(GroupBy::Column);
        for i in 0..130 {
            let mut g = Group::new(format!("c{i}"));
            g.differ(measured(0.5, 1.0, false), || format!("r1c{i}"));
            s.groups.push(g);
        }
        let c = Comparison {
            differences: vec![],
            statistics: s,
        };
        assert_eq!(c.group_lines().len(), MAX_LISTED_GROUPS + 1);
        assert_eq!(
            c.others_line().unwrap(),
            "30 other columns, 30 of them not bit-identical (a report shows at most 100 groups)"
        );
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
