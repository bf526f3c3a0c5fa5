"""The whole guided calibration in Chromium (Playwright, headless) against the simulated camera."""
import re
import shutil

import pytest

from calibration import board, regions
from calibration.reference import rectified_view

from ..service.helpers import ARGS, CHROMIUM, TABLE_CODE, live_server


pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not shutil.which(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]


@pytest.fixture
def server(tmp_path):
    with live_server(tmp_path) as s:
        s.data = tmp_path
        yield s


def test_guided_calibration_in_chromium(server, table):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    expect = sync_api.expect
    expect.set_options(timeout=30000)  # a shared machine can be slow; nothing here asserts a time
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_context().new_page()
            page.set_default_timeout(30000)
            page.goto(f"{server.url}/unlock")
            page.fill("input[name=code]", TABLE_CODE)
            page.click("button:has-text('Unlock')")
            page.wait_for_url(f"{server.url}/")
            # 1. camera
            page.goto(f"{server.url}/calibrate/camera")
            page.select_option("#map", "2p")
            page.click("#choose-map")
            expect(page.locator("#choose-map + .working")).to_contain_text("Map 2p")  # said beside the button
            page.click("#camera-check")
            expect(page.locator("#camera-advice")).to_contain_text("px/mm")
            page.click("#camera-lock")
            expect(page.locator("#camera-lock + .working")).to_contain_text("locked")
            # 2. markers
            page.goto(f"{server.url}/calibrate/markers")
            page.click("#watch")
            expect(page.locator("#stable")).to_have_text("Registration is stable.")
            expect(page.locator("#seen")).to_have_text("0, 1, 2, 3")
            # 3. the empty board
            page.goto(f"{server.url}/calibrate/reference")
            page.click("#reference")
            expect(page.locator("#reference + .working")).to_contain_text("Empty board taken")
            # 4. regions: one click inside each region, in the order asked
            page.goto(f"{server.url}/calibrate/regions")
            view = rectified_view(board.for_map("2p"))
            prompt = page.locator("#prompt")
            expect(prompt).to_contain_text("Click inside region 0 (Sea)")
            shown = page.evaluate("() => document.getElementById('board').naturalWidth")
            scale = page.locator("#overlay").bounding_box()["width"] / shown  # the photo fits the screen
            for _ in range(len(table.geometry.regions)):
                rid = int(prompt.get_attribute("data-region"))
                x, y = view.to_px(regions.inner_point(table.geometry.regions[rid]))
                page.click("#overlay", position={"x": float(x) * scale, "y": float(y) * scale})
                expect(prompt).not_to_have_attribute("data-region", str(rid))
            page.click("#grow")
            expect(page.locator("#calibrate")).to_have_attribute("data-grown", "yes")
            assert page.locator("#overlay polygon.outline").count() == len(table.geometry.regions)
            # this printed board has every adjacency of its map: nothing to tell the player
            expect(page.locator("#grow + .working")).to_have_text("✓ Outlines grown; every adjacent pair touches.")
            assert page.locator("#problems li").count() == 0
            # fix one region by dragging a corner of its outline
            x, y = view.to_px(regions.inner_point(table.geometry.regions[8]))
            page.click("#overlay", position={"x": float(x) * scale, "y": float(y) * scale})
            vertex = page.locator("#overlay circle.vertex").first
            box = vertex.bounding_box()
            cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            page.mouse.move(cx, cy)
            page.mouse.down()
            page.mouse.move(cx + 1, cy)
            page.mouse.up()
            page.click("#save-outline")
            saved = page.locator("#save-outline + .working")
            expect(saved).to_have_class(re.compile(r"done|failed"))  # the answer, or why it was refused
            expect(saved).to_have_text("✓ Outline saved.")
            # 5. tokens
            page.goto(f"{server.url}/calibrate/tokens")
            page.fill("#kinds", "elves,elves-decline,orcs,lost-tribe")
            # the tray as the camera sees it, with the places to lay the first kind ringed
            with page.expect_response(lambda r: "/calibrate/tray.png?kind=elves&" in r.url) as shown:
                page.dispatch_event("#kinds", "change")
            assert shown.value.status == 200 and shown.value.headers["content-type"] == "image/png"
            for _ in range(4):
                kind = page.locator("#token-prompt").get_attribute("data-kind")
                page.click("#capture")
                expect(page.locator("#capture + .working")).to_contain_text(f"{kind} tokens cut out")
            expect(page.locator("#token-prompt")).to_have_text("Every kind is captured: learn them.")
            page.click("#enroll")
            expect(page.locator("#enroll + .working")).to_contain_text("Learned 4 kinds")
            page.click("#selftest")
            expect(page.locator("#selftest + .working")).to_contain_text(re.compile(r"Self-test: \d+ of \d+ tokens right"))
            # 6. the check
            page.goto(f"{server.url}/calibrate/check")
            page.click("#check")
            expect(page.locator("#ready")).to_have_text("Ready: a game can start.")
            assert (server.data / "calibration" / "geometry.json").is_file()
        finally:
            browser.close()
