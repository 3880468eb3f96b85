//! Re-verification (spec §5): walk the graph, re-check every claim that carries a recipe, and
//! only ever lower confidence.
//!
//! Each recipe kind implements [`Recipe`] in its own file and is listed in [`RECIPES`]:
//! `numeric_relation` ([`numeric_relation`]), `sciproof_claim` and `sciproof_manifest`
//! ([`sciproof`]), and alkahest's expression recipes ([`expression`]: `identity`, `zero`,
//! `derivative`, `antiderivative`, `definite_integral`). Unknown kinds are `skipped`.
//!
//! A pass runs over a graph in memory ([`ClaimGraph::verify_each`]) or over a document as it is
//! read and written back ([`streamed`], which `graph verify` uses: the same outcomes and the
//! same document, without holding the graph).

pub mod expression;
pub mod numeric_relation;
pub mod sciproof;
pub mod streamed;

use super::ClaimGraph;
use crate::json::Object;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The outcome of one re-check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// Checked exactly.
    Ok,
    /// Numbers agreed within the tolerance: evidence, not a proof.
    NumericOk,
    /// The re-check contradicted the claim.
    Failed,
    /// The re-check could not decide.
    Inconclusive,
    /// Not re-checked (no recipe, or one this build cannot run).
    Skipped,
}

impl Outcome {
    /// The reference's word.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::NumericOk => "numeric_ok",
            Outcome::Failed => "failed",
            Outcome::Inconclusive => "inconclusive",
            Outcome::Skipped => "skipped",
        }
    }
}

/// What one recipe said.
#[derive(Debug, Clone, PartialEq)]
pub struct Recheck {
    /// The outcome.
    pub outcome: Outcome,
    /// The recipe kind (`none` without a recipe; a short kind, as every known one is, is held
    /// inline, without an allocation).
    pub kind: smol_str::SmolStr,
    /// What was found, in words.
    pub detail: String,
}

impl Recheck {
    /// A result.
    pub fn new(outcome: Outcome, kind: &str, detail: String) -> Recheck {
        Recheck {
            outcome,
            kind: kind.into(),
            detail,
        }
    }
}

/// One kind of re-verification recipe: a claim carrying `{"kind": KIND, ...}` is re-checked
/// by the recipe of that kind. Each kind is one file of this folder, listed in [`RECIPES`].
pub trait Recipe: Sync {
    /// The recipe's `kind`.
    fn kind(&self) -> &'static str;

    /// Whether this build can run it. A recipe that cannot run is `skipped` and re-establishes
    /// nothing: recording a claim with it does not keep a checked status.
    fn runs(&self) -> bool {
        true
    }

    /// Whether its re-checks use what the pass shares ([`Context::runs`]): then they run one
    /// after another in claim order; all others run on every core.
    fn shares_context(&self) -> bool {
        false
    }

    /// Re-checks the claim whose recipe is `check` (never executes anything).
    fn recheck(&self, check: &Object, context: &mut Context) -> Recheck;
}

/// What a pass shares between re-checks.
pub struct Context<'a> {
    /// How to re-verify.
    pub options: &'a VerifyOptions,
    /// Manifests verified during this pass, by path (each is verified once).
    pub runs: sciproof::Runs,
}

/// Every recipe kind this build knows, in the order messages list them.
pub static RECIPES: [&dyn Recipe; 8] = [
    &numeric_relation::NumericRelation,
    &sciproof::ClaimRecipe,
    &sciproof::ManifestRecipe,
    &expression::IDENTITY,
    &expression::ZERO,
    &expression::DERIVATIVE,
    &expression::ANTIDERIVATIVE,
    &expression::DEFINITE_INTEGRAL,
];

/// The recipe of `kind`, if this build knows it.
pub fn recipe(kind: &str) -> Option<&'static dyn Recipe> {
    RECIPES.iter().copied().find(|r| r.kind() == kind)
}

