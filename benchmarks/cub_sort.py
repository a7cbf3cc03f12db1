#!/usr/bin/env python3
"""NVIDIA CUB's radix sort on this machine's GPU, through PyTorch and/or CuPy, for comparison
with `shadersort bench radix` (same lengths, uniform random u32 keys, GPU time, median after
warm-up), plus the device-to-device copy bandwidth and the sort speed it bounds.

What is measured (each between two CUDA events on the current stream, the input copied
afresh before the first event, never inside the span):

  cupy  keys   `y.sort()` on a uint32 array (CuPy calls Thrust's stable_sort, which dispatches
               to CUB's DeviceRadixSort for 32-bit unsigned keys): keys only, 4-byte keys.
  cupy  index  `cupy.argsort(x)` on the uint32 keys: CuPy copies the keys, fills an int64
               iota and runs Thrust stable_sort_by_key (CUB DeviceRadixSort pairs): 4-byte key
               + 8-byte index, the copy and the iota inside the span.
  cupy  pairs  `v[cupy.argsort(x)]`: the above plus a gather of 4-byte values, i.e. what a
               caller needs to sort (u32 key, u32 value) pairs this way.
  torch index  `torch.sort(x, stable=True)` (CUB radix sort of key + int64 index; torch.sort
               always returns the int64 indices, so torch has no keys-only row). Keys are
               uint32 where this torch sorts uint32 on CUDA; otherwise int32 with the sign bit
               flipped (`x ^ 0x80000000`, the same order and the same 4 bytes per key; CUB
               flips that bit itself); the table says which.

Copy bandwidth: `cudaMemcpyAsync` device to device of a 2^26 x 4-byte buffer (through the first
framework that imports), reported as (bytes read + bytes written) / time, like the 4.2 TB/s
(read + write) quoted for the H200. The implied bound of an LSD radix sort with 8-bit digits
(4 passes over 32-bit keys) is that bandwidth divided by the bytes it must move per key:

  bytes/key = 4 (one read of the keys for all four digit histograms)
            + 4 passes x 2 (read + write) x (key bytes + value bytes)

  keys only (4 + 0 bytes): 36 B/key;  u32 key + u32 value: 68 B;  u32 key + i64 index: 100 B.

Every result is checked on the GPU once per length: keys ascending, the same sum of keys as the
input, and for index sorts that each index points at its key and equal keys keep input order.

Usage: python3 benchmarks/cub_sort.py [--runs 30] [--log2-sizes 16,17,...,26] [--json FILE]
"""

import argparse
import json
import statistics
import subprocess
import sys
import time

WARM_UP_RUNS = 3
WARM_UP_SECONDS = 0.5
# Bytes an 8-bit-digit LSD sort of 32-bit keys moves per key: one histogram read of the key,
# then 4 passes that each read and write the key and its value.
PASSES = 4


def bytes_per_key(value_bytes):
    """The formula above: 4 + PASSES * 2 * (4 + value_bytes)."""
    return 4 + PASSES * 2 * (4 + value_bytes)


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="CUB radix sort (through PyTorch and/or CuPy) and device copy bandwidth, "
        "median of CUDA-event timings after warm-up; see the module docstring for exactly what "
        "each row measures.",
    )
    parser.add_argument(
        "--log2-sizes",
        default=",".join(str(n) for n in range(16, 27)),
        help="lengths as powers of two, comma separated (default 16,17,...,26)",
    )
    parser.add_argument("--runs", type=int, default=30, help="timed runs per measurement, median reported (default 30, at least 20)")
    parser.add_argument(
        "--frameworks",
        default="torch,cupy",
        help="which to try, comma separated (default torch,cupy; a missing one is skipped with a note)",
    )
    parser.add_argument("--copy-log2", type=int, default=26, help="copy-bandwidth buffer: 2^N u32s (default 26)")
    parser.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
    parser.add_argument("--json", metavar="FILE", help="also write the results to this JSON file")
    args = parser.parse_args(argv)
    try:
        args.log2_sizes = [int(s) for s in args.log2_sizes.split(",") if s.strip()]
    except ValueError:
        parser.error(f"--log2-sizes must be comma-separated integers, not {args.log2_sizes!r}")
    if not args.log2_sizes or any(not 0 <= n <= 31 for n in args.log2_sizes):
        parser.error("--log2-sizes must be between 0 and 31")
    if args.runs < 20:
        parser.error("--runs must be at least 20")
    args.frameworks = [f.strip() for f in args.frameworks.split(",") if f.strip()]
    unknown = set(args.frameworks) - {"torch", "cupy"}
    if unknown:
        parser.error(f"unknown frameworks {sorted(unknown)}; use torch and/or cupy")
    return args


