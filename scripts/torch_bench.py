#!/usr/bin/env python3
"""torch_bench.py: times torch.matmul fp16 HGEMM as gemmforge's "torch" implementation.

Measures C[MxN] = A[MxK]·B with fp16 CUDA tensors from torch.randn, in two layouts:
  nn  torch.matmul(a, b)       b is K x N row-major
  tn  torch.matmul(a, w.t())   w is N x K row-major (what nn.Linear does)
with the protocol of the C++ implementations (correctness gate first, steady-state warm-up,
layouts interleaved in shuffled rounds, warm or cold L2, timing modes gpu/offline/server),
and writes one JSON file in the "gemmforge.bench/1" schema (docs/results-format.md) whose
records all carry "impl": "torch". torch's default math settings are left alone.

`gemmforge bench --impl torch` runs this script as a child process with the same settings
(--shapes, --layouts, --modes, --l2, --rounds, ...), --out pointing at a file in its output
directory and --command set to its own command line, and merges the file's records into its
results. The file appears (written to FILE.tmp, then renamed) only when the run is complete.
Exit status: 0 done; 1 fatal error (no FILE left behind); 2 bad arguments or shapes file,
or no torch / no CUDA device.
"""
import argparse, datetime, json, math, os, random, re, shlex, socket, sys, time, traceback, warnings

SCHEMA = "gemmforge.bench/1"
F16_SKIPPED = ("torch.matmul cannot be told to accumulate in fp16 (torch picks the cuBLAS compute type "
               "itself), so there are no torch records for --acc f16")
torch = np = None  # imported in main() after the arguments are parsed, so --help works without them


def comma_list(allowed):
    def parse(text):
        items = list(dict.fromkeys(s.strip() for s in text.split(",") if s.strip()))
        if not items or any(s not in allowed for s in items):
            raise argparse.ArgumentTypeError(f"expected a comma list of {','.join(allowed)}, got {text!r}")
        return items
    return parse


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shapes", required=True, metavar="FILE", help='lines "M N K"; # starts a comment')
    p.add_argument("--layouts", type=comma_list(("nn", "tn")), default=["nn", "tn"], help="default nn,tn")
    p.add_argument("--modes", type=comma_list(("gpu", "offline", "server")), default=["gpu", "offline"],
                   help="comma list of gpu,offline,server; default gpu,offline")
    p.add_argument("--l2", choices=("warm", "cold"), default="cold")
    p.add_argument("--rounds", type=int, default=9, help="samples per layout in gpu and offline modes")
    p.add_argument("--min-sample-us", type=float, default=200.0)
    p.add_argument("--server-calls", type=int, default=30)
    p.add_argument("--server-gap-us", type=float, default=200.0,
                   help="mean of the exponential idle gap before each server call")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--heavy-call-us", type=float, default=200.0,
                   help="shapes whose call takes longer are warmed up by time to steady state")
    p.add_argument("--heavy-warmup-s", type=float, default=0.4,
                   help="warm-up of each heavy shape after the first (which gets 1.5 s)")
    p.add_argument("--acc", choices=("f32", "f16"), default="f32")
    p.add_argument("--out", required=True, metavar="FILE")
    p.add_argument("--command", help="stored as 'command' in the JSON; default: this script's argv")
    args = p.parse_args(argv)
    for name, low in (("rounds", 1), ("min_sample_us", 1e-3), ("server_calls", 1), ("server_gap_us", 0)):
        if not getattr(args, name) >= low:
            p.error(f"--{name.replace('_', '-')} must be >= {low}")
    if args.command is None:
        args.command = shlex.join([sys.argv[0]] + list(argv))
    return args


