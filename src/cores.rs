//! Work shared over the CPU's cores: a slice cut into consecutive shares of about equal weight,
//! each done on its own thread (natively; in the browser, where there are no threads, in one).

/// Runs `work` on consecutive shares of `items`, one a core, each of about the same total
/// `weight` and at least `min_weight` of it (less is not worth a thread); `work` is given the
/// share and the index of its first item.
pub fn for_each_share<T: Send>(
    items: &mut [T],
    min_weight: usize,
    weight: impl Fn(&T) -> usize,
    work: impl Fn(usize, &mut [T]) + Sync,
) {
    let total: usize = items.iter().map(&weight).sum();
    let shares = if cfg!(target_arch = "wasm32") {
        1
    } else {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        threads.min(total / min_weight.max(1)).max(1)
    };
    if shares == 1 {
        work(0, items);
        return;
    }
    // Cut where the weight so far passes each share's part of the total.
    let mut cuts = Vec::with_capacity(shares);
    let (mut sum, mut next) = (0, 1);
    for (i, item) in items.iter().enumerate() {
        if sum >= next * total / shares {
            cuts.push(i);
            next += 1;
        }
        sum += weight(item);
    }
    std::thread::scope(|scope| {
        let (mut rest, mut first) = (items, 0);
        for cut in cuts {
            let (share, tail) = rest.split_at_mut(cut - first);
            let work = &work;
            scope.spawn(move || work(first, share));
            (rest, first) = (tail, cut);
        }
        work(first, rest);
    });
}

/// `f` of every index below `n`, in order, computed over every core.
pub fn map<R: Send + Default + Clone>(n: usize, f: impl Fn(usize) -> R + Sync) -> Vec<R> {
    let mut out = vec![R::default(); n];
    for_each_share(
        &mut out,
        1 << 16,
        |_| 1,
        |first, share| {
            for (i, slot) in share.iter_mut().enumerate() {
                *slot = f(first + i);
            }
        },
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_is_worked_once_with_its_own_index() {
        for n in [0, 1, 7, 1 << 16, (1 << 18) + 3] {
            assert_eq!(map(n, |i| i as u64 * 3), (0..n as u64).map(|i| i * 3).collect::<Vec<_>>(), "{n}");
        }
        // Uneven weights: a few heavy items and many light ones.
        let mut items: Vec<(usize, usize)> =
            (0..1000).map(|i| (i, if i % 97 == 0 { 5000 } else { 1 })).collect();
        let seen = std::sync::Mutex::new(Vec::new());
        for_each_share(
            &mut items,
            10,
            |&(_, w)| w,
            |first, share| {
                for (k, item) in share.iter_mut().enumerate() {
                    assert_eq!(item.0, first + k);
                    seen.lock().unwrap().push(item.0);
                    item.1 = 0;
                }
            },
        );
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        assert_eq!(seen, (0..1000).collect::<Vec<_>>());
        assert!(items.iter().all(|&(_, w)| w == 0));
    }
}
