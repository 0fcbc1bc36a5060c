//! The latencies: `quit`, the end of input and `stop` during a search, measured alone.

use super::harness::{alone, Engine, MOVING};
use std::thread;
use std::time::{Duration, Instant};

#[test]
fn quit_and_end_of_input_end_a_search_at_once() {
    let _gate = alone();
    for how in ["quit", "eof"] {
        let mut e = Engine::start();
        e.ask(&format!("position fen {MOVING}"));
        e.send("go infinite");
        e.until(|l| l.starts_with("info depth 5"));
        thread::sleep(Duration::from_millis(50));
        let t = Instant::now();
        if how == "quit" {
            e.send("quit");
        } else {
            e.stdin = None;
        }
        let status = e.wait_exit(Duration::from_secs(5)).expect("exits");
        let took = t.elapsed();
        println!(
            "{how} during a search: exit after {:.1} ms",
            took.as_secs_f64() * 1000.0
        );
        assert!(status.success(), "{status:?}");
        assert!(took < Duration::from_millis(100), "{how}: {took:?}");
    }
}

#[test]
fn stop_latency_worst_of_200() {
    let _gate = alone();
    let mut e = Engine::start();
    e.ask(&format!("position fen {MOVING}"));
    let mut worst = Duration::ZERO;
    let mut all = Vec::new();
    for i in 0..200 {
        e.send("go infinite");
        e.until(|l| l.starts_with("info depth 3"));
        thread::sleep(Duration::from_millis(i % 7));
        let t = Instant::now();
        e.send("stop");
        e.until(|l| l.starts_with("bestmove"));
        let took = t.elapsed();
        worst = worst.max(took);
        all.push(took);
    }
    all.sort();
    println!(
        "stop latency over 200 tries: median {:.2} ms, worst {:.2} ms",
        all[100].as_secs_f64() * 1000.0,
        worst.as_secs_f64() * 1000.0
    );
    assert!(
        worst < Duration::from_millis(50),
        "worst stop latency {worst:?}"
    );
    e.quit();
}
