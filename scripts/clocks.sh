# Sourced: record_clocks FILE appends the card's state (read only; nothing is changed) to a CSV
# file, writing its header first if the file is new. Every device call records it beside its
# results before and after each step, so a number can be read against the clock it ran at.
record_clocks() {
  [ -f "$1" ] || echo "timestamp,name,driver,sm_mhz,mem_mhz,max_sm_mhz,power_w,power_limit_w,temp_c" > "$1"
  nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu \
    --format=csv,noheader >> "$1"
}
