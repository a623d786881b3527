# Clean Debian systems for scripts/test-package and scripts/test-debian-swift: `mmdebstrap --variant=minbase`
# tarballs, made once and kept in $PLUMOMETER_CHROOT_CACHE (default /var/cache/plumometer-chroots), unpacked afresh
# into a scratch directory for every run so each run starts clean. Sourced (bash); needs root.
#
#   chroot_tarball SUITE NAME [PACKAGE,...]   prints the cached tarball's path, making it first when missing
#   chroot_unpack TARBALL                     sets chroot_root: a fresh root unpacked from it, with /proc, ptys, DNS,
#                                             removed at exit
#   in_chroot ROOT COMMAND...                 runs COMMAND in ROOT (a login-like environment, no host PATH)

chroot_cache=${PLUMOMETER_CHROOT_CACHE:-/var/cache/plumometer-chroots}
chroot_mirror=${PLUMOMETER_DEBIAN_MIRROR:-http://deb.debian.org/debian}
chroot_roots=()

chroot_cleanup() {
    local root mount
    set +e # every root, whatever fails (a root with nothing mounted makes grep fail)
    for root in "${chroot_roots[@]}"; do
        # Everything mounted below the root (its /proc, ptys, bind mounts), deepest first, then the root itself.
        for mount in $(findmnt -rn -o TARGET | grep -F "$root/" | sort -r); do umount -l "$mount"; done
        # Never delete through a mount left behind (the checkout, the kept build directory are bind mounts).
        if findmnt -rn -o TARGET | grep -qF "$root/"; then
            echo "chroots: $root still has mounts; left in place" >&2
        else
            rm -rf --one-file-system "$root"
        fi
    done
}
trap chroot_cleanup EXIT

chroot_tarball() { # SUITE NAME [PACKAGES]
    local suite=$1 name=$2 include=${3:-}
    local tarball=$chroot_cache/$name.tar
    if [[ ! -s "$tarball" ]]; then
        mkdir -p "$chroot_cache"
        echo "chroots: making $tarball (mmdebstrap --variant=minbase $suite${include:+ --include=$include})" >&2
        mmdebstrap --quiet --variant=minbase --format=tar ${include:+--include="$include"} "$suite" \
            "$tarball.tmp" "$chroot_mirror" >&2
        mv "$tarball.tmp" "$tarball"
    fi
    echo "$tarball"
}

chroot_unpack() { # TARBALL (not in $(...): the root must be recorded in this shell, for the cleanup at exit)
    chroot_root=$(mktemp -d "${TMPDIR:-/var/tmp}/plumometer-chroot.XXXXXX")
    chroot_roots+=("$chroot_root")
    tar -C "$chroot_root" -xf "$1"
    mount -t proc proc "$chroot_root/proc"
    # Pseudo-terminals of its own (script(1), apt's log): a private devpts, and /dev/ptmx its multiplexer.
    mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$chroot_root/dev/pts"
    mount --bind "$chroot_root/dev/pts/ptmx" "$chroot_root/dev/ptmx"
    cp -L /etc/resolv.conf "$chroot_root/etc/resolv.conf" 2>/dev/null || true
}

in_chroot() { # ROOT COMMAND...
    local root=$1
    shift
    env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive chroot "$root" "$@"
}

# demo_frames_check JSONL: prints the number of frame records in JSONL, the output of `plumometer demo --fast -f
# jsonl`, after checking that every frame came out: `seq` runs 1..N without a gap (a gap is a frame skipped) and
# the last frame is stamped with the time of the bundled recording's last SYN_REPORT (none lost at the end).
# Fails (status 1, a sentence on stderr) otherwise.
demo_frames_check() {
    local jsonl=$1 recording last_event count last_seq last_time
    recording=$(dirname "${BASH_SOURCE[0]}")/../../Sources/PlumometerDemo/DemoRecording.generated.swift
    last_event=$(sed -n 's/^E: \([0-9]*\.[0-9]*\) 0000 0000 0000$/\1/p' "$recording" | tail -n 1)
    count=$(grep -c '^{"type":"frame"' "$jsonl" || true)
    last_seq=$(grep '^{"type":"frame"' "$jsonl" | tail -n 1 | sed -n 's/.*"seq":\([0-9]*\),.*/\1/p')
    last_time=$(grep '^{"type":"frame"' "$jsonl" | tail -n 1 | sed -n 's/.*"time":\([0-9.]*\),.*/\1/p')
    if ((count == 0)) || [[ "$last_seq" != "$count" ]]; then
        echo "the demo wrote $count frames, the last numbered ${last_seq:-none}: frames are missing" >&2
        return 1
    fi
    if [[ "$last_time" != "$last_event" ]]; then
        echo "the demo's last frame is at ${last_time}s, the recording's last at ${last_event}s" >&2
        return 1
    fi
    echo "$count"
}
