//! The step bookkeeping every algorithm's run shares: how many steps its sort takes, how many
//! are encoded, how many have had their swap counts read, and what those counts say.

use super::RunStats;
use super::work::Work;

/// Steps that may be encoded before their counts are read: each has a slot of its own in a
/// run's ring of counters (and of parameters), so a slot is never rewritten before the step
/// that reads it has run.
pub const STEP_RING: u32 = 1024;

/// The two ledger accessors of a `SortRun` impl whose run keeps its [`StepLedger`] in a field
/// named `ledger`.
macro_rules! ledger_in_field {
    () => {
        fn ledger(&self) -> &$crate::algorithms::step_ledger::StepLedger {
            &self.ledger
        }

        fn ledger_mut(&mut self) -> &mut $crate::algorithms::step_ledger::StepLedger {
            &mut self.ledger
        }
    };
}
pub(crate) use ledger_in_field;

/// The steps of one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepLedger {
    total: u32,
    done: u32,
    collected: u32,
    stats: RunStats,
}

impl StepLedger {
    /// A run of `total` steps at step 0; `sorted_at_start` when its picture is sorted before
    /// any step (every line or interval is one pixel long).
    pub fn new(total: u32, sorted_at_start: bool) -> Self {
        let stats = RunStats { sorted_after: sorted_at_start.then_some(0), ..Default::default() };
        StepLedger { total, stats, ..Default::default() }
    }

    /// Steps after which the picture is sorted whatever its content.
    pub fn total(&self) -> u32 {
        self.total
    }

    /// Steps recorded so far.
    pub fn done(&self) -> u32 {
        self.done
    }

    /// Steps whose counts have been read.
    pub fn collected(&self) -> u32 {
        self.collected
    }

    /// What the counts read so far say.
    pub fn stats(&self) -> RunStats {
        self.stats
    }

    /// How many of `n` further steps can be encoded now: no more than are left, and no more
    /// than the ring holds beside the steps whose counts are still unread.
    pub fn room(&self, n: u32) -> u32 {
        n.min(self.total - self.done).min(STEP_RING - (self.done - self.collected))
    }

    /// Counts `n` more steps as recorded (at most [`StepLedger::room`]); returns the first.
    pub fn count_encoded(&mut self, n: u32) -> u32 {
        assert!(n <= self.room(n), "{n} steps encoded beyond the room for them");
        let first = self.done;
        self.done += n;
        first
    }

    /// Counts every step as recorded and read, the picture sorted after them all: a run that made
    /// its last state at once ([`SortRun::encode_to_end`](super::SortRun::encode_to_end)), whose
    /// skipped steps' counts are unknown (the stats keep only those read before).
    pub fn skip_to_end(&mut self) {
        (self.done, self.collected) = (self.total, self.total);
        self.sorted_after(self.total);
    }

    /// Back to step 0 of a sort of `total` steps, with no counts (see [`StepLedger::new`]).
    pub fn restart(&mut self, total: u32, sorted_at_start: bool) {
        *self = StepLedger::new(total, sorted_at_start);
    }

    /// The step whose count is read next.
    pub fn next_to_take(&self) -> u32 {
        self.collected
    }

    /// Takes the count of the next step whose count is unread: `swaps` pixels it swapped (or
    /// moved), and the `work` it cost besides. Returns the step's index.
    pub fn take(&mut self, swaps: u32, work: Work) -> u32 {
        assert!(self.collected < self.done, "counts of unrecorded steps");
        let step = self.collected;
        self.collected += 1;
        self.stats.total_swaps += u64::from(swaps);
        self.stats.last_step_swaps = Some(swaps);
        let work = work.with_swaps(u64::from(swaps));
        self.stats.total_work += work;
        self.stats.last_step_work = Some(work);
        step
    }

    /// Notes that the picture is sorted after `steps` steps, unless it was known sorted sooner.
    pub fn sorted_after(&mut self, steps: u32) {
        self.stats.sorted_after.get_or_insert(steps);
    }

    /// Once every step's count is read, the picture is sorted after them all (where the counts
    /// did not show it sooner).
    pub fn settle(&mut self) {
        if self.collected == self.total {
            self.sorted_after(self.total);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_recorded_within_the_total_and_the_ring_and_counted_in_order() {
        let mut ledger = StepLedger::new(3000, false);
        assert_eq!(ledger.room(5000), STEP_RING);
        assert_eq!(ledger.count_encoded(STEP_RING), 0);
        assert_eq!(ledger.room(1), 0, "the ring is full until counts are read");
        let work = Work::of(9, (2, 2), 1);
        assert_eq!((ledger.take(7, work), ledger.take(0, Work::default())), (0, 1));
        assert_eq!(ledger.room(5000), 2);
        assert_eq!(ledger.count_encoded(2), STEP_RING);
        let stats = ledger.stats();
        assert_eq!((stats.total_swaps, stats.last_step_swaps, stats.sorted_after), (7, Some(0), None));
        assert_eq!((stats.total_work, stats.last_step_work), (work.with_swaps(7), Some(Work::default())));
        ledger.sorted_after(1);
        ledger.sorted_after(5);
        assert_eq!(ledger.stats().sorted_after, Some(1), "the first sorted step stays");
        assert_eq!((ledger.done(), ledger.collected(), ledger.total()), (STEP_RING + 2, 2, 3000));
    }

    #[test]
    fn the_last_count_settles_a_sort_that_could_not_tell_sooner() {
        let mut ledger = StepLedger::new(2, false);
        ledger.count_encoded(2);
        ledger.take(4, Work::default());
        ledger.settle();
        assert_eq!(ledger.stats().sorted_after, None);
        ledger.take(1, Work::default());
        ledger.settle();
        assert_eq!(ledger.stats().sorted_after, Some(2));
        ledger.restart(9, true);
        assert_eq!(ledger, StepLedger::new(9, true));
        assert_eq!(ledger.stats().sorted_after, Some(0));
        assert_eq!(ledger.room(20), 9);
    }

    #[test]
    #[should_panic(expected = "counts of unrecorded steps")]
    fn a_count_of_an_unrecorded_step_is_refused() {
        StepLedger::new(4, false).take(1, Work::default());
    }
}
