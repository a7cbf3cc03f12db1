//! What one sort is given: the keys (and values) and their kind ([`SortJob`], [`KeyKind`]),
//! the parameters the kernels read ([`SortParams`]), the buffers it works in ([`SortScratch`]),
//! and what can go wrong ([`SortError`]).

/// What the keys are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KeyKind {
    /// Unsigned 32-bit integers.
    #[default]
    U32,
    /// IEEE 754 single-precision floats, as their bits: -inf < negatives < -0.0 < +0.0 <
    /// positives < +inf; NaNs sort by their bits (negative ones first, positive ones last).
    F32,
    /// Signed 32-bit integers (two's complement): the sign bit flipped, as CUB does.
    I32,
}

impl KeyKind {
    /// How the shader's `key_kind` names it.
    pub(super) fn code(self) -> u32 {
        match self {
            KeyKind::U32 => 0,
            KeyKind::F32 => 1,
            KeyKind::I32 => 2,
        }
    }
}

/// Mirrors `SortParams` in `shaders/radix_sort.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct SortParams {
    /// Keys to sort.
    pub len: u32,
    /// Tiles of [`TILE`](super::TILE) keys.
    pub tiles: u32,
    /// Bit position of the pass's digit.
    pub shift: u32,
    /// The pass, 0 to 3.
    pub pass_index: u32,
    /// 1: transform keys as they are read.
    pub transform_in: u32,
    /// 1: undo the transform as keys are written.
    pub transform_out: u32,
    /// 0: u32 keys, 1: f32, 2: i32.
    pub key_kind: u32,
    /// 1: largest first.
    pub descending: u32,
    /// 1: values travel with the keys.
    pub has_values: u32,
    /// Words in each half of OneSweep's status words: 256 for each tile the scratch holds.
    pub status_half: u32,
    /// The bits of the key (as the sort orders it) that are sorted: the low
    /// [`SortJob::key_bits`].
    pub key_mask: u32,
    /// Padding to 48 bytes.
    pub pad: u32,
}

/// The key as the sort orders it: f32 bits made order-preserving, an i32's sign bit flipped,
/// complemented for descending order. Mirrors `to_order` in `shaders/keys.wgsl`.
pub fn sort_order_key(key: u32, kind: KeyKind, descending: bool) -> u32 {
    let t = match kind {
        KeyKind::U32 => key,
        KeyKind::I32 => key ^ 0x8000_0000,
        KeyKind::F32 if key & 0x8000_0000 != 0 => !key,
        KeyKind::F32 => key | 0x8000_0000,
    };
    if descending { !t } else { t }
}

/// Why a sort cannot be recorded.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum SortError {
    /// More keys than the device can bind.
    #[error("{len} keys are more than this device can sort at once (at most {max}); sort it in parts")]
    TooLong {
        /// Keys asked for.
        len: u32,
        /// The limit.
        max: u32,
    },
    /// The scratch was made for fewer keys, or without values.
    #[error("the scratch holds {capacity} keys{}, but the sort needs {len}{}; make it with RadixSorter::scratch", if *.has_values { " with values" } else { "" }, if *.needs_values { " with values" } else { "" })]
    ScratchTooSmall {
        /// Keys the scratch holds.
        capacity: u32,
        /// Whether it holds values.
        has_values: bool,
        /// Keys to sort.
        len: u32,
        /// Whether the sort has values.
        needs_values: bool,
    },
    /// The scratch was made by a sorter that would not run this sort's strategy at this
    /// length, so it lacks that strategy's per-tile words.
    #[error(
        "the scratch has no room for {strategy}'s per-tile words for {len} keys: it was made by a sorter that does not run {strategy} at that length; make it with this sorter's scratch()"
    )]
    ScratchStrategy {
        /// The strategy this sorter runs at this length.
        strategy: &'static str,
        /// The sort's length.
        len: u32,
    },
    /// The subgroup path was asked for on a device that cannot run it.
    #[error(
        "this GPU cannot run the subgroup path (it needs subgroups of one fixed size from 8 to 32, and the workgroup memory for their counters); use SortPath::Portable"
    )]
    NoSubgroups,
    /// The device's workgroup memory is smaller than the smallest tile layout.
    #[error(
        "the sort needs {needed} bytes of workgroup memory per workgroup, but this device allows {limit}; request the adapter's limits (max_compute_workgroup_storage_size) when creating the device"
    )]
    WorkgroupMemory {
        /// Bytes the smallest layout needs.
        needed: u32,
        /// The device's `max_compute_workgroup_storage_size`.
        limit: u32,
    },
    /// `key_bits` is not 1 to 32.
    #[error("a sort's key_bits must be 1 to 32 (it was {bits})")]
    KeyBits {
        /// The bits asked for.
        bits: u32,
    },
    /// A segmented sort was given segments of no keys.
    #[error("a segmented sort's segment_len must be at least 1")]
    SegmentLen,
    /// A segmented sort's segments are longer than its network holds, and its scratch lacks
    /// the long path's buffers for them.
    #[error(
        "segments of {segment_len} keys are sorted through the device-wide sort, whose buffers the scratch lacks for {len} keys{}; make it with SegmentedSorter::scratch for this length and segment length",
        if *.values { " with values" } else { "" }
    )]
    SegmentScratch {
        /// Keys to sort.
        len: u32,
        /// Keys per segment.
        segment_len: u32,
        /// Whether the sort has values.
        values: bool,
    },
    /// A buffer is smaller than `len` u32s, or lacks STORAGE usage.
    #[error(
        "the {what} buffer must be a STORAGE buffer of at least {needed} bytes (it has {size} bytes, usage {usage:?})"
    )]
    BadBuffer {
        /// "keys" or "values".
        what: &'static str,
        /// Bytes needed.
        needed: u64,
        /// Bytes it has.
        size: u64,
        /// Its usage.
        usage: wgpu::BufferUsages,
    },
}

