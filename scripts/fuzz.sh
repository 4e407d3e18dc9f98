#!/usr/bin/env bash
# Fuzzes the decoding: builds the libFuzzer targets of tests/fuzz/ (object,
# list, watch-event and Status decoding, each checking the stream codec against
# the DOM codec; protobuf objects and watch streams, checked in any chunking)
# with clang, -fsanitize=fuzzer,address,undefined, and runs each for N seconds
# starting from a copy of the committed corpus. Installs Debian's clang when it
# is missing (needs root). Prints per target the runs made and whether it
# crashed; a crash leaves its input in the work directory (reproduce:
# <work>/bin/<target> <crash file>). Exits non-zero when any target crashed.
#   scripts/fuzz.sh [--seconds=N] [--work=DIR] [--target=NAME]...
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

usage() { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; }

seconds=60
work=/tmp/csi-fuzz
targets=()
for arg in "$@"; do
  case $arg in
    --seconds=*) seconds=${arg#*=} ;;
    --work=*) work=${arg#*=} ;;
    --target=*) targets+=("${arg#*=}") ;;
    -h | --help) usage; exit 0 ;;
    *) echo "fuzz.sh: unknown argument $arg" >&2; usage >&2; exit 2 ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  for source in tests/fuzz/*_fuzzer.cpp; do
    name=$(basename "$source" .cpp)
    targets+=("${name%_fuzzer}")
  done
fi

clang=clang++-19
if ! command -v "$clang" >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang-19 libclang-rt-19-dev >/dev/null
fi

# The decoding code and what it links: the API layer and base, as one archive
# so that only what the targets reach is linked.
flags=(-std=c++20 -O1 -g -I. -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined)
mkdir -p "$work/obj" "$work/bin"
objects=()
for source in $(find kube/api -name '*.cpp') base/*.cpp tests/fuzz/decode_cross_check.cpp \
  tests/fuzz/protobuf_check.cpp; do
  object="$work/obj/${source//\//_}.o"
  if [ ! -e "$object" ] || [ "$source" -nt "$object" ] ||
    [ -n "$(find kube/api base tests/fuzz -name '*.h' -newer "$object" -print -quit)" ]; then
    echo "compiling $source"
    nice "$clang" "${flags[@]}" -c "$source" -o "$object"
  fi
  objects+=("$object")
done
rm -f "$work/decode.a"
ar rcs "$work/decode.a" "${objects[@]}"

crashed=0
for target in "${targets[@]}"; do
  binary="$work/bin/$target"
  nice "$clang" "${flags[@]}" -fsanitize=fuzzer "tests/fuzz/${target}_fuzzer.cpp" "$work/decode.a" \
    -o "$binary"
  corpus="$work/corpus/$target"
  mkdir -p "$corpus" "$work/crashes/$target"
  cp -n tests/fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true
  log="$work/$target.log"
  rc=0
  nice "$binary" -max_total_time="$seconds" -max_len=8192 -timeout=10 \
    -artifact_prefix="$work/crashes/$target/" "$corpus" >"$log" 2>&1 || rc=$?
  runs=$(grep -oE '#[0-9]+' "$log" | tail -1)
  if [ "$rc" -ne 0 ]; then
    crashed=1
    echo "$target: CRASHED after ${runs:-?} runs (log $log, inputs in $work/crashes/$target/)"
    grep -m3 -E 'codecs disagree|protobuf decoding differs|ERROR: AddressSanitizer|runtime error' "$log" || true
  else
    echo "$target: ${runs:-?} runs in ${seconds}s, no finding (log $log)"
  fi
done
exit "$crashed"
