//! The packed set against the tables it was made from, on the game of four pieces a side
//! (`nine`'s rules otherwise), solved whole: every value the same, a stopped pack resumed, and
//! each kind of damage refused naming its file.

use super::folder::MANIFEST_BEFORE;
use super::manifest::{self, Manifest, MANIFEST};
use crate::job_progress::Silent;
use crate::rules::Rules;
use crate::tables::groups;
use crate::tables::index::{Classes, PairIndex};
use crate::tables::pack;
use crate::tables::packed_table as table;
use crate::tables::placing::solution::{Found, Solution};
use crate::tables::placing_build::Build;
use crate::tables::schedule::solve_in_memory;
use crate::tables::scratch::{scratch, Scratch};
use crate::tables::table_key::Key;
use crate::tables::{file, fingerprint, Tables, Value};
use std::path::Path;

/// The game of `pieces` a side under `nine`'s rules otherwise.
pub(super) fn game(pieces: u8) -> Rules {
    Rules {
        pieces,
        ..Rules::nine()
    }
}

/// A tables directory with every moving table and the whole placing solution of `rules`.
pub(super) fn built(name: &str, rules: &Rules) -> Scratch {
    let dir = scratch(name);
    let moving = solve_in_memory(rules, rules.pieces as usize).unwrap();
    for (m, o) in moving.pairs() {
        file::write(
            &dir.0,
            fingerprint(rules),
            m,
            o,
            moving.values(m, o).unwrap(),
        )
        .unwrap();
    }
    let mut build = Build::over(moving, &dir.0, rules).unwrap();
    for g in build.groups() {
        build.step(g).unwrap();
    }
    assert!(matches!(
        Solution::open(&dir.0, rules).unwrap(),
        Found::Whole(_)
    ));
    dir
}

/// `tables` packed into the folder `out` (held for the pack as the command holds it).
pub(super) fn pack_into(tables: &Tables, rules: &Rules, out: &Path) -> pack::Packed {
    let held = super::folder::prepare_pack(out, false).unwrap();
    pack::pack(tables, rules, &held, false, table::Cut::DEFAULT, &Silent).unwrap()
}

/// Every value of `a` and `b` the same: each moving table slot by slot, each placing group
/// byte for byte.
fn assert_same(rules: &Rules, a: &Tables, b: &Tables) {
    assert_eq!(a.pairs(), b.pairs());
    for (m, o) in a.pairs() {
        let (x, y) = (a.values(m, o).unwrap(), b.values(m, o).unwrap());
        assert_eq!(
            (x.len(), x.width(), x.longest()),
            (y.len(), y.width(), y.longest())
        );
        let index = PairIndex::new(m, o, a.classes());
        for slot in (0..x.len() as u64).filter(|&s| index.is_canonical(s)) {
            let (ours, theirs) = index.position(slot);
            assert_eq!(
                a.value(ours, theirs),
                b.value(ours, theirs),
                "{m}-{o} slot {slot}"
            );
        }
    }
    let (pa, pb) = (a.placing().unwrap(), b.placing().unwrap());
    assert!(pb.is_whole());
    let classes = Classes::new(rules.pieces as usize);
    for g in groups::all(rules) {
        let index = PairIndex::new(g.mover as usize, g.other as usize, &classes);
        for slot in (0..index.len()).filter(|&s| index.is_canonical(s)) {
            let (ours, theirs) = index.position(slot);
            assert_eq!(
                pa.value_of_with(g.left, ours, theirs, &|p| a.probe(p).map(Value::wdl)),
                pb.value_of_with(g.left, ours, theirs, &|p| b.probe(p).map(Value::wdl)),
                "group {g} slot {slot}"
            );
        }
    }
}

