"""Every route through Flask's test client: status, who may call it, clear 4xx errors."""
import re
import json


from .helpers import TABLE_CODE, Browser, first_events, new_game, play, seen_out_of_reach, until_attempt


def test_table_page_and_state_without_a_game(app):
    b = Browser(app)
    r = b.page("/")
    assert r.status_code == 200 and b"board" in r.data
    assert r.headers["X-Frame-Options"] == "DENY" and "default-src 'self'" in r.headers["Content-Security-Policy"]
    assert b.get("/api/state").json["no_game"]
    assert b.get("/api/layout").status_code == 404


def test_session_cookie_is_httponly_and_strict(app):
    r = Browser(app).page("/")
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_every_post_needs_the_csrf_token(app, service):
    new_game(service)
    b = Browser(app).unlock()
    for path in ("/api/action", "/api/roll", "/api/undo", "/api/alerts/1", "/setup", "/unlock", "/join",
                 "/lock", "/leave"):
        r = b.client.post(path, json={"action": "pick tritons"})
        assert r.status_code == 403, path
        assert b"Traceback" not in r.data
    r = b.client.post("/api/action", json={}, headers={"X-CSRF-Token": "forged"})
    assert r.status_code == 403 and r.json["error"] == "forbidden"


def test_host_check(app):
    b = Browser(app)
    assert b.get("/", headers={"Host": "evil.example"}).status_code == 400
    assert b.get("/api/state", headers={"Host": "evil.example:8000"}).json["error"] == "bad-request"
    assert b.get("/", headers={"Host": "192.168.1.20:8000"}).status_code == 200
    assert b.get("/", headers={"Host": "localhost:8000"}).status_code == 200


def test_unlock_with_the_table_code(app):
    b = Browser(app)
    b.page("/unlock")
    r = b.post("/unlock", form={"code": "WRONG1"})
    assert r.status_code == 403 and b"not the table code" in r.data
    r = b.post("/unlock", form={"code": TABLE_CODE.lower(), "next": "//evil.example/"})
    assert r.status_code == 302 and r.headers["Location"] == "/"
    assert b.post("/lock", form={}).status_code == 302
    assert b.get("/api/join-codes").status_code == 403


def test_setup_page(app, service):
    b = Browser(app)
    assert b.page("/setup").status_code == 302  # to the unlock page
    assert b.post("/setup", form={"players": "A, B", "map": "2p"}).status_code == 403
    b.unlock()
    assert b"A new game" in b.page("/setup").data
    r = b.post("/setup", form={"players": "Ann\nBen\nCleo", "map": "3p", "order": "seeded", "seed": "4"})
    assert r.status_code == 302
    pub = b.get("/api/state").json
    assert [p["name"] for p in pub["players"]] == ["Ann", "Ben", "Cleo"] and pub["setup"]
    assert any("Lost Tribe" in line for line in pub["setup"])
    bad = b.post("/setup", form={"players": "Solo", "map": "3p", "order": "seeded"})
    assert bad.status_code == 400 and b"2 to 5 players" in bad.data
    races = "trolls, " * 14
    bad = b.post("/setup", form={"players": "A, B", "map": "2p", "order": "typed", "races": races, "powers": ""})
    assert bad.status_code == 400 and b"listed twice" in bad.data
    from companion.rules import ruleset
    rules = ruleset.get("smallworld")
    typed = {"players": "A, B", "map": "2p", "order": "typed", "races": ", ".join(reversed(rules.race_names())),
             "powers": "\n".join(rules.power_names())}
    assert b.post("/setup", form=typed).status_code == 302
    assert b.get("/api/state").json["combos"][0]["race"] == rules.race_names()[-1]


def test_join_codes_and_seats(app, service):
    new_game(service)
    table = Browser(app).unlock()
    seats = table.get("/api/join-codes").json
    assert [s["name"] for s in seats] == ["Ann", "Ben"] and seats[0]["url"].endswith(f"/join/{seats[0]['code']}")
    ann = Browser(app)
    assert ann.page("/seat").status_code == 302
    ann.page("/join")
    assert ann.post("/join", form={"code": "NOPE00"}).status_code == 403
    assert ann.post("/join", form={"code": seats[0]["code"].lower()}).status_code == 302
    assert ann.get("/api/seat").json["name"] == "Ann"
    ben = Browser(app).join(seats[1]["code"])
    assert ben.get("/api/seat").json["name"] == "Ben"
    stranger = Browser(app)
    r = stranger.page("/join/ZZZZZZ")  # the QR code's page: one button, never a join by GET
    assert r.status_code == 200 and b"Join with code ZZZZZZ" in r.data
    assert stranger.get("/api/seat").status_code == 403
    assert stranger.post("/join", form={"code": "ZZZZZZ"}).status_code == 403
    assert ben.post("/leave", form={}).status_code == 302 and ben.get("/api/seat").status_code == 403


