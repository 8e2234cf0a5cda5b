"""Smoke test: the app loads in a real browser without a Streamlit exception."""

import pytest
from browser_support import wait_for_app

pytestmark = pytest.mark.browser


def test_app_loads_without_exception(app_server, page):
    response = page.goto(app_server)
    assert response is not None and response.ok, f"GET {app_server} failed"
    wait_for_app(page)
    assert page.locator('[data-testid="stApp"]').count() == 1
    exceptions = page.locator('[data-testid="stException"]')
    assert exceptions.count() == 0, exceptions.first.inner_text()
