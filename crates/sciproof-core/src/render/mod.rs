//! The output layer: every model sciproof shows, in every format it is shown in, behind one
//! trait.
//!
//! A model (a [`Report`](crate::report::Report), a [`Ledger`](crate::ledger::Ledger), a
//! [`Diff`](crate::diff::Diff), ...) implements [`Render`]: its list of renderers, one per
//! [`OutputFormat`] it can be written in. A renderer implements [`Renderer`] for that model and
//! writes text piece by piece to a sink, so a large document is never held whole. Renderers
//! compute nothing: verdicts, counts and exit codes come from the models; untrusted text is made
//! inert with the escaper of the dialect ([`crate::escape`]).
//!
//! A model that is produced piece by piece (the outcomes of a claim graph's re-verification,
//! written as they are decided) implements [`Stream`] instead, with [`StreamRenderer`]s.
//!
//! Adding an output format: a variant of [`OutputFormat`], then, for each model that gets it,
//! one renderer in that model's file below and one line in its list.

pub mod badge;
pub mod calibrate;
pub mod capture;
pub mod claims_check;
pub mod crate_read;
pub mod demo;
pub mod diff;
pub mod graph;
pub mod html;
pub mod ledger;
pub mod manifest;
pub mod policy;
pub mod record;
pub mod recover;
pub mod report;
pub mod sign;
pub mod suggest_inputs;
pub mod update;

/// A format of rendered output, as `--format` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OutputFormat {
    /// Plain text for people on a terminal.
    Text,
    /// A JSON document (or JSON Lines, one record per line, where the model is a list of
    /// records).
    Json,
    /// GitHub-flavoured Markdown.
    Markdown,
    /// JUnit XML.
    Junit,
    /// LaTeX.
    Latex,
    /// Graphviz DOT (a picture of a graph: `dot -Tsvg`).
    Dot,
    /// A self-contained HTML page (no fetches, no scripts).
    Html,
    /// An SVG picture, laid out by sciproof (no Graphviz needed).
    Svg,
}

impl OutputFormat {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [OutputFormat; 8] = [
        OutputFormat::Text,
        OutputFormat::Json,
        OutputFormat::Markdown,
        OutputFormat::Junit,
        OutputFormat::Latex,
        OutputFormat::Dot,
        OutputFormat::Html,
        OutputFormat::Svg,
    ];

    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Text => "text",
            OutputFormat::Json => "json",
            OutputFormat::Markdown => "markdown",
            OutputFormat::Junit => "junit",
            OutputFormat::Latex => "latex",
            OutputFormat::Dot => "dot",
            OutputFormat::Html => "html",
            OutputFormat::Svg => "svg",
        }
    }

    /// The format named `name`.
    pub fn from_name(name: &str) -> Option<OutputFormat> {
        OutputFormat::ALL.into_iter().find(|f| f.name() == name)
    }

    /// What the format is for, shown by `--help` where it says more than the name.
    pub fn purpose(self) -> Option<&'static str> {
        match self {
            OutputFormat::Markdown => {
                Some("GitHub-flavoured Markdown, for CI summaries (>> $GITHUB_STEP_SUMMARY)")
            }
            OutputFormat::Junit => Some("JUnit XML, for CI test viewers"),
            OutputFormat::Dot => {
                Some("Graphviz DOT, a picture of the graph (dot -Tsvg claims.dot)")
            }
            OutputFormat::Html => Some("one self-contained HTML page (no fetches, no scripts)"),
            OutputFormat::Svg => {
                Some("an SVG picture of the graph, laid out by sciproof (no Graphviz needed)")
            }
            _ => None,
        }
    }
}

/// Where rendered text goes, piece by piece.
pub type Sink<'a> = dyn FnMut(&str) + 'a;

/// Writes one model in one format.
pub trait Renderer<M: ?Sized>: Sync {
    /// Writes `model` to `out`; the text ends with a line break.
    fn render(&self, model: &M, out: &mut Sink);
}

/// A model that can be rendered: its renderers, one per format.
pub trait Render {
    /// The renderer of this model in `format`, if it has one. Each model's implementation is
    /// its list of formats: one line per format.
    fn renderer(format: OutputFormat) -> Option<Box<dyn Renderer<Self>>>;

    /// The formats this model can be written in, in the order `--help` lists them.
    fn formats() -> Vec<OutputFormat> {
        OutputFormat::ALL
            .into_iter()
            .filter(|f| Self::renderer(*f).is_some())
            .collect()
    }
}

/// Writes `model` in `format` to `out`; `false` if the model has no such renderer.
pub fn render<M: Render>(model: &M, format: OutputFormat, out: &mut Sink) -> bool {
    match M::renderer(format) {
        Some(r) => {
            r.render(model, out);
            true
        }
        None => false,
    }
}