/// One sort to record: the caller's buffers and how to order them.
#[derive(Clone, Copy, Debug)]
pub struct SortJob<'a> {
    /// The keys, sorted in place.
    pub keys: &'a wgpu::Buffer,
    /// Values moved with their keys, in place.
    pub values: Option<&'a wgpu::Buffer>,
    /// How many keys (from the start of the buffer).
    pub len: u32,
    /// u32 or f32 keys.
    pub kind: KeyKind,
    /// Largest first (ties still keep their order).
    pub descending: bool,
    /// Only the low `key_bits` bits of each key (as the sort orders it: after an f32's or
    /// i32's transform, and the complement for descending order) are sorted, in
    /// `key_bits.div_ceil(8)` digit passes (rounded up to an even count: an odd one is followed
    /// by a pass that only copies, so the keys end where they were); keys equal in those bits keep
    /// their order. 1 to 32; 32 sorts whole keys.
    pub key_bits: u32,
}

impl SortJob<'_> {
    /// Whether the job can be sorted as it is: its `key_bits` are 1 to 32, and its buffers are
    /// storage buffers that hold `len` keys (and values).
    pub(super) fn check(&self) -> Result<(), SortError> {
        if !(1..=32).contains(&self.key_bits) {
            return Err(SortError::KeyBits { bits: self.key_bits });
        }
        let needed = u64::from(self.len) * 4;
        let check = |what, buffer: &wgpu::Buffer| {
            if buffer.size() < needed || !buffer.usage().contains(wgpu::BufferUsages::STORAGE) {
                return Err(SortError::BadBuffer {
                    what,
                    needed,
                    size: buffer.size(),
                    usage: buffer.usage(),
                });
            }
            Ok(())
        };
        check("keys", self.keys)?;
        self.values.map_or(Ok(()), |values| check("values", values))
    }

    /// The bits of a key in sorting order that are sorted.
    pub(super) fn key_mask(&self) -> u32 {
        u32::MAX >> (32 - self.key_bits)
    }
}

impl<'a> SortJob<'a> {
    /// Sorts the first `len` u32 keys of `keys` ascending.
    pub fn keys(keys: &'a wgpu::Buffer, len: u32) -> Self {
        SortJob { keys, values: None, len, kind: KeyKind::U32, descending: false, key_bits: 32 }
    }

    /// Sorts the first `len` keys ascending and moves the values with them.
    pub fn pairs(keys: &'a wgpu::Buffer, values: &'a wgpu::Buffer, len: u32) -> Self {
        SortJob { values: Some(values), ..Self::keys(keys, len) }
    }
}

/// Buffers a sort works in, made once for up to `capacity` keys and reused.
///
/// What a sort needs zeroed is zero between sorts: a new scratch starts zeroed, and each sort
/// leaves it so (the histogram counts and the unsorted flag are zeroed as they are scanned, the
/// first half of OneSweep's status words by the last pass). So a sort records no clear, only
/// its dispatches, all in one compute pass.
pub struct SortScratch {
    pub(super) capacity: u32,
    /// Tiles of the longest sort with each strategy it has per-tile words for.
    pub(super) reduce_then_scan_tiles: u32,
    pub(super) onesweep_tiles: u32,
    pub(super) keys: wgpu::Buffer,
    pub(super) values: Option<wgpu::Buffer>,
    /// Bound in place of values when a sort has none (one read-only, one written).
    pub(super) no_values: [wgpu::Buffer; 2],
    pub(super) histograms: wgpu::Buffer,
    /// Reduce-then-scan's per-tile counts (a placeholder for OneSweep).
    pub(super) tile_counts: wgpu::Buffer,
    /// OneSweep's per-tile status words, two passes' worth (a placeholder for reduce-then-scan).
    pub(super) status: wgpu::Buffer,
    /// Bytes between the passes' parameters in a sort's uniform buffer.
    pub(super) params_stride: u64,
    /// A sort's length read on the GPU, its tile count and its workgroup counts
    /// (`RadixSorter::record_indirect`).
    pub(super) indirect: wgpu::Buffer,
}

impl SortScratch {
    /// Keys it can sort.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// The buffer that holds the last sort's pass modes at `PASS_MODES_WORD`, so that tests can
    /// check the short ways were taken.
    #[doc(hidden)]
    pub fn histograms(&self) -> &wgpu::Buffer {
        &self.histograms
    }

    /// OneSweep's status words, so that tests can check that each pass clears the next one's.
    #[doc(hidden)]
    pub fn status(&self) -> &wgpu::Buffer {
        &self.status
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_keys_order_like_floats_and_descending_reverses() {
        let floats = [f32::NEG_INFINITY, -2.5, -1.0, -0.0, 0.0, 1e-30, 1.0, 3.5, f32::INFINITY];
        let keys: Vec<u32> =
            floats.iter().map(|f| sort_order_key(f.to_bits(), KeyKind::F32, false)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:x?}");
        let down: Vec<u32> = floats.iter().map(|f| sort_order_key(f.to_bits(), KeyKind::F32, true)).collect();
        assert!(down.windows(2).all(|w| w[0] > w[1]));
        let ints = [i32::MIN, -70000, -1, 0, 1, 70000, i32::MAX];
        let keys: Vec<u32> = ints.iter().map(|&i| sort_order_key(i as u32, KeyKind::I32, false)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:x?}");
        assert!(sort_order_key(3, KeyKind::U32, false) < sort_order_key(4, KeyKind::U32, false));
        assert!(sort_order_key(3, KeyKind::U32, true) > sort_order_key(4, KeyKind::U32, true));
    }
}
