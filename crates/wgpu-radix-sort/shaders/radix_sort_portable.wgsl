//! The portable ranking for `radix_sort.wgsl` (composed after it): a tile's 256 invocations
//! form 8 groups of 32; a group ranks the 32 keys of a round by comparing each digit with the
//! group's other 31 in workgroup memory. Needs nothing beyond core WGSL, so it runs everywhere.

/// Invocations that rank their keys together.
const GROUP: u32 = 32u;
/// Groups per workgroup. (This ranking runs workgroups of RADIX invocations only: each stands for
/// a digit value as it clears, turns and scans the counts.)
override GROUPS: u32 = WORKGROUP / GROUP;
/// Words of `group_counts` (workgroup arrays take a named override as their size).
override GROUP_COUNTS: u32 = GROUPS * RADIX;

/// `tile_memory` holds only the tile order.
override TILE_MEMORY_WORDS: u32 = REORDER_WORDS;
const COUNTS_IN_ORDER = false;
const KEYS_IN_ORDER = false;
const VALUES_IN_ORDER = false;

/// Per group and digit: keys ranked so far, then the group's offset among the tile's keys.
var<workgroup> group_counts: array<u32, GROUP_COUNTS>;
/// The digits of the round being ranked.
var<workgroup> round_digits: array<u32, WORKGROUP>;

/// Clears the counts `rank_run` adds to (`tile_to_sort` does, before its first barrier).
fn clear_counts(lid: u32) {
    for (var g = 0u; g < GROUPS; g += 1u) {
        group_counts[g * RADIX + lid] = 0u;
    }
}

/// Ranks each of the invocation's keys among the earlier keys of its group with its digit.
fn rank_run(lid: u32, group: u32, lane: u32, width: u32) {
    for (var i = 0u; i < ITEMS; i += 1u) {
        let d = item_digit(i);
        round_digits[lid] = d;
        workgroupBarrier();
        // Earlier keys of the group's round with the same digit, and all of them.
        var before = 0u;
        var same = 0u;
        for (var j = 0u; j < width; j += 1u) {
            if (round_digits[group * width + j] == d) {
                same += 1u;
                before += u32(j < lane);
            }
        }
        let running = group_counts[group * RADIX + d];
        workgroupBarrier();
        // The first key of each digit in the round moves the group's count on.
        if (before == 0u) {
            group_counts[group * RADIX + d] = running + same;
        }
        set_item_rank(i, running + before);
    }
    workgroupBarrier();
}

/// Turns the groups' counts into offsets (groups own consecutive runs, so a group's keys
/// follow those of the groups before it) and leaves the tile's count of each digit in
/// `tile_start`.
fn count_groups(lid: u32) {
    var offset = 0u;
    for (var g = 0u; g < GROUPS; g += 1u) {
        let count = group_counts[g * RADIX + lid];
        group_counts[g * RADIX + lid] = offset;
        offset += count;
    }
    tile_start[lid] = offset;
    workgroupBarrier();
}

/// Each digit's first position in the tile in digit order (`set_local_start`).
fn scan_digits(lid: u32, group: u32, lane: u32, width: u32) {
    set_local_start(lid, workgroup_exclusive_scan(tile_start[lid], lid));
    workgroupBarrier();
}

/// Where group `group`'s keys with digit `d` start among the tile's.
fn group_offset(group: u32, d: u32) -> u32 {
    return group_counts[group * RADIX + d];
}

@compute @workgroup_size(WORKGROUP)
fn scatter(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let tile = tile_to_sort(wid, groups, lid, false);
    if (tile < params.tiles) {
        sort_tile(tile, lid, lid / GROUP, lid % GROUP, GROUP, false);
    }
}

@compute @workgroup_size(WORKGROUP)
fn onesweep(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let tile = tile_to_sort(wid, groups, lid, true);
    if (tile < params.tiles) {
        sort_tile(tile, lid, lid / GROUP, lid % GROUP, GROUP, true);
    }
}
