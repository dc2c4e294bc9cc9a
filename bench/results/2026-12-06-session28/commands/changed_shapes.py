#!/usr/bin/env python3
"""The grid shapes (M N K, one per line) where dispatch table NEW serves something else than OLD in
either layout (the config, its launch, or cuBLASLt's algorithm; the recorded speedup aside):
  changed_shapes.py NEW.json OLD.json"""
import json, sys

def entries(path):
    strip = lambda e: json.dumps({k: v for k, v in e.items() if k != "speedup_vs_cublaslt"}, sort_keys=True)
    return {(e["M"], e["N"], e["K"], e["layout"], e.get("acc")): strip(e) for e in json.load(open(path))["entries"]}

new, old = entries(sys.argv[1]), entries(sys.argv[2])
print("# shapes whose entry differs between %s and %s, M N K" % (sys.argv[1], sys.argv[2]))
for M, N, K in sorted({k[:3] for k in new.keys() | old.keys() if new.get(k) != old.get(k)}):
    print(M, N, K)
