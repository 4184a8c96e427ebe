//! Runs a scenario given as a JSON file and prints its summary (a debugging aid; users run
//! scenarios through the Python package and the `aimdlab` CLI).
//!
//! `cargo run --release -p aimdlab-core --example run_json -- scenario.json [seed]`

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: run_json SCENARIO.json [SEED]");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2);
    });
    let plan = aimdlab_core::scenario::load_json(&text).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2);
    });
    let seed = args.get(2).map(|s| s.parse().expect("seed is an integer"));
    let t0 = std::time::Instant::now();
    let r = aimdlab_core::run(plan, seed).expect("run");
    let wall = t0.elapsed().as_secs_f64();
    println!("{}", serde_json::to_string_pretty(&r.summary).unwrap());
    eprintln!("wall {wall:.3}s");
}
