"""Every page at a phone's size (390x844) and a table screen's (1920x1080): no horizontal scrolling,
no console error, and zero WCAG 2 A/AA violations by axe-core (vendored, run in the page)."""
from pathlib import Path

import pytest

from companion.service.inputs import NewGame, Play
from companion.shuffle import seeded_setup
from companion.simulate import play as simulate

from .conftest import join, needs_chromium, open_page, overflow, unlock

pytestmark = [needs_chromium, pytest.mark.slow]
AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def axe_violations(page) -> list[str]:
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE)  # through the debugger, as the page's own scripts never could (CSP)
    result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", WCAG)
    return [f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(n["target"][0] if isinstance(n["target"][0], str)
            else str(n["target"]) for n in v["nodes"][:4]) for v in result["violations"]]


def check(watched, path, what):
    page = watched.page
    assert overflow(page) <= 0, f"{what} {path}: {overflow(page)} px wider than the screen"
    problems = axe_violations(page)
    assert not problems, f"{what} {path}:\n" + "\n".join(problems)
    assert not watched.errors, f"{what} {path}: {watched.errors}"


def finished_game(service, seed=8) -> int:
    """A game played to its end (for /games/ID and the end of the game on the table screen)."""
    setup = seeded_setup("2p", 2, seed)
    assert service.owner.submit(NewGame(setup)).result(5).ok
    for action in simulate(setup, seed).history:
        assert service.owner.submit(Play(action)).result(5).ok
    return service.owner.published.game_id


@pytest.mark.parametrize("size", ["phone", "screen"])
def test_every_page_fits_and_passes_axe(browser, server, size):
    service = server.service
    finished = finished_game(service)
    # the end of the game, on the table screen and a phone
    table = unlock(open_page(browser, size), server.url)
    table.page.wait_for_selector("#end:not(.hidden)")
    check(table, "/", f"{size}: the end of the game")
    for path in ("/setup", "/games", f"/games/{finished}", "/calibrate", "/no-such-page"):
        table.page.goto(server.url + path)
        table.page.wait_for_load_state("load")
        table.errors[:] = [e for e in table.errors if "404" not in e] if path == "/no-such-page" else table.errors
        check(table, path, size)
    # a game in progress: the table screen (unlocked and not), a phone, the join and unlock pages
    setup = seeded_setup("2p", 2, 9)
    assert service.owner.submit(NewGame(setup)).result(5).ok
    for action in simulate(setup, 9).history[:14]:
        assert service.owner.submit(Play(action)).result(5).ok
    table.page.goto(server.url + "/")
    table.page.wait_for_selector("#board .region")
    check(table, "/", f"{size}: the table, unlocked")
    viewer = open_page(browser, size)
    for path in ("/", "/join", "/unlock"):
        viewer.page.goto(server.url + path)
        if path == "/":
            viewer.page.wait_for_selector("#board .region")
        check(viewer, path, size)
    code = service.owner.published.codes[service.owner.published.public["current"]]
    viewer.page.goto(f"{server.url}/join/{code}")
    check(viewer, f"/join/{code}", size)
    phone = join(open_page(browser, size), server.url, code)
    phone.page.wait_for_selector("#board .region")
    check(phone, "/seat", size)
    phone.page.click("#coins-toggle")
    check(phone, "/seat (coins shown)", size)
    for w in (table, viewer, phone):
        w.page.context.close()
