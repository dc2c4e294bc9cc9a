# Session 41, call 2 (either card): round1.sh again after one kernel change. Call 1 (H100) found
# the fast walk's twins 0.2-0.3 µs slower than their plain builds on every short launch (their
# three divisors, ~300 instructions of double division, ran after the grid-dependency wait,
# before the first loads); now fast-walk builds make their scheduler before that wait, where PDL
# overlaps it with the previous kernel's tail (hgemm_ws.cuh; other builds' code is unchanged:
# db carry rebuilt every kernel of both tables to the same code). The carry holds the new tree's
# builds: bin-ab as committed, bin-fw with `c.fast_walk = true;` in with_space_knobs; the tune
# databases are session 40's, carried to the new kernel source on the CPU machine.
# (1) Sm90Kernel GPU tests (bin-ab), every config with its fast-walk twin: the gate again, the
#     kernels changed. (2) If they pass, `tune --space-twins` with bin-fw as in call 1, until the
#     call's time is up: the twins' final against their plain builds, problem by problem, beside
#     call 1's (on the H100 the same problems in the same order).
exec bash bench/results/2026-12-07-session41/commands/round1.sh
# Not run in session 41: after call 1, eleven tries failed to start or were refused, and at the
# twelfth the device time left (250 s) was too little to start a machine. Meant to run whole (the defaults: every
# Sm90Kernel test, CALL_S=570) with the databases carried to kernel source 4322e1e2
# (build/tunedb-<card>.tar.xz, made as in bench/NOTES.md [session41]). TESTS_FILTER picks fewer
# tests where device time is short (the PDL test runs a fast-walk build too).
# Since then FastDivisor makes its multipliers from float reciprocals instead of double divisions
# (bench/NOTES.md [session41]): the call measures both changes together.
