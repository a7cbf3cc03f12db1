//! Every WGSL program, composed from the files in `shaders/`, and how to compile one.
//!
//! WGSL has no imports, so a kernel that sorts by key is compiled as `sort_key.wgsl` followed by
//! the kernel's file (the comparison sorts also take `intervals.wgsl`, the interval map): whole
//! files joined, never text generated or templated. The list
//! [`PROGRAMS`] is what the validation test checks with naga.

use std::sync::Arc;

/// The key prelude: `sort_key`, `order_key` and the key constants.
pub const SORT_KEY: &str = include_str!("../../shaders/sort_key.wgsl");
/// The interval map binding and the same-interval rule of the comparison sorts.
pub const INTERVALS: &str = include_str!("../../shaders/intervals.wgsl");
/// One odd-even transposition pass, compute and fragment.
pub const ODD_EVEN: &str = include_str!("../../shaders/odd_even.wgsl");

/// Per-texel keys into a buffer.
pub const KEY_BUFFER: &str = include_str!("../../shaders/key_buffer.wgsl");

/// Single-workgroup bubble sort.
pub const BUBBLE: &str = include_str!("../../shaders/bubble.wgsl");
/// Bitonic rows: the sorting network in workgroup memory, and its stages in global memory.
pub const BITONIC: &str = include_str!("../../shaders/bitonic.wgsl");
/// `shaders/bitonic_lines.wgsl`: whole lines sorted with their ranks in registers.
pub const BITONIC_LINES: &str = include_str!("../../shaders/bitonic_lines.wgsl");
/// `shaders/bitonic_shuffle.wgsl`: `sort_lines`' stages within a subgroup on shuffles.
pub const BITONIC_SHUFFLE: &str = include_str!("../../shaders/bitonic_shuffle.wgsl");
/// `shaders/bitonic_no_shuffle.wgsl`: its stand-in without subgroups.
pub const BITONIC_NO_SHUFFLE: &str = include_str!("../../shaders/bitonic_no_shuffle.wgsl");
/// `shaders/radix.wgsl`: the radix view's count, scan, scatter and dim kernels.
pub const RADIX: &str = include_str!("../../shaders/radix.wgsl");
/// `shaders/radix_image.wgsl`: the radix view's whole-picture steps on the device-wide sort.
pub const RADIX_IMAGE: &str = include_str!("../../shaders/radix_image.wgsl");

/// The scatter of a sort at an angle: line space back into the picture.
pub const LINE_SCATTER: &str = include_str!("../../shaders/line_scatter.wgsl");

/// The row lens: one line of a run's state read back for the window.
pub const LENS: &str = include_str!("../../shaders/lens.wgsl");

/// Intervals found on the GPU: a frame's interval ids without the CPU, for every interval rule.
pub const FOUND_INTERVALS: &str = include_str!("../../shaders/found_intervals.wgsl");

/// 64-bit unsigned arithmetic on pairs of `u32` (the edges' magnitudes, SplitMix64).
pub const U64: &str = include_str!("../../shaders/u64.wgsl");

/// The bitonic network's plan within intervals, made on the GPU from interval ids.
pub const BITONIC_PLAN: &str = include_str!("../../shaders/bitonic_plan.wgsl");

/// A sorted frame to 4:2:0 for an encoder.
pub const RGBA_TO_YUV420: &str = include_str!("../../shaders/rgba_to_yuv420.wgsl");

/// A decoded 4:2:0 frame to the picture a sort starts from.
pub const YUV420_TO_RGBA: &str = include_str!("../../shaders/yuv420_to_rgba.wgsl");

/// Picture texture to displayable texture.
pub const DISPLAY: &str = include_str!("../../shaders/display.wgsl");

/// A compilable program: the files it is made of, in order.
#[derive(Clone, Copy, Debug)]
pub struct Program {
    /// Label for wgpu objects and error messages.
    pub name: &'static str,
    /// File names in `shaders/`, in the order they are joined.
    pub files: &'static [&'static str],
    /// Their contents, in the same order.
    pub sources: &'static [&'static str],
}

impl Program {
    /// The full WGSL text.
    pub fn source(&self) -> String {
        self.sources.join("\n")
    }

    /// Compiles the program on a device.
    pub fn module(&self, device: &wgpu::Device) -> wgpu::ShaderModule {
        self.compile(device).module
    }

