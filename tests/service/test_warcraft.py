"""A Small World of Warcraft game through the service: set up, the banner and badge values asked once and
kept, conquests legal and illegal, chance faces from the table, coins private, the record at the end."""
import json
import re
from urllib.parse import quote

import pytest

from companion.cli import main
from companion.rules import pieces
from companion.rules import ruleset as rulesets
from companion.service.config import ConfigError, from_mapping
from companion.service.inputs import NewGame, Observation, Play
from companion.shuffle import seeded_setup
from companion.simulate import play as simulate

from ..warcraft.helpers import setup_with
from .helpers import Browser

WARCRAFT = rulesets.get("warcraft")


def start(service, setup):
    out = service.owner.submit(NewGame(setup, die_seed=7)).result(5)
    assert out.ok, out
    return service.store.game(out.data["game"]).setup  # as stored: with the table's values in its header


def seats(app):
    table = Browser(app).unlock()
    codes = [s["code"] for s in table.get("/api/join-codes").json]
    return table, [Browser(app).join(c) for c in codes]


def values(race, banner, badge):
    return {"action": {"act": "values", "race": race, "banner": banner, "badge": badge}}


def test_the_setup_page_starts_a_warcraft_game(app, service):
    table = Browser(app).unlock()
    page = table.page("/setup?ruleset=warcraft").data.decode()
    assert "Small World of Warcraft" in page and "SAMPLE islands" in page and "farmer" in page
    form = {"ruleset": "warcraft", "players": "Ann, Ben, Cleo", "map": "", "order": "seeded", "seed": "4"}
    assert table.post("/setup", form=form).status_code == 302
    state = table.get("/api/state").json
    assert state["ruleset"] == "warcraft" and state["rounds"] == 10
    assert state["map"] == "sample-large-1+sample-medium-1+sample-small-1"
    assert any(line.startswith("Murlocs: one token") for line in state["setup"])
    assert state["regions"]["103"]["race_title"] == "Murlocs"
    layout = table.get("/api/layout").json
    assert [i["island"] for i in layout["islands"]] == [1, 2, 3] and len(layout["regions"]) == 30
    assert next(r for r in layout["regions"] if r["id"] == 101)["entry"]

    for bad, words in (({"players": "Ann, Ben"}, b"is for 3 players; 2 named"),
                       ({"islands": "/nowhere/ours.json+sample-small-1"}, b"Unknown island"),
                       ({"map": "4p"}, b"Unknown island"),
                       ({"order": "typed", "races": "orcs, orcs"}, b"listed twice")):
        r = table.post("/setup", form={**form, "map": "sample-large-1+sample-medium-1+sample-small-1", **bad})
        assert r.status_code == 400 and words in r.data and b"Traceback" not in r.data, bad
    assert table.post("/setup", form={**form, "ruleset": "chess"}).status_code == 400
    assert table.get("/api/state").json["map"] == "sample-large-1+sample-medium-1+sample-small-1"  # kept


