//! `moulin tables plan --slurm`: the script it prints, run with a stand-in `sbatch` that runs
//! each array task at once, from paths holding a space, a quote and `$(...)`: the jobs build in
//! the directory named, with the binary named, and nothing in a path is run.

use super::harness::scratch;
use super::placing::{game, three_a_side as solved_three};
use super::tables::three_a_side;
use moulin::tables::file;
use moulin::tables::groups;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A stand-in for `sbatch`: runs every task of `--array=0-N` of the script at once (its
/// arguments passed on), with the task's variables, its output where `--output` says (`%x` the
/// job's name, `%a` the task, `%%` a `%`), and prints a job id as `--parsable` does.
const SBATCH: &str = r#"#!/usr/bin/env bash
set -eu
last=0; out=slurm-%j.out; name=job
while [[ $1 == --* ]]; do
    case $1 in
        --array=0-*) last=${1#--array=0-} ;;
        --output=*) out=${1#--output=} ;;
        --job-name=*) name=${1#--job-name=} ;;
    esac
    shift
done
script=$1; shift
for ((i = 0; i <= last; i++)); do
    o=${out//%x/$name}; o=${o//%a/$i}; pct='%%'; o=${o//"$pct"/%}
    SLURM_ARRAY_TASK_ID=$i SLURM_CPUS_PER_TASK=1 bash "$script" "$@" >"$o" 2>&1
done
echo 42
"#;

fn write_executable(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Prints the plan of `args` for the tables directory `tables` and the binary `binary`, checks
/// its syntax, and runs it from `work` with the stand-in `sbatch` of `tools`: its output, and
/// the plan's text.
fn submit(
    args: &[&str],
    tables: &Path,
    binary: &Path,
    tools: &Path,
    work: &Path,
) -> (String, String) {
    let plan = crate::shared::moulin()
        .args(["tables", "plan", "--slurm", "--cpus", "1"])
        .args(args)
        .arg("--dir")
        .arg(tables)
        .arg("--binary")
        .arg(binary)
        .output()
        .unwrap();
    assert!(plan.status.success(), "{plan:?}");
    let script = work.join("plan.sh");
    std::fs::write(&script, &plan.stdout).unwrap();
    let syntax = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .unwrap();
    assert!(syntax.status.success(), "{syntax:?}");
    let path = format!("{}:{}", tools.display(), std::env::var("PATH").unwrap());
    let ran = Command::new("bash")
        .arg(&script)
        .current_dir(work)
        .env("PATH", path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&plan.stdout).into_owned();
    assert!(ran.status.success(), "{ran:?}\n{text}");
    (String::from_utf8_lossy(&ran.stdout).into_owned(), text)
}

/// A scratch root with a binary, the stand-in `sbatch` and a work folder, the first and the
/// tables directory named with `odd`: (root, binary, tools, work, tables).
fn odd_setup(name: &str, odd: &str) -> (PathBuf, PathBuf, PathBuf, PathBuf, PathBuf) {
    let root = scratch(name);
    let _ = std::fs::remove_dir_all(&root);
    let bin_dir = root.join(format!("bin {odd}"));
    let tools = root.join("tools");
    let work = root.join("work");
    for d in [&bin_dir, &tools, &work] {
        std::fs::create_dir_all(d).unwrap();
    }
    let binary = bin_dir.join("moulin");
    std::fs::copy(env!("CARGO_BIN_EXE_moulin"), &binary).unwrap();
    write_executable(&tools.join("sbatch"), SBATCH);
    let tables = root.join(format!("tables {odd}"));
    (root, binary, tools, work, tables)
}

#[test]
fn a_slurm_plan_keeps_odd_paths_whole_and_runs_nothing_in_them() {
    let odd = "it's a $(touch RAN) dir";
    let (root, binary, tools, work, tables) = odd_setup("plan", odd);
    let bin_dir = binary.parent().unwrap().to_path_buf();
    let (ran, text) = submit(&["--pieces", "3"], &tables, &binary, &tools, &work);
    assert_eq!(ran, "submitted: 42\n");
    // The job built 3-3 in the directory named, as a local build does (kept packed): the same
    // values as the fixture's file.
    let print = moulin::tables::fingerprint(&moulin::rules::Rules::nine());
    let cache = std::sync::Arc::default();
    let built = file::open(&tables, print, 3, 3, &cache).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert!(matches!(built, moulin::tables::Values::Packed(_)), "{text}");
    let fixture = file::read(&file::path(three_a_side(), 3, 3), print, 3, 3).unwrap();
    assert_eq!(built.to_bytes(), fixture.to_bytes(), "{text}");
    let log = std::fs::read_to_string(tables.join("slurm/moulin-tables-6-0.out")).unwrap();
    assert!(log.contains("3-3: 210140 positions"), "{log}");
    // Nothing in a path ran, and nothing was made outside the directories named.
    for dir in [&root, &work, &tables, &bin_dir] {
        assert!(!dir.join("RAN").exists(), "{}: {text}", dir.display());
    }
    let mut made: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    made.sort();
    let expected = vec![
        format!("bin {odd}"),
        format!("tables {odd}"),
        "tools".to_string(),
        "work".to_string(),
    ];
    assert_eq!(made, expected);
    assert_eq!(std::fs::read_dir(&work).unwrap().count(), 1, "{text}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_placing_plan_builds_the_same_solution_group_by_group() {
    let odd = "it's 100% a $(touch RAN) dir";
    let (root, binary, tools, work, tables) = odd_setup("plan-placing", odd);
    // The moving tables of the 3-piece game, and the placing solution a local build made.
    let local = solved_three();
    std::fs::create_dir_all(&tables).unwrap();
    std::fs::copy(file::path(local, 3, 3), file::path(&tables, 3, 3)).unwrap();
    let (ran, text) = submit(
        &["--placing", "--pieces", "3"],
        &tables,
        &binary,
        &tools,
        &work,
    );
    // One array a count of placements left, 1 to 6.
    assert_eq!(ran, format!("submitted:{}\n", " 42".repeat(6)), "{text}");
    let all = groups::all(&game(3));
    for g in &all {
        let name = format!("placing/{g}.plc");
        assert_eq!(
            std::fs::read(tables.join(&name)).unwrap(),
            std::fs::read(local.join(&name)).unwrap(),
            "{name}\n{text}"
        );
    }
    // One task a group, each saying what it solved, in the directory named.
    let logs: Vec<String> = std::fs::read_dir(tables.join("slurm"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "out"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert_eq!(logs.len(), all.len(), "{text}");
    assert!(
        logs.iter().all(|l| l.contains(" positions in ")),
        "{logs:?}"
    );
    assert!(
        !root.join("RAN").exists() && !work.join("RAN").exists(),
        "{text}"
    );
    // Submitted again, every task finds its group built and sound.
    let (again, _) = submit(
        &["--placing", "--pieces", "3"],
        &tables,
        &binary,
        &tools,
        &work,
    );
    assert_eq!(again, ran);
    let log = std::fs::read_to_string(tables.join("slurm/moulin-placing-6-0.out")).unwrap();
    assert!(log.contains("6-0-0: already built (checked)"), "{log}");
    let _ = std::fs::remove_dir_all(&root);
}