    /// Compiles the program on a device, keeping the text exactly as the device was given it
    /// (the shader panel shows it).
    pub fn compile(&self, device: &wgpu::Device) -> Compiled {
        let source: Arc<str> = self.source().into();
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(self.name),
            source: wgpu::ShaderSource::Wgsl(std::borrow::Cow::Borrowed(&source)),
        });
        Compiled { program: *self, source, module }
    }

    /// Compiles the program without the counter wgpu adds to every loop so that a loop that
    /// never ends cannot hang the GPU. The counter keeps drivers from unrolling loops, so
    /// arrays indexed by the loop leave registers, and the radix sort ran far slower with it on
    /// an H100 (numbers: docs/benchmarks/radix-history.md). Bounds checks stay.
    ///
    /// Only for programs whose every loop provably ends. In the radix sort, each loop counts
    /// up to a bound fixed before it starts, except the look-back's: there each round either
    /// reads a status word that moves some invocation's tile index down towards tile 0 (whose
    /// word ends the walk), or counts a waited-on tile's keys itself, which does the same;
    /// waits are bounded by `SPINS` reads.
    pub fn compile_without_loop_bounding(&self, device: &wgpu::Device) -> Compiled {
        let mut checks = wgpu::ShaderRuntimeChecks::checked();
        checks.force_loop_bounding = false;
        let source: Arc<str> = self.source().into();
        let descriptor = wgpu::ShaderModuleDescriptor {
            label: Some(self.name),
            source: wgpu::ShaderSource::Wgsl(std::borrow::Cow::Borrowed(&source)),
        };
        // SAFETY: wgpu requires that the shader contains no infinite loop, which the callers
        // guarantee (see above); every other runtime check is kept.
        #[allow(unsafe_code, reason = "wgpu trusts the shader to end; see SAFETY")]
        let module = unsafe { device.create_shader_module_trusted(descriptor, checks) };
        Compiled { program: *self, source, module }
    }
}

/// A program compiled on a device, with the text it was compiled from.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The program.
    pub program: Program,
    /// The WGSL text the module was made from, shared with every run that shows it.
    pub source: Arc<str>,
    /// The module.
    pub module: wgpu::ShaderModule,
}

/// Begins a render pass into `target` (cleared first) for a [`fullscreen_pipeline`], which
/// then draws one triangle over all of it.
pub fn begin_fullscreen_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    target: &wgpu::TextureView,
    label: &str,
) -> wgpu::RenderPass<'e> {
    begin_cleared_pass(encoder, target, label, wgpu::Color::TRANSPARENT)
}

/// Begins a render pass that draws into `target` alone, cleared to `clear` first and kept.
pub fn begin_cleared_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    target: &wgpu::TextureView,
    label: &str,
    clear: wgpu::Color,
) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: target,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations { load: wgpu::LoadOp::Clear(clear), store: wgpu::StoreOp::Store },
        })],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

/// A render pipeline that draws one full-screen triangle (`fullscreen_vertex`) and writes one
/// colour `target` with `fragment_entry`: how every fragment pass here is set up. `constants`
/// sets the fragment stage's pipeline-overridable constants. A target made from a format
/// (`format.into()`) replaces what the texture holds; one with a blend state draws over it.
pub fn fullscreen_pipeline(
    gpu: &super::Gpu,
    label: &str,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    fragment_entry: &str,
    target: wgpu::ColorTargetState,
    constants: &[(&str, f64)],
) -> wgpu::RenderPipeline {
    gpu.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some("fullscreen_vertex"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some(fragment_entry),
            compilation_options: wgpu::PipelineCompilationOptions { constants, ..Default::default() },
            targets: &[Some(target)],
        }),
        multiview_mask: None,
        cache: gpu.pipeline_cache(),
    })
}

/// The key prelude on its own (valid by itself; checked like every program).
pub const SORT_KEY_PROGRAM: Program =
    Program { name: "sort_key", files: &["sort_key.wgsl"], sources: &[SORT_KEY] };

/// The interval prelude on its own (valid by itself; checked like every program).
pub const INTERVALS_PROGRAM: Program =
    Program { name: "intervals", files: &["intervals.wgsl"], sources: &[INTERVALS] };

/// The odd-even pass.
pub const ODD_EVEN_PROGRAM: Program = Program {
    name: "odd_even",
    files: &["sort_key.wgsl", "intervals.wgsl", "odd_even.wgsl"],
    sources: &[SORT_KEY, INTERVALS, ODD_EVEN],
};

/// Key extraction.
pub const KEY_BUFFER_PROGRAM: Program = Program {
    name: "key_buffer",
    files: &["sort_key.wgsl", "key_buffer.wgsl"],
    sources: &[SORT_KEY, KEY_BUFFER],
};

