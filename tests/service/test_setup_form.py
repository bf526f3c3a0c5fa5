"""The setup form: the map follows the number of players unless the table overrides it, maps are named
by their names, and the physical stacks may be entered from the visible combos alone."""
import html

from companion.rules import ruleset as rulesets

from .helpers import Browser

BASE = rulesets.get("smallworld")


def test_the_map_follows_the_number_of_players(app, service):
    table = Browser(app).unlock()
    page = table.page("/setup").data.decode()
    assert "Small World, 4 players" in page and ">4p<" not in page
    assert table.post("/setup", form={"players": "Ann, Ben, Cleo", "order": "seeded"}).status_code == 302
    assert table.get("/api/state").json["map"] == "3p"
    assert table.post("/setup", form={"players": "Ann, Ben, Cleo, Dev, Eli", "order": "seeded", "abandon": "yes"}).status_code == 302
    assert table.get("/api/state").json["map"] == "5p"


def test_a_board_for_another_number_needs_the_tables_word(app, service):
    table = Browser(app).unlock()
    form = {"players": "Ann, Ben, Cleo", "map": "4p", "order": "seeded"}
    r = table.post("/setup", form=form)
    text = r.data.decode()
    assert r.status_code == 400 and "Small World, 4 players is laid out for 4 players and 3 are named" in text
    assert "Play this board with 3 players anyway" in text and service.owner.game is None
    assert table.post("/setup", form={**form, "any_map": "yes"}).status_code == 302
    assert table.get("/api/state").json["map"] == "4p"


def test_the_visible_combos_are_enough_and_the_rest_is_said(app, service):
    table = Browser(app).unlock()
    races, powers = BASE.race_names()[::-1][:6], BASE.power_names()[3:9]
    form = {"players": "Ann, Ben", "order": "typed", "races": ", ".join(races), "powers": "\n".join(powers)}
    assert table.post("/setup", form=form).status_code == 302
    state = table.get("/api/state").json
    assert [(c["race"], c["power"]) for c in state["combos"]] == list(zip(races, powers))
    game = service.owner.game
    assert sorted(game.race_stack) == sorted(set(BASE.race_names()) - set(races))
    stack_line = next(line for line in state["setup"] if line.startswith("The race stack, top first"))
    pile_line = next(line for line in state["setup"] if line.startswith("The badge pile, top first"))
    assert BASE.race_title(game.race_stack[0]) in stack_line and len(pile_line.split(": ")[1].split(", ")) == len(game.power_stack)


def test_stacks_entered_wrong_get_one_sentence(app, service):
    table = Browser(app).unlock()
    base = {"players": "Ann, Ben", "order": "typed", "powers": ", ".join(BASE.power_names()[:6])}
    for races, words in (("orcs, elves", "Enter at least the 6 race banners of the visible combos, top first (2 entered)."),
                         ("orcs, elvs, trolls, ratmen, giants, wizards", "there is no 'elvs'; did you mean 'elves'?"),
                         ("orcs, orcs, trolls, ratmen, giants, wizards", "'orcs' is listed twice")):
        r = table.post("/setup", form={**base, "races": races})
        assert r.status_code == 400 and words in html.unescape(r.data.decode()), races
    assert service.owner.game is None
