"""Disassembles the machine code in an NVIDIA Vulkan pipeline cache written by `pipeline_stats`
(CACHE=FILE): the cache's zstd payload holds the code, which starts at the kernel's first
S2R instruction; its length is the "Binary Size" statistic. Needs `zstd` and `nvdisasm` on
PATH (or NVDISASM=path); SM=SM90 (Hopper) unless given.

    python3 sass.py CACHE_FILE BINARY_SIZE > kernel.sass
"""
import os
import re
import subprocess
import sys
import tempfile

ZSTD_MAGIC = bytes.fromhex("28b52ffd")
S2R = bytes.fromhex("1979")  # opcode bytes of S2R (reads a special register)


def main() -> None:
    blob_path, size = sys.argv[1], int(sys.argv[2])
    blob = open(blob_path, "rb").read()
    start = blob.find(ZSTD_MAGIC)
    if start < 0:
        sys.exit(f"{blob_path}: no zstd payload (not an NVIDIA pipeline cache?)")
    raw = subprocess.run(["zstd", "-d", "-c"], input=blob[start:], capture_output=True, check=True).stdout
    first = next((m.start() for m in re.finditer(S2R, raw) if m.start() % 8 == 0), None)
    if first is None:
        sys.exit(f"{blob_path}: no S2R instruction found in the payload")
    with tempfile.NamedTemporaryFile(suffix=".bin") as code:
        code.write(raw[first : first + size])
        code.flush()
        nvdisasm = os.environ.get("NVDISASM", "nvdisasm")
        out = subprocess.run(
            [nvdisasm, "-b", os.environ.get("SM", "SM90"), code.name], capture_output=True, text=True
        )
    if out.returncode != 0:
        sys.exit(out.stderr.strip())
    print("\n".join(l for l in out.stdout.splitlines() if re.search(r"/\*[0-9a-f]{4,}\*/", l)))


if __name__ == "__main__":
    main()
