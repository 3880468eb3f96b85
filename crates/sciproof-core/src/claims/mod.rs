//! Claims: statements about one value in an output file (`$.accuracy >= 0.9`).
//!
//! This module holds the claim model, the `--claim` expression parser and the claim text used in
//! subjects and listings; [`crate::numeric::Documents`] finds the value a claim is about, [`evaluate`] decides
//! whether it holds, [`printed`] holds the exact decimal rule of printed claims. See
//! `../shared/seeds/claims.txt`.

pub mod evaluate;
pub mod printed;

use crate::json::{self, Number, Object, Value};
use crate::numeric::format::lookup;
use crate::pyfmt::{float_repr, is_py_space, parse_py_float, py_split, str_repr};
use thiserror::Error;

/// At most this many claims per manifest.
pub const MAX_CLAIMS: usize = 100;
/// A location is at most this many characters.
pub const MAX_LOCATION_LENGTH: usize = 300;
/// A string value is at most this many characters (manifest validation).
pub const MAX_STRING_VALUE: usize = 1000;

/// A comparison operator of a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `~=`: equal within tolerances.
    Approx,
    /// `~= VALUE printed`: the found value, rounded to the precision the value is written
    /// with, equals it (this tool's extension; stored as the op `printed`, which the reference
    /// refuses instead of misreading).
    Printed,
}

impl Op {
    /// Every operator of the seed, in the order messages list them.
    pub const ALL: [Op; 7] = [Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge, Op::Approx];

    /// The operator as written (`==`, `~=`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Approx => "~=",
            Op::Printed => "printed",
        }
    }

    /// The operator written as `text` in an expression, if it is one.
    pub fn parse(text: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|op| op.as_str() == text)
    }

    /// The operator as stored in a manifest (`printed` included).
    pub fn parse_stored(text: &str) -> Option<Op> {
        Op::parse(text).or((text == "printed").then_some(Op::Printed))
    }

    /// Whether the operator needs a number (`< <= > >= ~=`).
    pub fn needs_number(self) -> bool {
        !matches!(self, Op::Eq | Op::Ne)
    }
}

/// A claim as stored in the manifest.
#[derive(Debug, Clone, PartialEq)]
pub struct Claim {
    /// The declared output it is about (manifest path).
    pub output: String,
    /// `$.key[0].name` (JSON) or `rNcM` (CSV).
    pub location: String,
    /// The comparison.
    pub op: Op,
    /// A JSON scalar: number (exact integers kept), string, boolean or null.
    pub value: Value,
    /// `(rtol, atol)`, present exactly when `op` is `~=`.
    pub tolerance: Option<(f64, f64)>,
    /// For a printed claim: the factor applied to the found value before rounding
    /// (`scale=100` for a fraction printed as a percentage), as written.
    pub scale: Option<String>,
}

impl Claim {
    /// The manifest form: `output, location, op, value[, rtol, atol]`.
    pub fn to_json(&self) -> Value {
        let mut o = Object::new()
            .with("output", &self.output)
            .with("location", &self.location)
            .with("op", self.op.as_str())
            .with("value", self.value.clone());
        if let Some((rtol, atol)) = self.tolerance {
            o.insert("rtol", rtol);
            o.insert("atol", atol);
        }
        if let Some(scale) = &self.scale {
            o.insert("scale", scale.as_str());
        }
        Value::Object(o)
    }

    /// Whether the reference implementation cannot read this claim (a printed claim, or a
    /// claim on an output other than `.json`/`.csv`): it refuses such a manifest as invalid.
    pub fn needs_this_tool(&self) -> bool {
        self.op == Op::Printed || !lookup(&self.output).is_some_and(|f| f.reference_reads_claims())
    }

    /// The claim as people write it: `out/m.json: $.acc >= 0.9`, and for `~=`
    /// ` (rtol=0.0, atol=0.01)` after it.
    pub fn text(&self) -> String {
        format!("{}: {}", self.output, self.comparison_text_with_location())
    }

    fn comparison_text_with_location(&self) -> String {
        format!("{} {}", self.location, self.comparison_text())
    }