/// The radix view's kernels, with the key prelude.
pub const RADIX_PROGRAM: Program =
    Program { name: "radix", files: &["sort_key.wgsl", "radix.wgsl"], sources: &[SORT_KEY, RADIX] };

/// The radix view's gather and place kernels for the whole-picture scope, with the key prelude.
pub const RADIX_IMAGE_PROGRAM: Program = Program {
    name: "radix_image",
    files: &["sort_key.wgsl", "radix_image.wgsl"],
    sources: &[SORT_KEY, RADIX_IMAGE],
};

/// The single-workgroup bubble sort.
pub const BUBBLE_PROGRAM: Program = Program {
    name: "bubble",
    files: &["sort_key.wgsl", "intervals.wgsl", "bubble.wgsl"],
    sources: &[SORT_KEY, INTERVALS, BUBBLE],
};

/// The bitonic rows.
pub const BITONIC_PROGRAM: Program = Program {
    name: "bitonic",
    files: &["sort_key.wgsl", "bitonic.wgsl", "bitonic_lines.wgsl", "bitonic_no_shuffle.wgsl"],
    sources: &[SORT_KEY, BITONIC, BITONIC_LINES, BITONIC_NO_SHUFFLE],
};

/// The bitonic rows with `sort_lines`' stages within a subgroup on shuffles (needs
/// `Features::SUBGROUP`).
pub const BITONIC_SUBGROUPS_PROGRAM: Program = Program {
    name: "bitonic_subgroups",
    files: &["sort_key.wgsl", "bitonic.wgsl", "bitonic_lines.wgsl", "bitonic_shuffle.wgsl"],
    sources: &[SORT_KEY, BITONIC, BITONIC_LINES, BITONIC_SHUFFLE],
};

/// The window's drawing of a lane's picture.
pub const DISPLAY_PROGRAM: Program =
    Program { name: "display", files: &["display.wgsl"], sources: &[DISPLAY] };

/// The scatter of a sort at an angle (stands alone: no key prelude).
pub const LINE_SCATTER_PROGRAM: Program =
    Program { name: "line_scatter", files: &["line_scatter.wgsl"], sources: &[LINE_SCATTER] };

/// The row lens's kernel, with the key prelude.
pub const LENS_PROGRAM: Program =
    Program { name: "lens", files: &["sort_key.wgsl", "lens.wgsl"], sources: &[SORT_KEY, LENS] };

/// The kernel that finds intervals, with the key and 64-bit preludes.
pub const FOUND_INTERVALS_PROGRAM: Program = Program {
    name: "found_intervals",
    files: &["sort_key.wgsl", "u64.wgsl", "found_intervals.wgsl"],
    sources: &[SORT_KEY, U64, FOUND_INTERVALS],
};

/// The 64-bit prelude on its own (valid by itself; checked like every program).
pub const U64_PROGRAM: Program = Program { name: "u64", files: &["u64.wgsl"], sources: &[U64] };

/// The bitonic plan kernel (stands alone).
pub const BITONIC_PLAN_PROGRAM: Program =
    Program { name: "bitonic_plan", files: &["bitonic_plan.wgsl"], sources: &[BITONIC_PLAN] };

/// A sorted frame to 4:2:0 (stands alone).
pub const RGBA_TO_YUV420_PROGRAM: Program =
    Program { name: "rgba_to_yuv420", files: &["rgba_to_yuv420.wgsl"], sources: &[RGBA_TO_YUV420] };

/// A decoded 4:2:0 frame to RGBA (stands alone).
pub const YUV420_TO_RGBA_PROGRAM: Program =
    Program { name: "yuv420_to_rgba", files: &["yuv420_to_rgba.wgsl"], sources: &[YUV420_TO_RGBA] };

/// Every program the application builds.
pub const PROGRAMS: &[Program] = &[
    SORT_KEY_PROGRAM,
    INTERVALS_PROGRAM,
    ODD_EVEN_PROGRAM,
    KEY_BUFFER_PROGRAM,
    BUBBLE_PROGRAM,
    BITONIC_PROGRAM,
    BITONIC_SUBGROUPS_PROGRAM,
    RADIX_PROGRAM,
    RADIX_IMAGE_PROGRAM,
    DISPLAY_PROGRAM,
    LINE_SCATTER_PROGRAM,
    LENS_PROGRAM,
    FOUND_INTERVALS_PROGRAM,
    U64_PROGRAM,
    BITONIC_PLAN_PROGRAM,
    RGBA_TO_YUV420_PROGRAM,
    YUV420_TO_RGBA_PROGRAM,
];
