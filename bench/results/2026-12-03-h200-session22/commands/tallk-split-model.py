# Session 22: what a one-launch split-K of this project's design can reach on the tall-K shapes,
# from rates measured on this H200, against cuBLASLt-autotune's time in session 21's grid run
# (gpu mode, best layout). Per shape, the least modelled time over tiles and part counts that fit
# one wave (CTAs <= 132):
#   fixed   launch and the tile counters: 2.7 us with parts > 1 (this session's probe: 128 CTAs
#           that only arrive, wait and depart, replayed from a graph), 1.0 us unsplit
#   first   the first stage's arrival: 0.7 us
#   loop    max(the CTA's A and B bytes at the TMA delivery rate per SM, its tensor work at
#           4096 FLOP per clock and SM at 1980 MHz); delivery 64 GB/s per SM (session 18's probe,
#           each SM its own lines) or 97 GB/s (the best any of our kernels received, session 11)
#   reduce  the partial tile (BM x BN x 4 bytes) published at 27 GB/s per SM and a tile's worth
#           read back at 35 GB/s (session 14's traces), parts > 1 only
# Usage: python3 tallk-split-model.py GRID_RESULTS_CSV
import csv, math, sys

TILES = [(64, 16), (64, 32), (64, 64), (64, 128), (128, 64), (128, 128), (128, 256), (256, 128)]
SMS, CLOCK, FLOP_PER_CLK = 132, 1.98e9, 4096

def model(M, N, K, bm, bn, parts, delivery):
    tiles = math.ceil(M / bm) * math.ceil(N / bn)
    if tiles * parts > SMS or K / parts < 4 * 64:
        return None
    kpart = K / parts
    loop = max((bm + bn) * kpart * 2 / delivery, 2 * bm * bn * kpart / (FLOP_PER_CLK * CLOCK))
    t = (2.7e-6 if parts > 1 else 1.0e-6) + 0.7e-6 + loop
    if parts > 1:
        t += bm * bn * 4 / 27e9 + bm * bn * 4 / 35e9
    return t * 1e6

def best(M, N, K, delivery):
    out = None
    for bm, bn in TILES:
        for parts in range(1, 33):
            t = model(M, N, K, bm, bn, parts, delivery)
            if t is not None and (out is None or t < out[0]):
                out = (t, f"{bm}x{bn} k{parts}")
    return out

lt = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r['class'] == 'tall-K' and r['impl'] == 'cublaslt-autotune' and r['verdict'] == 'pass':
        s = (int(r['M']), int(r['N']), int(r['K']))
        lt[s] = min(lt.get(s, 1e9), float(r['median_us']))
print("shape             cuBLASLt  model@64GB/s (tile)      ratio  model@97GB/s (tile)      ratio")
logs = {64e9: [], 97e9: []}
byk = {}
for s in sorted(lt):
    cells = []
    for d in (64e9, 97e9):
        t, how = best(*s, d)
        logs[d].append(math.log(lt[s] / t))
        byk.setdefault((s[2], d), []).append(math.log(lt[s] / t))
        cells.append(f"{t:8.2f} ({how:12}) {lt[s] / t:6.3f}")
    print(f"{'x'.join(map(str, s)):17} {lt[s]:8.2f}  " + "  ".join(cells))
for d, v in logs.items():
    print(f"geomean cuBLASLt / model at {d / 1e9:.0f} GB/s per SM: {math.exp(sum(v) / len(v)):.3f} over {len(v)} shapes")
for (k, d), v in sorted(byk.items()):
    print(f"  K = {k:5}: {math.exp(sum(v) / len(v)):.3f} at {d / 1e9:.0f} GB/s")
# How far the design's fixed costs cap it: the same model with faster delivery.
for d in (145e9, 300e9, 1e12):
    v = [math.log(lt[s] / best(*s, d)[0]) for s in lt]
    print(f"with delivery at {d / 1e9:.0f} GB/s per SM: {math.exp(sum(v) / len(v)):.3f}")
