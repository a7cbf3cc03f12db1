"""Many photos in one run (BENCHMARKS.md, Batches): `shadersort bench batch` on COUNT 1080p JPEG
photos (the batch against decoding and encoding them alone on the same cores, and against one
process per file), satyarth/pixelsort 1.0.2 in a loop over some of them, and the batch's peak
memory over COUNT and ten times COUNT inputs.

usage: python3 benchmarks/batch.py SHADERSORT COUNT RUNS PIXELSORT_SAMPLE
The photos are made from ../shared/images or $BATCH_IMAGES (each scaled to 1920 wide, a 1920x1080 crop at its
own place, film grain of its own seed, ffmpeg's JPEG quality -q:v 2) with $SHADERSORT_FFMPEG (else ffmpeg);
they stay in $BATCH_DIR (default: a temporary folder). Every run sorts within the threshold
0.25..0.75 by radix (a batch makes every picture's end by radix, the fastest way there, whatever the algorithm; a single picture runs the algorithm's own steps); pixelsort must be importable (its wheel needs Pillow 10.4.0), PIXELSORT_SAMPLE 0
leaves it out."""
import os, re, statistics, subprocess, sys, tempfile

from wall import timed

shadersort, count, runs, sample = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
here = os.path.dirname(os.path.abspath(__file__))
images = os.environ.get("BATCH_IMAGES") or os.path.join(here, "..", "..", "shared", "images")
ffmpeg = os.environ.get("SHADERSORT_FFMPEG", "ffmpeg")
root = os.environ.get("BATCH_DIR") or tempfile.mkdtemp()
photos = os.path.join(root, f"photos-{count}")
sources = [os.path.join(images, n) for n in ("astronaut.png", "coffee.png", "rocket.jpg")]

os.makedirs(photos, exist_ok=True)
for k in range(count):
    path = os.path.join(photos, f"photo-{k:04d}.jpg")
    if os.path.exists(path):
        continue
    grow = 1920 + 40 * (k % 7)
    x, y = (k * 37) % (grow - 1920 + 1), (k * 53) % 97
    vf = f"scale={grow}:-2:flags=lanczos,pad=iw:max(ih\\,1200),crop=1920:1080:{x}:{y},noise=alls=12:allf=t:all_seed={k}"
    subprocess.run([ffmpeg, "-v", "error", "-y", "-i", sources[k % 3], "-vf", vf, "-q:v", "2", path], check=True)

sort = "--algorithm radix --threshold 0.25..0.75"
bench = subprocess.run(
    [shadersort, "bench", "batch", photos, "--runs", runs, f"--sort={sort}"], capture_output=True, text=True
)
if bench.returncode != 0:
    sys.exit(bench.stderr)
print(bench.stdout, end="")
batch_s = float(re.search(r"\| the batch, one process \| ([0-9.]+)", bench.stdout).group(1))

if sample > 0:
    files = sorted(os.listdir(photos))[:sample]
    out = os.path.join(root, "pixelsort.png")
    took = [timed([sys.executable, "-m", "pixelsort", os.path.join(photos, f), "-t", "0.25", "-u", "0.75", "-o", out], {}) for f in files]
    each = statistics.median(took)
    print(
        f"| satyarth/pixelsort 1.0.2 in a loop ({sample} files, median {each:.2f} s each, scaled to {count}) "
        f"| {each * count:.1f} | {1 / each:.2f} | the batch is {each * count / batch_s:.0f}x faster |"
    )

# Memory over ten times the inputs: the same photos linked under ten names each (BATCH_MEMORY=0
# leaves it out, as on a software GPU, where it takes long).
if os.environ.get("BATCH_MEMORY") == "0":
    sys.exit(0)
many = os.path.join(root, f"photos-{count * 10}")
os.makedirs(many, exist_ok=True)
for k, name in enumerate(sorted(os.listdir(photos))):
    for copy in range(10):
        link = os.path.join(many, f"{copy}-{name}")
        if not os.path.exists(link):
            os.link(os.path.join(photos, name), link)
for folder in (photos, many):
    r = subprocess.run(
        [shadersort, "bench", "batch", folder, "--runs", "1", "--per-file", "0", f"--sort={sort}"],
        capture_output=True, text=True,
    )
    if r.returncode != 0:
        sys.exit(r.stderr)
    peak = re.search(r"peak memory ([0-9]+) MB", r.stdout).group(1)
    files = len(os.listdir(folder))
    print(f"| peak memory of the batch over {files} inputs | {peak} MB | | |")
