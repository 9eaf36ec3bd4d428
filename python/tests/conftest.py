"""Shared by the module's tests: the program beside the module, and running it."""
import json
import os
import subprocess

import pytest

import carcsolo  # noqa: F401  (fails loudly when the module cannot be imported)

PROGRAM = os.environ.get("CARCSOLO")


@pytest.fixture
def cli(tmp_path):
    """cli(*args) -> CompletedProcess of the carcsolo program (set by ctest: CARCSOLO)."""
    assert PROGRAM, "CARCSOLO (the program's path) is not set; run the tests through ctest"

    def run(*args, check=True):
        p = subprocess.run([PROGRAM, *map(str, args)], capture_output=True, text=True, cwd=tmp_path)
        if check:
            assert p.returncode == 0, p.stderr
        return p
    return run


def load(path):
    with open(path) as f:
        return json.load(f)


def without_performance(doc):
    """A document but for its `performance` (wherever it is: top level and in every run),
    which also holds the command line it records (the options as given)."""
    doc = {k: v for k, v in doc.items() if k != "performance"}
    if "runs" in doc:
        doc["runs"] = [without_performance(r) for r in doc["runs"]]
    return doc


def read_logs(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]