#[test]
fn a_packed_set_holds_every_value_of_its_tables_and_a_stopped_pack_resumes() {
    let rules = game(4);
    let dir = built("pack-same", &rules);
    let out = dir.0.join("packed");
    let tables = Tables::open(&dir.0, &rules).unwrap();
    // Every table stored.
    let whole = dir.0.join("whole");
    let stored = pack::pack(
        &tables,
        &rules,
        &super::folder::prepare_pack(&whole, false).unwrap(),
        true,
        table::Cut::DEFAULT,
        &Silent,
    )
    .unwrap();
    let all = tables.pairs().len() + groups::all(&rules).len();
    assert_eq!((stored.made, stored.derived), (all, 0));
    assert_same(&rules, &tables, &Tables::open(&whole, &rules).unwrap());
    // By default, 3-4 (its mirror 4-3 stored) and the groups whose placements all lead to
    // stored groups or tables, as many as the fewest bytes allow, are not stored: their values
    // come from their successors, the same (opening the set checks that each can be).
    let first = pack_into(&tables, &rules, &out);
    let groups = groups::all(&rules).len();
    assert!(
        (1 + groups / 3..1 + groups).contains(&first.derived),
        "{first:?}"
    );
    let all = all - first.derived;
    assert_eq!((first.made, first.kept), (all, 0));
    assert!(first.packed < stored.packed * 3 / 4, "{first:?} {stored:?}");
    let packed = Tables::open(&out, &rules).unwrap();
    assert!(matches!(
        packed.values(3, 4),
        Some(crate::tables::Values::Derived(..))
    ));
    assert_same(&rules, &tables, &packed);
    // The comparison the command makes finds no difference, and finds a value changed.
    let c = super::compare::compare(&packed, &tables, &rules, 200);
    assert!(c.moving.0 > 500 && c.placing.0 > 1000, "{c:?}");
    assert_eq!((c.moving.1, c.placing.1), (0, 0), "{c:?}");
    let mut changed = tables.clone();
    let mut values = changed.values(4, 3).unwrap().clone();
    let index = PairIndex::new(4, 3, tables.classes());
    let decisive = |s: u64| {
        let (o, t) = index.position(s);
        let open = crate::tables::retrograde::position(&rules, o, t)
            .quick_outcome()
            .is_none();
        index.is_canonical(s) && open && values.get(s as usize) != Value::Draw
    };
    // One of the slots the comparison samples (200 spread evenly).
    let len = index.len();
    let slot = (0..200)
        .map(|i| i * len / 200)
        .find(|&s| decisive(s))
        .unwrap();
    values.set(slot as usize, Value::Draw);
    changed.insert(4, 3, values);
    let c = super::compare::compare(&changed, &tables, &rules, 200);
    assert!(c.moving.1 >= 1 && !c.examples.is_empty(), "{c:?}");
    // Probes through the tables' own ways: a moving position and a placing one.
    let pos = crate::rules::position::Position::start(rules);
    assert_eq!(
        packed.placing().unwrap().value(&pos),
        tables.placing().unwrap().value(&pos)
    );
    // A stopped run: one table gone, the manifest gone; the next run packs that one only.
    std::fs::remove_file(table::path(&out, Key::Moving(4, 3))).unwrap();
    std::fs::remove_file(out.join(MANIFEST)).unwrap();
    let again = pack_into(&tables, &rules, &out);
    assert_eq!((again.made, again.kept), (1, all - 1));
    // A file whose header and index are sound but one of whose frames is altered is not
    // kept: the next run packs it again.
    let victim = table::path(&out, Key::Moving(4, 3));
    let mut bytes = std::fs::read(&victim).unwrap();
    let last = bytes.len() - 3;
    bytes[last] ^= 0x55;
    std::fs::write(&victim, &bytes).unwrap();
    let mended = pack_into(&tables, &rules, &out);
    assert_eq!((mended.made, mended.kept), (1, all - 1));
    let v = pack::verify(&out, &rules, &Silent).unwrap();
    assert_eq!(v.files, all);
    assert_eq!(Manifest::read(&out).unwrap().files.len(), all);
}