    /// `>= 0.9` or `~= 0.25 (rtol=0.0, atol=0.01)`.
    pub fn comparison_text(&self) -> String {
        if self.op == Op::Printed {
            let mut text = format!("~= {} printed", self.value.as_str().unwrap_or_default());
            if let Some(scale) = &self.scale {
                text.push_str(&format!(" scale={scale}"));
            }
            return text;
        }
        let mut text = format!(
            "{} {}",
            self.op.as_str(),
            json::to_string_compact(&self.value)
        );
        if let Some((rtol, atol)) = self.tolerance {
            text.push_str(&format!(
                " (rtol={}, atol={})",
                float_repr(rtol),
                float_repr(atol)
            ));
        }
        text
    }
}

/// Whether `output` (a manifest path) has a suffix claims support: a numeric format's (`.json`
/// and `.csv` as the seed says, and this tool's `.tsv`, `.npy` and `.npz`).
pub fn supported_output(output: &str) -> bool {
    lookup(output).is_some()
}

/// The location at the start of `expression` (leading spaces skipped) and what follows it: the
/// first word, where whitespace inside `[...]` does not end the word.
fn split_location(expression: &str) -> (&str, &str) {
    let text = expression.trim_start_matches(is_py_space);
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            c if depth == 0 && is_py_space(c) => return (&text[..i], &text[i..]),
            _ => {}
        }
    }
    (text, "")
}

/// A location as a user typed it, in the form manifests and difference reports use: an array
/// location of a `.npy`/`.npz` output may be typed with any spacing after its commas
/// (`data[1,2]`, `data[1,  2]` are `data[1, 2]`); anything else is kept as it is.
pub fn typed_location(output: &str, location: &str) -> String {
    lookup(output)
        .and_then(|f| f.canonical_location(location))
        .unwrap_or_else(|| location.to_string())
}

/// Whether `location` is a valid location for the file type of `output`.
pub fn location_matches_file(location: &str, output: &str) -> bool {
    location.chars().count() <= MAX_LOCATION_LENGTH
        && lookup(output).is_some_and(|f| f.valid_location(location))
}

/// A `--claim` expression that cannot be parsed. The message shows the accepted form.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct ClaimSyntaxError(pub String);

/// Whether `value` is a JSON number (not a boolean).
pub fn is_number(value: &Value) -> bool {
    matches!(value, Value::Number(_))
}

