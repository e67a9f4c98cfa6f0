"""The example notebook is its script's cells (scripts/dev/notebook_from_script.py)."""

import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))


def test_the_notebook_is_the_scripts_cells():
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "dev", "notebook_from_script.py"), "--check"],
                   check=True)