def timed(span, reset, event, synchronize, runs):
    """Median milliseconds of `span()` between two CUDA events, `reset()` before each (outside
    the span), after at least WARM_UP_RUNS runs and WARM_UP_SECONDS of warm-up."""

    def once():
        reset()
        start, end = event(), event()
        start.record()
        span()
        end.record()
        end.synchronize()
        return start.elapsed_time(end)

    began, n = time.perf_counter(), 0
    while n < WARM_UP_RUNS or time.perf_counter() - began < WARM_UP_SECONDS:
        once()
        n += 1
    samples = [once() for _ in range(runs)]
    synchronize()
    return statistics.median(samples)


class Cupy:
    name = "cupy"

    def __init__(self):
        import cupy

        self.cp = cupy
        self.version = cupy.__version__

    def event(self):
        cp = self.cp

        class Event:
            def __init__(self):
                self.e = cp.cuda.Event()

            def record(self):
                self.e.record()

            def synchronize(self):
                self.e.synchronize()

            def elapsed_time(self, end):
                return cp.cuda.get_elapsed_time(self.e, end.e)

        return Event()

    def synchronize(self):
        self.cp.cuda.runtime.deviceSynchronize()

    def device(self):
        cp = self.cp
        props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
        name = props["name"]
        return {
            "gpu": name.decode() if isinstance(name, bytes) else str(name),
            "cuda_runtime": cp.cuda.runtime.runtimeGetVersion(),
            "cuda_driver_api": cp.cuda.runtime.driverGetVersion(),
        }

    def copy_ms(self, n, runs):
        cp = self.cp
        src = cp.asarray(uniform_u32(n, 1))
        dst = cp.empty_like(src)
        kind = cp.cuda.runtime.memcpyDeviceToDevice
        stream = cp.cuda.get_current_stream().ptr

        def span():
            cp.cuda.runtime.memcpyAsync(dst.data.ptr, src.data.ptr, src.nbytes, kind, stream)

        ms = timed(span, lambda: None, self.event, self.synchronize, runs)
        assert bool((dst == src).all()), "the device copy is wrong"
        return ms

    def measure(self, n, seed, runs):
        cp = self.cp
        x = cp.asarray(uniform_u32(n, seed))
        values = cp.arange(n, dtype=cp.uint32)
        total = int(x.astype(cp.uint64).sum())
        rows = []

        work = cp.empty_like(x)

        def reset():
            work[...] = x

        ms = timed(lambda: work.sort(), reset, self.event, self.synchronize, runs)
        check_keys(cp, work, total)
        rows.append(row("cupy", "keys", "uint32", "ndarray.sort (Thrust stable_sort -> CUB radix sort), keys only", n, ms, 0))

        result = {}

        def argsort():
            result["idx"] = cp.argsort(x)

        ms = timed(argsort, lambda: None, self.event, self.synchronize, runs)
        check_index(cp, x, result["idx"], total)
        rows.append(
            row("cupy", "index", "uint32", "cupy.argsort (key copy + int64 iota + Thrust stable_sort_by_key)", n, ms, 8)
        )

        def argsort_gather():
            result["values"] = values[cp.argsort(x)]

        ms = timed(argsort_gather, lambda: None, self.event, self.synchronize, runs)
        assert bool((x[result["values"]][1:] >= x[result["values"]][:-1]).all()), "cupy argsort + gather is wrong"
        rows.append(row("cupy", "pairs", "uint32", "values[cupy.argsort(keys)]: argsort + gather of u32 values", n, ms, 4))
        return rows


