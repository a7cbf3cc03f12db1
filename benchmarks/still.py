"""Whole-process time of a still threshold sort: shadersort binaries side by side and
satyarth/pixelsort 1.0.2, alternated, the median of RUNS after two warm-ups each.

usage: python3 benchmarks/still.py PHOTO RUNS NAME=BINARY [NAME=BINARY ...]
Each binary sorts with a warm pipeline cache of its own, by odd-even, bitonic and radix;
pixelsort must be importable (its wheel needs Pillow 10.4.0: Pillow 11 removed PyAccess, which
it imports). The table ends with pixelsort / each run."""
import os, statistics, sys, tempfile

from wall import timed

photo, runs, binaries = sys.argv[1], int(sys.argv[2]), [a.split("=", 1) for a in sys.argv[3:]]
tmp = tempfile.mkdtemp()
out = os.path.join(tmp, "o.png")


variants = []
for algorithm in ["odd-even", "bitonic", "radix"]:
    args = [photo, "--threshold", "0.25..0.8", "--algorithm", algorithm, "--out", out]
    for name, binary in binaries:
        cache = {"SHADERSORT_CACHE_DIR": os.path.join(tmp, "cache-" + name)}
        variants.append((f"{name}, {algorithm}", [binary] + args, cache))
pixelsort = [sys.executable, "-m", "pixelsort", photo, "-t", "0.25", "-u", "0.8", "-o", os.path.join(tmp, "p.png")]

for _, cmd, env in variants:
    for _ in range(2):
        timed(cmd, env)
samples = {name: [] for name, _, _ in variants}
for _ in range(runs):
    for name, cmd, env in variants:
        samples[name].append(timed(cmd, env))
timed(pixelsort, {})
theirs = [timed(pixelsort, {}) for _ in range(5)]
median = statistics.median(theirs)
print(f"| run | median ms (of {runs}) | min ms | pixelsort / this |")
print("| --- | ---: | ---: | ---: |")
for name, s in samples.items():
    print(f"| {name} | {statistics.median(s) * 1e3:.0f} | {min(s) * 1e3:.0f} | {median / statistics.median(s):.1f}x |")
print(f"| satyarth/pixelsort 1.0.2 (of 5) | {median * 1e3:.0f} | {min(theirs) * 1e3:.0f} | 1.0x |")
