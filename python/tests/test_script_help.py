"""Every executable script under scripts/ takes --help: it prints what the
script does and exits 0 at once, without installing, building or running
anything (scripts/test --help used to run the whole suite)."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))


def executable_scripts():
    found = []
    for folder, _, files in os.walk(os.path.join(ROOT, "scripts")):
        for name in sorted(files):
            path = os.path.join(folder, name)
            if os.access(path, os.X_OK) and not name.endswith((".sh", ".pyc")):
                found.append(os.path.relpath(path, ROOT))
    return sorted(found)


@pytest.mark.parametrize("script", executable_scripts())
def test_help_prints_and_exits_at_once(script):
    command = [os.path.join(ROOT, script), "--help"]
    if script.endswith(".py"):
        command = [sys.executable] + command
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"{script} --help: exit {done.returncode}\n{done.stderr}"
    assert len(done.stdout.strip()) > 40, f"{script} --help printed too little: {done.stdout!r}"


def test_an_unknown_argument_to_setup_or_test_is_refused():
    for script in ("scripts/setup", "scripts/test"):
        done = subprocess.run([os.path.join(ROOT, script), "--bogus"], cwd=ROOT, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 2, script
        assert "--help" in done.stderr, done.stderr
