"""Fixtures for the site tests: one fresh build of the whole site per test session."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # for build_scripts; lvl_rules still comes from the wheel


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker these tests carry (also registered by the package tests)."""
    config.addinivalue_line("markers", "host: needs a subprocess or files outside the package")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every site test needs the repository and a subprocess: mark them `host`."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.host)


class Build:
    """A finished `mkdocs build --strict` of the site."""

    def __init__(self, site: Path, output: str) -> None:
        self.site = site
        self.output = output

    def page(self, url_path: str) -> str:
        """The HTML served at a site URL path such as ``rules/2/5/``."""
        path = self.site / url_path
        if url_path.endswith("/") or path.is_dir():
            path = path / "index.html"
        return path.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """Build the site from scratch, as CI and `make site` do."""
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    return Build(out, output)