def seat_browsers(app):
    table = Browser(app).unlock()
    seats = table.get("/api/join-codes").json
    return table, [Browser(app).join(s["code"]) for s in seats]


def test_actions_from_phones(app, service):
    new_game(service)
    table, (ann, ben) = seat_browsers(app)
    assert Browser(app).post("/api/action", {"action": "pick tritons"}).status_code == 403
    r = ben.post("/api/action", {"action": "pick tritons"})
    assert r.status_code == 409 and r.json["code"] == "not-your-turn"
    assert ann.post("/api/action", {"action": "pick nobody"}).status_code == 400
    assert ann.post("/api/action", {"action": "conquer 99"}).status_code == 400
    assert ann.post("/api/action", {"action": "fly 3"}).status_code == 400
    assert ann.post("/api/action", {"action": 7}).status_code == 400
    r = ann.post("/api/action", {"action": {"act": "pick", "race": "tritons"}})
    assert r.status_code == 200 and r.json["ok"]
    r = ann.post("/api/action", {"action": "conquer 12"})
    assert r.status_code == 422 and r.json["code"] == "not-entry" and "border region" in r.json["sentence"]
    assert table.get("/api/state").json["alerts"] == []  # a refused typed move is Ann's answer only
    log = table.get("/api/log").json
    assert log[-1]["text"] == "Ann picks the Merchant Tritons."
    me = ann.get("/api/seat").json
    assert me["my_turn"] and any(c["notation"].startswith("conquer") for c in me["choices"])
    seen_out_of_reach(service)  # ... but the camera sees her tokens on a region she cannot reach
    alert = table.get("/api/state").json["alerts"][0]
    assert (alert["who"], alert["region"], alert["about"]) == ("Ann", 20, "move")
    assert ben.post(f"/api/alerts/{alert['id']}", {"accept": True}).status_code == 403
    assert ann.post(f"/api/alerts/{alert['id']}", {"accept": True}).status_code == 403  # settled by the table
    assert table.post(f"/api/alerts/{alert['id']}", {"accept": False}).json["ok"]


def test_roll_and_undo_routes(app, service):
    new_game(service)
    table, (ann, ben) = seat_browsers(app)
    assert table.post("/api/roll", {}).status_code == 409
    assert table.post("/api/roll", {"face": 9}).status_code == 400
    assert table.post("/api/roll", {"face": "x"}).status_code == 400
    attempt = until_attempt(service)
    assert table.post("/api/action", {"action": attempt.notation()}).status_code == 200
    r = ann.post("/api/roll", {"face": 2})
    assert r.status_code == 200 and table.get("/api/state").json["die"] == 2
    assert ann.post("/api/undo", {}).status_code == 403
    r = table.post("/api/undo", {})
    assert r.status_code == 200 and "Taken back" in r.json["sentence"]


def test_layout(app, service):
    new_game(service, map_name="4p", players=4)
    b = Browser(app)
    geo = b.get("/api/layout").json
    assert len(geo["regions"]) == 39 and geo["edges"] and {"x", "y", "r", "terrain"} <= set(geo["regions"][0])
    assert b.get("/api/layout?map=moon").status_code == 404


def test_games_and_records(app, service):
    from companion.service.inputs import Play
    from companion.shuffle import seeded_setup
    from companion.simulate import play as simulate
    new_game(service, seed=5)
    gid = service.owner.published.game_id
    b = Browser(app)
    assert b"in progress" in b.page("/games").data
    assert b.get(f"/games/{gid}/record.jsonl").status_code == 403  # the record would reveal the coins
    assert b.get(f"/games/{gid}").status_code == 403
    assert b.get("/games/999").status_code == 404
    for action in simulate(seeded_setup("2p", 2, 5), 5).history:
        service.owner.submit(Play(action)).result(5)
    r = b.get(f"/games/{gid}/record.jsonl")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    lines = r.data.decode().splitlines()
    assert json.loads(lines[0])["format"] == "smallworld-record" and len(lines) > 20
    from companion.rules.record import loads, replay
    assert replay(loads(r.data.decode())).finished
    page = b.page(f"/games/{gid}")
    assert b"Winner" in page.data


