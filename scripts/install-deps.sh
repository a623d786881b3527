#!/usr/bin/env bash
# Installs the Debian packages plumometer needs to build (and, with --test, to run its test suite).
# Runs apt-get as root, or through sudo when not root, for the packages dpkg says are missing.
#
#   scripts/install-deps.sh            the build dependencies
#   scripts/install-deps.sh --test     and those of the test suite
#   scripts/install-deps.sh --package  and those of scripts/package and its tests (dpkg-dev, lintian, mmdebstrap)
#   scripts/install-deps.sh --help     print this help and exit
#
# Without a `swift` on PATH it installs the distribution's own Swift, `swiftlang` (Debian 13 and later), or stops
# and says where to get one: plumometer needs Swift 6.0 or later.
set -euo pipefail
case "${1:-}" in
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    ""|--test|--package) ;;
    *) echo "install-deps.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
esac

# libmicrohttpd-dev: the web server of `plumometer serve` (its runtime is libmicrohttpd12).
packages=(pkg-config libevdev-dev libinput-dev libudev-dev libmicrohttpd-dev)
# The oldest Swift that builds plumometer is 6.0 (Debian 13's swiftlang 6.0.3; CI builds with it:
# scripts/test-debian-swift). No swift on PATH: the distribution's package when it has one, else the way to get it.
swiftlang_candidate() { apt-cache policy swiftlang 2>/dev/null | sed -n 's/^ *Candidate: //p'; }
if ! command -v swift >/dev/null 2>&1; then
    # A fresh system may have no package lists yet: read them before deciding the distribution has no swiftlang.
    if [[ ! "$(swiftlang_candidate)" =~ ^[0-9] ]]; then
        if [[ "$(id -u)" -eq 0 ]]; then
            apt-get update -qq || true
        elif command -v sudo >/dev/null 2>&1; then
            sudo apt-get update -qq || true
        fi
    fi
    if [[ "$(swiftlang_candidate)" =~ ^[0-9] ]]; then
        # g++ brings the default GCC's libstdc++-NN-dev, whose libstdc++.a the executable links (below: swiftlang's
        # clang is not there yet to ask).
        packages+=(swiftlang g++)
    else
        echo "install-deps: no 'swift' found, and this system's packages have no swiftlang (Debian 13 has it)." >&2
        echo "  plumometer needs Swift 6.0 or later: install a toolchain from https://www.swift.org/install/linux/" >&2
        echo "  and put its usr/bin on PATH, or install the package instead: sudo apt install ./plumometer_*.deb" >&2
        exit 1
    fi
fi
# The executable links Debian's static libstdc++ (Package.swift, Link/static-libstdc++): libstdc++-NN-dev of the GCC
# whose libraries the toolchain's clang links with (the Swift toolchain itself needs it, so it is usually there).
# Debian's swiftlang keeps its clang beside swift, off PATH.
clang=$(command -v clang || true)
if [[ -z "$clang" ]] && command -v swift >/dev/null 2>&1; then
    clang=$(dirname "$(readlink -f "$(command -v swift)")")/clang
fi
if [[ -x "$clang" ]] && [[ "$("$clang" -print-file-name=libstdc++.a)" != /* ]]; then
    gcc_major="$(basename "$(dirname "$("$clang" -print-libgcc-file-name)")")"
    [[ "$gcc_major" =~ ^[0-9]+$ ]] && packages+=("libstdc++-$gcc_major-dev")
fi
if [[ "${1:-}" == "--test" ]]; then
    # umockdev emulates /dev/input/eventN for the bridge and CLI tests; evemu-tools and evtest are used to check
    # that our recordings are accepted by evemu-play and as a benchmark baseline. man-db and groff-base render
    # the manual page; bash, zsh and fish check the completion scripts; librsvg2-bin's rsvg-convert renders the
    # SVG plots to PNG, so the picture tests check them with a real renderer.
    packages+=(umockdev libumockdev-dev python3 python3-gi gir1.2-umockdev-1.0 evemu-tools evtest librsvg2-bin)
    packages+=(man-db groff-base bash zsh fish)
    # udev brings `udevadm test` and its input_id builtin, which test udev/70-plumometer.rules.
    packages+=(udev)
    # python3-pyte, a terminal emulator, reads the live view off a pseudo-terminal (Tests/Scripts/live_screen.py).
    packages+=(python3-pyte)
    # python3-yaml (PyYAML) reads our `libinput record` YAML as libinput's own tools do (RecordedNameTests).
    packages+=(python3-yaml)
    # systemd brings `systemd-analyze`, which scores and verifies the service units' sandbox.
    packages+=(systemd)
    # scripts/test-browser: `serve`'s page in Debian's Chromium, headless, driven by chromium-driver through Selenium.
    packages+=(chromium chromium-driver python3-selenium)
fi

if [[ "${1:-}" == "--package" ]]; then
    # scripts/package: dpkg-shlibdeps and dpkg-gencontrol (dpkg-dev), strip (binutils), lintian; its tests make
    # clean Debian systems with mmdebstrap.
    packages+=(dpkg-dev binutils lintian mmdebstrap)
fi

# Ask dpkg which are missing: nothing is assumed, but a machine that has them all needs no root, no network.
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi
packages=("${missing[@]}")

if [[ "$(id -u)" -eq 0 ]]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
else
    echo "install-deps: need root (or sudo) to install: ${packages[*]}" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
