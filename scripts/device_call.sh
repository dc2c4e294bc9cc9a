# Sourced by one device call's script (bench/results/<run>/commands/roundN.sh), run by the device
# tool in the repository root with the binaries carried as build/carry.tar.xz (build/bin-ab: a
# copy of build/bin). `source scripts/device_call.sh call2` leaves:
#   B  the binaries' folder;  R  $OUT/call2, where the call's results go;
#   q  a function that records the card's clocks in $R/clocks.csv (called once here);
# and cubins cached in /tmp/kc for the whole call.
set -uo pipefail
export PYTHONUNBUFFERED=1
[ -f build/carry.tar.xz ] && tar xJf build/carry.tar.xz
B=${GEMMFORGE_BIN:-build/bin-ab}
export GEMMFORGE_CACHE_DIR=${GEMMFORGE_CACHE_DIR:-/tmp/kc}
R=${OUT:?the device tool sets OUT}/${1:?name the call, e.g. call1}
mkdir -p "$R"
source scripts/clocks.sh
q() { record_clocks "$R/clocks.csv"; }
q
