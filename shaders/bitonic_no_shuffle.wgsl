//! Stands in for `bitonic_shuffle.wgsl` on adapters without subgroups of one fixed size:
//! `sort_lines` then takes every stage past an invocation's own positions through workgroup
//! memory (its `SHUFFLE_REACH` stays 0, so nothing here is called).

fn shuffles_work(lid: u32) -> bool {
    return false;
}

fn shuffle_stage(mask: u32, lid: u32) {}
