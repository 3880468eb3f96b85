//! alkahest's expression grammar (its `_parse.py`, a Pratt parser), with its error messages.
//!
//! Tokens: numbers (`3`, `3.14`, `1e5`, `.5e3`), identifiers, `**`, `+ - * / ^ ( ) ,`;
//! whitespace is space, tab, CR and LF; any other character is an error. Binding powers: `+ -`
//! 10, `* /` 20, unary signs 25 (so `-x^2` is `-(x^2)`), `^` and `**` 30, right-associative.
//! A unary minus on an integer folds into it; `a / 0` (a literal zero) is an error; nesting is
//! limited to 2048 levels, as alkahest limits it.

use super::expr::{Expr, Func, Literal};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Pow, Zero};
use std::collections::BTreeSet;
use std::rc::Rc;

/// The deepest nesting alkahest accepts.
const MAX_DEPTH: usize = 2048;

/// A parse error, worded as alkahest words it (the type name goes in front in details).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// alkahest's exception type: `ParseError`, or `_DivisionByZeroParseError` for `a / 0`.
    pub kind: &'static str,
    /// The message.
    pub message: String,
}

impl ParseError {
    fn new(message: String) -> ParseError {
        ParseError {
            kind: "ParseError",
            message,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token<'a> {
    Num(&'a str),
    Ident(&'a str),
    Op(&'a str),
    Eof,
}

impl Token<'_> {
    fn text(&self) -> &str {
        match self {
            Token::Num(t) | Token::Ident(t) | Token::Op(t) => t,
            Token::Eof => "",
        }
    }
}

fn tokenize(source: &str) -> Result<Vec<Token<'_>>, ParseError> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut pos = 0;
    let digits = |mut i: usize| {
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    // An exponent `[eE][+-]?\d+` at `i`, if there is a complete one.
    let exponent = |i: usize| -> usize {
        if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
            let mut j = i + 1;
            if j < bytes.len() && (bytes[j] == b'+' || bytes[j] == b'-') {
                j += 1;
            }
            let end = digits(j);
            if end > j {
                return end;
            }
        }
        i
    };
    while pos < bytes.len() {
        let c = bytes[pos];
        let start = pos;
        if c.is_ascii_digit()
            || (c == b'.' && pos + 1 < bytes.len() && bytes[pos + 1].is_ascii_digit())
        {
            let mut end = digits(pos);
            if end < bytes.len() && bytes[end] == b'.' {
                end = digits(end + 1);
            }
            pos = exponent(end);
            tokens.push(Token::Num(&source[start..pos]));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while pos < bytes.len() && (bytes[pos].is_ascii_alphanumeric() || bytes[pos] == b'_') {
                pos += 1;
            }
            tokens.push(Token::Ident(&source[start..pos]));
        } else if c == b'*' && bytes.get(pos + 1) == Some(&b'*') {
            pos += 2;
            tokens.push(Token::Op("**"));
        } else if b"+-*/^(),".contains(&c) {
            pos += 1;
            tokens.push(Token::Op(&source[start..pos]));
        } else if b" \t\r\n".contains(&c) {
            pos += 1;
        } else {
            let ch = source[pos..].chars().next().expect("a character");
            return Err(ParseError::new(format!(
                "unexpected character {} at offset {}",
                sciproof_json::pyfmt::str_repr(&ch.to_string()),
                source[..pos].chars().count()
            )));
        }
    }
    tokens.push(Token::Eof);
    Ok(tokens)
}

/// Parses `source`, adding every identifier used as a symbol to `symbols`.
pub fn parse(source: &str, symbols: &mut BTreeSet<String>) -> Result<Expr, ParseError> {
    let tokens = tokenize(source)?;
    if tokens[0] == Token::Eof {
        return Err(ParseError::new("empty expression".into()));
    }
    let mut parser = Parser {
        tokens,
        pos: 0,
        depth: 0,
        symbols,
    };
    let expr = parser.expr(0)?;
    match parser.peek() {
        Token::Eof => Ok(expr),
        t => Err(ParseError::new(format!(
            "unexpected token {}",
            quote(t.text())
        ))),
    }
}

fn quote(text: &str) -> String {
    sciproof_json::pyfmt::str_repr(text)
}

struct Parser<'a, 's> {
    tokens: Vec<Token<'a>>,
    pos: usize,
    depth: usize,
    symbols: &'s mut BTreeSet<String>,
}

fn infix_power(token: &Token) -> u8 {
    match token {
        Token::Op("+" | "-") => 10,
        Token::Op("*" | "/") => 20,
        Token::Op("^" | "**") => 30,
        _ => 0,
    }
}

impl<'a> Parser<'a, '_> {
    fn peek(&self) -> Token<'a> {
        self.tokens[self.pos].clone()
    }

    fn advance(&mut self) -> Token<'a> {
        let t = self.peek();
        if t != Token::Eof {
            self.pos += 1;
        }
        t
    }

