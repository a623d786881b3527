#!/bin/sh
# Removes what scripts/install.sh installed, with the same options, and reloads udev.
#
#   scripts/uninstall.sh [--prefix DIR] [--destdir DIR] [--user-units] [--dry-run]
#
#   --user-units    remove the units from the user's ${XDG_CONFIG_HOME:-~/.config}/systemd/user (under sudo: the
#                   user who ran sudo), where install.sh --user-units put them
#   -h, --help      print this help and exit
set -eu

prefix=/usr/local
destdir=
user_units=0
dry_run=0

here=$(cd "$(dirname "$0")/.." && pwd)

help() { sed -n '4,8p' "$0" | sed 's/^# \{0,1\}//'; }
usage() { help >&2; exit 2; }
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
        --destdir) [ $# -ge 2 ] || usage; destdir=$2; shift 2 ;;
        --user-units) user_units=1; shift ;;
        --dry-run) dry_run=1; shift ;;
        -h|--help) help; exit 0 ;;
        *) echo "uninstall.sh: unknown option '$1'" >&2; usage ;;
    esac
done

run() {
    echo "+ $*"
    [ "$dry_run" = 1 ] || "$@"
}

# The same directory as install.sh's, under sudo and without (scripts/lib/user-units.sh).
. "$here/scripts/lib/user-units.sh"
unitdir=/etc/systemd/user
if [ "$user_units" = 1 ]; then
    user_units_target
    unitdir=$user_unit_dir
fi

if [ -z "$destdir" ] && command -v systemctl >/dev/null 2>&1; then
    echo "note: stop the units first: systemctl --user disable --now plumometer.service plumometer-serve.service 'plumometer@*.service'"
fi
run rm -f "$destdir$prefix/bin/plumometer" \
    "$destdir/etc/udev/rules.d/70-plumometer.rules" \
    "$destdir$unitdir/plumometer.service" \
    "$destdir$unitdir/plumometer@.service" \
    "$destdir$unitdir/plumometer-serve.service" \
    "$destdir$prefix/share/doc/plumometer/permissions.md" \
    "$destdir$prefix/share/doc/plumometer/background-service.md" \
    "$destdir$prefix/share/man/man1/plumometer.1" \
    "$destdir$prefix/share/bash-completion/completions/plumometer" \
    "$destdir$prefix/share/zsh/site-functions/_plumometer" \
    "$destdir$prefix/share/fish/vendor_completions.d/plumometer.fish"
if [ "$dry_run" = 0 ]; then rmdir "$destdir$prefix/share/doc/plumometer" 2>/dev/null || true; fi

if [ -n "$destdir" ]; then
    echo "staged under $destdir: not reloading udev"
elif command -v udevadm >/dev/null 2>&1; then
    run udevadm control --reload
    run udevadm trigger --subsystem-match=input --action=change
fi
