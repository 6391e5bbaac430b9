"""Hypothesis profiles. The suite runs ``ci``: derandomized, so every run checks the same
examples and a green run stays green. ``benchmarks/property_sweep.py`` explores random seeds
widely; what it finds becomes a named regression test."""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
