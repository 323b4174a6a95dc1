"""axe-core's verdict on a page (tests/test_web_a11y.py, tests/test_web_a11y_languages.py):
axe-core comes with the Python package axe-playwright-python (dev extras); it looks inside
the element's open shadow root."""

from __future__ import annotations

from typing import Any

SERIOUS = ("serious", "critical")


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page, one line each."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + "; ".join(f"{n['target']} {n.get('failureSummary', '')}" for n in v["nodes"][:3])
        for v in found
        if v["impact"] in SERIOUS
    ]
