"""Which build `import photonsim` loads: inside a photonsim checkout, that checkout's.

scripts/setup puts one build on /usr/bin/python3's path (photonsim.pth), the
default outside any checkout. Inside a checkout (the working directory or a
folder below it) whose build/python holds the package, `import photonsim`
loads that build instead, so a second clone's setup never re-points the
first clone's Python. A package put on the path on purpose (PYTHONPATH) is
kept, and PHOTONSIM_KEEP_BUILD=1 keeps whichever the path found."""

import os
import sys
import warnings


def checkout_of(path):
    """The photonsim checkout holding `path` (a folder with CMakeLists.txt and python/photonsim/), or None."""
    path = os.path.abspath(path)
    while True:
        if os.path.isfile(os.path.join(path, "CMakeLists.txt")) and os.path.isfile(
                os.path.join(path, "python", "photonsim", "_checkout.py")):
            return path
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent


def build_to_import(package_dir):
    """The build/python folder to import photonsim from instead of `package_dir`'s, or None to keep it."""
    if os.environ.get("PHOTONSIM_KEEP_BUILD") or getattr(sys, "_photonsim_switched_build", False):
        return None  # asked to keep it, or already switched once
    here = os.path.dirname(os.path.abspath(package_dir))  # the folder on the path: .../build/python
    chosen = [os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if here in chosen:
        return None
    try:
        checkout = checkout_of(os.getcwd())
    except OSError:  # a removed working directory
        return None
    if checkout is None:
        return None
    # The checkout this package's files are links into (build/python/photonsim/*.py -> python/photonsim/).
    mine = checkout_of(os.path.dirname(os.path.realpath(os.path.join(package_dir, "_checkout.py"))))
    if mine == checkout:
        return None
    wanted = os.path.join(checkout, "build", "python")
    if os.path.realpath(wanted) == os.path.realpath(here):  # the same build by another name (a link)
        return None
    if os.path.isfile(os.path.join(wanted, "photonsim", "__init__.py")):
        return wanted
    warnings.warn(f"photonsim: importing the build in {here}; the working directory is in the checkout {checkout}, "
                  f"which has no build/python yet (scripts/setup there builds it)", stacklevel=3)
    return None
