#!/usr/bin/env python3
"""How much of an operand a warm L2 really holds between calls: read bandwidth against footprint.

The floor of `gemmforge report --floors` lets as many bytes as L2 holds (its nominal size) move at
L2 speed when L2 is warm. This measures how much of an operand a warm L2 really keeps between
calls, each a CUDA graph of back-to-back calls on the same buffer (bench's gpu mode, warm L2),
median over replays:
  - gemm:   torch.matmul of 64 x K by K x N fp16 (the skinny class's pattern: B, K x N, read once
            per call by the CTAs of its column tiles), for B of F MiB; the one to read;
  - stream: torch.sum over a buffer of F MiB (reads every byte once per call); latency-bound below
            some tens of MiB, so only its large sizes say anything.
A footprint that stays in L2 reads faster than it does from HBM; past what L2 keeps, the rate
falls (H200, session 15: 3.9-4.1 TB/s at 32-40 MiB, 2.7 TB/s at 48-64 MiB).

Usage (on the GPU machine): python3 scripts/l2_residency.py --out DIR
Writes DIR/l2_residency.csv and prints a table. Reads nothing it does not allocate; changes no
setting of the card.
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys


def clocks():
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm,power.draw", "--format=csv,noheader,nounits"],
                              capture_output=True, text=True, timeout=10).stdout.strip()
    except Exception as e:  # a missing nvidia-smi must not lose the measurement
        return f"unavailable ({e})"


def time_graph(torch, fn, calls, replays):
    """Median µs per call of a graph of `calls` back-to-back fn() calls."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()  # warm-up outside the graph (allocations, L2 fill)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(calls):
            fn()
    g.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(replays):
        b, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        b.record()
        g.replay()
        e.record()
        torch.cuda.synchronize()
        times.append(b.elapsed_time(e) * 1000.0 / calls)
    return statistics.median(times), min(times), max(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--mib", default="4,8,12,16,20,24,28,32,40,48,56,64,96,128,256",
                    help="footprints in MiB (comma-separated)")
    ap.add_argument("--calls", type=int, default=20, help="calls per graph")
    ap.add_argument("--replays", type=int, default=15, help="timed replays per footprint")
    ap.add_argument("--gemm-n", type=int, default=4096, help="N of the skinny GEMM (B is N x K)")
    a = ap.parse_args()
    try:
        import torch
    except ImportError:
        sys.exit("l2_residency: needs PyTorch (python3 -c 'import torch')")
    if not torch.cuda.is_available():
        sys.exit("l2_residency: no CUDA device")
    os.makedirs(a.out, exist_ok=True)
    props = torch.cuda.get_device_properties(0)
    print(f"# {props.name}, L2 {getattr(props, 'L2_cache_size', 0) >> 20} MiB, {props.multi_processor_count} SMs; "
          f"clocks.sm,power at start: {clocks()}")
    rows = []
    for mib in [int(x) for x in a.mib.split(",")]:
        nbytes = mib << 20
        x = torch.empty(nbytes // 2, dtype=torch.float16, device="cuda").normal_()
        out = torch.empty((), dtype=torch.float32, device="cuda")  # sum over dim 0 of the flat buffer
        med, lo, hi = time_graph(torch, lambda: torch.sum(x, dim=0, dtype=torch.float32, out=out), a.calls, a.replays)
        rows.append({"kind": "stream", "mib": mib, "bytes_moved": nbytes, "us_median": med, "us_min": lo,
                     "us_max": hi, "gbps": nbytes / med / 1e3, "shape": ""})
        del x
        k = nbytes // 2 // a.gemm_n
        if k % 8 == 0 and k >= 64:
            A = torch.randn(64, k, dtype=torch.float16, device="cuda")
            B = torch.randn(k, a.gemm_n, dtype=torch.float16, device="cuda")
            C = torch.empty(64, a.gemm_n, dtype=torch.float16, device="cuda")
            med, lo, hi = time_graph(torch, lambda: torch.matmul(A, B, out=C), a.calls, a.replays)
            moved = 2 * (64 * k + k * a.gemm_n + 64 * a.gemm_n)
            rows.append({"kind": "gemm", "mib": mib, "bytes_moved": moved, "us_median": med, "us_min": lo,
                         "us_max": hi, "gbps": moved / med / 1e3, "shape": f"64x{a.gemm_n}x{k}"})
            del A, B, C
        torch.cuda.empty_cache()
    path = os.path.join(a.out, "l2_residency.csv")
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    print(f"{'kind':6} {'MiB':>5} {'shape':>16} {'us':>9} {'GB/s':>8}")
    for r in rows:
        print(f"{r['kind']:6} {r['mib']:5d} {r['shape']:>16} {r['us_median']:9.2f} {r['gbps']:8.0f}")
    print(f"# clocks.sm,power at end: {clocks()}; wrote {path}")


if __name__ == "__main__":
    main()