def test_the_values_are_asked_once_and_kept_for_the_next_games(app, service):
    start(service, setup_with("farmer orcs", "sailing naga", values=False))
    table, (ann, ben) = seats(app)
    assert ann.post("/api/action", {"action": "pick orcs"}).json["ok"]
    wanted = table.get("/api/state").json["awaiting"]
    assert wanted == {"kind": "values", "seat": 0, "race": "orcs", "race_title": "Orcs", "power": "farmer",
                      "power_title": "Farmer", "banner": None, "badge": None, "text": wanted["text"]}
    assert "Orcs banner" in wanted["text"] and "Farmer badge" in wanted["text"]
    me = ann.get("/api/seat").json
    assert me["values_wanted"]["race"] == "orcs" and me["choices"] == []  # a form, never SAMPLE buttons
    assert ben.get("/api/seat").json["values_wanted"] is None

    r = ann.post("/api/action", {"action": "conquer 101"})
    assert r.status_code == 422 and r.json["code"] == "input-first"
    assert ben.post("/api/action", values("orcs", 5, 4)).json["code"] == "not-your-turn"
    r = ann.post("/api/action", values("orcs", 25, 4))
    assert r.status_code == 422 and r.json["code"] == "bad-value"
    assert ann.post("/api/action", values("tauren", 5, 4)).json["code"] == "no-values-wanted"
    r = ann.post("/api/action", values("orcs", 6, 3))
    assert r.status_code == 200 and "Orcs banner (6)" in r.json["sentence"] and "9 tokens" in r.json["sentence"]
    assert table.get("/api/state").json["awaiting"] is None
    assert table.get("/api/state").json["players"][0]["tokens_in_hand"] == 9
    assert table.get("/api/values").json == {"races": {"orcs": 6}, "powers": {"farmer": 3}}

    # an undo takes the values back: a misread number is not kept
    assert table.post("/api/undo", {}).json["ok"]
    assert service.store.piece_values("warcraft") == {"races": {}, "powers": {}}
    assert ann.post("/api/action", values("orcs", 5, 4)).json["ok"]

    # the next game (the store is the same SQLite file) knows them: no question for the Farmer Orcs
    header = start(service, setup_with("farmer orcs", "mining naga", values=False))
    assert header.options == {"values": {"races": {"orcs": 5}, "powers": {"farmer": 4}}}
    _, (ann, ben) = seats(app)
    assert ann.post("/api/action", {"action": "pick orcs"}).json["ok"]
    state = table.get("/api/state").json
    assert state["awaiting"] is None and state["players"][0]["tokens_in_hand"] == 9

    # a known banner with a new badge: only the badge is asked; the known banner is filled in
    start(service, setup_with("mining orcs", "farmer naga", values=False))
    _, (ann, ben) = seats(app)
    assert ann.post("/api/action", {"action": "pick orcs"}).json["ok"]
    wanted = table.get("/api/state").json["awaiting"]
    assert (wanted["race"], wanted["banner"], wanted["badge"]) == ("orcs", 5, None)
    r = ann.post("/api/action", values("orcs", 6, 3))
    assert r.status_code == 422 and r.json["code"] == "values-mismatch"
    assert ann.post("/api/action", values("orcs", 5, 3)).json["ok"]
    assert service.store.piece_values("warcraft") == {"races": {"orcs": 5}, "powers": {"farmer": 4, "mining": 3}}


def test_conquests_legal_and_illegal_with_the_reason(app, service):
    start(service, setup_with("farmer orcs", "sailing naga"))
    table, (ann, ben) = seats(app)
    assert ann.post("/api/action", {"action": "pick orcs"}).json["ok"]
    r = ann.post("/api/action", {"action": "conquer 105"})
    assert r.status_code == 422 and r.json["code"] == "not-entry" and "anchor" in r.json["sentence"]
    assert table.get("/api/state").json["alerts"] == []  # Ann's phone is told; the table is not alerted
    r = ann.post("/api/action", {"action": "conquer 101"})
    assert r.status_code == 200 and "conquer region 101 (Forest, Magic; island 1)" in r.json["sentence"]
    assert table.get("/api/state").json["regions"]["101"]["tokens"] == 3  # 2 + the travel cost
    r = ann.post("/api/action", {"action": "conquer 111"})
    assert r.status_code == 422 and r.json["code"] == "not-adjacent"
    for bad, status in (("conquer 999", 400), ("pick ratmen", 400), ({"act": "values", "race": "orcs"}, 400),
                        ("use sword 101", 422), ("values orcs 5 4", 422), ("form human", 422)):
        r = ann.post("/api/action", {"action": bad})
        assert r.status_code == status and "\n" not in r.json["sentence"] and "Traceback" not in r.json["sentence"], bad
    assert table.post("/api/declare", {"region": 999}).status_code == 400
    assert service.owner.submit(Observation(object())).result(5).code == "no-camera"
    assert len(service.store.actions(service.owner.published.game_id)) == 2  # nothing lost, nothing extra


