#!/usr/bin/env python3
"""Chosen metrics side by side from Nsight Compute raw pages (`ncu --import R --page raw`, gzipped or not):
  ncu_raw_metrics.py NAME=FILE [NAME=FILE ...] [--metrics m1,m2,...]
Default metrics: duration, SM clock, DRAM bytes read, bytes from L2 to the SMs (crossbar), L2 read
sectors and requests from the SMs, tensor-pipe activity. bench/NOTES.md (session 11, call 7)."""
import gzip, sys

DEFAULT = ["gpu__time_duration.sum", "sm__cycles_elapsed.avg.per_second", "dram__bytes_read.sum",
           "l1tex__m_xbar2l1tex_read_bytes.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
           "lts__t_requests_srcunit_tex_op_read.sum",
           "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", "launch__grid_size",
           "launch__cluster_dim_x"]


def read(path):
    opener = gzip.open if path.endswith(".gz") else open
    values = {}
    with opener(path, "rt") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and "__" in parts[0]:
                values.setdefault(parts[0], " ".join(parts[1:]))
    return values


def main():
    args = sys.argv[1:]
    metrics = DEFAULT
    if "--metrics" in args:
        i = args.index("--metrics")
        metrics = args[i + 1].split(",")
        del args[i:i + 2]
    if not args or any("=" not in a for a in args):
        sys.exit(__doc__)
    runs = [(n, read(p)) for n, p in (a.split("=", 1) for a in args)]
    print("%-72s " % "metric (unit value)" + " ".join("%22s" % n for n, _ in runs))
    for m in metrics:
        print("%-72s " % m + " ".join("%22s" % v.get(m, "-") for _, v in runs))


if __name__ == "__main__":
    main()
