//! GPU buffers and textures kept for the next run of the same size: a clip's frames each start
//! a run, and making its large buffers anew every frame costs the CPU more than sorting them
//! costs the GPU. No more are kept than were in use at once, and only while a sort of many
//! frames asks ([`crate::gpu::Gpu::keep_spares`]): the window's lanes of a large photograph
//! would otherwise hold twice their textures.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Most spares kept for one key: as many runs as a clip keeps in flight, at most.
const MOST_SPARES: usize = 16;

/// Spares of `T` by key, shared by the runs that take them.
pub struct Recycler<K, T> {
    spares: Arc<Spares<K, T>>,
}

/// What a [`Recycler`] and the items it gave share.
struct Spares<K, T> {
    by_key: Mutex<HashMap<K, Vec<T>>>,
    /// Whether items given back are kept (a switch several recyclers follow).
    keep: Arc<AtomicBool>,
}

impl<K: Hash + Eq + Clone, T> Recycler<K, T> {
    /// A recycler that keeps what is given back while `keep` is on.
    pub fn new(keep: &Arc<AtomicBool>) -> Self {
        Recycler { spares: Arc::new(Spares { by_key: Mutex::default(), keep: keep.clone() }) }
    }

    /// A spare of `key`, or a new one that `make` makes (`None` where it cannot); it comes back
    /// here when dropped. Spares of other keys are let go: a clip's frames are all one size, and
    /// a window that moves to another picture needs the old size's no more.
    pub fn take(&self, key: K, make: impl FnOnce() -> Option<T>) -> Option<Recycled<K, T>> {
        let spare = {
            let mut by_key = self.spares.by_key.lock().expect("the spares' lock");
            let keep = self.spares.keep.load(Ordering::Relaxed);
            by_key.retain(|k, _| keep && *k == key);
            by_key.get_mut(&key).and_then(Vec::pop)
        };
        let item = spare.or_else(make)?;
        Some(Recycled { item: Some(item), key, spares: self.spares.clone() })
    }
}

/// A `T` taken from a [`Recycler`], given back when dropped.
pub struct Recycled<K: Hash + Eq + Clone, T> {
    item: Option<T>,
    key: K,
    spares: Arc<Spares<K, T>>,
}

impl<K: Hash + Eq + Clone, T> std::ops::Deref for Recycled<K, T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.item.as_ref().expect("held until dropped")
    }
}

impl<K: Hash + Eq + Clone, T> Drop for Recycled<K, T> {
    fn drop(&mut self) {
        if !self.spares.keep.load(Ordering::Relaxed) {
            return;
        }
        let (Some(item), Ok(mut by_key)) = (self.item.take(), self.spares.by_key.lock()) else { return };
        let list = by_key.entry(self.key.clone()).or_default();
        if list.len() < MOST_SPARES {
            list.push(item);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_item_is_taken_again_for_its_key_only() {
        let keep = Arc::new(AtomicBool::new(true));
        let recycler = Recycler::<u32, Vec<u8>>::new(&keep);
        let made = std::cell::Cell::new(0);
        let make = |n: u8| {
            made.set(made.get() + 1);
            Some(vec![n])
        };
        let first = recycler.take(1, || make(1)).unwrap();
        let second = recycler.take(1, || make(2)).unwrap();
        assert_eq!((first.to_vec(), second.to_vec(), made.get()), (vec![1], vec![2], 2));
        drop(first);
        // Key 1 has the first back; key 2 has no spare, and taking it lets key 1's go.
        assert_eq!(*recycler.take(1, || make(4)).unwrap(), vec![1]);
        assert_eq!(made.get(), 2);
        drop(second);
        assert_eq!(*recycler.take(2, || make(3)).unwrap(), vec![3]);
        assert_eq!(*recycler.take(1, || make(5)).unwrap(), vec![5]);
        assert_eq!(made.get(), 4);
        assert!(recycler.take(5, || None).is_none(), "nothing made, nothing taken");
        // No more than MOST_SPARES are kept for a key.
        let many: Vec<_> = (0..MOST_SPARES + 4).map(|_| recycler.take(7, || Some(Vec::new()))).collect();
        drop(many);
        assert_eq!(recycler.spares.by_key.lock().unwrap()[&7].len(), MOST_SPARES);
        // Switched off, nothing given back is kept, and what was kept is let go.
        keep.store(false, Ordering::Relaxed);
        drop(recycler.take(7, || make(6)).unwrap());
        assert!(recycler.spares.by_key.lock().unwrap().is_empty());
        assert_eq!(*recycler.take(7, || make(8)).unwrap(), vec![8]);
    }
}
