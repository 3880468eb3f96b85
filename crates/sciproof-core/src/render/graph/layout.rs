//! Where each box of a picture goes (`--format svg`, and the picture in the HTML page): a
//! layered (Sugiyama) layout, dependencies above what depends on them, with the bends of every
//! edge that crosses layers, so an edge never runs through a box it does not touch.
//!
//! The layered layout itself is the `rust-sugiyama` crate's (network-simplex ranking, median
//! crossing reduction with bilayer cross counting, Brandes-Koepf coordinates): a faithful
//! implementation of the standard algorithms, with no dependencies beyond petgraph. It drops the
//! dummy vertices of long edges from its answer, so this module inserts its own: each edge that
//! spans several layers of a longest-path layering becomes a chain of small invisible boxes, all
//! edges then span one layer, which is also the ranking of least total edge length the crate
//! finds, and the chain's positions are the edge's bends. Cycles (possible only between runs of
//! the runs-only picture) are broken by drawing a back edge upwards; components are packed in
//! rows so a graph of many small pieces stays about as wide as it is tall.
//!
//! Pure geometry: sizes and edges in, centres and routes out; nothing here reads a claim.

use rust_sugiyama::configure::{Config, CrossingMinimization, RankingType};

/// Space between boxes of one layer and between layers, in SVG user units (pixels).
pub const SPACING: f64 = 28.0;

/// The size of an invisible box that carries an edge across a layer: edges passing side by
/// side are this far apart.
const BEND: (f64, f64) = (8.0, 1.0);

/// The most bends a layout makes. Past it (a deep graph whose edges skip many layers, where
/// the bends would be tens of thousands and the picture as wide as it is unreadable) the boxes
/// are laid out along one edge into each box from the layer just above, which alone decides
/// its layer, and the other edges are drawn straight.
pub const BEND_BUDGET: usize = 2_000;

/// The margin around the whole picture.
pub const MARGIN: f64 = 16.0;

/// A laid-out picture.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    /// The centre of each box, in the order of the sizes given.
    pub centres: Vec<(f64, f64)>,
    /// For each edge given, the points it passes: from the centre of its source to the centre
    /// of its target, through its bends. Empty for a loop or an edge to a box that does not
    /// exist.
    pub routes: Vec<Vec<(f64, f64)>>,
    /// The size of the whole picture, margins included.
    pub width: f64,
    /// See `width`.
    pub height: f64,
    /// Whether the edges that skip layers are drawn straight, without bends (past
    /// [`BEND_BUDGET`]); they may then cross boxes.
    pub straightened: bool,
}

