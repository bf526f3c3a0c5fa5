from companion import inputs as hw
from companion.rules.actions import Attempt, Pick, Roll
from companion.service.inputs import Play, Resolve, RollDie, Undo
from companion.service.runtime import table_display

from .helpers import make_service, mirror, new_game, play, until_attempt


def test_no_game_yet(service):
    assert service.owner.published.public["no_game"]
    out = play(service, "pick tritons")
    assert out.status == 409 and out.code == "no-game"


def test_an_accepted_action_is_stored_then_published(service):
    new_game(service)
    seen = []
    service.owner.listeners.append(lambda p: seen.append(service.store.actions(p.game_id)))
    out = play(service, "pick tritons", seat=0)
    assert out.ok and "picks the Merchant Tritons" in out.sentence
    assert seen[-1] == [Pick("tritons")]  # on disk before any listener heard of it
    pub = service.owner.published.public
    assert pub["actions"] == 1 and pub["log"][-1]["text"].startswith("Ann picks")


def test_a_refused_move_is_its_senders_answer_and_no_alert(service):
    new_game(service)
    assert play(service, "pick tritons", seat=1).code == "not-your-turn"
    assert play(service, "pick tritons", seat=0).ok
    heard = []
    service.owner.listeners.append(heard.append)
    version = service.owner.published.version
    out = play(service, "conquer 12", seat=0)  # a mistyped conquest: nothing happened on the board
    assert out.status == 422 and out.code == "not-entry" and "border" in out.sentence
    assert service.owner.published.public["alerts"] == [] and not service.owner.published.alerts
    assert heard == [] and service.owner.published.version == version  # nothing broadcast to the table
    assert play(service, "conquer 12").status == 422 and not service.owner.published.alerts  # the table's too
    assert service.owner.submit(Resolve(1, True)).result(5).status == 404
    assert play(service, "end", seat=0).status == 422 and not service.owner.published.alerts


def test_die_rolls_only_when_due_seeded_and_recorded(service):
    new_game(service)
    assert service.owner.submit(RollDie()).result(5).code == "no-roll-due"
    attempt = until_attempt(service)
    assert play(service, attempt.notation()).ok
    assert service.owner.published.public["die_due"]
    out = service.owner.submit(RollDie()).result(5)
    assert out.ok
    last = service.store.actions(service.owner.published.game_id)[-1]
    assert isinstance(last, Roll) and service.owner.published.public["die"] == last.face


def test_typed_face_and_undo(service):
    new_game(service)
    attempt = until_attempt(service)
    play(service, attempt.notation())
    assert service.owner.submit(RollDie(face=3)).result(5).ok
    assert service.owner.published.public["die"] == 3
    n = service.owner.published.public["actions"]
    out = service.owner.submit(Undo()).result(5)
    assert out.ok and "Taken back" in out.sentence
    assert service.owner.published.public["actions"] == n - 1
    assert isinstance(service.store.actions(service.owner.published.game_id)[-1], Attempt)


def test_hardware_inputs_join_the_queue(service):
    new_game(service)
    attempt = until_attempt(service)
    play(service, attempt.notation())
    n = service.owner.published.public["actions"]
    service.owner.hardware_submit(hw.RollRequested(source="panel"))
    service.owner.submit(Resolve(-1)).result(5)  # drains the queue behind the roll
    assert service.owner.published.public["actions"] == n + 1
    service.owner.hardware_submit(hw.UndoRequested(source="scoring-box"))
    assert service.owner.submit(Resolve(-1)).result(5).status == 404
    assert service.owner.published.public["actions"] == n
    assert play(service, "conquer 13", seat=service.owner.published.public["current"]).status == 422
    assert not service.owner.published.alerts  # refused to its sender: nothing for the panel to confirm
    display = table_display(service.owner.published)
    assert display.rounds == 10 and display.round == 1


def test_resume_after_restart(tmp_path):
    s = make_service(tmp_path)
    new_game(s)
    play(s, "pick tritons")
    before = mirror(s).fingerprint()
    codes = s.owner.published.codes
    s.close()
    s = make_service(tmp_path)
    try:
        assert mirror(s).fingerprint() == before
        assert s.owner.published.codes == codes and s.owner.published.public["actions"] == 1
        assert s.owner.published.public["log"][0]["text"].startswith("Ann picks")
    finally:
        s.close()


def test_a_finished_game_stays_readable(service):
    from companion.simulate import play as simulate
    new_game(service, seed=5)
    setup = service.store.game(service.owner.published.game_id).setup
    history = simulate(setup, 5).history
    for action in history:
        assert service.owner.submit(Play(action)).result(5).ok
    pub = service.owner.published.public
    assert pub["finished"] and pub["end"]["winners"] and len(pub["end"]["chart"]) == 2
    assert service.store.game(service.owner.published.game_id).finished
    new_game(service, seed=6)
    assert len(service.store.games()) == 2 and service.store.games()[0].finished


def test_a_declared_final_attempt_is_said_as_a_sentence(service):
    from companion.service.inputs import Declare
    new_game(service)
    attempt = until_attempt(service)
    out = service.owner.submit(Declare(attempt.region, None, "web")).result(5)
    assert out.ok and out.sentence[0].isupper() and out.sentence.endswith("."), out.sentence
    assert str(attempt.region) in out.sentence
