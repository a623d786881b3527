#!/bin/sh
# Installs plumometer: the binary, the udev rule that lets the seat's user read pressure devices, the systemd
# user units, the manual page and the bash/zsh/fish completions. Then reloads udev for devices already plugged in.
#
#   scripts/install.sh [--prefix DIR] [--destdir DIR] [--user-units] [--binary FILE] [--dry-run]
#
#   --prefix DIR    install the binary as DIR/bin/plumometer (default /usr/local); the units are rewritten to it
#   --destdir DIR   stage every file under DIR (packaging, tests); udev and systemd are then left alone
#   --user-units    put the units in ${XDG_CONFIG_HOME:-~/.config}/systemd/user of the user (under sudo: of the
#                   user who ran sudo, and owned by them) instead of /etc/systemd/user
#   --binary FILE   install FILE instead of building `swift build -c release --product plumometer`
#   --dry-run       print what would be done, change nothing
#   -h, --help      print this help and exit
#
# Needs root for the default locations. Build first as yourself (scripts/plumometer, or swift build -c release
# --product plumometer), then: sudo scripts/install.sh. Under sudo it installs that build and never builds as
# root. See docs/permissions.md.
set -eu

prefix=/usr/local
destdir=
user_units=0
binary=
dry_run=0
here=$(cd "$(dirname "$0")/.." && pwd)

help() { sed -n '5,17p' "$0" | sed 's/^# \{0,1\}//'; }
usage() { help >&2; exit 2; }
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
        --destdir) [ $# -ge 2 ] || usage; destdir=$2; shift 2 ;;
        --user-units) user_units=1; shift ;;
        --binary) [ $# -ge 2 ] || usage; binary=$2; shift 2 ;;
        --dry-run) dry_run=1; shift ;;
        -h|--help) help; exit 0 ;;
        *) echo "install.sh: unknown option '$1'" >&2; usage ;;
    esac
done

run() {
    echo "+ $*"
    [ "$dry_run" = 1 ] || "$@"
}

bindir="$prefix/bin"
rulesdir=/etc/udev/rules.d
# Under sudo, "the user" is the one who ran sudo, not root (scripts/lib/user-units.sh, shared with uninstall.sh).
. "$here/scripts/lib/user-units.sh"
unitdir=/etc/systemd/user
if [ "$user_units" = 1 ]; then
    user_units_target
    unitdir=$user_unit_dir
fi

if [ -z "$binary" ]; then
    binary="$here/.build/release/plumometer"
    if [ "$(id -u)" = 0 ] && [ -n "${SUDO_USER:-}" ]; then
        # Never build as root: sudo's PATH rarely has the Swift toolchain, and a root-owned .build breaks the
        # user's next build. Install what the user built.
        if [ ! -x "$binary" ]; then
            echo "install.sh: build first, as yourself: swift build -c release --product plumometer" >&2
            echo "            (or scripts/plumometer), then run sudo scripts/install.sh again" >&2
            exit 1
        fi
    else
        run swift build --package-path "$here" -c release --product plumometer
    fi
fi

run install -D -m 0755 "$binary" "$destdir$bindir/plumometer"
run install -D -m 0644 "$here/udev/70-plumometer.rules" "$destdir$rulesdir/70-plumometer.rules"
for unit in plumometer.service plumometer@.service plumometer-serve.service; do
    echo "+ sed s|/usr/local/|$prefix/| udev/$unit > $destdir$unitdir/$unit"
    if [ "$dry_run" = 0 ]; then
        mkdir -p "$destdir$unitdir"
        sed "s|/usr/local/|$prefix/|g" "$here/udev/$unit" > "$destdir$unitdir/$unit"
        chmod 0644 "$destdir$unitdir/$unit"
    fi
done
if [ "$user_units" = 1 ] && [ -n "$unit_user" ] && [ -z "$destdir" ]; then
    # Written by root into the user's home: hand the units (and the directories up to ~/.config) back, or the
    # user's own `systemctl --user enable` cannot add its links there.
    dir=$unitdir
    while [ "$dir" != "$unit_config" ] && [ "$dir" != / ]; do
        run chown "$unit_user": "$dir"
        dir=$(dirname "$dir")
    done
    run chown "$unit_user": "$unit_config" "$unitdir/plumometer.service" "$unitdir/plumometer@.service" \
        "$unitdir/plumometer-serve.service"
fi
run install -D -m 0644 "$here/docs/permissions.md" "$destdir$prefix/share/doc/plumometer/permissions.md"
run install -D -m 0644 "$here/docs/background-service.md" "$destdir$prefix/share/doc/plumometer/background-service.md"

# The manual page and the completion scripts, written by the binary from the tables behind its --help (so they
# cannot drift from it), into the directories man, bash-completion, zsh and fish search under the prefix.
generate() { # generate FILE COMMAND...: COMMAND's stdout becomes FILE (mode 0644); it must write something
    file=$1
    shift
    echo "+ $* > $file"
    [ "$dry_run" = 0 ] || return 0
    mkdir -p "$(dirname "$file")"
    "$@" > "$file.tmp"
    if [ ! -s "$file.tmp" ]; then
        rm -f "$file.tmp"
        echo "install.sh: '$*' wrote nothing; is $binary plumometer?" >&2
        exit 1
    fi
    chmod 0644 "$file.tmp"
    mv "$file.tmp" "$file"
}
generate "$destdir$prefix/share/man/man1/plumometer.1" "$binary" help --man
generate "$destdir$prefix/share/bash-completion/completions/plumometer" "$binary" completions bash
generate "$destdir$prefix/share/zsh/site-functions/_plumometer" "$binary" completions zsh
generate "$destdir$prefix/share/fish/vendor_completions.d/plumometer.fish" "$binary" completions fish

if [ -n "$destdir" ]; then
    # Nothing was installed on this system: the files are staged for a package, so there is nothing to enable.
    echo "staged under $destdir: not reloading udev or systemd"
    exit 0
elif command -v udevadm >/dev/null 2>&1; then
    run udevadm control --reload
    # "change" re-runs the rules on devices already present, so the ACL appears without a replug.
    run udevadm trigger --subsystem-match=input --action=change
else
    echo "udevadm not found: reboot or replug the device for the rule to apply" >&2
fi
echo "next: systemctl --user daemon-reload && systemctl --user enable --now plumometer.service"
echo "      (or plumometer-serve.service, the live page on http://127.0.0.1:8390/)"
