"""Two or more shadersort binaries side by side on the same stills and clip: the whole process,
wall clock, each run alternated with the others, the median of RUNS after one warm-up each.
For checking that a change to the code's shape left the speed alone.

usage: python3 benchmarks/compare_builds.py PHOTO CLIP RUNS NAME=BINARY [NAME=BINARY ...]
PHOTO is sorted by odd-even, bitonic and radix within a threshold, CLIP by bitonic along rows
and at 30 degrees into .mp4 (SHADERSORT_FFMPEG, if set, names the ffmpeg the binaries run).
Each binary keeps a pipeline cache of its own. The table ends with each binary's median over
the first's, per case."""
import os, statistics, sys, tempfile

from wall import timed

photo, clip, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
binaries = [a.split("=", 1) for a in sys.argv[4:]]
tmp = tempfile.mkdtemp()

cases = [
    (f"still, {algorithm}", [photo, "--threshold", "0.25..0.8", "--algorithm", algorithm], "png")
    for algorithm in ["odd-even", "bitonic", "radix"]
] + [
    ("clip, bitonic, rows", [clip, "--algorithm", "bitonic", "--threshold", "0.25..0.75"], "mp4"),
    ("clip, bitonic, 30 degrees", [clip, "--algorithm", "bitonic", "--threshold", "0.25..0.75", "--angle", "30"], "mp4"),
]


samples = {}
for case, args, ext in cases:
    commands = []
    for name, binary in binaries:
        env = {"SHADERSORT_CACHE_DIR": os.path.join(tmp, "cache-" + name)}
        out = os.path.join(tmp, f"{name}.{ext}")
        commands.append((name, [binary] + args + ["--out", out], env))
    for _, cmd, env in commands:
        timed(cmd, env)
    for _ in range(runs):
        for name, cmd, env in commands:
            samples.setdefault((case, name), []).append(timed(cmd, env))

first = binaries[0][0]
print(f"| case | {' | '.join(name + ' (s)' for name, _ in binaries)} | {' | '.join(name + ' / ' + first for name, _ in binaries[1:])} |")
print("| --- |" + " ---: |" * (2 * len(binaries) - 1))
for case, _, _ in cases:
    medians = [statistics.median(samples[(case, name)]) for name, _ in binaries]
    ratios = [f"{m / medians[0]:.3f}" for m in medians[1:]]
    print(f"| {case} | {' | '.join(f'{m:.3f}' for m in medians)} | {' | '.join(ratios)} |")