/// Parses `LOCATION OP VALUE [rtol=X] [atol=Y]` for the output `output` (a manifest path).
pub fn parse_claim(output: &str, expression: &str) -> Result<Claim, ClaimSyntaxError> {
    let e = str_repr(expression);
    // Every refusal shows the accepted form with an example.
    let fail = |message: String| {
        let form = if message.contains("for example") {
            String::new()
        } else {
            " (the form is 'LOCATION OP VALUE', for example '$.accuracy >= 0.9' or '$.loss ~= 0.25 atol=0.01')".into()
        };
        Err(ClaimSyntaxError(format!("claim {e}: {message}{form}")))
    };
    // The location is the first word, but an index of an array location may contain spaces
    // (`data[1, 2]`, as difference reports write it): a space inside brackets does not end it.
    let (location_text, after) = split_location(expression);
    let parts = py_split(after, 1);
    if location_text.is_empty() || parts.len() != 2 {
        return fail("expected 'LOCATION OP VALUE', for example '$.accuracy >= 0.9'".into());
    }
    let format = lookup(output);
    let canonical = format.and_then(|f| f.canonical_location(location_text));
    let location = canonical.as_deref().unwrap_or(location_text);
    let (op_text, rest) = (parts[0], parts[1]);
    let Some(op) = Op::parse(op_text) else {
        return fail(format!(
            "unknown comparison {}; use one of ==, !=, <, <=, >, >=, ~=",
            str_repr(op_text)
        ));
    };
    let Some(format) = format else {
        return Err(ClaimSyntaxError(format!(
            "claim on {}: claims support {} outputs",
            str_repr(output),
            crate::numeric::format::suffix_list()
        )));
    };
    if !location_matches_file(location, output) {
        let example = format.location_example();
        return fail(format!(
            "{} is not a location in {}; use the form {example} (the one shown in difference \
             reports; keys with dots or spaces cannot be addressed)",
            str_repr(location),
            str_repr(output)
        ));
    }
    let mut rtol = None;
    let mut atol = None;
    let mut printed = false;
    let mut scale: Option<String> = None;
    let mut value_text = rest.trim_matches(is_py_space);
    // Strip trailing `rtol=X`, `atol=Y`, `printed` and `scale=S` tokens, each preceded by
    // whitespace.
    while let Some(start) = value_text.rfind(is_py_space) {
        let token = value_text[start..].trim_start_matches(is_py_space);
        if token == "printed" {
            if printed {
                return fail("printed given twice".into());
            }
            printed = true;
            value_text = value_text[..start].trim_matches(is_py_space);
            continue;
        }
        let Some((name, number)) = token.split_once('=') else {
            break;
        };
        if name == "scale" && !number.is_empty() {
            if scale.is_some() {
                return fail("scale given twice".into());
            }
            match printed::Decimal::parse(number) {
                Some(d) if d.is_positive() => scale = Some(number.to_string()),
                _ => {
                    return fail(
                        "scale must be a positive decimal number, for example scale=100".into(),
                    );
                }
            }
            value_text = value_text[..start].trim_matches(is_py_space);
            continue;
        }
        if !(name == "rtol" || name == "atol") || number.is_empty() {
            break;
        }
        let slot = if name == "rtol" { &mut rtol } else { &mut atol };
        if slot.is_some() {
            return fail(format!("{name} given twice"));
        }
        let Some(parsed) = parse_py_float(number) else {
            return fail(format!("{name} must be a number"));
        };
        if !parsed.is_finite() || parsed < 0.0 {
            return fail(format!(
                "{name} must be a finite number that is not negative"
            ));
        }
        *slot = Some(parsed);
        value_text = value_text[..start].trim_matches(is_py_space);
    }
    if (rtol.is_some() || atol.is_some()) && op != Op::Approx {
        return fail("rtol and atol only apply to '~='".into());
    }
    if scale.is_some() && !printed {
        return fail(
            "scale only applies to printed claims, for example '$.rate ~= 91.8 printed scale=100'"
                .into(),
        );
    }
    if printed {
        if op != Op::Approx || rtol.is_some() || atol.is_some() {
            return fail(
                "printed needs '~=' and no rtol or atol, for example '$.accuracy ~= 0.92 printed'"
                    .into(),
            );
        }
        if printed::Decimal::parse(value_text).is_none() {
            return fail(
                "a printed value must be a number as the text prints it, for example 0.92, 35 or 1.2e3".into(),
            );
        }
        return Ok(Claim {
            output: output.to_string(),
            location: location.to_string(),
            op: Op::Printed,
            value: Value::String(value_text.to_string()),
            tolerance: None,
            scale,
        });
    }
    let not_json = || {
        fail(
            "the value must be a JSON number, a string in double quotes, true, false or null, for \
             example 0.9 or \"ok\""
                .into(),
        )
    };
    if ["NaN", "Infinity", "-Infinity"]
        .iter()
        .any(|c| value_text.contains(c))
    {
        if let Ok(Value::String(_)) = json::parse(value_text) {
        } else {
            return not_json();
        }
    }
    let value = match json::parse(value_text) {
        Ok(v) => v,
        Err(_) => return not_json(),
    };
    if matches!(value, Value::Array(_) | Value::Object(_)) {
        return fail("the value must be a single number, string, boolean or null".into());
    }
    if op.needs_number() && !is_number(&value) {
        return fail(format!("{} needs a number", op.as_str()));
    }
    if matches!(value, Value::Number(Number::Float(f)) if !f.is_finite()) {
        return fail("the value must be finite".into());
    }
    let tolerance = (op == Op::Approx).then(|| (rtol.unwrap_or(0.0), atol.unwrap_or(0.0)));
    Ok(Claim {
        output: output.to_string(),
        location: location.to_string(),
        op,
        value,
        tolerance,
        scale: None,
    })
}

