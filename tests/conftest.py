"""Shared test settings: a deterministic Hypothesis profile, loaded unless one is named."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", deadline=None, max_examples=50, derandomize=True, database=None)
settings.register_profile("dev", deadline=None, max_examples=200)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
