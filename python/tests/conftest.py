"""Fixtures of the Python package's tests (run by ctest: PythonPackage and
PythonPackageTiming, with PYTHONPATH at the build tree's python/ folder and
VQX_CLI, VQX_TEST_DATA_DIR, VQX_CORPUS_DIR set; by hand, see
docs/python.md)."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "timing: measures wall time (ctest runs it alone: PythonPackageTiming)")


@pytest.fixture(scope="session")
def cli() -> str:
    path = os.environ.get("VQX_CLI") or str(ROOT / "build" / "release" / "vqx")
    if not os.access(path, os.X_OK):
        pytest.skip(f"the vqx command is absent ({path}): set VQX_CLI")
    return path


@pytest.fixture(scope="session")
def subset() -> pathlib.Path:
    """The corpus subset bundled with the sources (always there)."""
    return pathlib.Path(os.environ.get("VQX_TEST_DATA_DIR", ROOT / "tests" / "data")) / "corpus_subset"


@pytest.fixture(scope="session")
def corpus() -> pathlib.Path:
    """The reference corpus (../shared/corpus, or $VQX_CORPUS); skips without it."""
    path = pathlib.Path(os.environ.get("VQX_CORPUS") or os.environ.get("VQX_CORPUS_DIR")
                        or ROOT.parent / "shared" / "corpus")
    if not (path / "manifest.json").is_file():
        pytest.skip(f"the corpus is absent ({path}); set VQX_CORPUS")
    return path


@pytest.fixture(scope="session")
def p9(subset):
    """The bundled P9 pair: 176x144 4:2:0 8-bit Y4M, 10 frames."""
    return subset / "P9_tiny_176x144_420p8.y4m", subset / "P9_tiny_176x144_420p8__x264-crf45.y4m"


def run_cli(cli: str, args, tmp_path: pathlib.Path) -> dict:
    """The CLI's JSON report at full precision (--json --precision max)."""
    out = tmp_path / "cli.json"
    subprocess.run([cli, *map(str, args), "--json", "--precision", "max", "-q", "-o", str(out)],
                   check=True, capture_output=True, timeout=120)
    return json.loads(out.read_text())
