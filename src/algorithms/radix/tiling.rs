//! How the radix view cuts its sequences into tiles, and the parameters each step's kernels read.

/// Pixels per chunk of a tile, one per invocation (`TILE_CHUNK` in `shaders/radix.wgsl`).
pub const TILE_CHUNK: u32 = 256;
/// The most per-tile digit counts a run keeps (16 MiB); longer sequences get longer tiles.
const MAX_COUNTS: u64 = 1 << 22;

/// Mirrors `RadixParams` in `shaders/radix.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct RadixParams {
    /// `SortKey::id`.
    pub key: u32,
    /// 1 for descending order.
    pub descending: u32,
    /// `Axis` as u32.
    pub axis: u32,
    /// `Scope` as u32.
    pub scope: u32,
    /// Low bits dropped from the sort key.
    pub key_shift: u32,
    /// 2^key_bits - 1.
    pub key_mask: u32,
    /// pass * digit_bits.
    pub digit_shift: u32,
    /// 2^digit_bits - 1.
    pub digit_mask: u32,
    /// Pixels per sequence.
    pub seq_len: u32,
    /// Tiles per sequence.
    pub tiles: u32,
    /// Sequences times tiles.
    pub all_tiles: u32,
    /// Chunks of [`TILE_CHUNK`] pixels per tile.
    pub chunks: u32,
    /// First position of each sequence this step scatters.
    pub scatter_begin: u32,
    /// Position after the last one this step scatters.
    pub scatter_end: u32,
    /// 1 when waiting pixels also take their dimmed twin's palette index.
    pub twin_indices: u32,
    /// 1 when pixels carry interval ids (the composite key), 0 without intervals.
    pub intervals: u32,
    /// Where the interval id sits in the composite key: the key's bits.
    pub interval_shift: u32,
    /// Padding to 80 bytes.
    pub pad: [u32; 3],
}

/// How the sequences are cut into tiles: `chunks` chunks of [`TILE_CHUNK`] pixels per tile,
/// doubled until the per-tile counts fit `MAX_COUNTS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tiling {
    /// Chunks per tile.
    pub chunks: u32,
    /// Tiles per sequence.
    pub tiles: u32,
    /// Tiles of all sequences.
    pub all_tiles: u32,
}

impl Tiling {
    /// The tiling of `count` sequences of `len` pixels sorted by digits of `digit_bits` bits,
    /// with at least `min_chunks` chunks per tile.
    pub fn new(count: u32, len: u32, digit_bits: u32, min_chunks: u32) -> Self {
        let mut chunks = min_chunks.max(1);
        loop {
            let tiles = len.div_ceil(TILE_CHUNK * chunks).max(1);
            let counts = (u64::from(count) * u64::from(tiles)) << digit_bits;
            if counts <= MAX_COUNTS || tiles == 1 {
                return Tiling { chunks, tiles, all_tiles: count * tiles };
            }
            chunks *= 2;
        }
    }

    /// Counts kept per pass: one per digit value and tile.
    pub fn counts(&self, digit_bits: u32) -> u64 {
        u64::from(self.all_tiles) << digit_bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_grow_until_the_counts_fit() {
        assert_eq!(Tiling::new(600, 400, 4, 1), Tiling { chunks: 1, tiles: 2, all_tiles: 1200 });
        assert_eq!(Tiling::new(1, 1, 8, 1), Tiling { chunks: 1, tiles: 1, all_tiles: 1 });
        assert_eq!(Tiling::new(2, 600, 4, 3), Tiling { chunks: 3, tiles: 1, all_tiles: 2 });
        let whole = Tiling::new(1, 4096 * 4096, 8, 1);
        assert_eq!((whole.chunks, whole.tiles), (4, 16384));
        assert!(whole.counts(8) <= MAX_COUNTS);
        let rows = Tiling::new(8192, 8192, 8, 1);
        assert!(rows.counts(8) <= MAX_COUNTS && rows.tiles * rows.chunks * TILE_CHUNK >= 8192);
    }
}