/// `model` in `format` as one string (empty if the model has no such renderer).
pub fn to_string<M: Render>(model: &M, format: OutputFormat) -> String {
    let mut text = String::new();
    render(model, format, &mut |piece| text.push_str(piece));
    text
}

/// A model produced piece by piece: a head, items as they are decided, and a tail that
/// summarises them.
pub trait Stream {
    /// What is known before the first item.
    type Head;
    /// One piece.
    type Item;
    /// What is known after the last item.
    type Tail;

    /// The renderer of this stream in `format`, if it has one (the stream's list of formats).
    fn renderer(format: OutputFormat) -> Option<Box<dyn StreamRenderer<Self>>>;

    /// The formats this stream can be written in.
    fn formats() -> Vec<OutputFormat> {
        OutputFormat::ALL
            .into_iter()
            .filter(|f| Self::renderer(*f).is_some())
            .collect()
    }
}

/// Writes a [`Stream`] in one format, piece by piece.
pub trait StreamRenderer<S: Stream + ?Sized>: Sync {
    /// Before the first item.
    fn head(&self, head: &S::Head, out: &mut Sink);
    /// The item numbered `index` (from 0).
    fn item(&self, index: usize, item: &S::Item, out: &mut Sink);
    /// After the last item (`count` items were written).
    fn tail(&self, count: usize, tail: &S::Tail, out: &mut Sink);
}

/// Renders `items`, numbered from `first`, with `renderer` and hands the text to `out` in
/// order: the same text as rendering them one after the other, but a long list is rendered
/// on every core (a million outcomes of `graph verify` take a second on one), a few pieces
/// at a time so that little of it is held.
pub fn render_items<S: Stream + ?Sized>(
    renderer: &dyn StreamRenderer<S>,
    first: usize,
    items: &[S::Item],
    out: &mut Sink,
) where
    S::Item: Sync,
{
    use rayon::prelude::*;
    /// Items per piece, and pieces rendered at a time.
    const PIECE: usize = 4096;
    const PIECES: usize = 8;
    if items.len() < 2 * PIECE {
        for (i, item) in items.iter().enumerate() {
            renderer.item(first + i, item, out);
        }
        return;
    }
    // (the same buffers for every window: fresh ones, made on one thread and freed on
    // another, were not reused soon enough and took tens of megabytes for a million items)
    let mut pieces = vec![String::new(); PIECES];
    for (w, window) in items.chunks(PIECE * PIECES).enumerate() {
        window
            .par_chunks(PIECE)
            .zip(pieces.par_iter_mut())
            .enumerate()
            .for_each(|(p, (chunk, text))| {
                text.clear();
                let from = first + w * PIECE * PIECES + p * PIECE;
                for (i, item) in chunk.iter().enumerate() {
                    renderer.item(from + i, item, &mut |piece| text.push_str(piece));
                }
            });
        let used = window.len().div_ceil(PIECE);
        for piece in &pieces[..used] {
            out(piece);
        }
    }
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

/// Collects what a renderer writes to a sink into a string.
pub fn collect(render: impl FnOnce(&mut dyn FnMut(&str))) -> String {
    let mut text = String::new();
    render(&mut |piece| text.push_str(piece));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers, each written with its index (so that an item out of place shows).
    struct Numbers;

    impl Stream for Numbers {
        type Head = ();
        type Item = u64;
        type Tail = ();
        fn renderer(_: OutputFormat) -> Option<Box<dyn StreamRenderer<Self>>> {
            Some(Box::new(Numbers))
        }
    }

    impl StreamRenderer<Numbers> for Numbers {
        fn head(&self, _: &(), _: &mut Sink) {}
        fn item(&self, index: usize, item: &u64, out: &mut Sink) {
            out(&format!("{index}:{item};"));
        }
        fn tail(&self, _: usize, _: &(), _: &mut Sink) {}
    }

    #[test]
    fn items_rendered_on_every_core_read_as_one_after_the_other() {
        for (first, n) in [(0, 0), (3, 5), (0, 8191), (7, 8192), (0, 100_003)] {
            let items: Vec<u64> = (0..n as u64).map(|i| i * 7919 % 1000).collect();
            let mut expected = String::new();
            for (i, item) in items.iter().enumerate() {
                Numbers.item(first + i, item, &mut |p| expected.push_str(p));
            }
            let mut got = String::new();
            let mut pieces = 0;
            render_items(&Numbers, first, &items, &mut |p| {
                pieces += 1;
                got.push_str(p)
            });
            assert!(got == expected, "{n} items from {first}");
            if n > 10_000 {
                assert!(pieces < n / 1000, "{pieces} pieces: rendered in pieces");
            }
        }
    }

    #[test]
    fn format_names_round_trip() {
        for f in OutputFormat::ALL {
            assert_eq!(OutputFormat::from_name(f.name()), Some(f));
        }
        assert_eq!(OutputFormat::from_name("pdf"), None);
    }
}
