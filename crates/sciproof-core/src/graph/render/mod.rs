//! Documents a human referee reads: Markdown ([`markdown`]) and LaTeX ([`latex`]). Renderers
//! only read the graph; they never decide a status.
//!
//! For documents written by alkahest the output is the reference's, byte for byte. A document
//! written by sciproof names sciproof (`metadata.generator`) instead of an Alkahest version.

pub mod latex;
pub mod markdown;

use crate::json::{Number, Object, Value};

/// The control words a claim's `latex` may use: mathematics only. A document is untrusted, and
/// TeX can read files (`\\input`), write them (`\\write`), redefine anything (`\\def`,
/// `\\catcode`) or spell any of that in other ways (`\\csname`, `^^5c`); a formula that uses
/// anything else is not shown as TeX (the statement is shown as text instead).
const MATH_WORDS: &[&str] = &[
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "varepsilon",
    "zeta",
    "eta",
    "theta",
    "vartheta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "omicron",
    "pi",
    "varpi",
    "rho",
    "varrho",
    "sigma",
    "varsigma",
    "tau",
    "upsilon",
    "phi",
    "varphi",
    "chi",
    "psi",
    "omega",
    "Gamma",
    "Delta",
    "Theta",
    "Lambda",
    "Xi",
    "Pi",
    "Sigma",
    "Upsilon",
    "Phi",
    "Psi",
    "Omega",
    "frac",
    "dfrac",
    "tfrac",
    "binom",
    "sqrt",
    "left",
    "right",
    "big",
    "Big",
    "bigl",
    "bigr",
    "Bigl",
    "Bigr",
    "mathrm",
    "mathbf",
    "mathit",
    "mathsf",
    "mathcal",
    "mathbb",
    "operatorname",
    "ln",
    "log",
    "exp",
    "sin",
    "cos",
    "tan",
    "sec",
    "csc",
    "cot",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "coth",
    "det",
    "gcd",
    "max",
    "min",
    "sup",
    "inf",
    "lim",
    "limsup",
    "liminf",
    "int",
    "iint",
    "oint",
    "sum",
    "prod",
    "infty",
    "cdot",
    "cdots",
    "ldots",
    "dots",
    "times",
    "div",
    "pm",
    "mp",
    "partial",
    "nabla",
    "le",
    "ge",
    "leq",
    "geq",
    "neq",
    "ne",
    "approx",
    "equiv",
    "sim",
    "simeq",
    "propto",
    "to",
    "mapsto",
    "rightarrow",
    "leftarrow",
    "leftrightarrow",
    "Rightarrow",
    "Leftrightarrow",
    "land",
    "lor",
    "neg",
    "forall",
    "exists",
    "in",
    "notin",
    "subset",
    "subseteq",
    "cup",
    "cap",
    "setminus",
    "emptyset",
    "surd",
    "circ",
    "quad",
    "qquad",
    "mid",
    "vert",
    "lvert",
    "rvert",
    "langle",
    "rangle",
    "lfloor",
    "rfloor",
    "lceil",
    "rceil",
    "prime",
    "displaystyle",
    "limits",
    "overline",
    "hat",
    "bar",
    "vec",
    "tilde",
    "dot",
    "ddot",
    "Re",
    "Im",
    "hbar",
    "ell",
];

/// Whether a claim's `latex` is mathematics that is safe to put in a document as TeX: only the
/// control words of [`MATH_WORDS`] and control symbols that space or escape (`\\,` `\\!`
/// `\\;` `\\:` `\\ ` `\\{` `\\}` `\\|`), balanced braces, one line, and none of `$`
/// (ends the formula), `%` (comments out the rest), `#`, `&`, `<`, `^^` (TeX's way to write any
/// character) or controls.
pub(crate) fn safe_math(latex: &str) -> bool {
    if latex.is_empty()
        || latex.len() > 20_000
        || latex.contains("^^")
        || latex
            .chars()
            .any(|c| matches!(c, '$' | '%' | '#' | '&' | '<') || crate::text::is_unsafe(c))
    {
        return false;
    }
    let mut depth = 0i64;
    let mut chars = latex.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            '\\' => match chars.peek().copied() {
                Some(n) if n.is_ascii_alphabetic() => {
                    let mut word = String::new();
                    while let Some(&n) = chars.peek().filter(|n| n.is_ascii_alphabetic()) {
                        word.push(n);
                        chars.next();
                    }
                    if !MATH_WORDS.contains(&word.as_str()) {
                        return false;
                    }
                }
                Some(n @ (',' | '!' | ';' | ':' | ' ' | '{' | '}' | '|')) => {
                    let _ = n;
                    chars.next();
                }
                _ => return false,
            },
            _ => {}
        }
    }
    depth == 0
}

/// A document written line by line to a sink, as `lines.join("\n").trim_end() + "\n"` would
/// give it, without holding the document: a rendering of a million claims is streamed.
pub struct Lines<'s> {
    sink: &'s mut dyn FnMut(&str),
    /// Line breaks owed before the next non-empty line (empty lines at the end are dropped).
    owed: usize,
    started: bool,
}

