"""The calibration pages in Chromium at a phone's size and a table screen's: styled like the rest, no
horizontal scrolling, zero axe-core violations, progress shown while a step works, and a click on the
photo (scaled to the screen) lands where it was made."""
import json

import pytest

from .conftest import needs_chromium, open_page, unlock
from .test_alerts import clean

pytestmark = [needs_chromium, pytest.mark.slow]
STEPS = ["", "camera", "markers", "reference", "regions", "tokens", "check"]


@pytest.mark.parametrize("size", ["phone", "screen"])
def test_the_calibration_pages_fit_show_progress_and_take_clicks_where_made(browser, server, size):
    w = unlock(open_page(browser, size), server.url)
    page = w.page
    page.goto(server.url + "/calibrate/camera")
    page.click("#choose-map")
    page.wait_for_selector("#choose-map + .working.done")
    assert "Map 2p" in page.text_content("#choose-map + .working")
    page.click("#camera-check")
    page.wait_for_selector("#camera-check + .working.done")
    assert page.text_content("#camera-advice")
    page.goto(server.url + "/calibrate/reference")
    page.click("#reference")  # a picture taken and checked: a few seconds
    assert page.is_disabled("#reference")  # the button waits ...
    assert page.is_visible("#reference + .working .spinner")  # ... and the work shows
    assert "Taking the empty board" in page.text_content("#reference + .working")
    page.wait_for_selector("#reference + .working.done", timeout=60000)
    assert page.is_enabled("#reference")
    assert page.text_content("#reference + .working").startswith("✓ Empty board taken")
    for step in STEPS:
        page.goto(f"{server.url}/calibrate/{step}")
        page.wait_for_load_state("load")
        if step == "regions":
            page.wait_for_selector("#prompt[data-region]", state="attached")
        clean(w, f"{size}: /calibrate/{step}")
    # the regions step: a click in the middle of the photo, however the photo is scaled to the screen
    page.goto(server.url + "/calibrate/regions")
    page.wait_for_selector("#prompt[data-region]", state="attached")
    view = page.evaluate("async () => (await fetch('/calibrate/api/regions')).json()")
    box = page.locator("#overlay").bounding_box()
    with page.expect_request("**/calibrate/api/regions/seed") as seeded:
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    sent = json.loads(seeded.value.post_data)
    (w_px, h_px), (ox, oy), k = view["size_px"], view["origin_mm"], view["px_per_mm"]
    assert abs(sent["x_mm"] - (ox + w_px / 2 / k)) < 2 and abs(sent["y_mm"] - (oy + h_px / 2 / k)) < 2
    assert not w.errors, w.errors
    page.context.close()


def test_a_step_that_fails_says_why_beside_its_button(browser, server):
    w = unlock(open_page(browser, "phone"), server.url)
    page = w.page
    page.goto(server.url + "/calibrate/camera")
    page.fill("#house-map", "/no/such/house.json")
    page.click("#choose-map")
    page.wait_for_selector("#choose-map + .working.failed")
    assert page.text_content("#choose-map + .working").startswith("✗ ")
    assert "house.json" in page.text_content("#choose-map + .working")
    assert page.is_enabled("#choose-map")
    w.errors[:] = [e for e in w.errors if "400" not in e]  # the API's answer to a bad file
    assert not w.errors, w.errors
    page.context.close()
