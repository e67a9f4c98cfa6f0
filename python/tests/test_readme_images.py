"""The README's images are not stale: every docs/images/*.png README.md embeds
is drawn by python/examples/readme_figures.py from a data file beside it
(docs/testing.md#the-readmes-images). Here the command, run again,
(1) computes each data file with the binary under test ($PHOTONSIM_BINARY or
build/photonsim, and the photonsim package imported) and it must equal the
stored one (timing and version are never stored), and (2) draws each PNG
from its stored data and it must equal the committed PNG byte for byte.
About 10 s: the three runs behind the images take 3 s."""

import difflib
import json
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
BINARY = os.environ.get("PHOTONSIM_BINARY", os.path.join(ROOT, "build", "photonsim"))
SCRIPT = os.path.join(ROOT, "python", "examples", "readme_figures.py")
IMAGES = os.path.join(ROOT, "docs", "images")
REGENERATE = ("regenerate the README's images and their data with `/usr/bin/python3 python/examples/readme_figures.py` "
              "(from the repository root, after scripts/setup; --photonsim PATH for another binary), "
              "then review `git diff docs/images`")

try:  # which images the command drew, from which data, with which matplotlib (it writes this file)
    with open(os.path.join(IMAGES, "readme_figures.json"), encoding="utf-8") as f:
        MANIFEST = json.load(f)
except FileNotFoundError:
    MANIFEST = {"images": {}}
DATA_FILES = sorted(set(MANIFEST["images"].values()))


def command(*args, timeout=300):
    done = subprocess.run([sys.executable, SCRIPT, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(args)}: exit {done.returncode}\n{done.stderr}{done.stdout}"
    return done


@pytest.fixture(scope="module")
def computed(tmp_path_factory):
    """The data files as the binary under test computes them now."""
    out = tmp_path_factory.mktemp("data")
    command("--data-only", "--out", str(out), "--photonsim", BINARY)
    return out


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    """The images drawn now from the stored data files."""
    out = tmp_path_factory.mktemp("images")
    command("--from-data", IMAGES, "--out", str(out))
    return out


def test_the_command_draws_every_image_the_readme_embeds():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        embedded = set(re.findall(r"\]\(docs/images/([^)\s]+\.png)\)", f.read()))
    assert embedded == set(MANIFEST["images"]), \
        (f"README.md embeds {sorted(embedded)}; readme_figures.py draws {sorted(MANIFEST['images'])}: "
         f"add the image to IMAGES in python/examples/readme_figures.py (or drop it there), then {REGENERATE}")
    for image, data in MANIFEST["images"].items():
        assert os.path.isfile(os.path.join(IMAGES, image)) and os.path.isfile(os.path.join(IMAGES, data)), \
            f"docs/images/{image} or its data docs/images/{data} is missing: {REGENERATE}"


@pytest.mark.parametrize("name", DATA_FILES)
def test_the_stored_data_is_what_the_binary_computes_now(computed, name):
    with open(os.path.join(IMAGES, name), encoding="utf-8") as f:
        stored = f.read()
    with open(computed / name, encoding="utf-8") as f:
        now = f.read()
    if stored != now:
        diff = list(difflib.unified_diff(stored.splitlines(), now.splitlines(), f"docs/images/{name} (stored)",
                                         f"{name} (computed now with {BINARY})", lineterm="", n=0))
        shown = "\n".join(diff[:30]) + (f"\n... {len(diff) - 30} more diff lines" if len(diff) > 30 else "")
        images = [image for image, data in MANIFEST["images"].items() if data == name]
        pytest.fail(f"docs/images/{name}, the data of {', '.join(images)}, is stale: {REGENERATE}\n{shown}")


@pytest.mark.parametrize("image", sorted(MANIFEST["images"]))
def test_the_committed_image_is_drawn_from_its_stored_data(drawn, image):
    with open(drawn / "readme_figures.json", encoding="utf-8") as f:
        here = json.load(f)
    renderer = {key: MANIFEST[key] for key in ("matplotlib", "freetype")}
    if {key: here[key] for key in renderer} != renderer:
        pytest.skip(f"the images were drawn with {renderer}, this machine has "
                    f"{ {key: here[key] for key in renderer} }: PNG bytes differ between versions "
                    f"(the data is still checked); {REGENERATE}")
    with open(os.path.join(IMAGES, image), "rb") as f:
        committed = f.read()
    with open(drawn / image, "rb") as f:
        now = f.read()
    if committed != now:
        pytest.fail(f"docs/images/{image} is stale: it is not what its data docs/images/{MANIFEST['images'][image]} "
                    f"draws now ({len(committed)} bytes committed, {len(now)} drawn): {REGENERATE}")
