//! The protocol of protocol.md, spoken with the real binary: scripted conversations for every
//! command, both move forms, the pending removal, every error path, a fuzz of 100,000 random and
//! mutated lines, the opening book, `bench`, commands that wait for a running search, and the
//! stop and quit latencies.
//!
//! `harness` drives the engine over pipes; each other module is one part of the protocol.

#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is its report

mod bench;
mod book;
mod built_in;
mod ends;
mod errors;
mod fuzz;
mod gbgp;
mod handshake;
mod harness;
mod latency;
mod named_files;
mod network;
mod placing;
mod placing_opening;
mod positions;
mod ready;
mod search;
mod tables;
mod tables_changes;
mod tables_install;
mod tables_memory;
mod tables_packed;
mod tables_plan;
mod time;
mod waiting;
