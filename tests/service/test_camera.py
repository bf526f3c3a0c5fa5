"""The camera's still observations reach the one owner: conquests applied and stored, illegal ones alerted."""
from companion import inputs as hw
from companion.reconcile import expected_view
from companion.rules.actions import Conquer, Redeploy, EndTurn
from companion.service.inputs import Observation, Resolve
from .helpers import mirror, new_game, play, seen_out_of_reach, sight


def test_a_conquest_seen_by_the_camera_is_stored_and_an_illegal_one_alerted(service):
    new_game(service)
    assert play(service, "pick tritons", seat=0).ok
    view = expected_view(mirror(service))
    view[1] = {"tritons": 1}  # a coastal border region: 1 token for the Tritons
    out = service.owner.submit(Observation(sight(view))).result(5)
    assert out.ok and out.data["actions"] == ["conquer 1"]
    assert service.store.actions(service.owner.published.game_id)[-1] == Conquer(1)
    assert service.owner.published.public["log"][-1]["source"] == "camera"
    view = expected_view(mirror(service))
    view[20] = {"tritons": 2}  # far away: not adjacent
    out = service.owner.submit(Observation(sight(view))).result(5)
    assert [a["code"] for a in out.data["alerts"]] == ["not-adjacent"]
    alerts = service.owner.published.public["alerts"]
    assert alerts[0]["source"] == "camera" and alerts[0]["who"] == "Ann" and alerts[0]["region"] == 20
    # the same sight again: one standing alert, not a new one
    service.owner.submit(Observation(sight(view))).result(5)
    assert len(service.owner.published.public["alerts"]) == 1
    # the players take the tokens off region 20: the alert clears
    service.owner.submit(Observation(sight(expected_view(mirror(service))))).result(5)
    assert service.owner.published.public["alerts"] == []


def test_override_a_misread_and_confirm_the_end_of_the_turn(service):
    new_game(service)
    assert play(service, "pick tritons", seat=0).ok
    view = expected_view(mirror(service))
    view[1] = {"tritons": 1}
    service.owner.submit(Observation(sight(view))).result(5)
    misread = dict(view)
    tribe = next(r for r, here in view.items() if here.get("lost-tribe"))
    misread[tribe] = {"lost-tribe": 3}  # one Lost Tribe token read as three: a misread
    service.owner.submit(Observation(sight(misread))).result(5)
    assert service.owner.published.public["alerts"] == []  # the board alone disagrees: a second sight first
    service.owner.submit(Observation(sight(misread))).result(5)
    alert = service.owner.published.public["alerts"][0]
    assert alert["code"] == "board-differs" and alert["region"] == tribe
    assert service.owner.submit(Resolve(alert["id"], False)).result(5).ok  # override: the board is right
    service.owner.submit(Observation(sight(misread))).result(5)
    assert service.owner.published.public["alerts"] == []
    service.owner.hardware_submit(hw.Confirm(source="panel"))
    service.owner.submit(Resolve(-1)).result(5)  # drains the queue
    last_two = service.store.actions(service.owner.published.game_id)[-2:]
    assert isinstance(last_two[0], Redeploy) and last_two[1] == EndTurn()


def test_declare_and_answer_through_the_api(service, app):
    from .helpers import Browser, until_attempt
    new_game(service)
    table = Browser(app).unlock()
    r = table.post("/api/declare", {"region": 99})
    assert r.status_code == 400 and "no region 99" in r.get_json()["sentence"]
    r = table.post("/api/answer", {"option": 0})
    assert r.status_code == 409 and r.get_json()["code"] == "no-question"
    assert Browser(app).post("/api/answer", {"option": 0}).status_code == 403  # the table code is needed
    attempt = until_attempt(service)
    r = table.post("/api/declare", {"region": attempt.region})
    assert r.status_code == 200 and f"declared on region {attempt.region}" in r.get_json()["sentence"]
    assert table.post("/api/roll", {"face": 3}).status_code == 200  # the declared attempt, then the roll
    last = [a.notation() for a in service.store.actions(service.owner.published.game_id)[-2:]]
    assert last == [attempt.notation(), "roll 3"]


def test_ending_the_turn_on_a_phone_takes_the_redeployment_the_camera_saw_first(service):
    new_game(service)
    assert play(service, "pick tritons", seat=0).ok
    view = expected_view(mirror(service))
    view[1] = {"tritons": 1}
    assert service.owner.submit(Observation(sight(view))).result(5).data["actions"] == ["conquer 1"]
    out = play(service, "end", seat=0)
    assert out.ok, out.sentence
    last_two = service.store.actions(service.owner.published.game_id)[-2:]
    assert isinstance(last_two[0], Redeploy) and last_two[1] == EndTurn()
    assert [e["source"] for e in service.owner.published.public["log"][-2:]] == ["camera", "web"]


