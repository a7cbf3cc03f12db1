//! How `sort_blocks` and `sort_lines` lay a unit's ranks out in workgroup memory, the blocks that
//! memory holds, and the parameters each dispatch reads.

/// Workgroup memory besides the unit's arrays: the exchange counter and the two stand-in
/// arrays of one word, each counted as 16 bytes (as WebGPU counts every workgroup variable).
pub(super) const WORKGROUP_OVERHEAD_BYTES: u32 = 3 * 16;
/// `sort_lines`' workgroup memory besides its array: the words above and the shuffle check's
/// two, each counted as 16 bytes.
pub(super) const LINES_OVERHEAD_BYTES: u32 = WORKGROUP_OVERHEAD_BYTES + 2 * 16;

/// Bits a rank (key and origin) may take in `sort_lines`, which tells the larger of two ranks by
/// the sign of their difference.
pub(super) const LINE_RANK_BITS: u32 = 31;

/// Mirrors `BitonicParams` in `shaders/bitonic.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct BitonicParams {
    pub(super) key: u32,
    pub(super) descending: u32,
    pub(super) axis: u32,
    pub(super) line_len: u32,
    pub(super) stages: u32,
    pub(super) merge: u32,
    pub(super) distance: u32,
    pub(super) load_origins: u32,
    pub(super) store_origins: u32,
    pub(super) has_intervals: u32,
    pub(super) origin_bits: u32,
    pub(super) key_max: u32,
    pub(super) groups_x: u32,
    pub(super) unit_count: u32,
    pub(super) pad: [u32; 2],
}

/// How a unit's pixels are ranked in workgroup memory and whether intervals are kept there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RankWords {
    /// The origin takes a second word: the key's bits and the origin's do not fit one.
    pub(super) wide: bool,
    /// Each position's interval is kept beside its rank.
    pub(super) intervals: bool,
}

impl RankWords {
    pub(super) fn bytes_per_position(self) -> u32 {
        4 * (1 + u32::from(self.wide) + u32::from(self.intervals))
    }

    pub(super) fn index(self) -> usize {
        usize::from(self.wide) * 2 + usize::from(self.intervals)
    }
}

/// The largest block (a power of two) of positions that workgroup memory of `limit` bytes holds
/// with `layout`, at most `max_block`.
pub(super) fn block_for(limit: u32, layout: RankWords, max_block: u32) -> u32 {
    let positions = limit.saturating_sub(WORKGROUP_OVERHEAD_BYTES) / layout.bytes_per_position();
    let block = if positions == 0 { 1 } else { 1 << positions.ilog2() };
    block.min(1 << max_block.max(2).ilog2()).max(2)
}

/// Bits that hold every value up to `max`.
pub(super) fn bits_of(max: u32) -> u32 {
    u32::BITS - max.leading_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_powers_of_two_that_fit_workgroup_memory() {
        let narrow = RankWords { wide: false, intervals: false };
        assert_eq!(block_for(16384, narrow, u32::MAX), 2048);
        assert_eq!(block_for(49152, narrow, u32::MAX), 8192);
        assert_eq!(block_for(49152, RankWords { wide: true, intervals: true }, u32::MAX), 2048);
        assert_eq!(block_for(49152, narrow, 100), 64);
    }
}
