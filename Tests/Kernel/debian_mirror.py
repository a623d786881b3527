"""Print the Debian mirror that the machine's own apt sources use for bookworm (the kernel tier reads its
backports suites from the same host; no host name is written into the repository)."""

import glob
import sys


def mirrors():
    for path in sorted(glob.glob("/etc/apt/sources.list") + glob.glob("/etc/apt/sources.list.d/*")):
        try:
            text = open(path, encoding="utf-8").read()
        except OSError:
            continue
        if path.endswith(".sources"):  # deb822
            for stanza in text.split("\n\n"):
                fields = {}
                for line in stanza.splitlines():
                    if ":" in line and not line.lstrip().startswith("#") and not line.startswith(" "):
                        key, value = line.split(":", 1)
                        fields[key.strip().lower()] = value.split()
                if "deb" in fields.get("types", []) and "bookworm" in fields.get("suites", []):
                    yield from fields.get("uris", [])
        else:  # one-line style
            for line in text.splitlines():
                words = [w for w in line.split() if not w.startswith("[") and not w.endswith("]")]
                if len(words) >= 3 and words[0] == "deb" and words[2] == "bookworm":
                    yield words[1]


for uri in mirrors():
    if not uri.startswith("cdrom:"):
        print(uri.rstrip("/"))
        sys.exit(0)
sys.exit(1)
