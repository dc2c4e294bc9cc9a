#!/usr/bin/env python3
"""The L2 request coalescer's counters of the last profiled launch in each Nsight Compute CSV
(`ncu --csv` of one `gemmforge bench` run, .csv or .csv.xz):  lrc_table.py FILE...
Prints, per file: kernel, grid, and the sectors that arrive at the SMs, that multicast merged,
that the LRC merged by hardware, that L2's slices served, and the cycles (where present)."""
import csv, io, lzma, sys

ROWS = [("arriving at the SMs", "l1tex__m_xbar2l1tex_read_sectors.sum"),
        ("LRC to the GPCs", "lrc__xbar2gpc_sectors_op_read.sum"),
        ("merged by multicast", "lrc__request_sectors_op_read_coalescing_achieved_type_programmatic.sum"),
        ("merged by hardware", "lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum"),
        ("read from L2 slices (LRC)", "lrc__lts2lrc_sectors_op_read.sum"),
        ("L2 read sectors from the SMs", "lts__t_sectors_srcunit_tex_op_read.sum"),
        ("cycles", "sm__cycles_elapsed.avg")]


def last_launch(path):
    text = (lzma.open(path, "rt") if path.endswith(".xz") else open(path)).read()
    rows = [r for r in csv.reader(io.StringIO(text)) if len(r) > 12 and r[0] != "ID"]
    if not rows:
        return None, {}
    last = max(int(r[0]) for r in rows)
    mine = [r for r in rows if int(r[0]) == last]
    return (mine[0][4][:60], mine[0][8]), {r[12]: r[-1] for r in mine}


def main():
    for path in sys.argv[1:]:
        kernel, m = last_launch(path)
        print(f"{path}: {kernel[0] if kernel else 'no launch'} grid {kernel[1] if kernel else '-'}")
        for label, name in ROWS:
            if name in m:
                print(f"  {label:<30} {m[name]:>16}")


if __name__ == "__main__":
    main()