/// The recipe kinds this build runs, in the order of [`RECIPES`].
pub fn runnable_kinds() -> Vec<&'static str> {
    RECIPES
        .iter()
        .filter(|r| r.runs())
        .map(|r| r.kind())
        .collect()
}

/// Whether this build can run a recipe of this kind (a recipe that would be `skipped` does not
/// count: it re-establishes nothing).
pub fn is_recognised(kind: &str) -> bool {
    recipe(kind).is_some_and(|r| r.runs())
}

/// How to re-verify.
#[derive(Debug, Clone)]
pub struct VerifyOptions {
    /// Absolute tolerance for `numeric_relation` and the expression recipes (a recipe's own
    /// `tolerance` wins).
    pub tolerance: f64,
    /// The sample points of the expression recipes' numeric rule.
    pub samples: Vec<f64>,
    /// Set `refuted` on a failed re-check.
    pub mark_refuted: bool,
    /// The time written into every audit entry (ISO 8601, whole seconds, UTC).
    pub checked_at: String,
    /// The folder relative paths in sciproof recipes are resolved against (the graph file's).
    pub base: PathBuf,
}

/// One claim's result.
#[derive(Debug, Clone, PartialEq)]
pub struct RecheckOutcome {
    /// The claim re-checked.
    pub claim_id: super::claim::ClaimId,
    /// The outcome.
    pub outcome: Outcome,
    /// The recipe's kind (`none` without a recipe).
    pub kind: smol_str::SmolStr,
    /// What was found, in words.
    pub detail: String,
}

/// The result of a pass, in claim order (skipped claims included).
#[derive(Debug, Clone, PartialEq)]
pub struct VerificationReport {
    /// Every outcome.
    pub outcomes: Vec<RecheckOutcome>,
    /// When the pass ran.
    pub checked_at: String,
    /// The counts per outcome.
    pub summary: RecheckSummary,
}

/// How many re-checks ended in each outcome, and what that means for the exit code.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RecheckSummary {
    counts: BTreeMap<&'static str, usize>,
}

impl RecheckSummary {
    /// Counts one outcome.
    pub fn add(&mut self, outcome: Outcome) {
        *self.counts.entry(outcome.as_str()).or_insert(0) += 1;
    }

    /// Count per outcome word, sorted by word (outcomes that did not occur are absent).
    pub fn counts(&self) -> &BTreeMap<&'static str, usize> {
        &self.counts
    }

    /// False if any re-check failed (also when nothing was marked refuted).
    pub fn ok(&self) -> bool {
        !self.counts.contains_key(Outcome::Failed.as_str())
    }

    /// FAIL if a re-check failed, else INCONCLUSIVE if one was inconclusive, else PASS (the
    /// exit code of `graph verify`).
    pub fn status(&self) -> crate::report::Status {
        use crate::report::Status;
        if !self.ok() {
            Status::Fail
        } else if self.counts.contains_key(Outcome::Inconclusive.as_str()) {
            Status::Inconclusive
        } else {
            Status::Pass
        }
    }

    /// `{'failed': 2, 'ok': 1}`: the counts as Python prints a dict.
    pub fn repr(&self) -> String {
        let items: Vec<String> = self
            .counts
            .iter()
            .map(|(k, v)| format!("'{k}': {v}"))
            .collect();
        format!("{{{}}}", items.join(", "))
    }
}

/// A re-verification as it happens: the time of the pass, each claim's outcome as it is
/// decided, then the counts (rendered by [`crate::render::graph::recheck`]).
pub struct Reverification;

impl crate::render::Stream for Reverification {
    type Head = String;
    type Item = RecheckOutcome;
    type Tail = RecheckSummary;
    fn renderer(
        format: crate::render::OutputFormat,
    ) -> Option<Box<dyn crate::render::StreamRenderer<Self>>> {
        crate::render::graph::recheck::renderer(format)
    }
}

