//! The example program's sort, checked against the CPU's stable sort on the software GPUs of
//! the test machine (lavapipe through Vulkan, llvmpipe through GL), at lengths around a tile.

/// The switches and the ledger CI reads, shared with shadersort's tests.
#[path = "../../../tests/common/ci.rs"]
mod ci;

#[path = "../examples/sort_buffer.rs"]
#[allow(dead_code, reason = "the test calls the example's sort, not its main")]
mod sort_buffer;

#[test]
fn the_example_sorts_pairs_stably_on_vulkan_and_gl() {
    for backends in [wgpu::Backends::VULKAN, wgpu::Backends::GL] {
        for len in [0, 1, 4095, 4097, 100_000] {
            let report = sort_buffer::sort_and_check(backends, len)
                .unwrap_or_else(|e| panic!("{backends:?}, {len} pairs: {e}"));
            assert!(report.contains(&format!("sorted {len} key-value pairs")), "{report}");
        }
    }
    crate::ci::passed();
}
