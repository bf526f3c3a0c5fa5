"""The camera's still observations reach the one owner: conquests applied and stored, illegal ones alerted."""
from companion import inputs as hw
from companion.reconcile import expected_view
from companion.rules.actions import Conquer, Redeploy, EndTurn
from companion.service.inputs import Observation, Resolve
from vision.observe import Observation as Seen, RegionView

from .helpers import mirror, new_game, play


def sight(view, hidden=()):
    return Seen(True, {r: RegionView(dict(labels), r in hidden, 1.0) for r, labels in view.items()})


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
    view = expected_view(mirror(service))
    view[1] = {"tritons": 1}
    out = service.owner.submit(Observation(sight(view))).result(5)
    assert out.data["actions"] == ["conquer 1"]
    game = mirror(service)
    game.undo()
    options = [a for a in game.legal_actions() if isinstance(a, Conquer) and a.region != 1]
    truth = game.copy()
    truth.apply(options[0])  # the players had conquered another region: the camera misread which
    service.owner.submit(Observation(sight(expected_view(truth)))).result(5)
    out = service.owner.submit(BoardIsRight("web")).result(5)
    question = service.owner.published.public["question"]
    assert out.ok and question and "Is the board right?" in question["text"]
    assert question["options"][0].startswith("the board is right: take back conquer 1")
    assert service.owner.submit(Answer(0, "web")).result(5).ok
    stored = service.store.actions(service.owner.published.game_id)
    assert stored[-1] == options[0] and Conquer(1) not in stored
