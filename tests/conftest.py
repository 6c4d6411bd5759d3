"""Shared test configuration: the hypothesis profiles.

Choose one with the environment variable ``HYPOTHESIS_PROFILE``:

- ``default``: 60 examples per property, no deadline (the local default);
- ``ci``: 300 examples, no deadline, failure blobs printed (``.ci/run`` picks it
  when ``CI`` is set);
- ``dev``: 20 examples, for a quick loop while editing.

Deadlines are off because the time of one example depends on how long a random
game runs and on the machine, not on a regression.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("dev", parent=settings.get_profile("default"), max_examples=20)

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