def test_a_fortress_the_camera_missed_is_stored_in_the_turn_it_was_placed_in(service):
    from companion.service.inputs import NewGame
    from ..rules.helpers import setup_with
    assert service.owner.submit(NewGame(setup_with("fortified ratmen", "swamp humans"), die_seed=7)).result(5).ok
    assert play(service, "pick ratmen", seat=0).ok
    view = {**expected_view(mirror(service)), 4: {"ratmen": 5}, 9: {"ratmen": 5}}  # the Fortress under a stack
    assert service.owner.submit(Observation(sight(view))).result(5).data["actions"] == ["conquer 4", "conquer 9"]
    service.owner.hardware_submit(hw.Confirm(source="panel"))
    assert play(service, "pick humans", seat=1).ok
    game_id = service.owner.published.game_id
    ended = [a.notation() for a in service.store.actions(game_id)]
    view[9] = {"ratmen": 4, "fortress": 1}  # it shows now, twice
    service.owner.submit(Observation(sight(view))).result(5)
    service.owner.submit(Observation(sight(view))).result(5)
    stored = [a.notation() for a in service.store.actions(game_id)]
    at = ended.index("end")
    assert stored == ended[:at] + ["fortify 9"] + ended[at:]
    log = service.owner.published.public["log"]
    assert [e["seq"] for e in log] == sorted(e["seq"] for e in log) == list(range(len(stored)))
    assert log[at]["notation"] == "fortify 9" and log[at]["source"] == "camera"
    assert mirror(service).regions[9].marker("fortress") == 1
    assert service.owner.published.public["alerts"] == []


def test_the_board_is_right_corrects_a_misread_conquest_in_the_store(service):
    from companion.service.inputs import Answer, BoardIsRight
    new_game(service)
    assert play(service, "pick tritons", seat=0).ok
    assert not service.owner.published.public["camera"]  # no button on the table screen yet
    out = service.owner.submit(BoardIsRight("web")).result(5)
    assert out.sentence == "The camera has not seen the board yet." and not service.owner.published.public["question"]
    view = expected_view(mirror(service))
    view[1] = {"tritons": 1}
    out = service.owner.submit(Observation(sight(view))).result(5)
    assert out.data["actions"] == ["conquer 1"] and service.owner.published.public["camera"]
    out = service.owner.submit(BoardIsRight("web")).result(5)
    assert out.sentence == "The board and the game agree: nothing to correct." and not out.data["question"]
    game = mirror(service)
    game.undo()
    options = [a for a in game.legal_actions() if isinstance(a, Conquer) and a.region != 1]
    truth = game.copy()
    truth.apply(options[0])  # the players had conquered another region: the camera misread which
    service.owner.submit(Observation(sight(expected_view(truth)))).result(5)
    out = service.owner.submit(BoardIsRight("web")).result(5)
    question = service.owner.published.public["question"]
    assert out.ok and question and "Is the board right?" in question["text"]
    assert out.sentence == "The camera offers its corrections under 'The camera asks': confirm them there, or keep the game."
    assert question["options"][0].startswith("the board is right: take back conquer 1")
    assert service.owner.submit(Answer(0, "web")).result(5).ok
    stored = service.store.actions(service.owner.published.game_id)
    assert stored[-1] == options[0] and Conquer(1) not in stored


def _illegal_on_20(service):
    new_game(service)
    assert play(service, "pick tritons", seat=0).ok
    return seen_out_of_reach(service)


def test_a_move_alert_ends_with_its_turn_and_what_stays_on_the_board_is_about_the_board(service):
    view = _illegal_on_20(service)
    [alert] = service.owner.published.public["alerts"]
    assert (alert["code"], alert["about"], alert["turn"]) == ("not-adjacent", "move", "1:0")
    assert play(service, "end", seat=0).ok  # Ann ends her turn with the tokens still on region 20
    assert service.owner.published.public["current"] == 1
    [still] = service.owner.published.public["alerts"]
    assert still["id"] == alert["id"] and still["about"] == "board"
    assert still["sentence"].startswith("Still on the board after Ann's turn")
    after = expected_view(mirror(service))
    after[20] = view[20]
    service.owner.submit(Observation(sight(after))).result(5)  # Ben's turn: the discrepancy stands
    assert [a["id"] for a in service.owner.published.public["alerts"]] == [alert["id"]]
    for _ in range(2):  # the tokens are taken off region 20: the board agrees, the alert goes
        service.owner.submit(Observation(sight(expected_view(mirror(service))))).result(5)
    assert service.owner.published.public["alerts"] == []


def test_an_accepted_correction_waits_for_the_board_to_be_put_back(service):
    view = _illegal_on_20(service)
    [alert] = service.owner.published.public["alerts"]
    out = service.owner.submit(Resolve(alert["id"], True)).result(5)
    assert out.ok and "put region 20 back" in out.sentence
    service.owner.submit(Observation(sight(view))).result(5)  # not yet put back: not raised again
    assert service.owner.published.public["alerts"] == []
    service.owner.submit(Observation(sight(expected_view(mirror(service))))).result(5)  # put back
    service.owner.submit(Observation(sight(view))).result(5)  # the same move again: a new alert
    [again] = service.owner.published.public["alerts"]
    assert again["id"] > alert["id"] and again["region"] == 20
