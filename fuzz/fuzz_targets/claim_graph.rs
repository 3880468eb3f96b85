//! Claim-graph documents (alkahest's format): a graph with every problem listed, never a panic;
//! a graph that loads is written to a document that loads as the same graph (same digest).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok((graph, _)) = sciproof_core::graph::ClaimGraph::from_json(text) {
        let written = graph.to_json(sciproof_core::graph::Form { pretty: true, stable: false });
        let (again, _) = sciproof_core::graph::ClaimGraph::from_json(&written).expect("written graphs read back");
        assert_eq!(again.digest(), graph.digest());
        let _ = sciproof_core::render::graph::markdown::render(&graph, Default::default());
        let _ = sciproof_core::render::graph::latex::render(&graph, true, true);
    }
    let _ = sciproof_core::graph::ClaimGraph::from_reader(data);
});
