"""The setup page in Chromium: the board follows the number of players (and says so), a board for
another number needs the table's word, "Shuffle for us" is one tap, and the physical stacks are entered
by tapping the banners and badges (chips), with the visible combos shown as they will lie."""
import pytest

from companion.rules import ruleset as rulesets

from .conftest import needs_chromium, open_page, overflow, unlock
from .test_pages import axe_violations

pytestmark = [needs_chromium, pytest.mark.slow]
BASE = rulesets.get("smallworld")


def checked(watched):
    page = watched.page
    assert overflow(page) <= 0, overflow(page)
    assert not axe_violations(page)
    assert not watched.errors, watched.errors


@pytest.mark.parametrize("size", ["phone", "screen"])
def test_the_board_follows_the_players_and_shuffle_for_us_is_one_tap(browser, server, size):
    table = unlock(open_page(browser, size), server.url)
    page = table.page
    page.goto(f"{server.url}/setup")
    page.fill("#players-field", "Ann, Ben, Cleo")
    assert page.text_content("#map-says") == "Small World, 3 players."
    assert page.locator("#map-field option").first.text_content() == "by the number of players (3)"
    assert page.is_hidden("#any-map-box")
    page.select_option("#map-field", "4p")
    assert "laid out for 4 players, and 3 are named" in page.text_content("#map-says")
    assert page.is_visible("#any-map-box")
    checked(table)
    page.select_option("#map-field", "")
    if page.locator("input[name=abandon]").count():
        page.check("input[name=abandon]")
    page.click("button:has-text('Shuffle for us')")
    page.wait_for_url(f"{server.url}/")
    page.wait_for_selector("#setup-box:not(.hidden) li")
    game = server.service.owner.game
    assert game.board.players == 3 and [p.name for p in game.players] == ["Ann", "Ben", "Cleo"]
    lines = page.locator("#setup-list li").all_text_contents()
    first = game.column[0]
    assert f"Combo 1 (costs 0): {BASE.power(first.power).title} badge beside the {BASE.race_title(first.race)} banner." in lines
    page.context.close()


def test_the_physical_stacks_are_entered_with_chips(browser, server):
    table = unlock(open_page(browser, "phone"), server.url)
    page = table.page
    page.goto(f"{server.url}/setup")
    page.fill("#players-field", "Ann, Ben")
    page.click("#stacks summary")
    races = ["trolls", "elves", "ratmen", "wizards", "orcs", "giants"]
    powers = ["hill", "flying", "stout", "merchant", "spirit", "berserk"]
    for name in races:
        page.click(f"#race-chips .chip[data-name='{name}']")
    for name in powers[:5]:
        page.click(f"#power-chips .chip[data-name='{name}']")
    assert "(1 more to tap)" in page.text_content("#typed-go")
    page.click("#race-chips .chip[data-name='orcs']")  # a tap on a chosen one takes it back
    page.click("#race-chips .chip[data-name='orcs']")
    page.click("#race-chips .chip[data-name='giants']")
    page.click("#race-chips .chip[data-name='giants']")
    page.click(f"#power-chips .chip[data-name='{powers[5]}']")
    assert page.get_attribute("#race-chips .chip[data-name='trolls']", "aria-pressed") == "true"
    preview = page.locator("#combo-preview li").all_text_contents()
    assert preview[0] == "Hill Trolls (free)" and preview[5] == "Berserk Giants (costs 5)"
    page.click("#stacks details.typed-stacks summary")
    assert page.input_value("#races-field") == ", ".join(races)
    checked(table)
    if page.locator("input[name=abandon]").count():
        page.check("input[name=abandon]")
    page.click("#typed-go")
    page.wait_for_url(f"{server.url}/")
    game = server.service.owner.game
    assert [(s.race, s.power) for s in game.column] == list(zip(races, powers))
    page.wait_for_selector("#setup-box:not(.hidden) li")
    lines = page.locator("#setup-list li").all_text_contents()
    assert any(line.startswith("The race stack, top first: ") for line in lines)
    assert any(line.startswith("The badge pile, top first: ") for line in lines)
    assert not table.errors, table.errors
    page.context.close()


@pytest.mark.parametrize("size", ["phone", "screen"])
def test_the_warcraft_setup_fits_and_names_its_islands(browser, server, size):
    table = unlock(open_page(browser, size), server.url)
    page = table.page
    page.goto(f"{server.url}/setup?ruleset=warcraft")
    page.fill("#players-field", "Ann, Ben, Cleo, Dev")
    assert page.text_content("#map-says") == "SAMPLE islands for 4 players: large 1, medium 1, medium 2, small 1."
    page.click("#stacks summary")
    page.click("#race-chips .chip[data-name='naga']")
    checked(table)
    page.context.close()


def test_a_game_in_progress_is_left_only_when_the_table_says_so(browser, server):
    from companion.service.inputs import NewGame, Play
    from companion.shuffle import seeded_setup
    from companion.simulate import play as simulate
    service = server.service
    setup = seeded_setup("2p", 2, 3)
    assert service.owner.submit(NewGame(setup)).result(5).ok
    assert service.owner.submit(Play(simulate(setup, 3).history[0])).result(5).ok
    playing = service.owner.published.game_id
    table = unlock(open_page(browser, "phone"), server.url)
    page = table.page
    page.goto(f"{server.url}/setup")
    page.fill("#players-field", "Cleo, Dev")
    page.click("button:has-text('Shuffle for us')")
    page.wait_for_selector("p.error")
    assert "A game is in progress" in page.text_content("p.error") and service.owner.published.game_id == playing
    assert page.input_value("#players-field") == "Cleo, Dev"  # nothing typed is lost
    checked(table)
    page.check("input[name=abandon]")
    page.click("button:has-text('Shuffle for us')")
    page.wait_for_url(f"{server.url}/")
    assert service.owner.published.game_id == playing + 1
    page.goto(f"{server.url}/games")
    assert f"Resume game {playing}" in page.text_content(f"#game-{playing}")
    page.context.close()
