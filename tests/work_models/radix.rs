//! What the radix view's kernels cost, stated from what each of them does (`shaders/radix.wgsl`,
//! `shaders/radix_image.wgsl`, the segmented sort of `crates/wgpu-radix-sort`), apart from
//! `RadixRun::work`. The LSD radix sort compares no keys.

use shadersort::algorithms::work::Work;

/// How a run's steps are made.
#[derive(Clone, Copy, Debug)]
pub enum Steps {
    /// The view's own kernels: tiles of `chunks` chunks of `chunk` pixels (its workgroups),
    /// each digit pass's scatter in `stages` stages.
    Own { chunk: u64, chunks: u64, stages: u32 },
    /// Each step on the crate's sort of every pixel's (key, position), in segments of
    /// `segment` pixels; `workgroup_sort` the keys and invocations of its workgroups where it
    /// sorts in workgroup memory; `place_group` pixels per workgroup of gather and place.
    Crate { segment: u64, workgroup_sort: Option<(u64, u64)>, place_group: u64 },
}

/// Sequences of `len` pixels, `count` of them.
#[derive(Clone, Copy, Debug)]
pub struct Picture {
    pub count: u64,
    pub len: u64,
}

/// The work of each of `steps` steps, `moved` the pixels the CPU model moves at each.
pub fn expected(picture: Picture, how: Steps, moved: &[u64]) -> Vec<Work> {
    let pixels = picture.count * picture.len;
    let bytes = |read: u64, written: u64, barriers: u64| Work {
        comparisons: 0,
        swaps: 0,
        bytes_read: 4 * read,
        bytes_written: 4 * written,
        barriers,
    };
    moved
        .iter()
        .enumerate()
        .map(|(step, &moved)| {
            let step = step as u64;
            let work = match how {
                Steps::Own { chunk, chunks, stages } => {
                    let stages = u64::from(stages);
                    let tiles = picture.count * picture.len.div_ceil(chunk * chunks).max(1);
                    let stage = step % stages + 1;
                    // Stage s scatters positions ceil(len (s - 1) / stages) to ceil(len s / stages).
                    let end = |s: u64| (picture.len * s).div_ceil(stages);
                    let share = picture.count * (end(stage) - end(stage - 1));
                    // Every stage: the scatter loads every pixel, stores its share, and passes a
                    // barrier after taking its slots and two per chunk.
                    let mut work = bytes(pixels, share, tiles * (1 + 2 * chunks));
                    if stage == 1 {
                        // The histogram loads every pixel (two barriers); the scan, one
                        // workgroup a sequence, a barrier and two per doubling of its reach.
                        work += bytes(pixels, 0, 2 * tiles + picture.count * (1 + 2 * chunk.ilog2() as u64));
                        if stages > 1 {
                            // The pass's input dimmed: every pixel loaded and stored.
                            work += bytes(pixels, pixels, 0);
                        }
                    }
                    work
                }
                Steps::Crate { segment, workgroup_sort, place_group } => {
                    // Gather: the pixel in; its key, its position and (first step) its place out.
                    let gather = bytes(pixels, pixels * (2 + u64::from(step == 0)), 0);
                    let segment = segment.min(pixels);
                    let sort = match workgroup_sort {
                        _ if pixels <= 1 || segment == 1 => Work::default(),
                        Some((keys, invocations)) => {
                            // Whole segments padded to a power of two, several to a workgroup;
                            // each workgroup's keys and positions in and out once. Barriers:
                            // after loading, after sorting runs in registers, two per merge of
                            // runs up to the span, and before the positions are gathered.
                            let span = segment.next_power_of_two();
                            let run = keys / invocations;
                            let mut rounds = 0;
                            while run << rounds < span {
                                rounds += 1;
                            }
                            let workgroups = pixels.div_ceil(segment).div_ceil(keys / span);
                            bytes(2 * pixels, 2 * pixels, workgroups * (3 + 2 * rounds))
                        }
                        // The device-wide sort, by construction: its histogram reads the keys,
                        // then four byte passes read and write keys and positions.
                        None => bytes(9 * pixels, 8 * pixels, 0),
                    };
                    // Place: the pair's position, the pixel it names and that pixel's place in;
                    // the pixel and its new place out; two barriers a workgroup.
                    let place = bytes(3 * pixels, 2 * pixels, 2 * pixels.div_ceil(place_group));
                    gather + sort + place
                }
            };
            Work { swaps: moved, ..work }
        })
        .collect()
}
