//! The sort's WGSL parses and validates with naga (both rankings), and its tile, pass modes
//! and workgroup memory match the Rust side.

/// The switches and the ledger CI reads, shared with shadersort's tests.
#[path = "../../../tests/common/ci.rs"]
mod ci;

use wgpu_radix_sort::shaders::{
    INDIRECT, KEYS, RADIX_SORT, RADIX_SORT_PORTABLE, RADIX_SORT_SUBGROUPS, SEGMENTS, program,
    segments_program,
};
use wgpu_radix_sort::{PASS_MODES_WORD, TILE, TileMemory, WORKGROUP_SORT_MAX};

/// The program with the subgroup ranking or the portable one, parsed and validated.
fn parse(subgroups: bool) -> (naga::Module, naga::valid::ModuleInfo) {
    validate(&program(subgroups))
}

/// `source` parsed and validated.
fn validate(source: &str) -> (naga::Module, naga::valid::ModuleInfo) {
    let module =
        naga::front::wgsl::parse_str(source).unwrap_or_else(|e| panic!("{}", e.emit_to_string(source)));
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default() | naga::valid::Capabilities::SUBGROUP,
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{}", e.emit_to_string(source)));
    (module, info)
}

/// The value of the `u32` constant `name`.
fn constant(module: &naga::Module, name: &str) -> u32 {
    let (_, c) = module
        .constants
        .iter()
        .find(|(_, c)| c.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("constant {name} not found"));
    match module.global_expressions[c.init] {
        naga::Expression::Literal(naga::Literal::U32(v)) => v,
        ref other => panic!("{name} is not a u32 literal: {other:?}"),
    }
}

