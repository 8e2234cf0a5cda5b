"""How many examples a property test tries: the number it asks for in the full run, a tenth of that in a
developer's quick run (``--hypothesis-profile=fast``, registered in conftest.py).

A test's own ``@settings(max_examples=...)`` would override any profile, so tests write
``max_examples=examples(n)`` and the loaded profile scales ``n``.
"""

from __future__ import annotations

from hypothesis import settings

FULL = 100  # hypothesis's default max_examples: the profile of the full run


def examples(n: int) -> int:
    """``n`` under the full run's profile, scaled by the loaded profile's ``max_examples`` otherwise."""
    return max(1, n * settings.default.max_examples // FULL)
