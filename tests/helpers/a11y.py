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


def audit_light_and_dark(page: Any, where: str, problems: dict[str, list[str]]) -> None:
    """``page`` audited light, then dark, into ``problems`` (``where (scheme)``), one load for
    both: the pages follow the system turning dark while they are open (the element's Dark
    option too: tests/test_web_play.py). The page is left light."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        problems[f"{where} ({scheme})"] = serious_violations(page)
    page.emulate_media(color_scheme="light")
