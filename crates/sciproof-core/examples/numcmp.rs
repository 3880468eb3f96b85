//! Compares two numeric files the way `verify --rerun` does and prints the differences and
//! the statistics:
//! `cargo run --release -p sciproof-core --example numcmp -- RECORDED FOUND [RTOL [ATOL]]`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: numcmp RECORDED FOUND [RTOL [ATOL]]");
        std::process::exit(3);
    }
    let rtol = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1e-9);
    let atol = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(0.0);
    match sciproof_core::numeric::compare_files(
        args[1].as_ref(),
        args[2].as_ref(),
        &args[2],
        rtol,
        atol,
    ) {
        Ok(c) => {
            for x in &c.differences {
                println!("{}", x.message);
            }
            println!("{}", c.sentence());
            for line in c.group_lines() {
                println!("  {line}");
            }
            std::process::exit(if c.is_equivalent() { 0 } else { 1 });
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(3);
        }
    }
}
