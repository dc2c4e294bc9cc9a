#!/usr/bin/env bash
# Configure and build gemmforge (Release) into build/. Needs the Debian packages .ci/run installs.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
