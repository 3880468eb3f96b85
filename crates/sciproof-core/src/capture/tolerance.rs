//! `--tolerance OUTPUT 'rtol=X atol=Y'`: a tolerance for one numeric output.

use crate::error::{Error, Result};
use crate::pyfmt::{parse_py_float, str_repr};

/// The settings given for one output; a setting left out keeps the global `--rtol`/`--atol`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ToleranceSetting {
    /// The relative tolerance, when the setting gives one.
    pub rtol: Option<f64>,
    /// The absolute tolerance, when the setting gives one.
    pub atol: Option<f64>,
}

/// Parses `(OUTPUT, SETTINGS)` pairs: SETTINGS is `rtol=X`, `atol=Y` or both, separated by
/// spaces and/or commas. An output given twice, an unknown or repeated setting, or a value that
/// is not a number is a usage error.
pub fn parse_tolerance_settings(
    pairs: &[(String, String)],
) -> Result<Vec<(String, ToleranceSetting)>> {
    let mut result: Vec<(String, ToleranceSetting)> = Vec::new();
    for (output, text) in pairs {
        let shown = str_repr(output);
        if result.iter().any(|(o, _)| o == output) {
            return Err(Error::Capture(format!(
                "--tolerance given twice for {shown}"
            )));
        }
        let mut setting = ToleranceSetting::default();
        let replaced = text.replace(',', " ");
        for item in replaced
            .split(crate::pyfmt::is_py_space)
            .filter(|s| !s.is_empty())
        {
            let (name, number) = item.split_once('=').unwrap_or((item, ""));
            let slot = match name {
                "rtol" if !number.is_empty() => &mut setting.rtol,
                "atol" if !number.is_empty() => &mut setting.atol,
                _ => {
                    return Err(Error::Capture(format!(
                        "--tolerance {shown}: expected 'rtol=X', 'atol=Y' or both, got {}",
                        str_repr(item)
                    )));
                }
            };
            if slot.is_some() {
                return Err(Error::Capture(format!(
                    "--tolerance {shown}: {name} given twice"
                )));
            }
            *slot = Some(parse_py_float(number).ok_or_else(|| {
                Error::Capture(format!("--tolerance {shown}: {name} must be a number"))
            })?);
        }
        if setting.rtol.is_none() && setting.atol.is_none() {
            return Err(Error::Capture(format!(
                "--tolerance {shown}: no setting given; use 'rtol=X atol=Y'"
            )));
        }
        result.push((output.clone(), setting));
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Result<ToleranceSetting> {
        parse_tolerance_settings(&[("o.csv".into(), text.into())]).map(|v| v[0].1)
    }

    #[test]
    fn settings_and_errors() {
        assert_eq!(
            one("rtol=1e-3 atol=1e-6").unwrap(),
            ToleranceSetting {
                rtol: Some(1e-3),
                atol: Some(1e-6)
            }
        );
        assert_eq!(
            one("atol=0.5,").unwrap(),
            ToleranceSetting {
                rtol: None,
                atol: Some(0.5)
            }
        );
        assert!(
            one("foo=1")
                .unwrap_err()
                .to_string()
                .contains("expected 'rtol=X', 'atol=Y' or both, got 'foo=1'")
        );
        assert!(
            one("rtol=")
                .unwrap_err()
                .to_string()
                .contains("got 'rtol='")
        );
        assert!(
            one("rtol=1 rtol=2")
                .unwrap_err()
                .to_string()
                .contains("rtol given twice")
        );
        assert!(
            one("rtol=x")
                .unwrap_err()
                .to_string()
                .contains("rtol must be a number")
        );
        assert!(
            one(" , ")
                .unwrap_err()
                .to_string()
                .contains("no setting given")
        );
        let twice = parse_tolerance_settings(&[
            ("a".into(), "rtol=1".into()),
            ("a".into(), "atol=1".into()),
        ]);
        assert!(
            twice
                .unwrap_err()
                .to_string()
                .contains("--tolerance given twice for 'a'")
        );
    }
}