/// Runs the recipe of one claim; with `alone`, only a recipe that does not share the pass's
/// context (`None` for the others, which must run in order with the shared one).
fn recheck(check: Option<&Object>, context: &mut Context, alone: bool) -> Option<Recheck> {
    let Some(check) = check.filter(|c| !c.is_empty()) else {
        return Some(Recheck::new(
            Outcome::Skipped,
            "none",
            "no re-verification recipe recorded".into(),
        ));
    };
    let kind = crate::pyfmt::py_str(Some(check.get("kind").unwrap_or(&"".into())));
    match recipe(&kind) {
        Some(r) if alone && r.shares_context() => None,
        Some(r) => Some(r.recheck(check, context)),
        None => Some(Recheck::new(
            Outcome::Skipped,
            &kind,
            format!("unknown check kind {}", crate::pyfmt::str_repr(&kind)),
        )),
    }
}

/// How many claims are re-checked on every core at a time before their outcomes are handed
/// on in order.
const CHUNK: usize = 4096;

/// A re-check decided ahead of its turn, with its audit entry (none when `skipped`).
type Decided = (Recheck, Option<crate::json::Compact>);

/// The re-checks of `claims` whose recipes stand alone, on every core; `None` for the others.
fn standalone(claims: &[super::Claim], options: &VerifyOptions) -> Vec<Option<Decided>> {
    use rayon::prelude::*;
    let each = |c: &super::Claim| {
        let mut own = Context {
            options,
            runs: sciproof::Runs::default(),
        };
        decide(c, &mut own, true)
    };
    match pool() {
        Some(pool) => pool.install(|| claims.par_iter().map(each).collect()),
        None => claims.iter().map(each).collect(),
    }
}

/// The threads re-checks run on: one per core, each with the stack a recipe at the nesting
/// limit needs ([`crate::json::stream::WORKER_STACK`]; rayon's global threads have 2 MiB).
/// `None` when no thread could be started (the re-checks then run on the calling thread).
fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("recheck-{i}"))
            .stack_size(crate::json::stream::WORKER_STACK)
            .build()
            .ok()
    })
    .as_ref()
}

/// The re-check of `claim` with its audit entry; with `alone`, `None` for a recipe that shares
/// the pass's context (see [`recheck`]).
fn decide(claim: &super::Claim, context: &mut Context, alone: bool) -> Option<Decided> {
    let check = claim.check.as_ref().map(|c| c.object());
    decide_check(check.as_ref(), context, alone)
}

/// [`decide`] given the claim's recipe object (the one its canonical text parses back to).
fn decide_check(check: Option<&Object>, context: &mut Context, alone: bool) -> Option<Decided> {
    let result = recheck(check, context, alone)?;
    let entry = audit_entry(&result, context.options);
    Some((result, entry))
}

/// Applies a re-check to its claim (its audit entry appended; a failed claim refuted when
/// `mark_refuted`) and returns the claim's outcome.
fn apply(
    claim: &mut super::Claim,
    (result, entry): Decided,
    options: &VerifyOptions,
) -> RecheckOutcome {
    if let Some(entry) = entry {
        claim.audit.reserve_exact(1);
        claim.audit.push(entry);
        if result.outcome == Outcome::Failed && options.mark_refuted {
            claim.status = super::claim::REFUTED.into();
        }
    }
    RecheckOutcome {
        claim_id: claim.id.clone(),
        outcome: result.outcome,
        kind: result.kind,
        detail: result.detail,
    }
}

/// The audit entry a re-check appends (`at`, `checker`, `outcome`, `kind`, `detail`), none
/// for `skipped`.
fn audit_entry(result: &Recheck, options: &VerifyOptions) -> Option<crate::json::Compact> {
    if result.outcome == Outcome::Skipped {
        return None;
    }
    Some(crate::json::Compact::from_strings(&mut [
        ("at", options.checked_at.as_str()),
        ("checker", "sciproof"),
        ("outcome", result.outcome.as_str()),
        ("kind", result.kind.as_str()),
        ("detail", result.detail.as_str()),
    ]))
}