impl<'s> Lines<'s> {
    /// Lines for `sink`.
    pub fn new(sink: &'s mut dyn FnMut(&str)) -> Self {
        Lines {
            sink,
            owed: 0,
            started: false,
        }
    }
    /// Appends a line.
    pub fn push(&mut self, line: impl AsRef<str>) {
        if self.started {
            self.owed += 1;
        }
        self.started = true;
        let line = line.as_ref();
        if !line.is_empty() {
            for _ in 0..self.owed {
                (self.sink)("\n");
            }
            self.owed = 0;
            (self.sink)(line);
        }
    }
    /// Appends lines.
    pub fn extend<S: AsRef<str>>(&mut self, lines: impl IntoIterator<Item = S>) {
        for line in lines {
            self.push(line);
        }
    }
    /// Ends the document with one line break.
    pub fn finish(self) {
        (self.sink)("\n");
    }
}

/// Collects what a renderer writes to a sink.
pub(crate) fn collect(render: impl FnOnce(&mut dyn FnMut(&str))) -> String {
    let mut text = String::new();
    render(&mut |piece| text.push_str(piece));
    text
}

/// Python's `str()` of a JSON value, as the reference prints stored values.
pub(crate) fn py_str(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => "None".into(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(true)) => "True".into(),
        Some(Value::Bool(false)) => "False".into(),
        Some(Value::Number(Number::Int(i))) => i.to_string(),
        Some(Value::Number(Number::Float(f))) => crate::pyfmt::float_repr(*f),
        Some(v) => crate::json::to_string_compact(v),
    }
}

/// `str(d.get(key, ""))`.
pub(crate) fn field_or_empty(object: &Object, key: &str) -> String {
    match object.get(key) {
        None => String::new(),
        v => py_str(v),
    }
}

/// Who wrote the document, for the header: `Alkahest <version>` (the reference's line, with
/// `unknown` when absent) unless sciproof wrote it.
pub(crate) fn producer(metadata: &Object) -> String {
    match (metadata.get("alkahest_version"), metadata.get("generator")) {
        (None, Some(Value::String(g))) => g.clone(),
        (v, _) => format!(
            "Alkahest {}",
            if v.is_none() {
                "unknown".into()
            } else {
                py_str(v)
            }
        ),
    }
}

/// Whether alkahest wrote the document (then it is rendered exactly as alkahest renders it).
pub(crate) fn is_alkahest(metadata: &Object) -> bool {
    producer(metadata).starts_with("Alkahest")
}

/// Who performed a re-check: `on Alkahest <version>` for the reference's audit entries,
/// `by <checker>` for ours.
pub(crate) fn checker(entry: &Object) -> String {
    match (entry.get("alkahest_version"), entry.get("checker")) {
        (None, Some(Value::String(c))) => format!("by {c}"),
        (v, _) => format!("on Alkahest {}", py_str(v)),
    }
}

/// The default title.
pub(crate) fn title(graph: &super::ClaimGraph) -> String {
    match &graph.title {
        Some(t) if !t.is_empty() => t.clone(),
        _ if is_alkahest(&graph.metadata) => "Alkahest research record".into(),
        _ => "Claim graph".into(),
    }
}

/// `{100 * k / n:.0f}`: the percentage rounded half to even on the binary double, as Python
/// formats it.
pub(crate) fn percent(checked: usize, total: usize) -> String {
    format!("{:.0}", 100.0 * checked as f64 / total as f64)
}

#[cfg(test)]
mod math_tests {
    use super::safe_math;

    #[test]
    fn formulas_are_mathematics_and_nothing_else() {
        for ok in [
            r"\int \frac{x}{\left(x^2 + 1\right)} \, \mathrm{d}x = \frac{1}{2} \ln\!\left(x^2 + 1\right)",
            r"\frac{\mathrm{d}}{\mathrm{d}x}\left(\frac{1}{2} \ln\!\left(2\right)\right) = 0",
            r"\alpha \leq \beta",
        ] {
            assert!(safe_math(ok), "{ok}");
        }
        for bad in [
            r"\input{/etc/passwd}",
            r"x \immediate\write18{rm -rf ~}",
            r"\def\x{y}",
            r"^^5cinput{x}",
            r"\csname input\endcsname",
            r"x % rest",
            r"x $ \text{}",
            r"\frac{1}{2",
            r"}{",
            "x\ny",
            r"\\",
        ] {
            assert!(!safe_math(bad), "{bad}");
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn percent_rounds_half_to_even() {
        assert_eq!(super::percent(1, 8), "12");
        assert_eq!(super::percent(3, 8), "38");
        assert_eq!(super::percent(5, 8), "62");
        assert_eq!(super::percent(1, 40), "2");
        assert_eq!(super::percent(199, 200), "100");
    }
}
