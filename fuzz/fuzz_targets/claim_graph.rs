//! Claim-graph documents (alkahest's format): a graph with every problem listed, never a panic;
//! a graph that loads is written to a document that loads as the same graph (same digest), and
//! every document and picture of it is written without a panic (the SVG's layout included).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok((graph, _)) = sciproof_core::graph::ClaimGraph::from_json(text) {
        let written = graph.to_json(sciproof_core::graph::Form {
            pretty: true,
            stable: false,
        });
        let (again, _) = sciproof_core::graph::ClaimGraph::from_json(&written)
            .expect("written graphs read back");
        assert_eq!(again.digest(), graph.digest());
        let _ = sciproof_core::render::graph::markdown::render(&graph, Default::default());
        let _ = sciproof_core::render::graph::latex::render(&graph, true, true);
        let claims: Vec<&sciproof_core::graph::Claim> = graph.claims().iter().collect();
        let mut svg = String::new();
        sciproof_core::render::graph::svg::claims_to(&claims, claims.first().copied(), &mut |p| {
            svg.push_str(p)
        });
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
        assert!(!svg.contains("<script"), "data never becomes markup");
        sciproof_core::render::graph::dot::render_to(&graph, &mut |_| {});
        sciproof_core::render::graph::html::render_to(&graph, &mut |_| {});
    }
    let _ = sciproof_core::graph::ClaimGraph::from_reader(data);
});