/// Lays out boxes of `sizes` (width, height) joined by `edges` (source, target: indices into
/// `sizes`), sources above targets.
pub fn layered(sizes: &[(f64, f64)], edges: &[(usize, usize)]) -> Placement {
    let n = sizes.len();
    let valid = |&(a, b): &(usize, usize)| a < n && b < n && a != b;
    let order = topological_positions(n, edges.iter().copied().filter(valid));
    // Each distinct edge once, oriented downwards (a back edge of a cycle is reversed).
    let mut down: Vec<(usize, usize)> = edges
        .iter()
        .copied()
        .filter(valid)
        .map(|(a, b)| if order[a] < order[b] { (a, b) } else { (b, a) })
        .collect();
    down.sort_unstable();
    down.dedup();
    let rank = longest_path_ranks(n, &order, &down);
    let bends: usize = down.iter().map(|&(a, b)| rank[b] - rank[a] - 1).sum();
    let straightened = bends > BEND_BUDGET;
    let laid: Vec<(usize, usize)> = if straightened {
        // One edge into each box from the layer just above (the longest path's last step).
        let mut seen = vec![false; n];
        down.iter()
            .copied()
            .filter(|&(a, b)| rank[b] == rank[a] + 1 && !std::mem::replace(&mut seen[b], true))
            .collect()
    } else {
        down.clone()
    };

    // Vertices: the boxes with the space around them (the crate's own spacing would also widen
    // every bend), then the bends of each long edge.
    let mut vertices: Vec<(f64, f64)> = sizes
        .iter()
        .map(|&(w, h)| (w + SPACING, h + SPACING))
        .collect();
    let mut chains: std::collections::HashMap<(usize, usize), Vec<usize>> = Default::default();
    let mut layout_edges: Vec<(u32, u32)> = Vec::new();
    for &(a, b) in &laid {
        let mut chain = vec![a];
        for _ in 1..rank[b] - rank[a] {
            chain.push(vertices.len());
            vertices.push(BEND);
        }
        chain.push(b);
        for w in chain.windows(2) {
            layout_edges.push((w[0] as u32, w[1] as u32));
        }
        chains.insert((a, b), chain);
    }
    let config = Config {
        minimum_length: 1,
        vertex_spacing: 0.0,
        dummy_vertices: true,
        dummy_size: 1.0,
        ranking_type: RankingType::MinimizeEdgeLength,
        c_minimization: CrossingMinimization::Median,
        // Transposition improves small pictures and costs quadratic time on large layers.
        transpose: vertices.len() <= 600,
    };
    let numbered: Vec<(u32, (f64, f64))> = vertices
        .iter()
        .enumerate()
        .map(|(i, s)| (i as u32, *s))
        .collect();
    let components = rust_sugiyama::from_vertices_and_edges(&numbered, &layout_edges, &config);

    // Each component's boxes, moved so its top-left corner is at (0, 0).
    let mut centre = vec![(0.0, 0.0); vertices.len()];
    let mut pieces: Vec<(usize, Vec<usize>, f64, f64)> = Vec::new();
    for (placed, _, _) in components {
        let members: Vec<usize> = placed.iter().map(|(id, _)| *id).collect();
        let (mut left, mut top, mut right, mut bottom) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for &(id, (x, y)) in &placed {
            let (w, h) = vertices[id];
            let (w, h) = (w - SPACING.min(w), h - SPACING.min(h));
            left = left.min(x - w / 2.0);
            right = right.max(x + w / 2.0);
            top = top.min(y - h / 2.0);
            bottom = bottom.max(y + h / 2.0);
            centre[id] = (x, y);
        }
        for &id in &members {
            centre[id] = (centre[id].0 - left, centre[id].1 - top);
        }
        let first = members.iter().copied().min().unwrap_or(0);
        pieces.push((first, members, right - left, bottom - top));
    }
    // Components in the order of their first box, packed in rows.
    pieces.sort_by_key(|p| p.0);
    let area: f64 = pieces.iter().map(|p| p.2 * p.3).sum();
    let widest = pieces.iter().map(|p| p.2).fold(0.0, f64::max);
    let row_limit = widest.max(area.sqrt() * 1.6);
    let (mut x, mut y, mut row_height, mut width) = (0.0, 0.0, 0.0f64, 0.0f64);
    for (_, members, w, h) in &pieces {
        if x > 0.0 && x + w > row_limit {
            y += row_height + SPACING;
            x = 0.0;
            row_height = 0.0;
        }
        for &id in members {
            centre[id] = (centre[id].0 + x + MARGIN, centre[id].1 + y + MARGIN);
        }
        x += w + SPACING;
        width = width.max(x - SPACING);
        row_height = row_height.max(*h);
    }
    let height = y + row_height;

    let routes = edges
        .iter()
        .map(|&(a, b)| {
            if !valid(&(a, b)) {
                return Vec::new();
            }
            let points = |chain: &Vec<usize>| chain.iter().map(|&v| centre[v]).collect::<Vec<_>>();
            match (chains.get(&(a, b)), chains.get(&(b, a))) {
                (Some(chain), _) => points(chain),
                (None, Some(chain)) => {
                    let mut back = points(chain);
                    back.reverse();
                    back
                }
                (None, None) => vec![centre[a], centre[b]],
            }
        })
        .collect();
    Placement {
        centres: centre[..n].to_vec(),
        routes,
        width: width + 2.0 * MARGIN,
        height: height + 2.0 * MARGIN,
        straightened,
    }
}

/// A position for each vertex such that every edge not closing a cycle goes from a smaller
/// position to a larger one (reverse post-order of a depth-first search, started at the
/// vertices in their order so the answer does not depend on anything else).
fn topological_positions(n: usize, edges: impl Iterator<Item = (usize, usize)>) -> Vec<usize> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (a, b) in edges {
        out[a].push(b);
    }
    let mut visited = vec![false; n];
    let mut post = Vec::with_capacity(n);
    for start in 0..n {
        if visited[start] {
            continue;
        }
        visited[start] = true;
        // An explicit stack: a chain of a million claims must not overflow the thread's.
        let mut stack = vec![(start, 0usize)];
        while let Some((v, next)) = stack.last_mut() {
            if let Some(&w) = out[*v].get(*next) {
                *next += 1;
                if !visited[w] {
                    visited[w] = true;
                    stack.push((w, 0));
                }
            } else {
                post.push(*v);
                stack.pop();
            }
        }
    }
    let mut position = vec![0; n];
    for (i, v) in post.iter().rev().enumerate() {
        position[*v] = i;
    }
    position
}

