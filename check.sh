#!/usr/bin/env bash
# What CI checks, on what this machine has: formatting, lints (native and for the browser),
# the browser page's build and every test, on both software GPUs. Needs no root and installs
# nothing but the wasm32 target and wasm-bindgen-cli (web/build.sh). .ci/run calls it after
# installing the rest and makes every skip a failure; run alone, the tests say what they skipped.
set -euo pipefail
cd "$(dirname "$0")"

# Mesa's Vulkan WSI wants a runtime directory even headless; the window test starts its own X
# server, so no desktop session may leak in.
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/xdg-runtime-$UID}
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
unset WAYLAND_DISPLAY

# The browser page: web/build.sh installs the wasm32 target and wasm-bindgen-cli (at the version
# web/Cargo.toml pins) and builds it; tests/browser.rs loads it in Chromium.
echo "check: web/build.sh dev"
web/build.sh dev

echo "check: cargo fmt --all --check"
cargo fmt --all --check
echo "check: cargo clippy --workspace --all-targets -- -D warnings"
cargo clippy --workspace --all-targets -- -D warnings
echo "check: cargo doc (links and HTML in the docs resolve)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps -p shadersort -p wgpu-radix-sort
echo "check: cargo clippy for the browser (wasm32: the core without the native front ends, the radix sort crate, and web/)"
cargo clippy -p shadersort -p shadersort-web -p wgpu-radix-sort --lib --target wasm32-unknown-unknown -- -D warnings
echo "check: the radix sort crate packages and builds alone, as crates.io would take it"
cargo package --offline -p wgpu-radix-sort --allow-dirty
# lavapipe's subgroups are LP_NATIVE_VECTOR_WIDTH / 32 lanes wide, and its default follows the
# CPU (4 lanes without AVX, which the subgroup path refuses): 256 bits asks for subgroups of 8 on
# any machine, and the radix sort's tests check that they got them.
echo "check: cargo test (both software GPUs: WGPU_BACKEND unset means Vulkan and GL; subgroups of 8)"
tests_out=$(mktemp "${TMPDIR:-/tmp}/shadersort-tests.XXXXXX")
time LP_NATIVE_VECTOR_WIDTH=256 cargo test 2>&1 | tee "$tests_out"
# The unit tests in src/ write no ledger lines of their own: .ci/unit-ledger reads their passes
# from cargo's report into the ledger, as the families PACKAGE/lib.
if [[ -n ${SHADERSORT_TEST_LEDGER:-} ]]; then
    .ci/unit-ledger "$tests_out" >>"$SHADERSORT_TEST_LEDGER"
fi
rm -f "$tests_out"
# The subgroup path again with 16-lane subgroups (lavapipe's with 512-bit vectors), the width
# between lavapipe's default 8 and NVIDIA's 32: its ballots take two blocks a word there. Every
# sorter runs: device-wide, segmented and indirect.
echo "check: the radix sort's GPU tests on lavapipe with subgroups of 16"
time LP_NATIVE_VECTOR_WIDTH=512 WGPU_BACKEND=vulkan cargo test -p wgpu-radix-sort --test gpu_sort --test gpu_keys \
    --test gpu_segments --test gpu_indirect --test example
# And with 4-lane subgroups (128-bit vectors, lavapipe on a CPU without AVX), which the subgroup
# path refuses: the portable path alone must sort there, and the tests must expect just that.
echo "check: the radix sort's GPU tests on lavapipe with subgroups of 4"
time LP_NATIVE_VECTOR_WIDTH=128 WGPU_BACKEND=vulkan cargo test -p wgpu-radix-sort --test gpu_sort --test gpu_keys \
    --test gpu_segments --test gpu_indirect
