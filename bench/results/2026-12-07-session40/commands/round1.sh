# Session 40, call 1 (either card: each tunes its own table's problems).
# (1) The Sm90Kernel GPU tests: every config of theirs also runs as the default space builds it
# (with_space_knobs: lean cluster sync where multicast) with the fast walk, the gate the fast walk
# must pass before with_space_knobs sets it too. (Not run in session 40: no machine started. Its
# tune below is meant for after that: with the fast walk in the space, every Hopper finalist has
# a twin; before it, only the multicast ones.)
# (2) `gemmforge tune --space-twins` on commands/space-twin-shapes-<card>.txt
# (pick_space_twin_shapes.py on tables/<card>.json): each decided problem's Hopper finalists are
# measured again built with the space's knobs, and the final is run again. The databases are the
# shipped tables' own (the H200's: session 29, call1.tar.gz: call1/tune/db; the H100's: session
# 35, call3.tar.xz: call3/tune/db), carried on the CPU machine to this kernel source by
# `gemmforge db carry`, pruned to that source's rows and carried as build/tunedb-<card>.tar.xz.
# The tune stops starting shapes at its time limit and its database comes back (callN/tune/db),
# so a later call goes on: CALL=call2 SKIP_TESTS=1 with that database carried the same way.
# Never run as written here; session 41's round1.sh is this script with the tune's binaries
# chosen by the gate's outcome, so this one runs it with the committed build's (bin-ab), the tune
# as session 40 planned it.
TUNE_BIN=${TUNE_BIN:-build/bin-ab} exec bash bench/results/2026-12-07-session41/commands/round1.sh