def test_a_marker_face_comes_from_the_table(app, service):
    start(service, setup_with("farmer orcs", "sailing naga"))
    table, (ann, ben) = seats(app)
    for notation in ("pick orcs", "conquer 101", "conquer 107"):  # 107 carries the island's face-down marker
        assert ann.post("/api/action", {"action": notation}).json["ok"], notation
    state = table.get("/api/state").json
    assert state["current"] is None and "region 107" in state["step"]
    choices = {c["notation"]: c["words"] for c in state["table_choices"]}
    assert len(choices) == 12 and "turned up: Doomhammer" in choices["discover 107 doomhammer"]
    r = ann.post("/api/action", {"action": "discover 107 doomhammer"})
    assert r.status_code == 409 and r.json["code"] == "not-your-turn" and "region 107" in r.json["sentence"]
    assert table.post("/api/action", {"action": "discover 107 doomhammer"}).json["ok"]
    state = table.get("/api/state").json
    assert state["regions"]["107"]["markers"] == {"Doomhammer": 1} and state["marker_symbols"]["Doomhammer"]
    assert state["table_choices"] == [] and state["current"] == 0


@pytest.fixture
def rich(monkeypatch):
    monkeypatch.setattr(pieces, "STARTING_COINS", 70000)


def test_coins_and_coin_transfers_stay_private(rich, app, service):
    setup = seeded_setup(WARCRAFT.default_map(3), 3, 2, "warcraft")
    history = simulate(setup, 2).history
    start(service, setup)
    table, phones = seats(app)
    public = []
    for action in history[: len(history) * 2 // 3]:
        assert service.owner.submit(Play(action)).result(5).ok
    game_transfers = service.owner.game.coin_transfers()
    assert game_transfers, "this seeded game moves coins outside scoring"
    for path in ("/api/state", "/api/log", "/"):
        public.append(table.get(path).data.decode())
    events = table.get("/events/table", buffered=False)
    public.append(next(c for c in events.response if b"event:" in c).decode())
    events.close()
    totals = re.compile(r"(?<!\d)7\d{4}(?!\d)")
    assert not totals.findall("\n".join(public))
    assert "transfers" not in public[0] and "Military Objective (" not in public[0]
    for i, phone in enumerate(phones):
        me = phone.get("/api/seat").json
        assert me["coins"] == service.owner.game.players[i].coins > 70000
        mine = [t for t in game_transfers if i in t[:2]]
        assert len(me["transfers"]) == len(mine)
        assert {t["coins"] for t in me["transfers"]} <= {n for *_, n, _ in mine} | {-n for *_, n, _ in mine}
        others = {str(service.owner.game.players[j].coins) for j in range(3) if j != i}
        assert not others & set(totals.findall(json.dumps(me)))


def test_a_finished_warcraft_game_its_record_and_replay(app, service, tmp_path, capsys):
    setup = seeded_setup(WARCRAFT.default_map(2), 2, 3, "warcraft")
    start(service, setup)
    for action in simulate(setup, 3).history:
        assert service.owner.submit(Play(action)).result(5).ok
    state = service.owner.published.public
    end = state["end"]
    assert state["finished"] and all(len(s["coins"]) == 11 for s in end["chart"])  # 10 rounds + the start
    assert [s["coins"][-1] for s in end["chart"]] == end["coins"]
    b = Browser(app)
    gid = service.owner.published.game_id
    page = b.page(f"/games/{gid}").data
    assert b"Winner" in page and b"Small World of Warcraft" in page
    assert b"Small World of Warcraft" in b.page("/games").data
    record = b.get(f"/games/{gid}/record.jsonl").data.decode()
    header = json.loads(record.splitlines()[0])
    assert header["ruleset"] == "warcraft" and '"act": "values"' in record  # read at the table, in the record
    path = tmp_path / "game.jsonl"
    path.write_text(record)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("sample-large-1+sample-small-1: 2 players, 10 rounds") and "winner" in out
    # the values entered are kept for the next game's header
    kept = service.store.piece_values("warcraft")
    assert kept["races"] and start(service, setup).options == {"values": kept}


def test_the_values_kept_can_be_corrected_by_the_table(app, service):
    table = Browser(app).unlock()
    anyone = Browser(app)
    assert anyone.get("/api/values?ruleset=warcraft").json == {"races": {}, "powers": {}}
    assert anyone.post("/api/values", {"ruleset": "warcraft", "races": {"orcs": 5}}).status_code == 403
    r = table.post("/api/values", {"ruleset": "warcraft", "races": {"orcs": 5, "tauren": "6"}, "powers": {"farmer": 3}})
    assert r.status_code == 200 and r.json == {"races": {"orcs": 5, "tauren": 6}, "powers": {"farmer": 3}}
    for bad, words in (({"races": {"orcs": 25}}, "0 to 20"), ({"races": {"ratmen": 3}}, "Unknown race"),
                       ({"powers": {"farmer": "x"}}, "whole number"), ({"races": [1]}, "maps names"),
                       ({"ruleset": "smallworld", "races": {"orcs": 5}}, "no values to keep")):
        r = table.post("/api/values", {"ruleset": "warcraft", **bad})
        assert r.status_code == 400 and words in r.json["sentence"] and "\n" not in r.json["sentence"], bad
    assert table.post("/api/values", {"ruleset": "warcraft", "races": {"tauren": None}}).json["races"] == {"orcs": 5}
    page = table.post("/setup/values", form={"ruleset": "warcraft", "name": "Farmer", "value": ""}).data
    assert b"farmer: forgotten" in page and service.store.piece_values("warcraft")["powers"] == {}
    page = table.post("/setup/values", form={"ruleset": "warcraft", "name": "naga", "value": "21"})
    assert page.status_code == 400 and b"from 0 to 20" in page.data
    assert b"Orcs banner" in table.page("/setup?ruleset=warcraft").data
    assert anyone.get("/api/values?ruleset=smallworld").status_code == 404


def test_layouts_of_islands_never_read_a_path_from_the_request(app, service):
    b = Browser(app)
    two = quote("sample-large-1+sample-small-1")
    assert len(b.get(f"/api/layout?map={two}&ruleset=warcraft").json["islands"]) == 2
    assert b.get("/api/layout?map=/etc/passwd&ruleset=warcraft").status_code == 404
    assert b.get(f"/api/layout?map={two}{quote('+/etc/passwd')}&ruleset=warcraft").status_code == 404
    assert b.get("/api/layout?map=4p&ruleset=chess").status_code == 404
    assert b.get("/api/layout?map=4p").json["islands"] == []


def test_the_demo_and_its_configuration_take_a_ruleset(capsys):
    demo = from_mapping({"demo": {"ruleset": "warcraft", "players": 3}}).demo
    assert demo.map == WARCRAFT.default_map(3)
    assert from_mapping({"demo": {"ruleset": "warcraft"}}).demo.map == WARCRAFT.default_map(4)
    with pytest.raises(ConfigError, match=r"\[demo\] ruleset: unknown ruleset 'chess'"):
        from_mapping({"demo": {"ruleset": "chess"}})
    with pytest.raises(ConfigError, match=r"\[demo\] map: "):
        from_mapping({"demo": {"ruleset": "warcraft", "map": "4p"}})
    assert main(["demo", "--ruleset", "chess", "--port", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("companion demo: --ruleset: unknown ruleset 'chess'") and "\n" not in err


def test_the_gnomes_player_rolls_their_free_die_from_the_phone(app, service):
    start(service, setup_with("farmer gnomes", "sailing naga"))
    table, (ann, ben) = seats(app)
    for notation in ("pick gnomes", "conquer 101", "airborne 203"):
        assert ann.post("/api/action", {"action": notation}).json["ok"], notation
    assert "airborne assault" in table.get("/api/state").json["step"]
    assert ben.post("/api/roll", {"face": 2}).json["code"] == "not-your-turn"
    r = ann.post("/api/roll", {"face": 2})
    assert r.status_code == 200 and "shows 2" in r.json["sentence"]
    assert table.get("/api/state").json["current"] == 0
