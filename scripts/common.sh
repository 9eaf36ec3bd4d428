# Shared by scripts/run and scripts/test: install what is missing, configure, build.
# Sourced, not run. Every step says what failed and stops.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${BUILD:-$ROOT/build}"

die() { echo "carcsolo setup: $*" >&2; exit 1; }

# Debian packages the project needs to build and test.
PACKAGES=(g++ cmake make ninja-build git libboost-dev libboost-program-options-dev nlohmann-json3-dev
          doctest-dev python3
          pkg-config libcpp-httplib-dev  # carcsolo serve's HTTP server
          # the Python module (build/python) and its tests and examples
          python3-dev python3-pybind11 pybind11-dev python3-numpy python3-matplotlib
          python3-pytest python3-pandas
          libopenmpi-dev openmpi-bin)  # MPI: mpirun -np R carcsolo run (built in when found)
# What only the tests need: rsvg-convert (board PNGs), headless Chromium and chromedriver
# (the replay page's browser tests), a font for the pictures' text, PyTorch (scripts/train,
# ctest train_smoke), Node.js (ctest pages_js_syntax: the pages' scripts parse).
TEST_PACKAGES=(librsvg2-bin chromium chromium-driver fonts-dejavu-core python3-torch nodejs)
# clang with its sanitizer and libFuzzer runtimes, and LLVM's OpenMP with the Archer tool
# for ThreadSanitizer: only scripts/sanitize and scripts/fuzz (CI's second stage) need them.
SANITIZE_PACKAGES=(clang libclang-rt-14-dev libomp-dev)

install_missing() {
  local missing=()
  for p in "${PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "carcsolo setup: installing ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  # Once: the package lists of an earlier step of this run (scripts/test, then
  # scripts/sanitize in CI) are fresh enough.
  if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -mmin -120 2>/dev/null | head -1)" ]; then
    $sudo apt-get update -qq || die "apt-get update failed"
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
}

# The python3 on PATH that can import pybind11 (a pyenv or venv python3 found first may
# lack the Debian packages), as a CMake option; nothing when none can.
python_option() {
  local p
  while IFS= read -r p; do
    if "$p" -c 'import pybind11' >/dev/null 2>&1; then
      echo "-DPython_EXECUTABLE=$p"
      return 0
    fi
  done < <(type -ap python3)
  return 0
}

# Ninja for a new build folder (or one Ninja made): it compiles a target's sources while the
# libraries it links are still being built, where make waits for them (results/performance.md,
# "The build"). A folder another generator made keeps it.
generator_option() {
  if [ ! -f "$BUILD/CMakeCache.txt" ] || grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$BUILD/CMakeCache.txt"; then
    echo "-GNinja"
  fi
}

# Only the program, not the tests (scripts/study, scripts/board_example).
build_program() {
  local py gen
  py="$(python_option)"
  gen="$(generator_option)"
  cmake -S "$ROOT" -B "$BUILD" ${gen:+"$gen"} -DCMAKE_BUILD_TYPE=Release ${py:+"$py"} >/dev/null \
    || die "cmake configure failed"
  cmake --build "$BUILD" --target carcsolo -j"$(nproc)" || die "build failed (see the output above)"
}

build() {
  local py gen
  py="$(python_option)"
  gen="$(generator_option)"
  cmake -S "$ROOT" -B "$BUILD" ${gen:+"$gen"} -DCMAKE_BUILD_TYPE=Release ${py:+"$py"} "$@" >/dev/null \
    || die "cmake configure failed (see the output above)"
  cmake --build "$BUILD" -j"$(nproc)" || die "build failed (see the output above)"
}
