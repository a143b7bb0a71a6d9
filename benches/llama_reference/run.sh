#!/usr/bin/env bash
# Builds llama.cpp from the source heat vendors (llama-cpp-sys-2 in the cargo
# registry, the version in Cargo.lock) with its own defaults (native CPU
# features), then bench.cpp against it, and runs it on the default model.
# Usage: benches/llama_reference/run.sh [MODEL.gguf]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
version=$(grep -A1 'name = "llama-cpp-sys-2"' "$here/../../Cargo.lock" | sed -n 's/version = "\(.*\)"/\1/p')
src=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/llama-cpp-sys-2-"$version"/llama.cpp | head -1)
build="${LLAMA_REFERENCE_BUILD:-/tmp/heat-llama-reference}"
model="${1:-${HEAT_DATA_DIR:-$HOME/.local/share/heat}/models/SmolLM2-135M-Instruct.Q4_1.gguf}"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DLLAMA_CURL=OFF \
  -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_SERVER=OFF \
  -DLLAMA_BUILD_COMMON=OFF -DLLAMA_BUILD_APP=OFF >/dev/null
cmake --build "$build" --target llama -j "$(nproc)" >/dev/null
libs=$(find "$build" -name '*.a' | sort -r | tr '\n' ' ')
g++ -O2 -std=c++17 -I"$src/include" -I"$src/ggml/include" "$here/bench.cpp" \
  -Wl,--start-group $libs -Wl,--end-group -fopenmp -lpthread -o "$build/llama-reference"
"$build/llama-reference" "$model"