#[test]
fn a_damaged_cut_or_foreign_set_is_refused_naming_the_file() {
    let rules = game(3);
    let dir = built("pack-damage", &rules);
    let out = dir.0.join("packed");
    let tables = Tables::open(&dir.0, &rules).unwrap();
    pack_into(&tables, &rules, &out);
    let error = |r: Result<Tables, crate::tables::TablesError>| r.unwrap_err().to_string();

    // Other rules: the manifest names what they were.
    let twelve = Rules::preset("twelve").unwrap();
    let e = error(Tables::open(
        &out,
        &Rules {
            pieces: 3,
            ..twelve
        },
    ));
    assert!(
        e.contains(MANIFEST) && e.contains("made for other rules") && e.contains("Diagonals=true"),
        "{e}"
    );

    // A byte of a frame altered: the table opens (its header and index are sound), the probe
    // of that block is not trusted, and verify names the file.
    let victim = table::path(&out, Key::Moving(3, 3));
    let bytes = std::fs::read(&victim).unwrap();
    let mut altered = bytes.clone();
    let last = altered.len() - 3;
    altered[last] ^= 0x55;
    std::fs::write(&victim, &altered).unwrap();
    let e = pack::verify(&out, &rules, &Silent).unwrap_err().to_string();
    assert!(e.contains("3-3.pk") && e.contains("altered"), "{e}");
    let opened = Tables::open(&out, &rules).unwrap();
    let values = opened.values(3, 3).unwrap();
    let reads: Vec<Value> = (0..values.len()).map(|s| values.get(s)).collect();
    assert_eq!(reads.len(), values.len());
    assert!(
        !values.trusted(),
        "a damaged block leaves the table untrusted"
    );

    // Cut: refused at open, naming the file.
    std::fs::write(&victim, &bytes[..bytes.len() - 10]).unwrap();
    let e = error(Tables::open(&out, &rules));
    assert!(e.contains("3-3.pk") && e.contains("cut"), "{e}");
    std::fs::write(&victim, &bytes).unwrap();
    assert!(Tables::open(&out, &rules).is_ok());

    // A header byte altered: its checksum.
    let mut head = bytes.clone();
    head[40] ^= 1;
    std::fs::write(&victim, &head).unwrap();
    let e = error(Tables::open(&out, &rules));
    assert!(e.contains("3-3.pk") && e.contains("damaged"), "{e}");
    std::fs::write(&victim, &bytes).unwrap();

    // Missing, and a file of another table under its name.
    let other = table::path(&out, Key::Moving(3, 3));
    std::fs::remove_file(&other).unwrap();
    let e = error(Tables::open(&out, &rules));
    assert!(e.contains("3-3.pk"), "{e}");
    let stored = Manifest::read(&out)
        .unwrap()
        .files
        .iter()
        .find_map(|f| match f.key {
            Key::Placing(g) => Some(g),
            Key::Moving(..) => None,
        });
    let group = table::path(&out, Key::Placing(stored.expect("a stored group")));
    std::fs::write(&other, std::fs::read(group).unwrap()).unwrap();
    let e = error(Tables::open(&out, &rules));
    assert!(
        e.contains("3-3.pk") && e.contains("the manifest says"),
        "{e}"
    );
    std::fs::write(&other, &bytes).unwrap();

    // The manifest altered, or cut.
    let m = out.join(MANIFEST);
    let text = std::fs::read_to_string(&m).unwrap();
    std::fs::write(
        &m,
        text.replace("file moving/3-3.pk", "file moving/3-3.pk "),
    )
    .unwrap();
    let e = error(Tables::open(&out, &rules));
    assert!(
        e.contains(MANIFEST) && e.contains("checksum mismatch"),
        "{e}"
    );
    std::fs::write(&m, &text[..text.len() / 2]).unwrap();
    let e = error(Tables::open(&out, &rules));
    assert!(e.contains(MANIFEST) && e.contains("cut"), "{e}");
    std::fs::write(&m, &text).unwrap();
    assert!(pack::verify(&out, &rules, &Silent).is_ok());
}

#[test]
fn a_pack_in_other_frames_packs_every_table_again() {
    let rules = game(3);
    let dir = built("pack-frames", &rules);
    let out = dir.0.join("packed");
    let tables = Tables::open(&dir.0, &rules).unwrap();
    let first = pack_into(&tables, &rules, &out);
    let large = table::Cut::new(table::DEFAULT_BLOCK, 4 * table::DEFAULT_BLOCK).unwrap();
    let again = || {
        let held = super::folder::prepare_pack(&out, false).unwrap();
        pack::pack(&tables, &rules, &held, false, large, &Silent).unwrap()
    };
    let framed = again();
    assert_eq!((framed.made, framed.kept), (first.made, 0), "{framed:?}");
    assert_same(&rules, &tables, &Tables::open(&out, &rules).unwrap());
    // The same cut again: every table kept.
    let kept = again();
    assert_eq!((kept.made, kept.kept), (0, first.made), "{kept:?}");
}

