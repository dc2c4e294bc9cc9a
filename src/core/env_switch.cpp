#include "core/env_switch.hpp"

#include <cstdlib>
#include <string>

#include "gemmforge/types.hpp"

namespace gemmforge {

void override_switch(const char* variable, bool& value) {
  const char* env = std::getenv(variable);
  if (!env || !*env) return;
  const std::string v = env;
  if (v == "1" || v == "on" || v == "true" || v == "yes") value = true;
  else if (v == "0" || v == "off" || v == "false" || v == "no") value = false;
  else throw UsageError(std::string(variable) + " must be 1 or 0 (on/off, true/false, yes/no), got '" + v + "'");
}

}  // namespace gemmforge
