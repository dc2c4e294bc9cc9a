// On/off settings that an environment variable may override (the runtime library's
// $GEMMFORGE_MEASURE_NEW_SHAPES, $GEMMFORGE_TABLE_FROM_OTHER_GPU, $GEMMFORGE_STAGE_UNALIGNED), read
// the same way everywhere.
#pragma once

namespace gemmforge {

// Leaves `value` as it is when `variable` is unset or empty; sets it for 1/on/true/yes and
// 0/off/false/no; throws UsageError for anything else.
void override_switch(const char* variable, bool& value);

}  // namespace gemmforge
