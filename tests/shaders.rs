//! Every WGSL program parses and validates with naga, and its constants match the Rust side.

use shadersort::algorithms::bitonic::BitonicParams;
use shadersort::algorithms::bubble::BubbleParams;
use shadersort::algorithms::odd_even::{PassParams, WORKGROUP_SIZE};
use shadersort::algorithms::radix::RadixParams;
use shadersort::algorithms::radix::image::ImageStepParams;
use shadersort::app::display::PictureParams;
use shadersort::gpu::shaders::{
    BITONIC_PROGRAM, BUBBLE_PROGRAM, DISPLAY_PROGRAM, KEY_BUFFER_PROGRAM, LINE_SCATTER_PROGRAM,
    ODD_EVEN_PROGRAM, PROGRAMS, Program, RADIX_IMAGE_PROGRAM, RADIX_PROGRAM, SORT_KEY_PROGRAM,
};
use shadersort::keys::extract::KeyParams;
use shadersort::keys::{HUE_SECTOR, SATURATION_MAX, SortKey};

#[path = "common/ci.rs"]
mod ci;

fn parse(program: &Program) -> (naga::Module, naga::valid::ModuleInfo) {
    let module = naga::front::wgsl::parse_str(&program.source())
        .unwrap_or_else(|e| panic!("{}: {}", program.name, e.emit_to_string(&program.source())));
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        // The radix sort's fast path uses subgroup operations (on devices that have them).
        naga::valid::Capabilities::default() | naga::valid::Capabilities::SUBGROUP,
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{}: {}", program.name, e.emit_to_string(&program.source())));
    (module, info)
}

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

fn struct_size(module: &naga::Module, name: &str) -> u32 {
    let (_, ty) = module
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("struct {name} not found"));
    match ty.inner {
        naga::TypeInner::Struct { span, .. } => span,
        ref other => panic!("{name} is not a struct: {other:?}"),
    }
}

fn entry_point<'m>(module: &'m naga::Module, name: &str) -> &'m naga::EntryPoint {
    module
        .entry_points
        .iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("entry point {name} missing"))
}

#[test]
fn every_program_validates() {
    for program in PROGRAMS {
        parse(program);
    }
    crate::ci::passed();
}

#[test]
fn every_shader_file_is_part_of_a_program() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            PROGRAMS.iter().any(|p| p.files.contains(&name.as_str())),
            "shaders/{name} is not compiled by any program in src/gpu/shaders.rs"
        );
    }
    crate::ci::passed();
}

#[test]
fn program_sources_are_the_files_they_name() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    for program in PROGRAMS {
        assert_eq!(program.files.len(), program.sources.len(), "{}", program.name);
        for (file, source) in program.files.iter().zip(program.sources) {
            assert_eq!(&std::fs::read_to_string(dir.join(file)).unwrap(), source, "{}: {file}", program.name);
        }
    }
    crate::ci::passed();
}

#[test]
fn key_ids_and_scales_match_the_rust_mirror() {
    let (module, _) = parse(&SORT_KEY_PROGRAM);
    for key in SortKey::ALL {
        let name = format!("KEY_{}", key.name().to_uppercase());
        assert_eq!(constant(&module, &name), key.id(), "{name}");
    }
    assert_eq!(constant(&module, "HUE_SECTOR"), HUE_SECTOR);
    assert_eq!(constant(&module, "SATURATION_MAX"), SATURATION_MAX);
    crate::ci::passed();
}

#[test]
fn odd_even_entry_points_and_layouts_match_the_rust_side() {
    let (module, _) = parse(&ODD_EVEN_PROGRAM);
    let compute = entry_point(&module, "odd_even_compute");
    assert_eq!(compute.stage, naga::ShaderStage::Compute);
    assert_eq!(compute.workgroup_size, [WORKGROUP_SIZE[0], WORKGROUP_SIZE[1], 1]);
    assert_eq!(entry_point(&module, "odd_even_fragment").stage, naga::ShaderStage::Fragment);
    assert_eq!(entry_point(&module, "fullscreen_vertex").stage, naga::ShaderStage::Vertex);
    assert_eq!(struct_size(&module, "PassParams") as usize, std::mem::size_of::<PassParams>());
    crate::ci::passed();
}

#[test]
fn line_scatter_entry_point_and_workgroup_match_the_rust_side() {
    use shadersort::angle::scatter::WORKGROUP_SIZE;
    let (module, _) = parse(&LINE_SCATTER_PROGRAM);
    let scatter = entry_point(&module, "scatter_lines");
    assert_eq!(scatter.stage, naga::ShaderStage::Compute);
    assert_eq!(scatter.workgroup_size, [WORKGROUP_SIZE[0], WORKGROUP_SIZE[1], 1]);
    // The gather's padding cells: the CPU's mark for them.
    assert_eq!(constant(&module, "NO_TEXEL"), shadersort::angle::line_space::NO_PIXEL);
    crate::ci::passed();
}