def test_clear_errors_never_tracebacks(app):
    b = Browser(app)
    r = b.get("/nowhere")
    assert r.status_code == 404 and b"Traceback" not in r.data and b"Not Found" in r.data
    assert b.get("/api/nowhere").json["error"] == "not-found"
    r = b.post("/api/action", None, )
    assert r.status_code in (400, 403)
    r = b.client.post("/api/roll", data="{not json", content_type="application/json",
                      headers={"X-CSRF-Token": b.token})
    assert r.status_code in (403, 409)  # not a seat: refused before the body is read
    assert b.client.put("/api/action", headers={"X-CSRF-Token": b.token}).status_code == 405


def test_internal_errors_are_one_clear_line(app, service, monkeypatch):
    b = Browser(app)
    b.page("/")
    monkeypatch.setattr(service.owner, "submit", lambda item: 1 / 0)
    table = Browser(app).unlock()
    r = table.post("/api/undo", {})
    assert r.status_code == 500 and r.json["error"] == "internal error".replace(" ", "-")
    assert b"Traceback" not in r.data and b"ZeroDivision" not in r.data


def test_event_streams(app, service):
    b = Browser(app)
    first = first_events(b.get("/events/table", buffered=False))
    assert first[0]["no_game"]
    new_game(service)
    table_state = first_events(b.get("/events/table", buffered=False))[0]
    assert table_state["players"][0]["name"] == "Ann"
    assert b.get("/events/seat").status_code == 403
    table, (ann, ben) = seat_browsers(app)
    response = ann.get("/events/seat", buffered=False)
    events = []
    chunks = iter(response.response)
    import threading
    threading.Timer(0.3, lambda: ann.post("/api/action", {"action": "pick tritons"})).start()
    for chunk in chunks:
        chunk = chunk.decode() if isinstance(chunk, bytes) else chunk
        if "event: state" in chunk:
            events.append(json.loads(chunk.split("data: ", 1)[1]))
        if len(events) == 2:
            break
    response.close()
    assert events[0]["me"]["name"] == "Ann" and events[1]["public"]["actions"] == 1
    assert events[1]["me"]["combos"][0]["race"] == "tritons"


def test_a_seat_of_the_last_game_is_told_a_new_game_began(app, service):
    new_game(service)
    table, (ann, ben) = seat_browsers(app)
    assert Browser(app).get("/events/seat").status_code == 403  # never joined: refused
    new_game(service, seed=4)  # the table starts another game: Ann's seat was in the last one
    r = ann.get("/events/seat")
    assert r.status_code == 200 and r.mimetype == "text/event-stream"
    event, data = r.data.decode().split("event: ", 1)[1].split("\ndata: ")
    assert event == "gone" and json.loads(data)["error"] == "new-game"
    assert "A new game began" in json.loads(data)["sentence"]
    r = ann.get("/api/seat")
    assert r.status_code == 403 and r.json["error"] == "new-game"
    r = ann.get("/seat")
    assert r.status_code == 302 and r.headers["Location"].endswith("/join?why=new-game")
    assert b"A new game began" in ann.page("/join?why=new-game").data
    assert b"A new game began" not in Browser(app).page("/join").data
    ann.join(service.owner.published.codes[0])  # joins the new game with its code
    assert ann.get("/api/seat").json["name"] == "Ann"


def test_a_new_game_asks_before_leaving_the_one_in_progress(app, service):
    new_game(service)
    assert play(service, "pick tritons", seat=0).ok
    b = Browser(app).unlock()
    page = b.page("/setup").data.decode()
    assert "A game is in progress" in page and "round 1 of" in page and 'name="abandon"' in page
    form = {"players": "Cleo, Dev", "map": "2p", "order": "seeded", "seed": "4"}
    r = b.post("/setup", form=form)
    assert r.status_code == 200 and "Leave it unfinished" in r.data.decode() and "A game is in progress" in r.data.decode()
    assert len(service.owner.game.history) == 1  # the game in progress stands
    assert b.post("/setup", form={**form, "abandon": "yes"}).status_code == 302
    assert [p.name for p in service.owner.game.players] == ["Cleo", "Dev"] and not service.owner.game.history


def test_an_unknown_typed_word_gets_a_short_suggestion(app, service):
    new_game(service)
    _, (ann, _) = seat_browsers(app)
    assert ann.post("/api/action", {"action": "pick tritons"}).json["ok"]
    r = ann.post("/api/action", {"action": "conqeur 3"})
    sentence = r.json["sentence"]
    assert r.status_code == 400 and sentence.startswith("'conqeur' is not an action: did you mean 'conquer'?")
    assert "Now the game takes: " in sentence and "steal" not in sentence and "detonate" not in sentence
    r = ann.post("/api/action", {"action": "xyzzy"})
    assert r.status_code == 400 and r.json["sentence"].startswith("'xyzzy' is not an action.")