impl ClaimGraph {
    /// Re-checks every claim that carries a recipe, in insertion order, and returns every
    /// outcome (see [`ClaimGraph::verify_each`]).
    pub fn verify(
        &mut self,
        options: &VerifyOptions,
        progress: &dyn crate::progress::Progress,
    ) -> VerificationReport {
        let mut outcomes = Vec::with_capacity(self.claims.len());
        let summary = self.verify_each(options, progress, &mut |o| outcomes.push(o.clone()));
        VerificationReport {
            outcomes,
            checked_at: options.checked_at.clone(),
            summary,
        }
    }

    /// Re-checks every claim that carries a recipe, in insertion order, handing each outcome
    /// to `on_outcome` as it is decided (nothing is kept: large graphs stream their report).
    ///
    /// Guarantees: every outcome but `skipped` appends an audit entry (`at`, `checker`,
    /// `outcome`, `kind`, `detail`); a `failed` one sets `refuted` when `mark_refuted`; nothing
    /// else changes and no outcome ever raises a status. Returns the counts per outcome.
    pub fn verify_each(
        &mut self,
        options: &VerifyOptions,
        progress: &dyn crate::progress::Progress,
        on_outcome: &mut dyn FnMut(&RecheckOutcome),
    ) -> RecheckSummary {
        let mut context = Context {
            options,
            runs: sciproof::Runs::default(),
        };
        let mut summary = RecheckSummary::default();
        progress.begin(
            "re-verifying claims",
            self.claims.len() as u64,
            crate::progress::Unit::Claims,
        );
        // Claims are taken a chunk at a time: while this thread hands on the outcomes of one
        // chunk in claim order, the next chunk's recipes that stand alone are re-checked on
        // every core.
        let n = self.claims.len();
        let mut ready = standalone(&self.claims[..n.min(CHUNK)], options);
        let mut start = 0;
        while start < n {
            let end = (start + CHUNK).min(n);
            let (current, rest) = self.claims[start..].split_at_mut(end - start);
            let following = &rest[..rest.len().min(CHUNK)];
            let decided = std::mem::take(&mut ready);
            ready = std::thread::scope(|scope| {
                let next =
                    (!following.is_empty()).then(|| scope.spawn(|| standalone(following, options)));
                for (k, (claim, early)) in current.iter_mut().zip(decided).enumerate() {
                    let decided = early.unwrap_or_else(|| {
                        decide(claim, &mut context, false)
                            .expect("every recipe runs with the shared context")
                    });
                    let outcome = apply(claim, decided, options);
                    summary.add(outcome.outcome);
                    on_outcome(&outcome);
                    if (start + k) % 1024 == 1023 {
                        progress.advance(1024);
                    }
                }
                // (a re-check that panicked goes on panicking here, as it would in order)
                next.map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                    .unwrap_or_default()
            });
            start = end;
        }
        progress.finish();
        summary
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::record::{Record, ResultEvidence};
    use crate::json::Value;

    /// `0.5 * c0 + 1 * c1 = 0` as a `numeric_relation` recipe.
    pub(super) fn relation(coefficients: [i64; 2]) -> Object {
        Object::new()
            .with("kind", "numeric_relation")
            .with(
                "constants",
                Value::Array(vec!["0.500000000000".into(), "1".into()]),
            )
            .with(
                "coefficients",
                Value::Array(coefficients.iter().map(|c| Value::from(*c)).collect()),
            )
    }

    #[test]
    fn outcomes_in_claim_order_across_chunks_and_shared_recipes() {
        // More claims than two chunks; recipes that stand alone (true and false relations,
        // unknown kinds, none) between ones that share the pass's context (a manifest that
        // does not exist): every outcome belongs to its claim, in claim order.
        let mut g = ClaimGraph::new(None);
        let mut expected = Vec::new();
        for i in 0..(2 * CHUNK + 300) {
            let check = match i % 5 {
                0 => Some(relation([2, -1])),
                1 => Some(relation([1, 1])),
                2 => Some(Object::new().with("kind", "unheard_of")),
                3 => Some(
                    Object::new()
                        .with("kind", "sciproof_manifest")
                        .with("manifest", format!("missing-{}.json", i % 3))
                        .with("sha256", "0".repeat(64)),
                ),
                _ => None,
            };
            let outcome = ["numeric_ok", "failed", "skipped", "inconclusive", "skipped"][i % 5];
            let id = g
                .record(Record {
                    statement: format!("claim {i}"),
                    check,
                    ..Record::default()
                })
                .unwrap()
                .id
                .clone();
            expected.push((id, outcome));
        }
        let options = VerifyOptions {
            tolerance: 1e-8,
            samples: expression::DEFAULT_SAMPLES.to_vec(),
            mark_refuted: true,
            checked_at: "2026-11-30T00:00:00+00:00".into(),
            base: std::env::temp_dir().join("sciproof-no-such-folder"),
        };
        let report = g.verify(&options, &crate::progress::NoProgress);
        let seen: Vec<(crate::graph::claim::ClaimId, &str)> = report
            .outcomes
            .iter()
            .map(|o| (o.claim_id.clone(), o.outcome.as_str()))
            .collect();
        assert!(seen == expected, "outcomes out of claim order");
        for (c, (_, outcome)) in g.claims().iter().zip(&expected) {
            assert_eq!(
                c.audit.len(),
                usize::from(*outcome != "skipped"),
                "{}",
                c.id
            );
            assert_eq!(c.status == "refuted", *outcome == "failed", "{}", c.id);
        }
    }

    #[test]
    fn verify_appends_audit_entries_and_only_ever_lowers() {
        let mut g = ClaimGraph::new(None);
        let result = ResultEvidence {
            status: "numerically_checked".into(),
            statement_is_result: true,
            ..ResultEvidence::default()
        };
        let holds = g
            .record(Record {
                statement: "holds".into(),
                check: Some(relation([2, -1])),
                result: Some(result.clone()),
                ..Record::default()
            })
            .unwrap()
            .id
            .clone();
        let fails = g
            .record(Record {
                statement: "fails".into(),
                check: Some(relation([1, 1])),
                result: Some(result),
                ..Record::default()
            })
            .unwrap()
            .id
            .clone();
        let bare = g
            .record(Record {
                statement: "bare".into(),
                ..Record::default()
            })
            .unwrap()
            .id
            .clone();
        let options = VerifyOptions {
            tolerance: 1e-8,
            samples: expression::DEFAULT_SAMPLES.to_vec(),
            mark_refuted: true,
            checked_at: "2026-11-30T00:00:00+00:00".into(),
            base: PathBuf::from("."),
        };
        let report = g.verify(&options, &crate::progress::NoProgress);
        assert!(!report.summary.ok());
        assert_eq!(report.summary.status(), crate::report::Status::Fail);
        assert_eq!(
            report.summary.repr(),
            "{'failed': 1, 'numeric_ok': 1, 'skipped': 1}"
        );
        assert_eq!(report.outcomes.len(), 3);
        // A passing re-check appends an audit entry and promotes nothing.
        let h = g.get(&holds).unwrap();
        assert_eq!(
            (h.status.as_str(), h.audit.len()),
            ("numerically_checked", 1)
        );
        // A failed one refutes; a skipped one leaves no trace.
        assert_eq!(g.get(&fails).unwrap().status, "refuted");
        assert!(g.get(&bare).unwrap().audit.is_empty());
        // Another pass appends another entry and still promotes nothing.
        g.verify(&options, &crate::progress::NoProgress);
        let h = g.get(&holds).unwrap();
        assert_eq!(
            (h.status.as_str(), h.audit.len()),
            ("numerically_checked", 2)
        );
        assert_eq!(g.get(&fails).unwrap().status, "refuted");
    }
}
