//! [`super::ordered_pool`]'s interface without threads, for the page (which may not start
//! any): each job is worked as it is pushed, and the consumer takes the results, in order, at
//! [`OrderedPool::finish`]. Memory then holds every result at once, which for a recording in
//! memory is its output anyway.

use std::marker::PhantomData;

/// The results, in job order, as the consumer sees them.
pub type InOrder<D> = std::vec::IntoIter<D>;

/// Jobs in, worked at once; results handed to the consumer in job order at the end.
pub struct OrderedPool<J, R, E> {
    step: Box<dyn FnMut(J)>,
    end: Box<dyn FnOnce() -> Result<R, E>>,
    _jobs: PhantomData<J>,
}

impl<J: 'static, R: 'static, E: 'static> OrderedPool<J, R, E> {
    /// As [`super::ordered_pool::OrderedPool::new`]; `name` and `workers` are not used.
    pub fn new<D: 'static>(
        _name: &str,
        _workers: usize,
        work: impl Fn(J) -> D + 'static,
        consume: impl FnOnce(&mut InOrder<D>) -> Result<R, E> + 'static,
    ) -> Self {
        let done = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let results = done.clone();
        OrderedPool {
            step: Box::new(move |job| done.borrow_mut().push(work(job))),
            end: Box::new(move || consume(&mut results.take().into_iter())),
            _jobs: PhantomData,
        }
    }

    /// Works a job now.
    pub fn push(&mut self, job: J) -> Result<(), E> {
        (self.step)(job);
        Ok(())
    }

    /// Hands every result, in order, to the consumer and returns its outcome.
    pub fn finish(self) -> Result<R, E> {
        (self.end)()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_consumer_takes_every_result_in_job_order() {
        let mut pool = OrderedPool::<u64, Vec<u64>, std::io::Error>::new(
            "test",
            1,
            |n| n * n,
            |results| Ok(results.collect()),
        );
        for n in [3, 1, 2] {
            pool.push(n).unwrap();
        }
        assert_eq!(pool.finish().unwrap(), vec![9, 1, 4]);
    }
}