class Torch:
    name = "torch"

    def __init__(self):
        import torch

        if not torch.cuda.is_available():
            raise ImportError("torch imports but sees no CUDA device")
        self.torch = torch
        self.version = torch.__version__
        self.key_dtype = self._key_dtype()

    def _key_dtype(self):
        """uint32 if this torch sorts it on CUDA, else int32 with the sign bit flipped."""
        torch = self.torch
        if hasattr(torch, "uint32"):
            try:
                probe = torch.tensor([3, 1, 2], dtype=torch.int64, device="cuda").to(torch.uint32)
                if torch.sort(probe, stable=True).values.to(torch.int64).tolist() == [1, 2, 3]:
                    return "uint32"
            except (RuntimeError, TypeError, NotImplementedError):
                pass
        return "int32 (u32 ^ 0x80000000)"

    def event(self):
        return self.torch.cuda.Event(enable_timing=True)

    def synchronize(self):
        self.torch.cuda.synchronize()

    def device(self):
        torch = self.torch
        return {
            "gpu": torch.cuda.get_device_name(),
            "torch_cuda": torch.version.cuda,
            "cudnn": torch.backends.cudnn.version(),
        }

    def copy_ms(self, n, runs):
        torch = self.torch
        src = torch.randint(-(2**31), 2**31, (n,), dtype=torch.int32, device="cuda")
        dst = torch.empty_like(src)
        ms = timed(lambda: dst.copy_(src), lambda: None, self.event, self.synchronize, runs)
        assert torch.equal(dst, src), "the device copy is wrong"
        return ms

    def measure(self, n, seed, runs):
        torch = self.torch
        gen = torch.Generator(device="cuda").manual_seed(seed)
        # Uniform u32 keys, held as int64 for the checks and converted to the sort's dtype.
        keys64 = torch.randint(0, 2**32, (n,), dtype=torch.int64, device="cuda", generator=gen)
        if self.key_dtype == "uint32":
            x = keys64.to(torch.uint32)
        else:
            x = (keys64 - 2**31).to(torch.int32)  # == (u32 ^ 0x80000000) as int32: same order
        total = int(keys64.sum())
        result = {}

        def span():
            result["out"] = torch.sort(x, stable=True)

        ms = timed(span, lambda: None, self.event, self.synchronize, runs)
        values, idx = result["out"]
        sorted64 = keys64[idx]
        assert bool((sorted64[1:] >= sorted64[:-1]).all()), "torch.sort is wrong"
        assert int(sorted64.sum()) == total, "torch.sort lost keys"
        same = sorted64[1:] == sorted64[:-1]
        assert bool((idx[1:][same] > idx[:-1][same]).all()), "torch.sort(stable=True) is unstable"
        return [row("torch", "index", self.key_dtype, "torch.sort(stable=True): key + int64 index (output allocation and index fill inside the span)", n, ms, 8)]


def uniform_u32(n, seed):
    """n uniform random u32 keys, made on the CPU with NumPy (CuPy's own generators differ by
    version in which dtypes and ranges they accept)."""
    import numpy

    return numpy.random.default_rng(seed).integers(0, 2**32, size=n, dtype=numpy.uint32)


def check_keys(cp, y, total):
    assert bool((y[1:] >= y[:-1]).all()), "cupy sort is not ascending"
    assert int(y.astype(cp.uint64).sum()) == total, "cupy sort lost keys"


def check_index(cp, x, idx, total):
    y = x[idx]
    check_keys(cp, y, total)
    same = y[1:] == y[:-1]
    assert bool((idx[1:][same] > idx[:-1][same]).all()), "cupy argsort is unstable"


