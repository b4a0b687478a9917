"""The site variants of benchmarks/site_variants.py still apply to today's engine worker
(when the worker changes, the variant is mended, or the former way is measured again by
hand)."""

from __future__ import annotations

import shutil
from pathlib import Path

from benchmarks.site_variants import with_early_compile

WORKER = Path(__file__).resolve().parent.parent / "docs" / "assets" / "engine" / "engine-worker.js"


def test_the_compile_early_variant_runs_the_former_patches_before_the_worker(tmp_path):
    worker = tmp_path / "assets" / "code-0123456789" / "engine" / "engine-worker.js"
    worker.parent.mkdir(parents=True)
    shutil.copyfile(WORKER, worker)
    with_early_compile(tmp_path)
    text = worker.read_text("utf-8")
    patch = (WORKER.parents[3] / "benchmarks" / "pages" / "compile-early.js").read_text("utf-8")
    assert text.startswith(patch)
    assert text.endswith(WORKER.read_text("utf-8"))
    assert "WebAssembly.instantiateStreaming = async function" in patch