#[test]
fn display_entry_points_override_and_params_match_the_rust_side() {
    let (module, _) = parse(&DISPLAY_PROGRAM);
    assert_eq!(entry_point(&module, "draw_picture").stage, naga::ShaderStage::Fragment);
    assert_eq!(entry_point(&module, "fullscreen_vertex").stage, naga::ShaderStage::Vertex);
    assert_eq!(struct_size(&module, "PictureParams") as usize, std::mem::size_of::<PictureParams>());
    // src/app/display.rs sets it by name for sRGB surfaces.
    assert!(module.overrides.iter().any(|(_, o)| o.name.as_deref() == Some("SRGB_TARGET")));
    crate::ci::passed();
}

#[test]
fn bubble_entry_point_overrides_and_params_match_the_rust_side() {
    let (module, _) = parse(&BUBBLE_PROGRAM);
    assert_eq!(entry_point(&module, "bubble").stage, naga::ShaderStage::Compute);
    assert_eq!(struct_size(&module, "BubbleParams") as usize, std::mem::size_of::<BubbleParams>());
    let overrides: Vec<_> = module.overrides.iter().filter_map(|(_, o)| o.name.clone()).collect();
    assert!(
        overrides.contains(&"ROW_CAPACITY".to_string()) && overrides.contains(&"WORKGROUP".to_string()),
        "{overrides:?}"
    );
    crate::ci::passed();
}

#[test]
fn bitonic_entry_points_overrides_and_params_match_the_rust_side() {
    let (module, _) = parse(&BITONIC_PROGRAM);
    for name in ["sort_blocks", "global_stage"] {
        assert_eq!(entry_point(&module, name).stage, naga::ShaderStage::Compute, "{name}");
    }
    assert_eq!(struct_size(&module, "BitonicParams") as usize, std::mem::size_of::<BitonicParams>());
    let overrides: Vec<_> = module.overrides.iter().filter_map(|(_, o)| o.name.clone()).collect();
    for name in ["WORKGROUP", "BLOCK", "WIDE_CAPACITY", "INTERVALS_CAPACITY"] {
        assert!(overrides.contains(&name.to_string()), "{name} missing from {overrides:?}");
    }
    crate::ci::passed();
}

#[test]
fn radix_image_entry_points_and_params_match_the_rust_side() {
    let (module, _) = parse(&RADIX_IMAGE_PROGRAM);
    for name in ["gather", "place"] {
        assert_eq!(entry_point(&module, name).stage, naga::ShaderStage::Compute, "{name}");
    }
    assert_eq!(struct_size(&module, "ImageStepParams") as usize, std::mem::size_of::<ImageStepParams>());
    crate::ci::passed();
}

#[test]
fn radix_entry_points_and_params_match_the_rust_side() {
    let (module, _) = parse(&RADIX_PROGRAM);
    for name in ["count_digits", "scan_counts", "scatter", "dim"] {
        assert_eq!(entry_point(&module, name).stage, naga::ShaderStage::Compute, "{name}");
    }
    assert_eq!(struct_size(&module, "RadixParams") as usize, std::mem::size_of::<RadixParams>());
    crate::ci::passed();
}

/// A kernel body around the early exit, with the exit condition as given.
fn early_exit_kernel(exit_condition: &str) -> String {
    format!(
        "var<workgroup> swapped: u32;\n\
         @compute @workgroup_size(64) fn main(@builtin(local_invocation_index) lid: u32) {{\n\
         var rounds = 0u;\n\
         loop {{ if (rounds >= 8u) {{ break; }} rounds += 1u;\n\
         if (lid == 0u) {{ swapped = rounds & 1u; }}\n\
         workgroupBarrier();\n\
         if ({exit_condition}) {{ workgroupBarrier(); break; }} }} }}"
    )
}

fn validates(source: &str) -> Result<(), String> {
    let module = naga::front::wgsl::parse_str(source).map_err(|e| e.emit_to_string(source))?;
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::default())
        .validate(&module)
        .map(|_| ())
        .map_err(|e| e.emit_to_string(source))
}

/// The bubble kernel's early exit, built on `workgroupUniformLoad`, validates.
#[test]
fn the_uniform_early_exit_validates() {
    validates(&early_exit_kernel("workgroupUniformLoad(&swapped) == 0u"))
        .expect("the uniform early exit validates");
    crate::ci::passed();
}