def test_past_games_show_dates_winners_combos_and_win_rates(app, service):
    from companion.service.inputs import NewGame, Play
    from companion.shuffle import seeded_setup
    from companion.simulate import play as simulate
    setup = seeded_setup("2p", 2, 8)
    assert service.owner.submit(NewGame(setup)).result(5).ok
    game = simulate(setup, 8)
    for action in game.history:
        assert service.owner.submit(Play(action)).result(5).ok
    winners = [game.players[i].name for i in game.outcome()["winners"]]
    page = Browser(app).page("/games").data.decode()
    assert f"{' and '.join(winners)} won." in page and "Download the record" in page
    assert re.search(r"Game 1 · <time datetime=\"\d{4}-\d\d-\d\dT\d\d:\d\d\">\w{3} \d\d \w{3} \d{4}, \d\d:\d\d</time>", page)
    for tribe in game.tribes_of(0):
        assert f"<td>{tribe.race.title}</td>" in page and tribe.title() in page
    assert "By race" in page and "By special power" in page and "100 %" in page and "0 %" in page


def test_the_table_corrects_past_actions_of_its_log_in_place(app, service):
    """A move taken wrongly long ago is put right where it stands (replace, insert, remove, several at
    once), the record replayed through the rules and stored; what does not fit changes nothing."""
    from companion.simulate import play as simulate
    from companion.shuffle import seeded_setup
    new_game(service)
    truth = simulate(seeded_setup("2p", 2, 3), 3)
    for action in truth.history[:19]:  # ... the Wizards' second turn ended
        assert play(service, action.notation()).ok
    table, (ann, ben) = seat_browsers(app)
    gid = service.owner.published.game_id
    assert ann.post("/api/log", {"edits": [{"seq": 6, "how": "remove"}]}).status_code == 403  # the table's business
    # the Wizards' first redeployment put right, and their conquest of 13 never played
    r = table.post("/api/log", {"edits": [{"seq": 6, "how": "replace", "action": "redeploy 11:5 16:2 17:2"},
                                          {"seq": 16, "how": "remove"},
                                          {"seq": 17, "how": "replace", "action": "redeploy 11:2 16:1 17:1 18:5"}]})
    assert r.status_code == 200, r.json
    assert "action 7 is now redeploy 11:5 16:2 17:2" in r.json["sentence"]
    log = table.get("/api/log").json
    assert [e["notation"] for e in log] == [a.notation() for a in service.owner.game.history]
    assert [e["seq"] for e in log] == list(range(18))
    assert log[6]["notation"] == "redeploy 11:5 16:2 17:2" and "13" not in log[16]["notation"]
    assert [a.notation() for a in service.store.actions(gid)] == [e["notation"] for e in log]  # stored
    assert service.owner.game.regions[13].race != "wizards"
    # a missed move put in before the end of the turn, another at the log's end
    r = table.post("/api/log", {"edits": [{"seq": 17, "how": "insert", "action": "decline"}]})
    assert r.status_code == 422 and "no longer fits" in r.json["sentence"]  # a decline after the redeployment? no
    before = [a.notation() for a in service.owner.game.history]
    # a correction that leaves a later move out of the rules changes nothing, and says which and why
    r = table.post("/api/log", {"edits": [{"seq": 1, "how": "replace", "action": "conquer 11"}]})
    assert r.status_code == 422 and "action 3 (" in r.json["sentence"] and "no longer fits" in r.json["sentence"]
    assert [a.notation() for a in service.owner.game.history] == before
    assert [a.notation() for a in service.store.actions(gid)] == before
    r = table.post("/api/log", {"edits": [{"seq": 18, "how": "insert", "action": "decline"}]})
    assert r.status_code == 200 and service.owner.game.history[-1].notation() == "decline"
    # what a tired player might send: one clear line each, nothing changed
    for edits, words in (([], "edits"), ([{"seq": 99, "how": "remove"}], "no action 100"),
                         ([{"seq": 2, "how": "swap"}], "replace, insert or remove"),
                         ([{"seq": "x", "how": "remove"}], "number in the log"),
                         ([{"seq": 2, "how": "replace"}], "say the action"),
                         ([{"seq": 2, "how": "replace", "action": "conker 3"}], "not an action"),
                         ([{"seq": 2, "how": "remove"}, {"seq": 2, "how": "replace", "action": "conquer 3"}],
                          "corrected twice")):
        r = table.post("/api/log", {"edits": edits})
        assert r.status_code == 400 and words in r.json["sentence"].lower(), (edits, r.json)
        assert b"Traceback" not in r.data
    assert len(service.owner.game.history) == 19
