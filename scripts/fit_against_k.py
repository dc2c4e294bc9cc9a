#!/usr/bin/env python3
"""A call's time against K, fitted as fixed + rate × K, for gemmforge and the baseline of one bench run
each (a run of one config on shapes that differ only in K):
  fit_against_k.py RUN_DIR_OR_results.csv [...]
The intercept is what a call costs whatever its K (launch, prologue, epilogue, reduction), the slope
the main loop's time per 1024 of K. bench/NOTES.md (session 11) reads calls 5 and 10 so."""
import csv, os, sys


def fit(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return my - b * mx, b


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print("%-28s %-10s %8s %12s   %-10s %8s %12s   points" % ("run", "", "fixed us", "us/1024 K", "baseline", "fixed us", "us/1024 K"))
    for arg in sys.argv[1:]:
        path = os.path.join(arg, "results.csv") if os.path.isdir(arg) else arg
        ours, base, config, baseline = {}, {}, "", ""
        for r in csv.DictReader(open(path)):
            if r["verdict"] != "pass" or r["mode"] != "gpu":
                continue
            key = (int(r["M"]), int(r["N"]))
            if r["impl"] == "gemmforge":
                ours.setdefault(key, {})[int(r["K"])] = float(r["median_us"])
                config = r["note"].split(";")[0]
            elif r["impl"] != "gemmforge-lib":
                base.setdefault(key, {})[int(r["K"])] = float(r["median_us"])
                baseline = r["impl"]
        for key, t in sorted(ours.items()):
            ks = sorted(k for k in t if k in base.get(key, {}))
            if len(ks) < 2:
                continue
            a, b = fit(ks, [t[k] for k in ks])
            a2, b2 = fit(ks, [base[key][k] for k in ks])
            name = os.path.basename(os.path.dirname(os.path.abspath(path)))
            print("%-28s %-10s %8.2f %12.3f   %-10s %8.2f %12.3f   %dx%dxK, K %s; %s" % (
                name, "gemmforge", a, b * 1024, baseline[:10], a2, b2 * 1024, key[0], key[1],
                ",".join(map(str, ks)), config))


if __name__ == "__main__":
    main()
