#!/usr/bin/env python3
"""Matrices of u32 keys sorted along their rows on this machine's NVIDIA GPU, for comparison
with `shadersort bench segments` (same shapes, uniform random u32 keys, GPU time between two
CUDA events, median after warm-up):

  torch keys   `torch.sort(x, dim=1, stable=True)`: the sorted keys and their int64 indices
               (torch.sort always returns both; CUB's segmented radix sort underneath).
  torch pairs  the above plus `v.gather(1, idx)`: what a caller needs to sort (u32 key, u32
               value) pairs along rows this way.
  cupy  keys   `cupy.sort(x, axis=1)` where CuPy imports (Thrust underneath), keys only.

Keys are uint32 where this torch sorts uint32 on CUDA, else int32 with the sign bit flipped
(the same order and the same 4 bytes per key). Every result is checked once: each row ascending
with the row's sum, indices pointing at their keys, equal keys in input order.

Usage: python3 benchmarks/torch_segments.py [--runs 50] [--matrices 1080x1920,2160x3840]
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cub_sort import Cupy, Torch, driver_version, timed  # noqa: E402


def torch_rows(t, rows, columns, runs):
    torch = t.torch
    gen = torch.Generator(device="cuda").manual_seed(rows * 7919 + columns)
    keys64 = torch.randint(0, 2**32, (rows, columns), dtype=torch.int64, device="cuda", generator=gen)
    x = keys64.to(torch.uint32) if t.key_dtype == "uint32" else (keys64 - 2**31).to(torch.int32)
    v = torch.arange(rows * columns, dtype=torch.int32, device="cuda").reshape(rows, columns)
    out = {}

    def keys():
        out["sorted"] = torch.sort(x, dim=1, stable=True)

    def pairs():
        _, idx = torch.sort(x, dim=1, stable=True)
        out["values"] = v.gather(1, idx)

    keys_ms = timed(keys, lambda: None, t.event, t.synchronize, runs)
    pairs_ms = timed(pairs, lambda: None, t.event, t.synchronize, runs)
    _, idx = out["sorted"]
    got = keys64.gather(1, idx)
    assert bool((got[:, 1:] >= got[:, :-1]).all()), "torch.sort along rows is wrong"
    assert torch.equal(got.sum(dim=1), keys64.sum(dim=1)), "torch.sort lost keys"
    same = got[:, 1:] == got[:, :-1]
    assert bool((idx[:, 1:][same] > idx[:, :-1][same]).all()), "torch.sort(stable=True) is unstable"
    assert torch.equal(out["values"], v.gather(1, idx)), "the gather is wrong"
    return keys_ms, pairs_ms


def cupy_rows(rows, columns, runs):
    try:
        c = Cupy()
    except ImportError:
        return None
    import numpy

    cp = c.cp
    host = numpy.random.default_rng(rows + columns).integers(0, 2**32, size=(rows, columns), dtype=numpy.uint32)
    x = cp.asarray(host)
    y = x.copy()
    ms = timed(lambda: y.sort(axis=1), lambda: y.__setitem__(Ellipsis, x), c.event, c.synchronize, runs)
    y[...] = x
    y.sort(axis=1)
    assert numpy.array_equal(cp.asnumpy(y), numpy.sort(host, axis=1)), "cupy sort along rows is wrong"
    return ms


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--matrices", default="1080x1920,2160x3840,65536x64,16x262144")
    args = parser.parse_args(argv)
    t = Torch()
    print(f"GPU: {t.torch.cuda.get_device_name()}, driver {driver_version()}, torch {t.version} (CUDA {t.torch.version.cuda}), keys {t.key_dtype}")
    print(f"median of {args.runs} runs after a warm-up")
    print("| matrix | torch keys, ms | torch pairs (sort + gather), ms | cupy keys, ms |")
    print("| --- | ---: | ---: | ---: |")
    for matrix in args.matrices.split(","):
        rows, columns = (int(n) for n in matrix.split("x"))
        keys_ms, pairs_ms = torch_rows(t, rows, columns, args.runs)
        cupy_ms = cupy_rows(rows, columns, args.runs)
        cupy_cell = "-" if cupy_ms is None else f"{cupy_ms:.3f}"
        print(f"| {matrix} | {keys_ms:.3f} | {pairs_ms:.3f} | {cupy_cell} |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
