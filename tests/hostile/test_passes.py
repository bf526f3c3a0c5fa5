"""Seat and table cookies are revoked by leaving, locking and a new game, also after a restart;
guessing codes is slowed down per device; a paid pick from the table never bounds a player's coins."""
import pytest

from companion.service.web import create_app

from ..service.helpers import TABLE_CODE, Browser, make_service, new_game


@pytest.fixture
def served(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    yield service, create_app(service, testing=True)
    service.close()


def copy_of(browser: Browser, app) -> Browser:
    """Another browser holding a copy of ``browser``'s cookie (taken now)."""
    other = Browser(app)
    other.client.set_cookie("companion", browser.client.get_cookie("companion").value)
    other.token = browser.token
    return other


def test_leaving_revokes_every_copy_of_the_seat_cookie(served):
    service, app = served
    ann = Browser(app).join(service.owner.published.codes[0])
    stolen = copy_of(ann, app)
    assert stolen.get("/api/seat").json["name"] == "Ann"
    assert ann.post("/leave", form={}).status_code == 302
    assert stolen.get("/api/seat").status_code == 403 and ann.get("/api/seat").status_code == 403


def test_locking_revokes_every_copy_of_the_table_cookie(served):
    service, app = served
    table = Browser(app).unlock()
    stolen = copy_of(table, app)
    assert stolen.get("/api/join-codes").status_code == 200
    assert table.post("/lock", form={}).status_code == 302
    assert stolen.get("/api/join-codes").status_code == 403


def test_a_new_game_revokes_seats_and_other_screens_but_not_its_own(served):
    service, app = served
    table, other = Browser(app).unlock(), Browser(app).unlock()
    ann = Browser(app).join(service.owner.published.codes[0])
    stolen_seat = copy_of(ann, app)
    r = table.post("/setup", form={"ruleset": "smallworld", "players": "Ann, Ben", "map": "2p", "seed": "4"})
    assert r.status_code == 302, r.data
    assert table.get("/api/join-codes").status_code == 200
    assert other.get("/api/join-codes").status_code == 403
    assert ann.get("/api/seat").status_code == 403 and stolen_seat.get("/api/seat").status_code == 403


def test_revocation_survives_a_restart(tmp_path):
    service = make_service(tmp_path)
    new_game(service)
    app = create_app(service, testing=True)
    ann = Browser(app).join(service.owner.published.codes[0])
    ben = Browser(app).join(service.owner.published.codes[1])
    stolen = copy_of(ann, app)
    ann.post("/leave", form={})
    cookies = {name: b.client.get_cookie("companion").value for name, b in (("stolen", stolen), ("ben", ben))}
    service.close()
    service = make_service(tmp_path)
    try:
        app = create_app(service, testing=True)
        again = {}
        for name, value in cookies.items():
            again[name] = Browser(app)
            again[name].client.set_cookie("companion", value)
        assert again["stolen"].get("/api/seat").status_code == 403  # revoked before the restart: still
        assert again["ben"].get("/api/seat").json["name"] == "Ben"  # a standing seat is kept
    finally:
        service.close()


def test_guessing_the_table_code_is_slowed_down_per_device(served):
    service, app = served
    guesser = Browser(app)
    guesser.page("/unlock")
    at = {"REMOTE_ADDR": "10.0.0.66"}
    answers = [guesser.client.post("/unlock", data={"code": f"WRONG{k}", "csrf_token": guesser.token},
                                   environ_base=at).status_code for k in range(12)]
    assert answers[:5] == [403] * 5 and set(answers[5:]) == {429}
    right = guesser.client.post("/unlock", data={"code": TABLE_CODE, "csrf_token": guesser.token}, environ_base=at)
    assert right.status_code == 429  # while it waits, even the right code is not looked at
    table = Browser(app)
    table.page("/unlock")
    for typo in ("TABLE8", "TABEL7"):  # a real table, on another device, with a few typos
        assert table.client.post("/unlock", data={"code": typo, "csrf_token": table.token}).status_code == 403
    assert table.client.post("/unlock", data={"code": TABLE_CODE, "csrf_token": table.token}).status_code == 302


def test_guessing_seat_codes_is_slowed_down_too(served):
    service, app = served
    guesser = Browser(app)
    guesser.page("/join")
    at = {"REMOTE_ADDR": "10.0.0.67"}
    answers = [guesser.client.post("/join", data={"code": f"ZZZZZ{k}", "csrf_token": guesser.token},
                                   environ_base=at).status_code for k in range(9)]
    assert answers[:5] == [403] * 5 and set(answers[5:]) == {429}


@pytest.mark.parametrize("coins", [0, 3, 40])
def test_a_paid_pick_from_the_table_says_the_same_whatever_the_coins(served, coins):
    service, app = served
    Browser(app).join(service.owner.published.codes[0])
    service.owner.game.players[0].coins = coins
    table = Browser(app).unlock()
    dear = service.owner.published.public["combos"][3]["race"]
    r = table.post("/api/action", {"action": f"pick {dear}"})
    assert r.status_code == 409 and r.json["sentence"].startswith("Ann picks a combo that costs coins on their own")
    free = service.owner.published.public["combos"][0]["race"]
    assert table.post("/api/action", {"action": f"pick {free}"}).status_code == 200