#[test]
fn a_pack_over_a_set_removes_the_tables_it_no_longer_stores_and_nothing_else() {
    let rules = game(3);
    let dir = built("pack-dropped", &rules);
    let out = dir.0.join("packed");
    let tables = Tables::open(&dir.0, &rules).unwrap();
    // A folder of packed tables without a manifest (a build's compact folder has that shape):
    // a pack into it removes none of them, as none is known to be a set's.
    let stray = table::path(&out, Key::Moving(3, 3));
    let held = super::folder::prepare_pack(&out, false).unwrap();
    let all = pack::pack(&tables, &rules, &held, true, table::Cut::DEFAULT, &Silent).unwrap();
    drop(held);
    std::fs::remove_file(out.join(MANIFEST)).unwrap();
    let first = pack_into(&tables, &rules, &out);
    assert_eq!(first.dropped, (0, 0), "{first:?}");
    let derived = Manifest::read(&out).unwrap().derived;
    assert!(!derived.is_empty());
    assert!(derived.iter().all(|d| table::path(&out, d.key).exists()));
    // Every table stored, then a pack that derives some: those go, the set is whole.
    let held = super::folder::prepare_pack(&out, false).unwrap();
    pack::pack(&tables, &rules, &held, true, table::Cut::DEFAULT, &Silent).unwrap();
    drop(held);
    let again = pack_into(&tables, &rules, &out);
    assert_eq!(again.dropped.0, derived.len(), "{again:?} {all:?}");
    assert!(derived.iter().all(|d| !table::path(&out, d.key).exists()));
    assert!(stray.exists());
    assert_same(&rules, &tables, &Tables::open(&out, &rules).unwrap());
}

#[test]
fn a_pack_stopped_partway_leaves_the_next_one_what_the_set_before_stored() {
    let rules = game(3);
    let dir = built("pack-stopped", &rules);
    let out = dir.0.join("packed");
    let tables = Tables::open(&dir.0, &rules).unwrap();
    let derived_set = {
        pack_into(&tables, &rules, &out);
        std::fs::read_to_string(out.join(MANIFEST)).unwrap()
    };
    let derived = Manifest::read(&out).unwrap().derived;
    assert!(!derived.is_empty());
    let store_all = || {
        let held = super::folder::prepare_pack(&out, false).unwrap();
        pack::pack(&tables, &rules, &held, true, table::Cut::DEFAULT, &Silent).unwrap();
    };
    let stored = || {
        derived
            .iter()
            .filter(|d| table::path(&out, d.key).exists())
            .count()
    };
    // Stopped after its start: no manifest, the set before's kept aside; the next pack removes
    // what that set stored and the new one does not.
    store_all();
    assert_eq!(stored(), derived.len());
    super::folder::begin_pack(&out).unwrap();
    assert!(!out.join(MANIFEST).exists());
    assert!(out.join(MANIFEST_BEFORE).exists());
    let resumed = pack_into(&tables, &rules, &out);
    assert_eq!(resumed.dropped.0, derived.len(), "{resumed:?}");
    assert_eq!(stored(), 0);
    assert!(!out.join(MANIFEST_BEFORE).exists());
    // Stopped once its manifest was written, before its end: the next pack finishes it first.
    store_all();
    let all_set = std::fs::read_to_string(out.join(MANIFEST)).unwrap();
    std::fs::write(out.join(MANIFEST_BEFORE), all_set).unwrap();
    std::fs::write(out.join(MANIFEST), &derived_set).unwrap();
    pack_into(&tables, &rules, &out);
    assert_eq!(stored(), 0);
    assert!(!out.join(MANIFEST_BEFORE).exists());
    assert_same(&rules, &tables, &Tables::open(&out, &rules).unwrap());
}

