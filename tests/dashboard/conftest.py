"""The dashboard in a real browser: Debian's Chromium driven by Playwright, one browser and one service
per test module (each test sets up its own game), pages at a phone's size and a table screen's."""
import shutil

import pytest


from ..service.helpers import ARGS, CHROMIUM, TABLE_CODE, live_server

PHONE = {"width": 390, "height": 844}
SCREEN = {"width": 1920, "height": 1080}
SIZES = {"phone": PHONE, "screen": SCREEN}

needs_chromium = pytest.mark.skipif(not shutil.which(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)")


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with live_server(tmp_path_factory.mktemp("data")) as s:
        yield s


class Watched:
    """A page whose console errors and failed requests are kept: every test asserts there are none."""

    def __init__(self, page):
        self.page, self.errors = page, []
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))


def open_page(browser, size="screen", reduced_motion="no-preference"):
    context = browser.new_context(viewport=SIZES[size], reduced_motion=reduced_motion)
    return Watched(context.new_page())


def unlock(watched, url):
    page = watched.page
    page.goto(f"{url}/unlock")
    page.fill("input[name=code]", TABLE_CODE)
    page.click("button:has-text('Unlock')")
    page.wait_for_url(f"{url}/")
    return watched


def join(watched, url, code):
    page = watched.page
    page.goto(f"{url}/join/{code}")
    page.click("main button:has-text('Join')")  # the QR code's page: one button
    page.wait_for_url(f"{url}/seat")
    return watched


def overflow(page) -> int:
    """How many CSS pixels the page is wider than the viewport (0: no horizontal scrolling)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
