"""What the tests share: the Hypothesis profiles and the fixtures used by more than one file.

The suite runs the Hypothesis profile ``ci``: derandomized, so every run checks the same examples
and a green run stays green. ``benchmarks/property_sweep.py`` explores random seeds widely; what
it finds becomes a named regression test."""

import os
import shutil

import pytest
from hypothesis import settings

from spaghetti.solver.search import _csearch

settings.register_profile("ci", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture()
def client(tmp_path):
    """The web app on a fresh database, through Starlette's test client (the computer moves at
    once; the server's draws from a fixed seed, so a test plays the same games every run)."""
    from starlette.testclient import TestClient

    from spaghetti.web import create_app

    with TestClient(create_app(str(tmp_path / "games.db"), autoplay_delay=0, seed=0)) as c:
        yield c


#: The exact searches a solver test runs on: the C one where the extension is built, and Python.
BACKENDS = [pytest.param("c", marks=pytest.mark.skipif(
    _csearch is None, reason="the C extension spaghetti.solver._csearch is not built")), "python"]


@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param


#: Debian's chromium, driven by Playwright for the browser tier (``.ci/run`` installs both).
CHROMIUM = os.environ.get("SPAGHETTI_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture()
def browser():
    """A headless Chromium; the test is skipped, with the reason, without Playwright or it."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()