def read_shapes(path):
    """[(M, N, K)], or an error message naming the bad line."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        return f"cannot read shapes file {path}: {e.strerror}"
    shapes = []
    for number, line in enumerate(lines, 1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) != 3 or not all(re.fullmatch(r"[0-9]+", s) and int(s) > 0 for s in fields):
            return f"{path}:{number}: expected three positive integers 'M N K', got {line.strip()!r}"
        shapes.append(tuple(int(s) for s in fields))
    return shapes or f"{path}: no shapes in file"


def shape_class(M, N, K):
    if max(M, N, K) <= 512:
        return "tiny"
    if M <= 512 and N <= 512 and K >= 4096:
        return "tall-K"
    if K <= 256 and M >= 4096 and N >= 4096:
        return "small-K"
    if (M <= 256) != (N <= 256) and sorted((M, N, K))[1] >= 4096:  # the other two dims >= 4096
        return "skinny"
    return "large" if min(M, N, K) >= 4096 else "mid"


class Nvml:
    """Driver version, SM clock and power of device 0 through pynvml; None where it is missing."""
    def __init__(self):
        self.nv = self.handle = None
        try:
            import pynvml
            pynvml.nvmlInit()
            self.nv, self.handle = pynvml, pynvml.nvmlDeviceGetHandleByIndex(0)
        except Exception:
            pass

    def driver(self):
        try:
            version = self.nv.nvmlSystemGetDriverVersion()
            return version.decode() if isinstance(version, bytes) else version
        except Exception:
            return None

    def clock_and_power(self):
        try:
            return (self.nv.nvmlDeviceGetClockInfo(self.handle, self.nv.NVML_CLOCK_SM),
                    round(self.nv.nvmlDeviceGetPowerUsage(self.handle) / 1000, 1))
        except Exception:
            return None, None


def gemm(layout, a, b):
    return torch.matmul(a, b) if layout == "nn" else torch.matmul(a, b.t())


def b_shape(layout, N, K):
    return (K, N) if layout == "nn" else (N, K)


def check(layout, M, N, K):
    """Correctness gate on fresh inputs: 'pass' or 'fail: <reason>'."""
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(*b_shape(layout, N, K), device="cuda", dtype=torch.float16)
    out = gemm(layout, a, b)
    if not bool(torch.isfinite(out).all()):
        return "fail: NaN/Inf in output"
    if M * N * K <= 2**33:
        ref = gemm(layout, a.double(), b.double())
    else:
        with warnings.catch_warnings():  # allow_tf32 is torch's legacy switch since 2.9
            warnings.simplefilter("ignore")
            saved = torch.backends.cuda.matmul.allow_tf32
            torch.backends.cuda.matmul.allow_tf32 = False
            try:
                ref = gemm(layout, a.float(), b.float())
            finally:
                torch.backends.cuda.matmul.allow_tf32 = saved
    norm = torch.linalg.vector_norm
    err = (norm(out.to(ref.dtype) - ref, dtype=torch.float64) / norm(ref, dtype=torch.float64)).item()
    return "pass" if err <= 1e-3 else f"fail: relative Frobenius error {err:.3g} > 1e-3"


class Operands:
    """The buffer sets of one shape seen through one layout; each call uses the next set."""
    def __init__(self, layout, A, B, N, K):
        self.layout, self.next = layout, 0
        self.sets = [(A[s], B[s].view(b_shape(layout, N, K))) for s in range(A.shape[0])]

    def run(self, calls=1):
        for _ in range(calls):
            a, b = self.sets[self.next]
            self.next = (self.next + 1) % len(self.sets)
            gemm(self.layout, a, b)


def timed(work):
    """(device time by events, host wall clock) of work() in us, the whole device synchronized."""
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    t0 = time.perf_counter()
    e0.record()
    work()
    e1.record()
    torch.cuda.synchronize()
    host = (time.perf_counter() - t0) * 1e6
    return e0.elapsed_time(e1) * 1000.0, host


def warm_up(ops, seconds, est_us):
    batch = max(1, min(200, int(2000 / max(est_us, 1.0))))  # about 2 ms of work between syncs
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for op in ops.values():
            op.run(batch)
        torch.cuda.synchronize()


def graph_count(sets, n, rounds):
    """Enough graphs that successive samples walk through all buffer sets, at most one a round."""
    return 1 if sets <= n else min(rounds, math.ceil(sets / n))


def capture_graphs(op, n, count, pool):
    side = torch.cuda.Stream()  # warm-up on a side stream before capture, as torch requires
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        op.run(3)
    torch.cuda.current_stream().wait_stream(side)
    graphs = []
    for _ in range(count):
        graphs.append(torch.cuda.CUDAGraph())
        with torch.cuda.graph(graphs[-1], pool=pool):
            op.run(n)
    return graphs


def device_estimate(op, api_us, heavy_call_us):
    """Device time per call from a graph of 10 calls, so host overhead does not shorten gpu-mode
    samples of small shapes; heavy calls are device-bound already."""
    if api_us > heavy_call_us:
        return api_us
    graph = capture_graphs(op, 10, 1, torch.cuda.graph_pool_handle())[0]
    graph.replay()
    torch.cuda.synchronize()
    return min(timed(graph.replay)[0] for _ in range(3)) / 10


def idle(gap_us):
    if gap_us >= 1000:
        time.sleep(gap_us / 1e6)
        return
    end = time.perf_counter() + gap_us / 1e6
    while time.perf_counter() < end:  # busy-wait: sleep is too coarse under 1 ms
        pass


def measure_mode(mode, ops, n, args, rngs):
    """{layout: (per-call us, event us)} for one mode, layouts interleaved in shuffled rounds."""
    samples = {layout: ([], []) for layout in ops}
    if mode == "gpu":
        pool = torch.cuda.graph_pool_handle()
        graphs = {l: capture_graphs(op, n[l], graph_count(len(op.sets), n[l], args.rounds), pool)
                  for l, op in ops.items()}
    for r in range(args.server_calls if mode == "server" else args.rounds):
        order = list(ops)
        rngs["shuffle"].shuffle(order)
        for l in order:
            if mode == "gpu":
                samples[l][0].append(timed(graphs[l][r % len(graphs[l])].replay)[0] / n[l])
            elif mode == "offline":
                samples[l][0].append(timed(lambda: ops[l].run(n[l]))[0] / n[l])
            else:
                idle(rngs["gap"].exponential(args.server_gap_us))
                event, host = timed(ops[l].run)
                samples[l][0].append(host)
                samples[l][1].append(event)
    return samples


def spread(values):
    """(median, p25, p75, min), rounded; all None without samples."""
    if not values:
        return None, None, None, None
    p25, med, p75 = np.percentile(values, [25, 50, 75])
    return tuple(round(float(v), 3) for v in (med, p25, p75, min(values)))


def record(shape, layout, mode, args, verdict, samples=((), ()), calls=0, nvml=(None, None), note=""):
    M, N, K = shape
    med, p25, p75, low = spread(samples[0])
    return {"M": M, "N": N, "K": K, "class": shape_class(M, N, K), "layout": layout, "acc": args.acc,
            "impl": "torch", "mode": mode, "l2": args.l2, "verdict": verdict, "median_us": med,
            "p25_us": p25, "p75_us": p75, "min_us": low, "event_median_us": spread(samples[1])[0],
            "samples": len(samples[0]), "calls_per_sample": calls if samples[0] else 0,
            "tflops": round(2 * M * N * K / med / 1e6, 3) if med else None,
            "sm_clock_mhz": nvml[0], "power_w": nvml[1], "note": note}


def bench_shape(shape, args, state, nvml, rngs):
    """All records of one shape, every mode x layout; a layout that failed its check has no timing."""
    M, N, K = shape
    verdicts = {layout: check(layout, M, N, K) for layout in args.layouts}
    passed = [layout for layout in args.layouts if verdicts[layout] == "pass"]
    done = {}
    if passed:
        sets = 1 if args.l2 == "warm" else max(1, math.ceil(2 * state["l2_bytes"] / (2 * K * (M + N))))
        A = torch.randn(sets, M, K, device="cuda", dtype=torch.float16)
        B = torch.randn(sets, K * N, device="cuda", dtype=torch.float16)
        ops = {layout: Operands(layout, A, B, N, K) for layout in passed}
        for op in ops.values():
            op.run(2)
        est = {layout: timed(lambda: op.run(3))[0] / 3 for layout, op in ops.items()}
        heavy = max(est.values()) > args.heavy_call_us
        warm_up(ops, (args.heavy_warmup_s if state["heavy_seen"] else 1.5) if heavy else 0.01, max(est.values()))
        state["heavy_seen"] |= heavy
        est_dev = {layout: device_estimate(op, est[layout], args.heavy_call_us) for layout, op in ops.items()}
        calls_for = lambda e: {layout: min(200, max(1, math.ceil(args.min_sample_us / e[layout]))) for layout in passed}
        n_by_mode = {"gpu": calls_for(est_dev), "offline": calls_for(est), "server": {l: 1 for l in passed}}
        for mode in args.modes:
            n = n_by_mode[mode]
            samples = measure_mode(mode, ops, n, args, rngs)
            reading = nvml.clock_and_power()
            for l in passed:
                note = f"{sets} buffer set(s), estimate {est[l]:.1f} us/call (device {est_dev[l]:.1f})"
                if mode == "gpu":
                    note += f", {graph_count(sets, n[l], args.rounds)} CUDA graph(s) of {n[l]} calls"
                elif mode == "server":
                    note += ", median_us is host wall clock, event_median_us device time"
                calls = 1 if mode == "server" else n[l]
                done[mode, l] = record(shape, l, mode, args, "pass", samples[l], calls, reading, note)
    return [done.get((mode, l)) or record(shape, l, mode, args, verdicts[l])
            for mode in args.modes for l in args.layouts]


def is_oom(error):
    while error is not None:  # an OOM inside graph capture can surface as the capture's error
        if isinstance(error, torch.cuda.OutOfMemoryError):
            return True
        error = error.__context__
    return False


class Progress:
    """One line on stderr: rewritten in place on a TTY, else printed every 5% of the shapes."""
    def __init__(self, total):
        self.total, self.start, self.tty, self.step = total, time.perf_counter(), sys.stderr.isatty(), -1

    def update(self, done, shape):
        step = done * 20 // self.total
        if not self.tty and step == self.step and done != self.total:
            return
        self.step, elapsed = step, time.perf_counter() - self.start
        line = (f"torch: shape {done}/{self.total} ({'x'.join(map(str, shape))}), "
                f"elapsed {elapsed:.0f}s, estimated left {elapsed / done * (self.total - done):.0f}s")
        end = "\n" if not self.tty or done == self.total else ""
        sys.stderr.write(("\r\x1b[K" if self.tty else "") + line + end)
        sys.stderr.flush()


def run(shapes, args, nvml):
    torch.manual_seed(args.seed)
    rngs = {"shuffle": random.Random(args.seed), "gap": np.random.default_rng(args.seed)}
    state = {"heavy_seen": False, "l2_bytes": torch.cuda.get_device_properties(0).L2_cache_size}
    progress, records = Progress(len(shapes)), []
    for i, (M, N, K) in enumerate(shapes, 1):
        try:
            records += bench_shape((M, N, K), args, state, nvml, rngs)
            oom = False
        except Exception as e:
            if not is_oom(e):
                raise
            oom = True  # leaving the except block frees the shape's tensors
        if oom:
            records += [record((M, N, K), l, mode, args, "fail: out of memory")
                        for mode in args.modes for l in args.layouts]
        if oom or shape_class(M, N, K) == "large" or 2 * (K * (M + N) + M * N) >= 2**30:
            torch.cuda.empty_cache()
        progress.update(i, (M, N, K))
    return records


def environment(nvml):
    props = torch.cuda.get_device_properties(0) if torch else None
    return {"gpu": props and props.name, "sm_count": props and props.multi_processor_count,
            "l2_bytes": props and props.L2_cache_size, "driver": nvml and nvml.driver(),
            "cuda_runtime": torch and torch.version.cuda, "cublas": None,
            "host": socket.gethostname(), "torch": torch and torch.__version__}


def document(args, started, records, nvml=None, **extra):
    names = ("modes", "layouts", "l2", "rounds", "min_sample_us", "server_calls", "server_gap_us", "seed", "acc")
    return {"schema": SCHEMA, "complete": True, "command": args.command, "started_utc": started,
            "finished_utc": utc_now(), "environment": environment(nvml),
            "settings": {name: getattr(args, name) for name in names}, **extra, "records": records}


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def write_json(path, doc):
    with open(path + ".tmp", "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)


def remove(*paths):
    for path in paths:
        if os.path.lexists(path):
            os.remove(path)


def fail(message, status):
    print(f"torch_bench.py: error: {message}", file=sys.stderr)
    return status


def main(argv=None):
    global torch, np
    args = parse_args(sys.argv[1:] if argv is None else argv)
    shapes = read_shapes(args.shapes)
    if isinstance(shapes, str):
        return fail(shapes, 2)
    started = utc_now()
    try:
        remove(args.out)  # a FILE left by an earlier run must not pass for this one's
        if args.acc == "f16":
            print(f"torch_bench.py: {F16_SKIPPED}", file=sys.stderr)
            write_json(args.out, document(args, started, [], skipped=F16_SKIPPED))
            return 0
        try:
            import numpy as np
            import torch
        except ImportError as e:
            return fail(f"needs torch (built with CUDA) and numpy: {e}", 2)
        if not torch.cuda.is_available():
            return fail(f"torch {torch.__version__} sees no CUDA device", 2)
        nvml = Nvml()
        records = run(shapes, args, nvml)
        write_json(args.out, document(args, started, records, nvml))
        return 0
    except (Exception, KeyboardInterrupt) as e:
        traceback.print_exc()
        remove(args.out + ".tmp", args.out)
        return fail(f"{type(e).__name__}: {e} (no {args.out} written)", 1)


if __name__ == "__main__":
    sys.exit(main())
