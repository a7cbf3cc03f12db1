//! What a batch's stages wait on: a gate that lets a bounded number of pictures exist at once,
//! and a latch that holds the device's limits once the GPU is open.

use std::sync::{Condvar, Mutex};

/// A counting gate: at most `n` holders at once; closed, it lets nobody in again.
pub struct Gate {
    state: Mutex<(usize, bool)>,
    changed: Condvar,
}

impl Gate {
    /// A gate with room for `n`.
    pub fn new(n: usize) -> Gate {
        Gate { state: Mutex::new((n, false)), changed: Condvar::new() }
    }

    /// Waits for room and takes it: false once the gate is closed.
    pub fn enter(&self) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            match *state {
                (_, true) => return false,
                (0, false) => state = self.changed.wait(state).unwrap_or_else(|p| p.into_inner()),
                (ref mut free, false) => {
                    *free -= 1;
                    return true;
                }
            }
        }
    }

    /// Gives one place back.
    pub fn leave(&self) {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).0 += 1;
        self.changed.notify_one();
    }

    /// Lets every waiter go, and nobody in from now on.
    pub fn close(&self) {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).1 = true;
        self.changed.notify_all();
    }
}

/// A value set once that threads wait for.
pub struct Latch<T> {
    value: Mutex<Option<T>>,
    set: Condvar,
}

impl<T> Default for Latch<T> {
    fn default() -> Self {
        Latch { value: Mutex::new(None), set: Condvar::new() }
    }
}

impl<T: Clone> Latch<T> {
    /// Sets the value and wakes every waiter.
    pub fn set(&self, value: T) {
        *self.value.lock().unwrap_or_else(|p| p.into_inner()) = Some(value);
        self.set.notify_all();
    }

    /// The value, once set.
    pub fn wait(&self) -> T {
        let mut value = self.value.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            match &*value {
                Some(v) => return v.clone(),
                None => value = self.set.wait(value).unwrap_or_else(|p| p.into_inner()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn no_more_than_its_room_hold_the_gate_at_once() {
        let (gate, inside, most) = (Gate::new(3), AtomicUsize::new(0), AtomicUsize::new(0));
        std::thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| {
                    for _ in 0..50 {
                        assert!(gate.enter());
                        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::yield_now();
                        inside.fetch_sub(1, Ordering::SeqCst);
                        gate.leave();
                    }
                });
            }
        });
        assert_eq!(most.load(Ordering::SeqCst), 3);
    }

    #[test]
    fn a_closed_gate_lets_its_waiters_go_and_a_latch_wakes_its_own() {
        let (gate, latch) = (Gate::new(1), Latch::default());
        assert!(gate.enter());
        std::thread::scope(|scope| {
            let waiter = scope.spawn(|| gate.enter());
            let reader = scope.spawn(|| latch.wait());
            std::thread::sleep(std::time::Duration::from_millis(20));
            gate.close();
            latch.set(Some(7u32));
            assert!(!waiter.join().unwrap(), "closed, the waiter is turned away");
            assert_eq!(reader.join().unwrap(), Some(7));
        });
    }
}
