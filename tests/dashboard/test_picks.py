"""A phone's picks: each combo with its cost, the coins on it, and what its banner and badge do in the
rulebook's words (the texts of the race and power classes), at a phone's size, in Chromium."""
import pytest

from companion.rules import ruleset as rulesets
from companion.service.inputs import NewGame
from companion.shuffle import seeded_setup

from .conftest import join, needs_chromium, open_page, overflow
from .test_pages import axe_violations

pytestmark = [needs_chromium, pytest.mark.slow]


def test_picks_show_cost_coins_and_the_rulebooks_words(browser, server):
    service = server.service
    setup = seeded_setup("3p", 3, 12)
    assert service.owner.submit(NewGame(setup)).result(5).ok
    rules = rulesets.get("smallworld")
    column = service.owner.game.column
    phone = join(open_page(browser, "phone"), server.url, service.owner.published.codes[0])
    page = phone.page
    page.wait_for_selector("#picks .pick-card")
    cards = page.locator("#picks .pick-card")
    assert cards.count() == len(column) == 6
    for i, slot in enumerate(column):
        card = cards.nth(i)
        assert card.locator(".pick-cost").text_content().startswith(f"costs {i} coin" if i else "free")
        card.locator("summary").click()
        words = card.locator(".pick-text").text_content()
        assert rules.race(slot.race).text in words and rules.power(slot.power).text in words
    assert overflow(page) <= 0 and not axe_violations(page) and not phone.errors, phone.errors
    # a typo typed on the phone: one short suggestion, no list of the record format's internals
    page.click(".typed-box summary")
    page.fill("#free", "conqeur 3")
    page.click("#free-form button")
    page.wait_for_function("() => document.getElementById('result').textContent.length > 0")
    said = page.text_content("#result")
    assert said.startswith("'conqeur' is not an action: did you mean 'conquer'?") and len(said) < 120, said
    assert "detonate" not in said and "steal" not in said
    page.fill("#free", "pick trolz")
    page.click("#free-form button")
    page.wait_for_function("() => document.getElementById('result').textContent.includes('trolz')")
    assert page.text_content("#result") == "pick: unknown race 'trolz' (did you mean 'trolls'?)"
    phone.errors[:] = [e for e in phone.errors if "400" not in e]  # the refusals' status, not a page error
    # the pick costs 2: a coin on each of the two combos above it, which the table's column then shows
    page.locator("#picks .pick").nth(2).click()
    page.wait_for_function("() => !document.querySelector('#picks .pick-card')")
    assert [s.coins for s in service.owner.game.column[:2]] == [1, 1]
    page.context.close()


@pytest.mark.parametrize("size", ["phone", "screen"])
def test_the_tables_combo_column_reads_the_rulebook_too(browser, server, size):
    from .conftest import unlock
    service = server.service
    setup = seeded_setup("2p", 2, 21)
    assert service.owner.submit(NewGame(setup)).result(5).ok
    rules, column = rulesets.get("smallworld"), service.owner.game.column
    table = unlock(open_page(browser, size), server.url)
    page = table.page
    page.wait_for_selector("#combos details.combo-text")
    items = page.locator("#combos details.combo-text")
    assert items.count() == 6 and items.nth(0).locator("summary").text_content().endswith("— free")
    items.nth(3).locator("summary").click()
    # the rulebook's words come once per ruleset, after the column: wait for them under a busy machine
    page.wait_for_function("() => document.querySelectorAll('#combos details.combo-text')[3]?.open"
                           " && document.querySelectorAll('#combos details.combo-text')[3].querySelector('p')")
    words = items.nth(3).text_content()
    slot = column[3]
    assert "costs 3" in words and rules.race(slot.race).text in words and rules.power(slot.power).text in words
    assert overflow(page) <= 0 and not axe_violations(page) and not table.errors, table.errors
    assert page.request.get(f"{server.url}/api/rules/chess/texts").status == 404
    page.context.close()