/// The layer of each vertex: the length of the longest path reaching it along `down` (edges
/// that all go from a smaller position to a larger one).
fn longest_path_ranks(n: usize, position: &[usize], down: &[(usize, usize)]) -> Vec<usize> {
    let mut by_position = vec![0; n];
    for (v, &p) in position.iter().enumerate() {
        by_position[p] = v;
    }
    let mut incoming: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in down {
        incoming[b].push(a);
    }
    let mut rank = vec![0usize; n];
    for &v in &by_position {
        rank[v] = incoming[v].iter().map(|&u| rank[u] + 1).max().unwrap_or(0);
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn overlap(a: ((f64, f64), (f64, f64)), b: ((f64, f64), (f64, f64))) -> bool {
        let (((ax, ay), (aw, ah)), ((bx, by), (bw, bh))) = (a, b);
        (ax - bx).abs() < (aw + bw) / 2.0 - 1e-6 && (ay - by).abs() < (ah + bh) / 2.0 - 1e-6
    }

    /// What every layout must be: boxes inside the picture and apart, each edge of a DAG going
    /// down from its source's layer, every route starting and ending at its boxes.
    fn check(sizes: &[(f64, f64)], edges: &[(usize, usize)], acyclic: bool) -> Placement {
        let p = layered(sizes, edges);
        assert_eq!(p.centres.len(), sizes.len());
        assert_eq!(p.routes.len(), edges.len());
        for (i, (&(x, y), &(w, h))) in p.centres.iter().zip(sizes).enumerate() {
            assert!(x.is_finite() && y.is_finite(), "box {i}");
            assert!(
                x - w / 2.0 >= 0.0 && x + w / 2.0 <= p.width + 1e-6,
                "box {i}: {p:?}"
            );
            assert!(
                y - h / 2.0 >= 0.0 && y + h / 2.0 <= p.height + 1e-6,
                "box {i}: {p:?}"
            );
            for j in 0..i {
                assert!(
                    !overlap((p.centres[i], sizes[i]), (p.centres[j], sizes[j])),
                    "boxes {j} and {i} overlap: {p:?}"
                );
            }
        }
        for (&(a, b), route) in edges.iter().zip(&p.routes) {
            if a == b || a >= sizes.len() || b >= sizes.len() {
                assert!(route.is_empty());
                continue;
            }
            assert_eq!(route.first(), Some(&p.centres[a]));
            assert_eq!(route.last(), Some(&p.centres[b]));
            if acyclic {
                assert!(
                    route.windows(2).all(|s| s[0].1 < s[1].1),
                    "edge {a}->{b} goes down at every step: {route:?}"
                );
            }
        }
        p
    }

    #[test]
    fn dependencies_are_above_dependents_and_long_edges_bend() {
        let sizes = [(100.0, 40.0); 4];
        // 0 -> 1 -> 2 -> 3 and 0 -> 3: the long edge gets two bends beside the chain.
        let edges = [(0, 1), (1, 2), (2, 3), (0, 3)];
        let p = check(&sizes, &edges, true);
        assert_eq!(p.routes[3].len(), 4, "{p:?}");
        for bend in &p.routes[3][1..3] {
            assert!(
                (bend.0 - p.centres[1].0).abs() >= 50.0,
                "the bend passes beside the boxes: {p:?}"
            );
        }
    }

    #[test]
    fn loops_cycles_and_repeats_are_drawn_without_failing() {
        let sizes = [(50.0, 20.0); 3];
        let p = check(
            &sizes,
            &[(0, 1), (1, 2), (2, 0), (1, 1), (0, 1), (7, 0)],
            false,
        );
        assert!(p.routes[3].is_empty() && p.routes[5].is_empty());
        assert_eq!(p.routes[0], p.routes[4]);
        // The back edge is the forward chain reversed.
        assert_eq!(p.routes[2].first(), Some(&p.centres[2]));
    }

    #[test]
    fn a_tangle_is_laid_out_along_one_edge_per_box() {
        // A chain of 120 boxes, each also depending on every 7th box before it: thousands of
        // bends, so the other edges are drawn straight.
        let sizes = vec![(80.0, 30.0); 120];
        let mut edges: Vec<(usize, usize)> = (1..120).map(|i| (i - 1, i)).collect();
        edges.extend((0..120).flat_map(|i| (i + 2..120).step_by(7).map(move |j| (i, j))));
        let p = check(&sizes, &edges, true);
        assert!(p.straightened);
        assert!(p.routes.iter().all(|r| r.len() == 2));
        assert!(p.width < 400.0, "one box per layer: {}", p.width);
        assert!(!check(&sizes[..4], &[(0, 1), (0, 3)], true).straightened);
    }

    #[test]
    fn many_pieces_are_packed_in_rows() {
        let sizes = vec![(100.0, 40.0); 100];
        let p = check(&sizes, &[], true);
        assert!(p.width < 3.0 * p.height, "{} x {}", p.width, p.height);
        assert!(check(&[], &[], true).centres.is_empty());
    }

    #[test]
    fn the_layout_depends_only_on_its_input() {
        let sizes: Vec<(f64, f64)> = (0..40).map(|i| (60.0 + i as f64, 30.0)).collect();
        let edges: Vec<(usize, usize)> = (1..40).map(|i| (i / 3, i)).collect();
        assert_eq!(layered(&sizes, &edges), layered(&sizes, &edges));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn any_dag_is_laid_out_cleanly(
            n in 1usize..40,
            raw in proptest::collection::vec((0usize..40, 0usize..40), 0..80),
            widths in proptest::collection::vec(20.0f64..200.0, 40),
        ) {
            let sizes: Vec<(f64, f64)> = widths[..n].iter().map(|w| (*w, 30.0)).collect();
            let edges: Vec<(usize, usize)> = raw
                .into_iter()
                .map(|(a, b)| (a % n, b % n))
                .filter(|(a, b)| a < b)
                .collect();
            check(&sizes, &edges, true);
        }
    }
}