#[test]
fn both_programs_validate_and_are_the_files_they_name() {
    for subgroups in [false, true] {
        parse(subgroups);
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    validate(&segments_program());
    validate(INDIRECT);
    for (file, source) in [
        ("indirect.wgsl", INDIRECT),
        ("keys.wgsl", KEYS),
        ("segments.wgsl", SEGMENTS),
        ("radix_sort.wgsl", RADIX_SORT),
        ("radix_sort_portable.wgsl", RADIX_SORT_PORTABLE),
        ("radix_sort_subgroups.wgsl", RADIX_SORT_SUBGROUPS),
    ] {
        assert_eq!(std::fs::read_to_string(dir.join(file)).unwrap(), source, "{file}");
    }
    let mut files: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    files.sort();
    assert_eq!(
        files,
        [
            "indirect.wgsl",
            "keys.wgsl",
            "radix_sort.wgsl",
            "radix_sort_portable.wgsl",
            "radix_sort_subgroups.wgsl",
            "segments.wgsl"
        ]
    );
    crate::ci::passed();
}

/// The module with its overrides set to `constants` (the others keep their defaults), as a
/// pipeline sees it.
fn with_overrides(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    constants: &[(&str, f64)],
) -> (naga::Module, naga::valid::ModuleInfo) {
    let constants: naga::back::PipelineConstants =
        constants.iter().map(|&(name, value)| (name.to_string(), value)).collect();
    let (module, info) =
        naga::back::pipeline_constants::process_overrides(module, info, None, &constants).expect("overrides");
    (module.into_owned(), info.into_owned())
}

/// The value of the `u32` override `name`, the overrides set to `constants`.
fn override_value(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    name: &str,
    constants: &[(&str, f64)],
) -> u32 {
    let (module, _) = with_overrides(module, info, constants);
    let (_, o) = module
        .overrides
        .iter()
        .find(|(_, o)| o.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("override {name} not found"));
    match module.global_expressions[o.init.expect("a value")] {
        naga::Expression::Literal(naga::Literal::U32(v)) => v,
        ref other => panic!("{name} is not a u32 literal: {other:?}"),
    }
}

/// Bytes of the workgroup variables entry point `entry` uses, its overrides set to `constants`.
fn workgroup_bytes(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    entry: &str,
    constants: &[(&str, f64)],
) -> u32 {
    let (module, info) = with_overrides(module, info, constants);
    let index = module.entry_points.iter().position(|e| e.name == entry).expect("entry point");
    let uses = info.get_entry_point(index);
    module
        .global_variables
        .iter()
        .filter(|(handle, var)| var.space == naga::AddressSpace::WorkGroup && !uses[*handle].is_empty())
        .map(|(_, var)| match module.types[var.ty].inner {
            naga::TypeInner::Array { stride, size: naga::ArraySize::Constant(n), .. } => stride * n.get(),
            naga::TypeInner::Array { stride, size: naga::ArraySize::Pending(o), .. } => {
                let init = module.overrides[o].init.expect("an override with a value");
                match module.global_expressions[init] {
                    naga::Expression::Literal(naga::Literal::U32(n)) => stride * n,
                    ref other => panic!("{entry}: an array sized by {other:?}"),
                }
            }
            naga::TypeInner::Array { .. } => panic!("{entry}: a runtime-sized workgroup array"),
            ref inner => inner.size(module.to_ctx()),
        })
        .sum()
}

/// Pairs take `TileMemory`'s bytes; keys-only sorts (the subgroup path's shared counts) less,
/// and short sorts that keep the tile's keys (and values) `TileMemory::keys_in_order_bytes`.
#[test]
fn radix_sort_tile_and_workgroup_memory_match_the_rust_side() {
    for subgroup_size in [None, Some(32), Some(8)] {
        let (module, info) = parse(subgroup_size.is_some());
        let name = if subgroup_size.is_some() { "subgroups" } else { "portable" };
        assert_eq!(override_value(&module, &info, "TILE", &[]), TILE, "{name}");
        assert_eq!(constant(&module, "MODES"), PASS_MODES_WORD, "{name}");
        for reorder in [false, true] {
            let memory = TileMemory::new(subgroup_size, reorder);
            assert_eq!(memory.reorder_words, if reorder { TILE / 2 } else { 1 });
            let mut constants = vec![
                ("REORDER", f64::from(u8::from(reorder))),
                ("REORDER_WORDS", f64::from(memory.reorder_words)),
            ];
            if let Some(size) = subgroup_size {
                constants
                    .extend([("WARPS", f64::from(256 / size)), ("WARP_WORDS", f64::from(256 / size * 128))]);
            }
            for entry in ["scatter", "onesweep"] {
                let what =
                    format!("{entry} of {name} with subgroups of {subgroup_size:?}, reorder {reorder}");
                let mut pairs = constants.clone();
                if let Some(size) = subgroup_size {
                    pairs.push(("SHARED_COUNTS", 0.0));
                    let mut keys = constants.clone();
                    keys.push(("SHARED_COUNTS", 1.0));
                    let keys_bytes = workgroup_bytes(&module, &info, entry, &keys);
                    // Where the tile is reordered, the counts share its order's words: 4 KiB
                    // less; else only the one-word order is left out.
                    assert_eq!(memory.bytes - keys_bytes, if reorder { 4096 } else { 4 }, "{what}");
                    if reorder {
                        // Short sorts keep the tile's keys in the order's words.
                        keys.push(("KEYS_IN_ORDER", 1.0));
                        let held = workgroup_bytes(&module, &info, entry, &keys);
                        assert_eq!(held, TileMemory::keys_in_order_bytes(size), "{what}");
                        // Pairs' values follow their keys through the same words.
                        keys.push(("VALUES_IN_ORDER", 1.0));
                        assert_eq!(workgroup_bytes(&module, &info, entry, &keys), held, "{what}");
                    }
                }
                assert_eq!(workgroup_bytes(&module, &info, entry, &pairs), memory.bytes, "{what}");
            }
        }
    }
    crate::ci::passed();
}

/// OneSweep's wide kernels (subgroup path, reordered tiles): a tile of `ITEMS` keys an
/// invocation, and the workgroup memory `TileMemory::for_width` counts (for pairs; keys-only
/// sorts share the counters with the tile order's words).
#[test]
fn wide_tiles_and_workgroup_memory_match_the_rust_side() {
    let (module, info) = parse(true);
    for (size, width) in [(32, 384), (32, 512), (8, 288), (32, 256)] {
        let memory = TileMemory::for_width(Some(size), true, width);
        assert_eq!(memory.reorder_words, width * 8);
        let constants = [
            ("WORKGROUP", f64::from(width)),
            ("REORDER", 1.0),
            ("REORDER_WORDS", f64::from(memory.reorder_words)),
            ("WARPS", f64::from(width / size)),
            ("WARP_WORDS", f64::from(width / size * 128)),
        ];
        let what = format!("{width} invocations, subgroups of {size}");
        assert_eq!(override_value(&module, &info, "TILE", &constants), width * 16, "{what}");
        let mut pairs = constants.to_vec();
        pairs.push(("SHARED_COUNTS", 0.0));
        assert_eq!(workgroup_bytes(&module, &info, "onesweep", &pairs), memory.bytes, "{what}");
        let mut keys = constants.to_vec();
        keys.push(("SHARED_COUNTS", 1.0));
        // The counters and ballots share the tile order's words.
        let (order, counters, ballots) = (memory.reorder_words, width / size * 128, 4 * width);
        assert_eq!(
            memory.bytes - workgroup_bytes(&module, &info, "onesweep", &keys),
            4 * (order + counters - (counters + ballots).max(order)),
            "{what}"
        );
    }
    crate::ci::passed();
}

/// The merge sort holds `BLOCK` keys, and with pairs their places, in the workgroup memory the
/// Rust side sizes it by.
#[test]
fn the_segment_block_takes_the_memory_the_rust_side_gives_it() {
    let (module, info) = validate(&segments_program());
    assert_eq!(constant(&module, "MOST_BLOCK"), WORKGROUP_SORT_MAX);
    for keys in [512, 2048, WORKGROUP_SORT_MAX] {
        let alone = [("BLOCK", f64::from(keys)), ("WITH_VALUES", 0.0), ("BLOCK_WORDS", f64::from(keys))];
        assert_eq!(workgroup_bytes(&module, &info, "sort_segments", &alone), 4 * keys);
        // Pairs: each key's place too, two to a word.
        let pairs =
            [("BLOCK", f64::from(keys)), ("WITH_VALUES", 1.0), ("BLOCK_WORDS", f64::from(keys * 3 / 2))];
        assert_eq!(workgroup_bytes(&module, &info, "sort_segments", &pairs), 6 * keys);
    }
    crate::ci::passed();
}
