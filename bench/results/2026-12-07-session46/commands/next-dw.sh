# Prepared in session 46 for the next session (either card, ~1 min): call 4 (round4.sh) again with
# the feed as committed (a cluster takes tile i+1 when its producer starts tile i, at most one
# ahead): dw-pairs.json timed on the mid K >= 1024 shapes (two seeds), the LRC counters of the 2x1
# ping-pong _dw build (groups 1 and auto), and Sm90Kernel.DynamicWalkPassesTheGate.
# Carries build/carry.tar.xz (build/bin-ab of the tree it runs on); `scripts/device_tree.sh slim`.
CALL=${CALL:-call1} exec bash bench/results/2026-12-07-session46/commands/round4.sh
