//! The expression recipes of the reference (`identity`, `zero`, `derivative`,
//! `antiderivative`, `definite_integral`), which need a computer-algebra kernel this build does
//! not have: each is `skipped` and says so, never a fake pass.

use super::{Context, Outcome, Recheck, Recipe};
use crate::json::Object;

/// An expression recipe this build knows by name but cannot run.
pub struct Unsupported {
    kind: &'static str,
}

/// `identity`: two expressions are equal.
pub static IDENTITY: Unsupported = Unsupported { kind: "identity" };
/// `zero`: an expression is zero.
pub static ZERO: Unsupported = Unsupported { kind: "zero" };
/// `derivative`: the derivative of an expression.
pub static DERIVATIVE: Unsupported = Unsupported { kind: "derivative" };
/// `antiderivative`: an antiderivative of an expression.
pub static ANTIDERIVATIVE: Unsupported = Unsupported {
    kind: "antiderivative",
};
/// `definite_integral`: the value of a definite integral.
pub static DEFINITE_INTEGRAL: Unsupported = Unsupported {
    kind: "definite_integral",
};

impl Recipe for Unsupported {
    fn kind(&self) -> &'static str {
        self.kind
    }
    fn runs(&self) -> bool {
        false
    }
    fn recheck(&self, _check: &Object, _context: &mut Context) -> Recheck {
        Recheck::new(
            Outcome::Skipped,
            self.kind,
            format!(
                "the '{}' recipe needs a symbolic engine that this build of sciproof does not have; not checked",
                self.kind
            ),
        )
    }
}
