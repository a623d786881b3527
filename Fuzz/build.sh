#!/bin/bash
# Builds the libFuzzer harnesses into Fuzz/.build (not SwiftPM's .build: these are separate binaries).
#
# The package's own sources are compiled directly, module by module, with coverage instrumentation
# (-sanitize=fuzzer) and AddressSanitizer; each harness links them into one executable whose main is libFuzzer's.
# Usage: Fuzz/build.sh            (prints the directory that holds the four binaries)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out="$here/.build"
mkdir -p "$out"
rm -f "$out"/fuzz-* "$out"/*.o
# The linker warns about every ASan helper symbol it cannot export; nothing else is hidden.
quiet() { grep -v "warning: Cannot export" >&2 || true; }
swiftc=${SWIFTC:-swiftc}
flags="-sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g
    -enable-upcoming-feature InternalImportsByDefault -enable-upcoming-feature ExistentialAny"

# PlumometerCore, then PlumometerRecording (the bundled demo is a target of its own).
core_sources=$(find "$root/Sources/PlumometerCore" -name '*.swift' | sort)
recording_sources=$(find "$root/Sources/PlumometerRecording" -name '*.swift' | sort)

# shellcheck disable=SC2086
"$swiftc" $flags -wmo -module-name PlumometerCore -emit-module -emit-module-path "$out/PlumometerCore.swiftmodule" \
    -c $core_sources -o "$out/PlumometerCore.o" 2>&1 | quiet
# shellcheck disable=SC2086
"$swiftc" $flags -wmo -module-name PlumometerRecording -I "$out" \
    -emit-module -emit-module-path "$out/PlumometerRecording.swiftmodule" \
    -c $recording_sources -o "$out/PlumometerRecording.o" 2>&1 | quiet

for harness in evemu libinput-record decoder limits; do
    case $harness in
        evemu) file=EvemuFuzz.swift ;;
        libinput-record) file=LibinputRecordFuzz.swift ;;
        decoder) file=DecoderFuzz.swift ;;
        limits) file=LimitsFuzz.swift ;;
    esac
    # shellcheck disable=SC2086
    "$swiftc" $flags -I "$out" "$here/Harnesses/$file" "$here/Harnesses/Invariants.swift" "$here/Harnesses/Replay.swift" \
        "$out/PlumometerCore.o" "$out/PlumometerRecording.o" -lm -o "$out/fuzz-$harness" 2>&1 | quiet
    test -x "$out/fuzz-$harness"
done
echo "$out"
