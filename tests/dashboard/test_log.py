"""The game log corrected in place from the table screen, in Chromium at a phone's size and a table
screen's: a move taken wrongly long ago put right where it stands, without retyping the moves after it."""
import os

import pytest

from companion.service.inputs import NewGame
from companion.shuffle import seeded_setup
from companion.simulate import play as simulate

from ..service.helpers import play
from .conftest import needs_chromium, open_page, unlock
from .test_alerts import clean

pytestmark = [needs_chromium, pytest.mark.slow]


@pytest.mark.parametrize("size", ["phone", "screen"])
def test_the_table_corrects_a_past_move_in_the_log_and_only_the_table_can(browser, server, size):
    service = server.service
    assert service.owner.submit(NewGame(seeded_setup("2p", 2, 3))).result(5).ok
    truth = simulate(seeded_setup("2p", 2, 3), 3)
    for action in truth.history[:12]:  # the Wizards' turn, then the Trolls' conquests
        assert play(service, action.notation()).ok
    assert truth.history[6].notation() == "redeploy 11:3 16:3 17:3"
    table = unlock(open_page(browser, size), server.url)
    viewer = open_page(browser, size)
    viewer.page.goto(server.url + "/")
    for w in (table, viewer):
        w.page.wait_for_selector("#log li >> nth=11")
    assert viewer.page.locator("#log button").count() == 0  # not unlocked: the log is read only
    table.page.click("#log button[aria-label^='Correct move 7:']")
    field = table.page.locator("#edit-action")
    assert field.input_value() == "redeploy 11:3 16:3 17:3"  # the move as the game has it, to change
    clean(table, f"{size}: a move's editor open")
    field.fill("redeploy 11:5 16:2 17:2")
    table.page.click("text=Put this in its place")
    assert "move 7 becomes: redeploy 11:5 16:2 17:2" in table.page.text_content("#edits")
    # a second correction gathered with it: a move that was never played... that the rules then refuse
    table.page.click("#log button[aria-label^='Correct move 2:']")
    table.page.click("text=Take this move out")
    assert table.page.locator("#edits li").count() == 2
    if os.environ.get("SHOTS"):
        table.page.screenshot(path=f"{os.environ['SHOTS']}/log-{size}.png", full_page=True)
    table.page.click("#edits-save")
    table.page.wait_for_selector("#log-msg.error")
    assert "no longer fits" in table.page.text_content("#log-msg")  # which move, and the rules' reason
    assert [e for e in table.errors if "422" in e] == table.errors[:1]  # the refusal's answer, said above
    table.errors.clear()
    assert service.owner.game.history[6].notation() == "redeploy 11:3 16:3 17:3"  # nothing changed
    assert table.page.locator("#edits li").count() == 2  # still there, to change
    table.page.click("#edits-discard")
    table.page.wait_for_selector("#edits-box.hidden", state="attached")
    table.page.click("#log button[aria-label^='Correct move 7:']")
    table.page.fill("#edit-action", "redeploy 11:5 16:2 17:2")
    table.page.click("text=Put this in its place")
    table.page.click("#edits-save")
    table.page.wait_for_selector("#log-msg.ok")
    assert "action 7 is now redeploy 11:5 16:2 17:2" in table.page.text_content("#log-msg")
    assert service.owner.game.history[6].notation() == "redeploy 11:5 16:2 17:2"
    assert [a.notation() for a in service.owner.game.history[7:]] == [a.notation() for a in truth.history[7:12]]
    gid = service.owner.published.game_id
    assert service.store.actions(gid)[6].notation() == "redeploy 11:5 16:2 17:2"
    for w in (table, viewer):  # every screen shows the corrected board: region 11 holds 5 Wizards
        w.page.wait_for_function("() => document.querySelector('#board [data-region=\"11\"]')"
                                 ".getAttribute('aria-label').includes('5')")
    if os.environ.get("SHOTS"):
        table.page.screenshot(path=f"{os.environ['SHOTS']}/log-saved-{size}.png", full_page=True)
    clean(table, f"{size}: the log corrected")
    for w in (table, viewer):
        assert not w.errors, w.errors
        w.page.context.close()
