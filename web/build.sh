#!/usr/bin/env bash
# Builds the browser page into web/dist: the wasm module (cargo, target wasm32-unknown-unknown),
# its JavaScript glue (wasm-bindgen --target web: the CLI the wasm-bindgen crate itself ships,
# with no bundler between it and the page) and index.html.
#   web/build.sh [web|dev]      (web, the small release build served, by default; the browser test
#                                builds dev)
# Installs what it lacks: the wasm32 target (rustup) and wasm-bindgen-cli at the crate's version.
set -euo pipefail
cd "$(dirname "$0")"
profile=${1:-web}
case $profile in
    web) dir=web ;;
    dev) dir=debug ;;
    *) echo "web/build.sh: unknown profile '$profile': use web or dev" >&2; exit 2 ;;
esac
# The CLI must match the wasm-bindgen crate exactly (web/Cargo.toml pins it).
version=$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' Cargo.toml)
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    echo "web: rustup target add wasm32-unknown-unknown" >&2
    rustup target add wasm32-unknown-unknown
fi
if [ "$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$version" ]; then
    echo "web: cargo install wasm-bindgen-cli --version $version (a few minutes, once)" >&2
    # Not --locked: its lock names a webpki-roots release that some registry mirrors lack.
    cargo install wasm-bindgen-cli --version "$version"
fi
cargo build -p shadersort-web --target wasm32-unknown-unknown --profile "$profile"
rm -rf dist.part && mkdir dist.part
# The served build leaves out the function names (1.6 MB); dev keeps them for panics' traces.
names=()
if [ "$profile" = web ]; then names=(--remove-name-section); fi
wasm-bindgen --target web --no-typescript "${names[@]}" --out-dir dist.part \
    "../target/wasm32-unknown-unknown/$dir/shadersort_web.wasm"
cp index.html dist.part/
rm -rf dist && mv dist.part dist
echo "web: built web/dist ($profile)" >&2
