"""The end of a game as the table sees it (scores in order, the chart with its axes, each player's coins
round by round, the record to download) and past games resumed from /games, in Chromium."""
import pytest

from companion.service.inputs import NewGame, Play
from companion.shuffle import seeded_setup
from companion.simulate import play as simulate

from .conftest import needs_chromium, open_page, overflow, unlock
from .test_pages import axe_violations

pytestmark = [needs_chromium, pytest.mark.slow]


def _finish(service, seed=8):
    setup = seeded_setup("2p", 2, seed)
    assert service.owner.submit(NewGame(setup)).result(5).ok
    game = simulate(setup, seed)
    for action in game.history:
        assert service.owner.submit(Play(action)).result(5).ok
    return service.owner.published.game_id, game


@pytest.mark.parametrize("size", ["phone", "screen"])
def test_the_end_reveals_scores_chart_and_where_the_coins_came_from(browser, server, size):
    gid, game = _finish(server.service)
    table = unlock(open_page(browser, size), server.url)
    page = table.page
    page.wait_for_selector("#end:not(.hidden) #income details")
    assert page.text_content("#round") == "The game is over"  # no "the last round!" after the end
    order = sorted(range(2), key=lambda i: -game.players[i].coins)
    names = page.locator("#totals tr td:nth-child(2)").all_text_contents()
    assert names == [game.players[i].name for i in order]
    # the chart: uPlot's axes with their labels, a legend naming each player
    assert page.locator("#chart canvas").count() == 1
    axes = page.evaluate("document.getElementById('chart').plot.axes.map(a => [a.label, a.show !== false])")
    assert axes == [["round (0: the start)", True], ["Victory coins", True]]
    label = page.get_attribute("#chart", "aria-label")
    assert all(f"{p.name} {p.coins}" in label for p in game.players)
    legend = page.locator("#chart .u-legend").text_content()
    assert all(p.name in legend for p in game.players)
    # each player's income round by round, adding up to their coins
    page.locator("#income summary").first.click()
    first = page.locator("#income details").first
    rows = first.locator("li").all_text_contents()
    assert rows and rows[0].startswith("Round ") and "regions of the" in " ".join(rows)
    totals = [int(r.split(":")[1].split()[0].replace("−", "-").replace("+", "")) for r in rows]
    assert 5 + sum(totals) == game.players[order[0]].coins
    # the record downloads
    href = page.get_attribute("#record-link", "href")
    assert href == f"/games/{gid}/record.jsonl"
    with page.expect_download() as download:
        page.click("#record-link")
    assert download.value.suggested_filename == f"game-{gid}.jsonl"
    assert overflow(page) <= 0 and not axe_violations(page) and not table.errors
    # the same end on the game's page in Games
    page.goto(f"{server.url}/games/{gid}")
    page.wait_for_selector("#income details")
    assert page.locator("#chart canvas").count() == 1
    assert overflow(page) <= 0 and not axe_violations(page) and not table.errors, table.errors
    page.context.close()


def test_an_unfinished_game_is_resumed_from_games(browser, server):
    service = server.service
    setup = seeded_setup("3p", 3, 5)
    assert service.owner.submit(NewGame(setup)).result(5).ok
    history = simulate(setup, 5).history
    for action in history[:6]:
        assert service.owner.submit(Play(action)).result(5).ok
    left = service.owner.published.game_id
    other = seeded_setup("2p", 2, 6)
    assert service.owner.submit(NewGame(other)).result(5).ok
    assert service.owner.submit(Play(simulate(other, 6).history[0])).result(5).ok
    table = unlock(open_page(browser, "phone"), server.url)
    page = table.page
    page.goto(f"{server.url}/games")
    card = page.locator(f"#game-{left}")
    assert "Unfinished: round 1 of" in card.text_content()
    card.locator("button", has_text=f"Resume game {left}").click()
    page.wait_for_selector("#resume-confirm")  # the game in progress would be left: asked first
    assert service.owner.published.game_id != left
    assert overflow(page) <= 0 and not axe_violations(page)
    page.click(f"#resume-confirm button:has-text('Resume game {left}')")
    page.wait_for_url(f"{server.url}/")
    page.wait_for_selector("#board .region")
    assert service.owner.published.game_id == left and len(service.owner.game.history) == 6
    assert len(page.locator("#player-key li").all()) == 3
    assert not table.errors, table.errors
    page.context.close()