    fn expect(&mut self, op: &str) -> Result<(), ParseError> {
        match self.advance() {
            Token::Op(t) if t == op => Ok(()),
            Token::Eof => Err(ParseError::new(format!(
                "expected {} but reached end of input",
                quote(op)
            ))),
            t => Err(ParseError::new(format!(
                "expected {}, got {}",
                quote(op),
                quote(t.text())
            ))),
        }
    }

    /// One production (alkahest's `_expr`): each nested one counts towards the depth limit.
    fn expr(&mut self, rbp: u8) -> Result<Expr, ParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(ParseError::new(format!(
                "expression nesting too deep: exceeds the limit of {MAX_DEPTH} levels (parentheses, prefix signs, powers, function arguments)"
            )));
        }
        self.depth += 1;
        let result = self.expr_inner(rbp);
        self.depth -= 1;
        result
    }

    fn expr_inner(&mut self, rbp: u8) -> Result<Expr, ParseError> {
        let token = self.advance();
        let mut left = self.nud(token)?;
        loop {
            let token = self.peek();
            let lbp = infix_power(&token);
            if lbp <= rbp {
                return Ok(left);
            }
            self.advance();
            left = match token {
                Token::Op(op @ ("+" | "-")) => self.additive(left, op)?,
                Token::Op(op @ ("*" | "/")) => self.multiplicative(left, op)?,
                _ => {
                    let right = self.expr(30 - 1)?;
                    Expr::pow(left, right)
                }
            };
        }
    }

    fn additive(&mut self, left: Expr, mut op: &'a str) -> Result<Expr, ParseError> {
        let mut terms = vec![left];
        loop {
            let right = self.expr(10)?;
            terms.push(if op == "+" {
                right
            } else {
                Expr::negated(right)
            });
            match self.peek() {
                Token::Op(next @ ("+" | "-")) => {
                    op = next;
                    self.advance();
                }
                _ => return Ok(Expr::add(terms)),
            }
        }
    }

    fn multiplicative(&mut self, left: Expr, mut op: &'a str) -> Result<Expr, ParseError> {
        let mut factors = vec![left];
        loop {
            let right = self.expr(20)?;
            if op == "*" {
                factors.push(right);
            } else {
                if is_literal_zero(&right) {
                    return Err(ParseError {
                        kind: "_DivisionByZeroParseError",
                        message: "division by zero".into(),
                    });
                }
                factors.push(Expr::recip(right));
            }
            match self.peek() {
                Token::Op(next @ ("*" | "/")) => {
                    op = next;
                    self.advance();
                }
                _ => return Ok(Expr::mul(factors)),
            }
        }
    }

    fn nud(&mut self, token: Token<'a>) -> Result<Expr, ParseError> {
        match token {
            Token::Num(text) => number(text),
            Token::Ident(name) => {
                if self.peek() == Token::Op("(") {
                    return self.call(name);
                }
                // (a symbol met again costs no allocation)
                if !self.symbols.contains(name) {
                    self.symbols.insert(name.to_string());
                }
                Ok(Expr::Sym(name.into()))
            }
            Token::Op("-") => {
                let operand = self.expr(25)?;
                Ok(match operand {
                    Expr::Int(n) => Expr::Int(Rc::new(-&*n)),
                    Expr::Rat(r) => Expr::Rat(Rc::new(-&*r)),
                    other => Expr::negated(other),
                })
            }
            Token::Op("+") => self.expr(25),
            Token::Op("(") => {
                if self.peek() == Token::Op(")") {
                    return Err(ParseError::new("empty parentheses".into()));
                }
                let inner = self.expr(0)?;
                self.expect(")")?;
                Ok(inner)
            }
            t => Err(ParseError::new(format!(
                "unexpected token {}",
                quote(t.text())
            ))),
        }
    }

    fn call(&mut self, name: &'a str) -> Result<Expr, ParseError> {
        self.advance(); // "("
        let mut args = Vec::new();
        if self.peek() != Token::Op(")") {
            args.push(self.expr(0)?);
            while self.peek() == Token::Op(",") {
                self.advance();
                args.push(self.expr(0)?);
            }
        }
        self.expect(")")?;
        apply(name, args)
    }
}

