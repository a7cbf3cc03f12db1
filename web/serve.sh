#!/usr/bin/env bash
# Builds the browser page (web/build.sh) and serves it at http://localhost:${PORT:-8000}/.
set -euo pipefail
cd "$(dirname "$0")"
./build.sh "${1:-web}"
echo "shadersort in the browser: http://localhost:${PORT:-8000}/ (Ctrl-C stops the server)"
exec python3 -m http.server --bind 127.0.0.1 --directory dist "${PORT:-8000}"
