"""The site variants of benchmarks/site_variants.py still apply to today's engine worker:
a variant that edits the worker finds each piece of text it replaces (when the worker
changes, the variant is mended, or the former way is measured again by hand)."""

from __future__ import annotations

import shutil
from pathlib import Path

from benchmarks.site_variants import WHEEL_IN_FSINIT, with_early_compile, with_wheel_in_fsinit

WORKER = Path(__file__).resolve().parent.parent / "docs" / "assets" / "engine" / "engine-worker.js"


def worker_after(variant, site: Path) -> str:
    """Today's engine worker in ``site``, as ``variant`` leaves it."""
    worker = site / "assets" / "engine" / "engine-worker.js"
    worker.parent.mkdir(parents=True)
    shutil.copyfile(WORKER, worker)
    variant(site)
    return worker.read_text("utf-8")


def test_the_wheel_in_fsinit_variant_applies_to_the_worker(tmp_path):
    text = worker_after(with_wheel_in_fsinit, tmp_path)
    assert "loadPackage(" not in text
    assert 1 == text.count("async function unzipInto(")
    assert "await unzipInto(FS, sitePackages, await wheelBytes);" in text
    assert all(new in text for _, new in WHEEL_IN_FSINIT)


def test_the_compile_early_variant_runs_the_former_patches_before_the_worker(tmp_path):
    text = worker_after(with_early_compile, tmp_path)
    patch = (WORKER.parents[3] / "benchmarks" / "pages" / "compile-early.js").read_text("utf-8")
    assert text.startswith(patch)
    assert text.endswith(WORKER.read_text("utf-8"))
    assert "WebAssembly.instantiateStreaming = async function" in patch
