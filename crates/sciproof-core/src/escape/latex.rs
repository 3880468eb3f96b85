//! LaTeX: untrusted text as text that typesets literally (the ten special characters escaped,
//! controls as spaces), and the allowlist that decides whether a claim's own TeX may stand in a
//! document as mathematics.

/// Escapes text for LaTeX: the ten special characters, and characters `pdflatex` cannot
/// typeset from UTF-8 input.
pub fn text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '&' => out.push_str("\\&"),
            '%' => out.push_str("\\%"),
            '$' => out.push_str("\\$"),
            '#' => out.push_str("\\#"),
            '_' => out.push_str("\\_"),
            '{' => out.push_str("\\{"),
            '}' => out.push_str("\\}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            c if (c as u32) < 0x100 && !c.is_control() => out.push(c),
            c if c.is_control() => out.push(' '),
            c => match math_symbol(c) {
                Some(m) => {
                    out.push_str("\\ensuremath{");
                    out.push_str(m);
                    out.push('}');
                }
                None => out.push_str(&format!("\\texttt{{U+{:04X}}}", c as u32)),
            },
        }
    }
    out
}

/// The reference export's escaping (`export --format latex`): C0 controls and DEL as spaces,
/// the ten special characters escaped, every other character as given.
pub fn text_as_given(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            c if (c as u32) < 32 || c as u32 == 127 => out.push(' '),
            '\\' => out.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            c => out.push(c),
        }
    }
    out
}

/// The amsmath/amssymb command for common mathematical characters.
fn math_symbol(c: char) -> Option<&'static str> {
    const GREEK: [(char, &str); 40] = [
        ('α', "\\alpha"),
        ('β', "\\beta"),
        ('γ', "\\gamma"),
        ('δ', "\\delta"),
        ('ε', "\\epsilon"),
        ('ζ', "\\zeta"),
        ('η', "\\eta"),
        ('θ', "\\theta"),
        ('ι', "\\iota"),
        ('κ', "\\kappa"),
        ('λ', "\\lambda"),
        ('μ', "\\mu"),
        ('ν', "\\nu"),
        ('ξ', "\\xi"),
        ('π', "\\pi"),
        ('ρ', "\\rho"),
        ('σ', "\\sigma"),
        ('τ', "\\tau"),
        ('υ', "\\upsilon"),
        ('φ', "\\phi"),
        ('χ', "\\chi"),
        ('ψ', "\\psi"),
        ('ω', "\\omega"),
        ('Γ', "\\Gamma"),
        ('Δ', "\\Delta"),
        ('Θ', "\\Theta"),
        ('Λ', "\\Lambda"),
        ('Ξ', "\\Xi"),
        ('Π', "\\Pi"),
        ('Σ', "\\Sigma"),
        ('Φ', "\\Phi"),
        ('Ψ', "\\Psi"),
        ('Ω', "\\Omega"),
        ('ϕ', "\\varphi"),
        ('ϵ', "\\varepsilon"),
        ('ℝ', "\\mathbb{R}"),
        ('ℕ', "\\mathbb{N}"),
        ('ℤ', "\\mathbb{Z}"),
        ('ℚ', "\\mathbb{Q}"),
        ('ℂ', "\\mathbb{C}"),
    ];
    const OPERATORS: [(char, &str); 32] = [
        ('≠', "\\neq"),
        ('≤', "\\leq"),
        ('≥', "\\geq"),
        ('≈', "\\approx"),
        ('≡', "\\equiv"),
        ('∧', "\\land"),
        ('∨', "\\lor"),
        ('¬', "\\neg"),
        ('→', "\\rightarrow"),
        ('←', "\\leftarrow"),
        ('↔', "\\leftrightarrow"),
        ('⇒', "\\Rightarrow"),
        ('⇔', "\\Leftrightarrow"),
        ('∀', "\\forall"),
        ('∃', "\\exists"),
        ('∈', "\\in"),
        ('∉', "\\notin"),
        ('⊂', "\\subset"),
        ('⊆', "\\subseteq"),
        ('∪', "\\cup"),
        ('∩', "\\cap"),
        ('∅', "\\emptyset"),
        ('∞', "\\infty"),
        ('∫', "\\int"),
        ('∑', "\\sum"),
        ('∏', "\\prod"),
        ('√', "\\surd"),
        ('∂', "\\partial"),
        ('∇', "\\nabla"),
        ('⋅', "\\cdot"),
        ('∘', "\\circ"),
        ('−', "-"),
    ];
    GREEK
        .iter()
        .chain(OPERATORS.iter())
        .find(|(k, _)| *k == c)
        .map(|(_, v)| *v)
}

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
/// control words of `MATH_WORDS` and control symbols that space or escape (`\\,` `\\!`
/// `\\;` `\\:` `\\ ` `\\{` `\\}` `\\|`), balanced braces, one line, and none of `$`
/// (ends the formula), `%` (comments out the rest), `#`, `&`, `<`, `^^` (TeX's way to write any
/// character) or controls.
pub fn safe_math(latex: &str) -> bool {
    if latex.is_empty()
        || latex.len() > 20_000
        || latex.contains("^^")
        || latex
            .chars()
            .any(|c| matches!(c, '$' | '%' | '#' | '&' | '<') || super::terminal::is_unsafe(c))
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

#[cfg(test)]
mod tests {
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