def row(framework, kind, dtype, what, n, ms, value_bytes):
    return {
        "framework": framework,
        "kind": kind,
        "key_dtype": dtype,
        "what": what,
        "len": n,
        "median_ms": ms,
        "g_per_s": n / (ms / 1e3) / 1e9,
        "value_bytes": value_bytes,
    }


def driver_version():
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        return out.stdout.strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return None


def main(argv):
    args = parse_args(argv)
    frameworks, notes = [], []
    for name in args.frameworks:
        try:
            frameworks.append(Torch() if name == "torch" else Cupy())
        except Exception as e:  # a missing or broken framework is skipped, not fatal
            notes.append(f"{name} skipped: {type(e).__name__}: {e}")
    for note in notes:
        print(note)
    if not frameworks:
        print("error: neither PyTorch (with CUDA) nor CuPy could be used; install one of them", file=sys.stderr)
        return 1
    info = {"nvidia_smi": driver_version(), "python": sys.version.split()[0]}
    for f in frameworks:
        info.update(f.device())
        info[f"{f.name}_version"] = f.version
    for key, value in info.items():
        print(f"{key}: {value}")
    print(f"median of {args.runs} runs (CUDA events) after a warm-up of at least {WARM_UP_RUNS} runs and {WARM_UP_SECONDS} s")

    copy_n = 2**args.copy_log2
    copy_ms = frameworks[0].copy_ms(copy_n, args.runs)
    bandwidth = 2 * copy_n * 4 / (copy_ms / 1e3)  # read + write, bytes/s
    bounds = {name: bandwidth / bytes_per_key(vb) / 1e9 for name, vb in [("keys", 0), ("pairs", 4), ("index", 8)]}
    print(
        f"device copy of 2^{args.copy_log2} x 4 bytes ({frameworks[0].name}): {copy_ms:.4f} ms, "
        f"{bandwidth / 1e12:.3f} TB/s (read + write)"
    )
    print(
        "bound of a 4-pass 8-bit LSD sort = bandwidth / (4 + 4 x 2 x (4 + value bytes)) bytes per key: "
        + ", ".join(f"{k} ({bytes_per_key(vb)} B) {bounds[k]:.1f} G/s" for k, vb in [("keys", 0), ("pairs", 4), ("index", 8)])
    )

    rows = []
    for log2 in args.log2_sizes:
        for f in frameworks:
            for r in f.measure(2**log2, args.seed + log2, args.runs):
                print(f"{r['framework']} {r['kind']} 2^{log2}: {r['median_ms']:.4f} ms", file=sys.stderr)
                rows.append(r)

    print()
    print("| framework | kind | key type | keys | ms | G items/s | share of copy bound |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    for r in rows:
        bound = bounds[r["kind"]]
        print(
            f"| {r['framework']} | {r['kind']} | {r['key_dtype']} | 2^{r['len'].bit_length() - 1} | "
            f"{r['median_ms']:.4f} | {r['g_per_s']:.2f} | {r['g_per_s'] / bound:.0%} |"
        )
    print()
    print("kinds: keys = u32 keys only; pairs = u32 key + u32 value; index = u32 key + int64 index")
    for framework, kind, what in dict.fromkeys((r["framework"], r["kind"], r["what"]) for r in rows):
        print(f"{framework} {kind}: {what}")

    if args.json:
        with open(args.json, "w") as out:
            json.dump(
                {
                    "info": info,
                    "notes": notes,
                    "runs": args.runs,
                    "copy": {"bytes": copy_n * 4, "median_ms": copy_ms, "read_plus_write_bytes_per_s": bandwidth},
                    "bound_formula": "bandwidth / (4 + 4 * 2 * (4 + value_bytes)) keys/s",
                    "bounds_g_per_s": bounds,
                    "results": rows,
                },
                out,
                indent=1,
            )
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