/// A tripwire, not a proof: naga 30 does not check barriers against uniformity at all (it
/// checks only expressions that need uniform control flow, and treats a plain load of a
/// `var<workgroup>` as uniform), so it accepts both the textbook early exit on a plain
/// workgroup load, which the WGSL specification and Tint reject, and even a barrier under the
/// invocation index. The bubble kernel therefore keeps the rule by construction
/// (`workgroupUniformLoad`), and `tint_enforces_the_uniformity_rule` is the negative test.
/// When naga starts rejecting either kernel this test fails: then make it a negative test too.
#[test]
fn naga_does_not_yet_enforce_barrier_uniformity() {
    assert!(
        validates(&early_exit_kernel("swapped == 0u")).is_ok(),
        "naga now rejects the plain-load early exit"
    );
    assert!(
        validates(&early_exit_kernel("lid == rounds")).is_ok(),
        "naga now rejects a barrier under a varying value"
    );
    crate::ci::passed();
}

/// The uniformity rule, enforced by a compiler that implements it: Tint (Dawn's WGSL compiler,
/// through `.ci/tint/check.mjs` on Dawn's null backend) accepts every program and the
/// `workgroupUniformLoad` early exit, and rejects the textbook early exit on a plain workgroup
/// load and a barrier under the invocation index. This is the negative test naga cannot give.
///
/// It needs Node.js and `npm ci --prefix .ci/tint`; `.ci/run` installs both and sets
/// `SHADERSORT_REQUIRE_TINT=1`, which turns a missing Tint into a failure. Elsewhere it says
/// why it did not run.
#[test]
fn tint_enforces_the_uniformity_rule() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = root.join(".ci/tint/check.mjs");
    let installed = root.join(".ci/tint/node_modules/webgpu").is_dir();
    let has_node =
        std::process::Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let required = ci::switch("SHADERSORT_REQUIRE_TINT", "fail when Tint is missing");
    if !(installed && has_node) {
        let missing = if has_node { "npm ci --prefix .ci/tint" } else { "Node.js" };
        assert!(!required, "SHADERSORT_REQUIRE_TINT=1 but {missing} is missing for the Tint check");
        eprintln!("skipping the Tint uniformity check: run `{missing}` to enable it");
        return;
    }

    let dir = tempfile::tempdir().expect("temporary directory");
    let mut arguments = Vec::new();
    let mut add = |expectation: &str, name: &str, source: String| {
        let path = dir.path().join(format!("{name}.wgsl"));
        std::fs::write(&path, source).expect("write shader");
        arguments.push(format!("{expectation}:{}", path.display()));
    };
    // Ours, and the radix sort crate's two programs (this test has the Tint setup).
    let sort_crate = [false, true].map(|subgroups| {
        let name = if subgroups { "radix_sort_subgroups" } else { "radix_sort" };
        (name, wgpu_radix_sort::shaders::program(subgroups))
    });
    let programs = PROGRAMS.iter().map(|p| (p.name, p.source())).chain(sort_crate);
    let mut accepted = 0;
    for (name, source) in programs {
        // naga takes subgroup operations without the directive (and refuses it); Tint needs it.
        let enable = if source.contains("subgroupBallot") || source.contains("subgroupShuffle") {
            "enable subgroups;\n"
        } else {
            ""
        };
        add("accept", name, format!("{enable}{source}"));
        accepted += 1;
    }
    add("accept", "uniform_early_exit", early_exit_kernel("workgroupUniformLoad(&swapped) == 0u"));
    add("reject", "plain_load_early_exit", early_exit_kernel("swapped == 0u"));
    add("reject", "barrier_under_invocation_index", early_exit_kernel("lid == rounds"));

    let output = std::process::Command::new("node").arg(&script).args(&arguments).output().expect("run node");
    let report =
        format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "Tint check failed:\n{report}");
    assert_eq!(report.lines().filter(|l| l.starts_with("ok ")).count(), accepted + 3, "{report}");
    // Tint's version is the npm package's that .ci/tint/package-lock.json pins.
    let package = std::fs::read_to_string(root.join(".ci/tint/node_modules/webgpu/package.json")).unwrap();
    let version = package.lines().find(|l| l.contains("\"version\"")).and_then(|l| l.split('"').nth(3));
    let version = version.unwrap_or("of no version");
    ci::ran("tint", &format!("{} programs checked, webgpu (Dawn) {version}", accepted + 3));
    crate::ci::passed();
}

#[test]
fn key_extraction_matches_the_rust_side() {
    let (module, _) = parse(&KEY_BUFFER_PROGRAM);
    assert_eq!(entry_point(&module, "extract_keys").stage, naga::ShaderStage::Compute);
    assert_eq!(struct_size(&module, "KeyParams") as usize, std::mem::size_of::<KeyParams>());
    crate::ci::passed();
}
