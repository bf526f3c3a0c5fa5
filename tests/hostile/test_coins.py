"""No coin total leaks through a refusal: a sentence naming a hidden total goes only to its own
player's phone; the table, another phone and the scoring box read that the player cannot pay."""
import ast
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.rules import Game
from companion.rules import actions as A
from companion.rules.game import CHANCE
from companion.rules.warcraft import actions as W
from companion.service import wording
from companion.shuffle import seeded_setup
from companion.simulate import choose

from ..service.helpers import Browser, make_service, new_game
from ..warcraft.helpers import game_with, play

RULES = Path(__file__).resolve().parents[2] / "companion" / "rules"


def _reasons():
    """Every ``Reason(code, sentence)`` the rules can build, with whether the sentence reads a coin total."""
    for path in sorted(RULES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Reason" and len(node.args) == 2:
                code, sentence = node.args
                if not isinstance(code, ast.Constant):
                    continue
                names = {n.attr for n in ast.walk(sentence) if isinstance(n, ast.Attribute)}
                names |= {n.id for n in ast.walk(sentence) if isinstance(n, ast.Name)}
                words = " ".join(n.value for n in ast.walk(sentence)
                                 if isinstance(n, ast.Constant) and isinstance(n.value, str)).lower()
                total = "coins" in names or "coin" in words and "you have" in words
                yield code.value, total, f"{path.name}:{node.lineno}"


def test_every_reason_that_reads_a_coin_total_is_hidden():
    found = list(_reasons())
    assert len({c for c, _, _ in found}) >= 60  # the walk sees the rules' reasons
    hidden = {(code, where) for code, total, where in found if total}
    assert {c for c, _ in hidden} >= {"not-enough-coins", "cannot-pay"}
    for code, where in hidden:
        assert code in wording.HIDDEN_TOTALS, f"{where}: {code} names a coin total but is not hidden"


def _with_coins(game: Game, seat: int, coins: int) -> Game:
    other = game.copy()
    other.players[seat].coins = coins
    return other


def _candidates(game: Game) -> list:
    ids = list(game.board.ids)
    out = [A.Pick(s.race) for s in game.column] + [A.Conquer(r) for r in ids] + [A.Decline(), A.EndTurn()]
    if game.rules.name == "warcraft":
        out += [W.Enlist(n) for n in (1, 2, 3)] + [W.Form("worgen")]
        out += [W.Use(item, r) for item in ("doomhammer", "frostmourne") for r in ids[:12]]
    return out


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), ruleset=st.sampled_from(["smallworld", "warcraft"]), stop=st.integers(0, 120))
def test_no_public_refusal_depends_on_a_coin_total(seed, ruleset, stop):
    """Property over both rulesets: change the acting player's coins (keeping the same refusal) and
    the sentence the table reads stays the same word for word."""
    map_name = "2p" if ruleset == "smallworld" else "sample-large-1+sample-small-1"
    game = Game(seeded_setup(map_name, ["Ann", "Ben"], seed, ruleset))
    rng = random.Random(seed)
    while not game.finished and len(game.history) < stop:
        game.apply(choose(game, rng))
    if game.finished or game.current_player == CHANCE:
        return
    seat = game.turn.player
    for action in _candidates(game):
        heard: dict[str, set[str]] = {}
        for coins in (0, 1, 2, 3, 7, 40):
            other = _with_coins(game, seat, coins)
            reason = other.explain(action)
            if reason is not None:
                for reader in (None, 1 - seat):
                    heard.setdefault(reason.code, set()).add(
                        wording.refusal(other, reason.code, reason.sentence, reader))
        for code, sentences in heard.items():
            assert len(sentences) == 1, (action, code, sentences)


@pytest.mark.parametrize("setup, action", [
    (lambda g: g, W.Form("worgen")),
])
def test_warcraft_worgen_form_without_coins(setup, action):
    g = play(game_with("farmer worgen"), "pick worgen")
    g.players[0].coins = 0
    reason = g.explain(action)
    assert reason.code == "not-enough-coins"
    assert "Ann cannot pay" in wording.refusal(g, reason.code, reason.sentence, None)
    assert "none" not in wording.refusal(g, reason.code, reason.sentence, None)
    assert wording.refusal(g, reason.code, reason.sentence, 0) == reason.sentence


def test_the_table_reads_ann_cannot_pay_and_her_phone_reads_her_total(tmp_path):
    from companion.service.web import create_app
    service = make_service(tmp_path)
    try:
        new_game(service)
        app = create_app(service, testing=True)
        game = service.owner.game
        dear = game.column[5].race  # costs 5 coins: Ann has 5, then 2
        service.owner.game.players[0].coins = 2
        table = Browser(app).unlock()
        r = table.post("/api/action", {"action": f"pick {dear}"})
        assert r.status_code == 422 and r.json["code"] == "not-enough-coins"
        assert r.json["sentence"].startswith("Ann cannot pay") and "you have" not in r.json["sentence"]
        assert "2" not in r.json["sentence"].replace("(", " ").split("costs")[0]
        phone = Browser(app).join(service.owner.published.codes[0])
        r = phone.post("/api/action", {"action": f"pick {dear}"})
        assert r.status_code == 422 and "you have 2" in r.json["sentence"]
        other = Browser(app).join(service.owner.published.codes[1])
        assert "you have" not in other.get("/api/state").data.decode()
    finally:
        service.close()
