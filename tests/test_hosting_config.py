"""The hosting defaults in .streamlit/config.toml (issue 15): upload limit = corpus limit, no usage
statistics, a viewer's toolbar (no Deploy button), no reload on save."""

from __future__ import annotations

import tomllib

import pytest

from browser_support import REPO_ROOT, wait_for_app
from pages import jobs

CONFIG = tomllib.loads((REPO_ROOT / ".streamlit" / "config.toml").read_text())


def test_config_matches_the_stated_limits():
    assert CONFIG["server"]["maxUploadSize"] * 1_000_000 == jobs.MAX_CORPUS_BYTES
    assert CONFIG["server"]["runOnSave"] is False
    assert CONFIG["browser"]["gatherUsageStats"] is False
    assert CONFIG["client"]["toolbarMode"] == "viewer"


@pytest.mark.browser
def test_no_deploy_button_in_the_browser(app_server, page):
    page.goto(app_server)
    wait_for_app(page)
    page.locator('[data-testid="stToolbar"]').wait_for(state="attached", timeout=30_000)
    assert page.locator('[data-testid="stAppDeployButton"]').count() == 0
    assert page.get_by_text("Deploy", exact=True).count() == 0
