//! Work done on worker threads and handed, in the order it was given, to one consumer thread:
//! how a recording compresses frames in parallel and still writes them in sequence. Memory stays
//! bounded: [`OrderedPool::push`] blocks while the workers are busy.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Jobs in, numbered; results out to the consumer in job order.
pub struct OrderedPool<J: Send + 'static, R: Send + 'static, E: Send + 'static> {
    jobs: Option<SyncSender<(u64, J)>>,
    workers: Vec<JoinHandle<()>>,
    consumer: Option<JoinHandle<Result<R, E>>>,
    next: u64,
}

/// The results, in job order, as the consumer sees them.
pub struct InOrder<D> {
    done: Receiver<(u64, D)>,
    waiting: BTreeMap<u64, D>,
    next: u64,
}

impl<D> Iterator for InOrder<D> {
    type Item = D;

    fn next(&mut self) -> Option<D> {
        loop {
            if let Some(item) = self.waiting.remove(&self.next) {
                self.next += 1;
                return Some(item);
            }
            let (seq, item) = self.done.recv().ok()?;
            self.waiting.insert(seq, item);
        }
    }
}

impl<J: Send + 'static, R: Send + 'static, E: Send + From<std::io::Error> + 'static> OrderedPool<J, R, E> {
    /// Starts `workers` threads that turn each job into a result with `work`, and one that hands
    /// the results in order to `consume`, whose outcome [`Self::finish`] returns. Threads are
    /// named after `name`.
    pub fn new<D: Send + 'static>(
        name: &str,
        workers: usize,
        work: impl Fn(J) -> D + Send + Sync + 'static,
        consume: impl FnOnce(&mut InOrder<D>) -> Result<R, E> + Send + 'static,
    ) -> Self {
        let workers = workers.max(1);
        let (job_tx, job_rx) = sync_channel::<(u64, J)>(workers * 2);
        let (done_tx, done_rx) = sync_channel::<(u64, D)>(workers * 2);
        let job_rx = Arc::new(Mutex::new(job_rx));
        let work = Arc::new(work);
        let handles = (0..workers)
            .map(|i| {
                let (job_rx, done_tx, work) = (job_rx.clone(), done_tx.clone(), work.clone());
                std::thread::Builder::new()
                    .name(format!("{name}-{i}"))
                    .spawn(move || {
                        loop {
                            let job = job_rx.lock().unwrap_or_else(|p| p.into_inner()).recv();
                            let Ok((seq, job)) = job else { return };
                            if done_tx.send((seq, work(job))).is_err() {
                                return;
                            }
                        }
                    })
                    .expect("spawning a worker thread")
            })
            .collect();
        drop(done_tx);
        let consumer = std::thread::Builder::new()
            .name(format!("{name}-writer"))
            .spawn(move || consume(&mut InOrder { done: done_rx, waiting: BTreeMap::new(), next: 0 }))
            .expect("spawning a writer thread");
        OrderedPool { jobs: Some(job_tx), workers: handles, consumer: Some(consumer), next: 0 }
    }

    /// Queues a job (blocks while the workers are busy). Fails with the consumer's error when it
    /// has stopped.
    pub fn push(&mut self, job: J) -> Result<(), E> {
        let sent = self.jobs.as_ref().expect("push after finish").send((self.next, job));
        self.next += 1;
        if sent.is_err() {
            // The consumer stopped, so a worker lost its receiver: report the consumer's error.
            return Err(self.stop().err().unwrap_or_else(|| stopped("the writer stopped early")));
        }
        Ok(())
    }

    /// Waits for every job to be consumed and returns the consumer's outcome.
    pub fn finish(mut self) -> Result<R, E> {
        self.stop()
    }

    fn stop(&mut self) -> Result<R, E> {
        drop(self.jobs.take());
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
        match self.consumer.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(stopped("the writer thread panicked")),
            None => Err(stopped("the writer was already stopped")),
        }
    }
}

impl<J: Send + 'static, R: Send + 'static, E: Send + 'static> Drop for OrderedPool<J, R, E> {
    fn drop(&mut self) {
        drop(self.jobs.take());
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
        if let Some(consumer) = self.consumer.take() {
            let _ = consumer.join();
        }
    }
}

fn stopped<E: From<std::io::Error>>(message: &str) -> E {
    E::from(std::io::Error::other(message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_reach_the_consumer_in_job_order() {
        let mut pool = OrderedPool::<u64, Vec<u64>, std::io::Error>::new(
            "test",
            3,
            |n| {
                // Later jobs finish first.
                std::thread::sleep(std::time::Duration::from_micros(200 * (20 - n)));
                n * n
            },
            |results| Ok(results.collect()),
        );
        for n in 0..20 {
            pool.push(n).unwrap();
        }
        assert_eq!(pool.finish().unwrap(), (0..20).map(|n| n * n).collect::<Vec<_>>());
    }

    #[test]
    fn a_consumer_that_fails_stops_the_pushes_with_its_error() {
        let mut pool = OrderedPool::<u32, (), std::io::Error>::new(
            "test",
            2,
            |n| n,
            |results| match results.nth(2) {
                Some(_) => Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "full")),
                None => Ok(()),
            },
        );
        let failed = (0..1000).find_map(|n| pool.push(n).err()).or_else(|| pool.finish().err());
        assert_eq!(failed.expect("the consumer's error").kind(), std::io::ErrorKind::StorageFull);
    }
}
