//! Validation of a manifest's `claims` (schema 1.1), with the reference's messages (spec §5.5)
//! and this tool's extensions (printed claims; claims on `.tsv`, `.npy` and `.npz` outputs).

use super::read::{as_object, fail, finite_nonneg, is_finite_number, rel_path};
use crate::claims::{self, Claim, Op};
use crate::error::Result;
use crate::json::{self, Value};
use crate::pyfmt::str_repr;
use std::collections::HashMap;

/// Checks the optional `claims` list; `outputs` maps each output path to `(is_dir, present)`.
pub(super) fn check_claims(
    value: Option<&Value>,
    minor: u64,
    outputs: &HashMap<String, (bool, bool)>,
) -> Result<Vec<Claim>> {
    let Some(value) = value.filter(|v| !matches!(v, Value::Null)) else {
        return Ok(Vec::new());
    };
    if minor < 1 {
        return Err(fail("claims", "claims need schema_version 1.1 or later"));
    }
    let Value::Array(list) = value else {
        return Err(fail(
            "claims",
            format!("expected a list, got {}", value.py_type_name()),
        ));
    };
    if list.len() > claims::MAX_CLAIMS {
        return Err(fail(
            "claims",
            format!("more than {} claims", claims::MAX_CLAIMS),
        ));
    }
    let mut result = Vec::new();
    for (index, claim) in list.iter().enumerate() {
        let place = format!("claims[{index}]");
        let claim = as_object(Some(claim), &place)?;
        let output = rel_path(claim.get("output"), &format!("{place}.output"))?;
        let (is_dir, present) = outputs.get(&output).copied().unwrap_or((true, false));
        if is_dir || !present || !claims::supported_output(&output) {
            return Err(fail(
                &format!("{place}.output"),
                format!(
                    "{} must be a declared .json or .csv output file that was present",
                    str_repr(&output)
                ),
            ));
        }
        let location = match claim.get("location") {
            Some(Value::String(s)) if claims::location_matches_file(s, &output) => s.clone(),
            other => {
                let shown = match other {
                    Some(Value::String(s)) => str_repr(s),
                    None => "None".into(),
                    Some(v) => json::to_string_compact(v),
                };
                return Err(fail(
                    &format!("{place}.location"),
                    format!("{shown} is not a location in {}", str_repr(&output)),
                ));
            }
        };
        let op = match claim
            .get("op")
            .and_then(Value::as_str)
            .and_then(Op::parse_stored)
        {
            Some(op) => op,
            None => {
                let shown = match claim.get("op") {
                    Some(Value::String(s)) => str_repr(s),
                    None => "None".into(),
                    Some(v) => json::to_string_compact(v),
                };
                return Err(fail(
                    &format!("{place}.op"),
                    format!(
                        "expected one of ['==', '!=', '<', '<=', '>', '>=', '~=', 'printed'], got {shown}"
                    ),
                ));
            }
        };
        let value = claim.get("value").cloned().unwrap_or(Value::Null);
        if op == Op::Printed {
            let printed = |v: Option<&Value>| {
                v.and_then(Value::as_str)
                    .and_then(crate::claims::printed::Decimal::parse)
            };
            if printed(Some(&value)).is_none() {
                return Err(fail(
                    &format!("{place}.value"),
                    "a printed claim needs the number as printed, as a string",
                ));
            }
            let scale = match claim.get("scale") {
                None | Some(Value::Null) => None,
                Some(v) => match (v.as_str(), printed(Some(v))) {
                    (Some(text), Some(d)) if d.is_positive() => Some(text.to_string()),
                    _ => {
                        return Err(fail(
                            &format!("{place}.scale"),
                            "expected a positive decimal number as a string",
                        ));
                    }
                },
            };
            if claim.contains_key("rtol") || claim.contains_key("atol") {
                return Err(fail(&place, "rtol and atol only apply to '~='"));
            }
            result.push(Claim {
                output,
                location,
                op,
                value,
                tolerance: None,
                scale,
            });
            continue;
        }
        if op.needs_number() {
            if !is_finite_number(&value) {
                return Err(fail(
                    &format!("{place}.value"),
                    format!("{} needs a finite number", op.as_str()),
                ));
            }
        } else {
            let ok = match &value {
                Value::Null | Value::Bool(_) => true,
                Value::String(s) => s.chars().count() <= claims::MAX_STRING_VALUE,
                v => is_finite_number(v),
            };
            if !ok {
                return Err(fail(
                    &format!("{place}.value"),
                    "expected a number, string, boolean or null",
                ));
            }
        }
        let tolerance = if op == Op::Approx {
            let rtol = finite_nonneg(claim.get("rtol"), &format!("{place}.rtol"))?;
            let atol = finite_nonneg(claim.get("atol"), &format!("{place}.atol"))?;
            Some((rtol, atol))
        } else {
            if claim.contains_key("rtol") || claim.contains_key("atol") {
                return Err(fail(&place, "rtol and atol only apply to '~='"));
            }
            None
        };
        result.push(Claim {
            output,
            location,
            op,
            value,
            tolerance,
            scale: None,
        });
    }
    Ok(result)
}