/// A literal zero divisor (`0`, `0.0`, `-0`), which alkahest refuses while parsing.
fn is_literal_zero(e: &Expr) -> bool {
    match e {
        Expr::Int(n) => n.is_zero(),
        Expr::Rat(r) => r.is_zero(),
        Expr::Float(l) => l.value == 0.0 && l.exact.as_ref().is_none_or(|x| x.is_zero()),
        _ => false,
    }
}

/// The largest decimal exponent read exactly; beyond it a literal keeps only its f64 value.
const EXACT_EXPONENT: i64 = 4096;

fn number(text: &str) -> Result<Expr, ParseError> {
    if !text.contains(['.', 'e', 'E']) {
        // (up to 18 digits fit a u64: no big-integer parse)
        let n: BigInt = match text.len() {
            ..=18 => text.parse::<u64>().expect("digits").into(),
            _ => text.parse().expect("digits"),
        };
        return Ok(Expr::Int(Rc::new(n)));
    }
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], &text[i + 1..]),
        None => (text, "0"),
    };
    let Ok(exponent) = exponent.parse::<i64>() else {
        return Err(ParseError::new(format!(
            "number literal out of range: {text}"
        )));
    };
    // alkahest's arbitrary-precision exponent ends near 2^62 bits; refuse far before that.
    if exponent.unsigned_abs() > 1 << 40 {
        return Err(ParseError::new(format!(
            "number literal out of range: {text}"
        )));
    }
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    let scale = exponent - fraction.len() as i64;
    let significand: BigInt = if digits.is_empty() {
        BigInt::zero()
    } else {
        digits.parse().expect("digits")
    };
    let exact = if significand.is_zero() {
        Some(BigRational::zero())
    } else if scale.abs() <= EXACT_EXPONENT {
        let ten = BigInt::from(10);
        let power = ten.pow(scale.unsigned_abs());
        Some(if scale >= 0 {
            BigRational::from_integer(significand * power)
        } else {
            BigRational::new(significand, power)
        })
    } else {
        None
    };
    let value: f64 = text.parse().unwrap_or(f64::NAN);
    Ok(Expr::Float(Rc::new(Literal {
        text: text.to_string(),
        exact,
        value,
    })))
}

