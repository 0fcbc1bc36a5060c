//! Jobs run on several threads: each thread takes the next job from a shared counter, with a
//! state of its own (a searcher, a solver's memory), and the answers come back to the calling
//! thread one at a time, as they finish. So what the answers feed (a journal, a progress bar, a
//! list) has one owner and needs no lock, and an error there stops the work. Work that rayon
//! spreads itself (a search's threads, a table build) runs in a pool made by `pool`.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Runs `work` on each of `jobs` on `threads` threads (no more than there are jobs), each with a
/// state made by `state` on that thread, and hands each job with its answer to `take` on the
/// calling thread as soon as it is done, in the order they finish. The first error of `take`
/// stops the threads (each ends the job it holds, whose answer is dropped) and is returned: a
/// job that cannot record its work (a full disk) must not go on.
pub fn run<J, S, R, E>(
    jobs: &[J],
    threads: usize,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &J) -> R + Sync,
    mut take: impl FnMut(&J, R) -> Result<(), E>,
) -> Result<(), E>
where
    J: Sync,
    R: Send,
{
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        for _ in 0..threads.max(1).min(jobs.len()) {
            let tx = tx.clone();
            let (next, stop, state, work) = (&next, &stop, &state, &work);
            scope.spawn(move || {
                let mut own = state();
                while !stop.load(Ordering::Relaxed) {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(k) else {
                        break;
                    };
                    if tx.send((k, work(&mut own, job))).is_err() {
                        break;
                    }
                }
            });
        }
        // The threads hold the only senders left: the answers end when the last thread does.
        drop(tx);
        for (k, answer) in rx {
            if let Err(e) = take(&jobs[k], answer) {
                stop.store(true, Ordering::Relaxed);
                return Err(e);
            }
        }
        Ok(())
    })
}

/// A rayon pool of `threads` threads (`None`, or 0: one a core), its threads named `name-0`,
/// `name-1`... when a name is given.
pub fn pool(
    threads: Option<usize>,
    name: Option<&'static str>,
) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = threads {
        builder = builder.num_threads(threads);
    }
    if let Some(name) = name {
        builder = builder.thread_name(move |i| format!("{name}-{i}"));
    }
    builder.build()
}

#[cfg(test)]
mod tests {
    use super::{pool, run};
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_job_is_answered_once_with_its_own_answer() {
        let jobs: Vec<u64> = (0..1000).collect();
        let states = AtomicUsize::new(0);
        let mut seen = vec![0u32; jobs.len()];
        let done: Result<(), ()> = run(
            &jobs,
            4,
            || states.fetch_add(1, Ordering::Relaxed),
            |_, &j| j * j,
            |&j, square| {
                assert_eq!(square, j * j);
                seen[usize::try_from(j).unwrap()] += 1;
                Ok(())
            },
        );
        assert_eq!(done, Ok(()));
        assert!(seen.iter().all(|&n| n == 1));
        assert_eq!(states.load(Ordering::Relaxed), 4, "one state a thread");
    }

    #[test]
    fn no_more_threads_than_jobs_and_none_for_no_job() {
        let states = AtomicUsize::new(0);
        let mut answers = 0;
        let done: Result<(), ()> = run(
            &[1, 2],
            8,
            || states.fetch_add(1, Ordering::Relaxed),
            |_, &j: &i32| j,
            |_, _| {
                answers += 1;
                Ok(())
            },
        );
        assert_eq!((done, answers), (Ok(()), 2));
        assert_eq!(states.load(Ordering::Relaxed), 2);
        let none: Result<(), ()> = run(
            &[] as &[i32],
            8,
            || states.fetch_add(1, Ordering::Relaxed),
            |_, &j| j,
            |_, _| Err(()),
        );
        assert_eq!(none, Ok(()));
        assert_eq!(states.load(Ordering::Relaxed), 2, "no thread for no job");
    }

    #[test]
    fn the_first_error_stops_the_work_and_is_returned() {
        let jobs: Vec<usize> = (0..2000).collect();
        let worked = AtomicUsize::new(0);
        let mut taken = 0;
        let done = run(
            &jobs,
            2,
            || (),
            |(), &j| {
                worked.fetch_add(1, Ordering::Relaxed);
                std::thread::sleep(std::time::Duration::from_millis(1));
                j
            },
            |_, j| {
                taken += 1;
                if taken == 5 {
                    Err(format!("job {j} failed"))
                } else {
                    Ok(())
                }
            },
        );
        assert!(done.is_err_and(|e| e.starts_with("job ")));
        assert_eq!(taken, 5, "nothing taken after the error");
        let worked = worked.load(Ordering::Relaxed);
        assert!(worked < 1000, "the threads stopped: {worked} jobs worked");
    }

    #[test]
    fn a_pool_has_the_threads_and_names_asked_for() {
        let named = pool(Some(3), Some("test-pool")).unwrap();
        assert_eq!(named.current_num_threads(), 3);
        let name = named.install(|| std::thread::current().name().map(str::to_owned));
        assert!(name.is_some_and(|n| n.starts_with("test-pool-")));
        let unnamed = pool(Some(2), None).unwrap();
        assert!(unnamed.install(|| std::thread::current().name().is_none()));
    }
}
