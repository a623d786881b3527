"""The environment a child process needs to see a umockdev testbed created by this (Python) process."""
import os


def child_env(testbed):
    """os.environ plus UMOCKDEV_DIR and the preload library.

    GLib's setenv in Testbed.new() does not reach os.environ, so both are passed explicitly.
    """
    env = dict(os.environ)
    env["UMOCKDEV_DIR"] = testbed.get_root_dir()
    preload = env.get("LD_PRELOAD", "")
    if "libumockdev-preload" not in preload:
        env["LD_PRELOAD"] = ("libumockdev-preload.so.0 " + preload).strip()
    return env