fn apply(name: &str, mut args: Vec<Expr>) -> Result<Expr, ParseError> {
    let reciprocal = match name {
        "sec" => Some(Func::Cos),
        "csc" => Some(Func::Sin),
        "cot" => Some(Func::Tan),
        "sech" => Some(Func::Cosh),
        "csch" => Some(Func::Sinh),
        "coth" => Some(Func::Tanh),
        _ => None,
    };
    if name == "cbrt" || reciprocal.is_some() {
        if args.len() != 1 {
            return Err(ParseError::new(format!(
                "{name} takes exactly 1 argument, got {}",
                args.len()
            )));
        }
        let arg = args.pop().expect("one argument");
        return Ok(match reciprocal {
            Some(base) => Expr::recip(Expr::call(base, arg)),
            None => Expr::pow(arg, Expr::rat(1, 3)),
        });
    }
    let Some(func) = Func::named(name) else {
        return Err(ParseError::new(format!("unknown function {}", quote(name))));
    };
    let (lo, hi) = func.arity();
    if !(lo..=hi).contains(&args.len()) {
        let want = if lo == hi {
            lo.to_string()
        } else {
            format!("{lo} or {hi}")
        };
        let noun = if lo == 1 && hi == 1 {
            "argument"
        } else {
            "arguments"
        };
        return Err(ParseError::new(format!(
            "{name} takes {want} {noun}, got {}",
            args.len()
        )));
    }
    Ok(Expr::Call(func, args.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(s: &str) -> String {
        match parse(s, &mut BTreeSet::new()) {
            Ok(e) => e.to_string(),
            Err(e) => format!("{}: {}", e.kind, e.message),
        }
    }

    #[test]
    fn precedence_and_signs() {
        assert_eq!(show("-x^2"), "(-1 * x^2)");
        assert_eq!(show("2^3^2"), "2^(3^2)");
        assert_eq!(show("x^-1"), "x^-1");
        assert_eq!(show("-3"), "-3");
        assert_eq!(show("a - b + c"), "(a + (-1 * b) + c)");
        assert_eq!(show("x ** 2 * y"), "(x^2 * y)");
        assert_eq!(show("cbrt(x)"), "x^(1/3)");
        assert_eq!(show("sec(x)"), "cos(x)^-1");
    }

    #[test]
    fn alkahest_errors() {
        assert_eq!(show("x +"), "ParseError: unexpected token ''");
        assert_eq!(show("x/0"), "_DivisionByZeroParseError: division by zero");
        assert_eq!(show("x/0.0"), "_DivisionByZeroParseError: division by zero");
        assert_eq!(show(""), "ParseError: empty expression");
        assert_eq!(show("f(x)"), "ParseError: unknown function 'f'");
        assert_eq!(show("sin(x,y)"), "ParseError: sin takes 1 argument, got 2");
        assert_eq!(
            show("atan2(x)"),
            "ParseError: atan2 takes 2 arguments, got 1"
        );
        assert_eq!(
            show("EllipticE()"),
            "ParseError: EllipticE takes 1 or 2 arguments, got 0"
        );
        assert_eq!(
            show("x $"),
            "ParseError: unexpected character '$' at offset 2"
        );
        assert_eq!(show("()"), "ParseError: empty parentheses");
        assert_eq!(
            show("(x"),
            "ParseError: expected ')' but reached end of input"
        );
        assert_eq!(show("x y"), "ParseError: unexpected token 'y'");
        assert_eq!(
            show("sec(x, y)"),
            "ParseError: sec takes exactly 1 argument, got 2"
        );
    }

    #[test]
    fn depth_limit() {
        // On a thread with the stack recipes get (the test's own has 2 MiB, too little for
        // 2,048 levels in a debug build).
        std::thread::Builder::new()
            .stack_size(crate::json::stream::WORKER_STACK)
            .spawn(|| {
                let ok = format!("{}x{}", "(".repeat(2046), ")".repeat(2046));
                assert!(parse(&ok, &mut BTreeSet::new()).is_ok());
                let deep = format!("{}x{}", "(".repeat(2048), ")".repeat(2048));
                assert!(show(&deep).contains("nesting too deep"));
            })
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn symbols_are_collected() {
        let mut s = BTreeSet::new();
        parse("sin(x) + pi*y^e", &mut s).unwrap();
        assert_eq!(s.into_iter().collect::<Vec<_>>(), ["e", "pi", "x", "y"]);
    }
}
