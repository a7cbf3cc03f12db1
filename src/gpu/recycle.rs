//! GPU buffers and textures kept for the next run of the same size: a clip's frames each start
//! a run, and making its large buffers anew every frame costs the CPU more than sorting them
//! costs the GPU. No more are kept than were in use at once.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

/// Most spares kept for one key: as many runs as a clip keeps in flight, at most.
const MOST_SPARES: usize = 16;

/// Spares of `T` by key, shared by the runs that take them.
pub struct Recycler<K, T> {
    spares: Arc<Mutex<HashMap<K, Vec<T>>>>,
}

impl<K, T> Default for Recycler<K, T> {
    fn default() -> Self {
        Recycler { spares: Arc::default() }
    }
}

impl<K: Hash + Eq + Clone, T> Recycler<K, T> {
    /// A spare of `key`, or a new one that `make` makes (`None` where it cannot); it comes back
    /// here when dropped. Spares of other keys are let go: a clip's frames are all one size, and
    /// a window that moves to another picture needs the old size's no more.
    pub fn take(&self, key: K, make: impl FnOnce() -> Option<T>) -> Option<Recycled<K, T>> {
        let spare = {
            let mut spares = self.spares.lock().expect("the spares' lock");
            spares.retain(|k, _| *k == key);
            spares.get_mut(&key).and_then(Vec::pop)
        };
        let item = spare.or_else(make)?;
        Some(Recycled { item: Some(item), key, spares: self.spares.clone() })
    }
}

/// A `T` taken from a [`Recycler`], given back when dropped.
pub struct Recycled<K: Hash + Eq + Clone, T> {
    item: Option<T>,
    key: K,
    spares: Arc<Mutex<HashMap<K, Vec<T>>>>,
}

impl<K: Hash + Eq + Clone, T> std::ops::Deref for Recycled<K, T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.item.as_ref().expect("held until dropped")
    }
}

impl<K: Hash + Eq + Clone, T> Drop for Recycled<K, T> {
    fn drop(&mut self) {
        let (Some(item), Ok(mut spares)) = (self.item.take(), self.spares.lock()) else { return };
        let list = spares.entry(self.key.clone()).or_default();
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
        let recycler = Recycler::<u32, Vec<u8>>::default();
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
        assert_eq!(recycler.spares.lock().unwrap()[&7].len(), MOST_SPARES);
    }
}