#[test]
fn a_manifest_that_derives_what_cannot_be_is_refused() {
    let rules = game(3);
    let dir = built("pack-manifest", &rules);
    let out = dir.0.join("packed");
    let tables = Tables::open(&dir.0, &rules).unwrap();
    pack_into(&tables, &rules, &out);
    let error = |r: Result<Tables, crate::tables::TablesError>| r.unwrap_err().to_string();
    let m = out.join(MANIFEST);
    let text = std::fs::read_to_string(&m).unwrap();
    // Its checksum holds, but it says what cannot be.
    let good = Manifest::read(&out).unwrap();
    let rewrite = |change: &dyn Fn(&mut Manifest)| {
        let mut bad = good.clone();
        change(&mut bad);
        std::fs::write(&m, bad.to_text()).unwrap();
        error(Tables::open(&out, &rules))
    };
    let e = rewrite(&|b| b.derived[0].slots += 1);
    assert!(e.contains("slots"), "{e}");
    // A stored group claimed derived where a placement of it leads to a group or table the set
    // does not store.
    let listed = |k: Key| good.files.iter().any(|f| f.key == k);
    let lacking = groups::all(&rules)
        .into_iter()
        .find(|&g| {
            listed(Key::Placing(g))
                && groups::successors(&rules, g).into_iter().any(|s| {
                    let k = if s.left == 0 {
                        Key::Moving(s.mover, s.other)
                    } else {
                        Key::Placing(s)
                    };
                    !listed(k)
                })
        })
        .expect("a stored group with a successor the set derives");
    let e = rewrite(&|b| {
        b.files.retain(|f| f.key != Key::Placing(lacking));
        b.derived.push(manifest::Derived {
            key: Key::Placing(lacking),
            slots: crate::tables::index::pair_len(lacking.mover as usize, lacking.other as usize),
            width: 0,
            longest: 0,
        });
    });
    assert!(e.contains("without the groups or tables"), "{e}");
    let e = rewrite(&|b| b.files[0].key = Key::Moving(12, 3));
    assert!(e.contains("damaged"), "{e}");
    // A set of format 2 is read (each file says its own format); one of format 1 is refused.
    let body = &text[..text.rfind("end ").unwrap()];
    let sealed = |body: String| {
        let sum = crate::tables::checksum::checksum(body.as_bytes());
        format!("{body}end {sum:016x}\n")
    };
    assert!(body.contains("\nformat 3\n"), "{body}");
    std::fs::write(&m, sealed(body.replace("\nformat 3\n", "\nformat 2\n"))).unwrap();
    assert!(Tables::open(&out, &rules).is_ok());
    std::fs::write(&m, sealed(body.replace("\nformat 3\n", "\nformat 1\n"))).unwrap();
    let e = error(Tables::open(&out, &rules));
    assert!(e.contains("format 1; this moulin reads format 3"), "{e}");
    std::fs::write(&m, &text).unwrap();
}

#[test]
fn a_blocks_checksum_sees_every_byte_and_its_length() {
    let bytes: Vec<u8> = (0..4133u32).map(|i| (i * 7 % 13) as u8).collect();
    let whole = table::block_checksum(&bytes);
    // Each bit of each byte, in the 32-byte rounds and in the padded tail.
    for at in (0..bytes.len())
        .step_by(97)
        .chain(bytes.len() - 5..bytes.len())
    {
        for bit in 0..8 {
            let mut altered = bytes.clone();
            altered[at] ^= 1 << bit;
            assert_ne!(
                table::block_checksum(&altered),
                whole,
                "byte {at} bit {bit}"
            );
        }
    }
    // Words swapped between lanes, and zeros that only the length tells apart.
    let mut swapped = bytes.clone();
    swapped[..16].rotate_left(8);
    assert_ne!(table::block_checksum(&swapped), whole);
    assert_ne!(
        table::block_checksum(&[0; 5]),
        table::block_checksum(&[0; 6])
    );
    assert_ne!(table::block_checksum(&[]), table::block_checksum(&[0; 32]));
}