#[cfg(test)]
mod location_tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn array_locations_are_accepted_as_reports_write_them_and_without_spaces() {
        for typed in ["data[1, 2] == 6", "data[1,2] == 6", "  data[1,  2]  ==  6"] {
            let claim = parse_claim("a.npy", typed).unwrap();
            assert_eq!(claim.location, "data[1, 2]", "{typed}");
        }
        assert_eq!(
            parse_claim("w.npz", "weights[3, 1] >= 0").unwrap().location,
            "weights[3, 1]"
        );
        assert!(parse_claim("a.npy", "data[1, x] == 6").is_err());
    }

    fn location(kind: u8, a: u32, b: u32, key: &str) -> (String, String) {
        match kind % 4 {
            0 => ("m.json".into(), format!("$.{key}[{a}].{key}")),
            1 => ("t.csv".into(), format!("r{a}c{b}")),
            2 => ("a.npy".into(), format!("data[{a}, {b}]")),
            _ => ("z.npz".into(), format!("{key}[{a}]")),
        }
    }

    proptest! {
        /// Every location a manifest may hold can be typed on the command line, and means the
        /// same there.
        #[test]
        fn every_location_a_manifest_accepts_is_accepted_on_the_command_line(
            kind in 0u8..4, a in 0u32..1000, b in 0u32..50, key in "[a-z_][a-z0-9_]{0,8}",
        ) {
            let (output, loc) = location(kind, a, b, &key);
            prop_assert!(location_matches_file(&loc, &output));
            let claim = parse_claim(&output, &format!("{loc} == 1")).unwrap();
            prop_assert_eq!(claim.location, loc);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_forms_of_the_seed() {
        let c = parse_claim("out/m.json", "$.accuracy >= 0.9").unwrap();
        assert_eq!(c.text(), "out/m.json: $.accuracy >= 0.9");
        let c = parse_claim("out/m.json", "$.loss ~= 0.25 atol=0.01").unwrap();
        assert_eq!(c.tolerance, Some((0.0, 0.01)));
        assert_eq!(c.text(), "out/m.json: $.loss ~= 0.25 (rtol=0.0, atol=0.01)");
        let c = parse_claim("t.csv", "r3c1 == \"é\"").unwrap();
        assert_eq!(c.text(), "t.csv: r3c1 == \"\\u00e9\"");
        let c = parse_claim("m.json", "$.n == 100000000000000000000001").unwrap();
        assert_eq!(c.text(), "m.json: $.n == 100000000000000000000001");
        assert!(parse_claim("m.json", "$.a[0].b != null").is_ok());
        assert!(parse_claim("m.json", "$ == true").is_ok());
    }

    #[test]
    fn every_malformed_claim_has_a_message() {
        let err = |o: &str, e: &str| parse_claim(o, e).unwrap_err().0;
        assert!(err("m.json", "$.a").contains("expected 'LOCATION OP VALUE'"));
        assert!(err("m.json", "$.a => 1").contains("unknown comparison '=>'"));
        assert_eq!(
            err("m.txt", "$.a == 1"),
            "claim on 'm.txt': claims support .json, .csv, .tsv, .npy and .npz outputs"
        );
        assert!(err("m.json", "$.a.b.c# == 1").contains("is not a location in 'm.json'"));
        assert!(err("m.csv", "$.a == 1").contains("use the form r2c1"));
        assert!(err("m.json", "$.a ~= 1 atol=1 atol=2").contains("atol given twice"));
        assert!(err("m.json", "$.a ~= 1 atol=x").contains("atol must be a number"));
        assert!(err("m.json", "$.a ~= 1 atol=-1").contains("finite number that is not negative"));
        assert!(err("m.json", "$.a == 1 atol=1").contains("only apply to '~='"));
        assert!(err("m.json", "$.a == NaN").contains("must be a JSON number"));
        assert!(err("m.json", "$.a == ok").contains("must be a JSON number"));
        assert!(err("m.json", "$.a == [1]").contains("single number"));
        assert!(err("m.json", "$.a >= \"x\"").contains(">= needs a number"));
        assert!(err("m.json", "$.a == 1e400").contains("must be finite"));
    }
}
