"""Past games: resuming an unfinished game (also after a restart), and the end's coins round by round,
whose items add up to every player's total in both rulesets."""
import pytest

from companion.rules import ruleset as rulesets
from companion.service import ledger
from companion.service.inputs import NewGame, Play
from companion.shuffle import seeded_setup
from companion.simulate import play as simulate

from .helpers import Browser, make_service, new_game, play


def _two_games(service):
    """Game 1 left unfinished after a few actions, game 2 in progress."""
    new_game(service, seed=3)
    assert play(service, f"pick {service.owner.game.column[0].race}").ok
    first = service.owner.published.game_id
    new_game(service, seed=4)
    assert play(service, f"pick {service.owner.game.column[1].race}").ok
    return first, service.owner.published.game_id


def test_an_unfinished_game_is_resumed_from_the_list_after_a_confirmation(app, service):
    first, second = _two_games(service)
    table = Browser(app).unlock()
    page = table.page("/games").data.decode()
    assert f'action="/games/{first}/resume"' in page and f'action="/games/{second}/resume"' not in page
    # a game is in progress: the first press asks, and nothing changes
    r = table.post(f"/games/{first}/resume", form={})
    assert r.status_code == 200 and "leaves it unfinished" in r.data.decode() and 'name="confirm" value="yes"' in r.data.decode()
    assert service.owner.published.game_id == second
    r = table.post(f"/games/{first}/resume", form={"confirm": "yes"})
    assert r.status_code == 302 and service.owner.published.game_id == first
    assert len(service.owner.game.history) == 1 and service.owner.published.public["game"] == first
    # the game left is unfinished in the list, and can be resumed in turn
    assert f'action="/games/{second}/resume"' in table.page("/games").data.decode()


def test_a_resumed_game_is_the_one_played_after_a_restart(tmp_path):
    service = make_service(tmp_path)
    try:
        first, second = _two_games(service)
        from companion.service.inputs import Resume
        assert service.owner.submit(Resume(first)).result(5).ok
    finally:
        service.close()
    again = make_service(tmp_path)
    try:
        assert again.owner.published.game_id == first
        new_game(again, seed=5)  # a new game is the one played from then on
    finally:
        again.close()
    third = make_service(tmp_path)
    try:
        assert third.owner.published.game_id == second + 1
    finally:
        third.close()


def test_resuming_needs_the_table_and_an_unfinished_game(app, service):
    first, _ = _two_games(service)
    viewer = Browser(app)
    viewer.page("/games")
    assert viewer.post(f"/games/{first}/resume", form={"confirm": "yes"}).status_code == 403
    table = Browser(app).unlock()
    assert table.post("/games/999/resume", form={"confirm": "yes"}).status_code == 404
    setup = seeded_setup("2p", 2, 8)
    assert service.owner.submit(NewGame(setup)).result(5).ok
    for action in simulate(setup, 8).history:
        assert service.owner.submit(Play(action)).result(5).ok
    done = service.owner.published.game_id
    r = table.post(f"/games/{done}/resume", form={"confirm": "yes"})
    assert r.status_code == 409 and "is over" in r.data.decode()


@pytest.mark.parametrize("ruleset, seed", [("smallworld", 8), ("smallworld", 11), ("warcraft", 3)])
def test_each_players_coins_round_by_round_add_up_to_their_total(ruleset, seed):
    rules = rulesets.get(ruleset)
    map_name = rules.default_map(3) if ruleset == "warcraft" else "3p"
    game = simulate(seeded_setup(map_name, 3, seed, ruleset), seed)
    assert game.finished
    book = ledger.ledger(game)
    start = book["points"][0]
    for seat, rows in enumerate(book["rounds"]):
        assert start[seat] + sum(r["total"] for r in rows) == game.players[seat].coins
        for r in rows:
            assert sum(n for _, n in r["items"]) == r["total"] and all(isinstance(w, str) and w for w, _ in r["items"])
        assert [r["round"] for r in rows] == sorted({r["round"] for r in rows})
    # a pick that costs shows as paid; each turn's scoring shows its regions
    words = [w for rows in book["rounds"] for r in rows for w, _ in r["items"]]
    assert any(w.startswith("regions of the ") for w in words)
    assert len(book["points"]) == game.rounds + 1 and book["points"][-1] == [p.coins for p in game.players]


def test_the_end_shows_no_last_round_and_carries_the_income(service):
    setup = seeded_setup("2p", 2, 8)
    assert service.owner.submit(NewGame(setup)).result(5).ok
    history = simulate(setup, 8).history
    for action in history[:-1]:
        assert service.owner.submit(Play(action)).result(5).ok
    assert service.owner.published.public["last_round"]
    assert service.owner.submit(Play(history[-1])).result(5).ok
    public = service.owner.published.public
    assert public["finished"] and not public["last_round"]
    assert len(public["end"]["income"]) == 2 and all(public["end"]["income"])
