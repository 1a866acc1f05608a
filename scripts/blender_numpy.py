"""What every Blender script here needs before it imports a glTF: numpy, with the `np.bool` alias.

Blender 3.4's glTF importer needs numpy and still uses `np.bool`, which Debian's newer numpy dropped.
A script calls `ready(report)` first: without numpy it reports a skip (the caller's tests then skip with
that reason) and exits; otherwise it puts the alias back.
"""
import sys


def ready(report):
    try:
        import numpy as np
    except ImportError:
        report({"skip": "Blender's Python has no numpy, which its glTF importer needs "
                        "(Debian: apt install python3-numpy, or set PARTGRAPH_BLENDER_PYTHONPATH)"})
        sys.exit(0)
    if not hasattr(np, "bool"):
        np.bool = bool
