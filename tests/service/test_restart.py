"""What a restart brings back: the end of a game stored as one transaction (and a half-stored one
repaired), the alerts and the camera's question that stood."""
import sqlite3

from companion.reconcile import Outcome as Seen
from companion.reconcile import Question
from companion.rules import Game
from companion.service.inputs import Answer, Declare, Observation, Resolve, Undo
from companion.service.store import Store
from companion.shuffle import seeded_setup
from companion.simulate import play as simulate

from .helpers import make_service, new_game, play, seen_out_of_reach, sight


def finished_flag(tmp_path, game_id):
    db = sqlite3.connect(tmp_path / "companion.sqlite3")
    try:
        return bool(db.execute("SELECT finished FROM games WHERE id = ?", (game_id,)).fetchone()[0])
    finally:
        db.close()


def test_the_last_action_and_the_finished_flag_are_one_commit_and_undo_takes_both_back(tmp_path):
    setup = seeded_setup("2p", 2, 4)
    history = simulate(setup, 4).history
    service = make_service(tmp_path)
    try:
        new_game(service, seed=4)
        gid = service.owner.published.game_id
        for action in history[:-1]:
            assert play(service, action.notation()).ok
        assert not finished_flag(tmp_path, gid)
        commits = []
        db = service.store._db
        db.set_trace_callback(lambda sql: commits.append(sql) if sql.strip().upper() in ("COMMIT", "BEGIN IMMEDIATE") else None)
        assert play(service, history[-1].notation()).ok
        db.set_trace_callback(None)
        assert finished_flag(tmp_path, gid)
        assert commits[:2] == ["BEGIN IMMEDIATE", "COMMIT"] and commits.count("COMMIT") == 1
        assert service.owner.submit(Undo()).result(5).ok
        assert not finished_flag(tmp_path, gid)
    finally:
        service.close()


def test_a_game_stored_half_finished_is_repaired_at_start(tmp_path):
    """A store written by the version that committed the last action and the flag apart, cut
    between the two: the record says finished, the flag does not (and the other way round)."""
    setup = seeded_setup("2p", 2, 4)
    history = simulate(setup, 4).history
    store = Store(tmp_path / "companion.sqlite3")
    done = store.new_game(setup, 1, ["AAAAAA", "BBBBBB"])
    for seq, action in enumerate(history):
        store.append(done, seq, action, "web")
    store.close()
    service = make_service(tmp_path)
    try:
        assert service.owner.published.public["finished"]
        assert finished_flag(tmp_path, done) and service.store.game(done).finished
    finally:
        service.close()
    store = Store(tmp_path / "companion.sqlite3")  # undone after the flag was set, cut before it was cleared
    store.remove_last(done, len(history) - 1)
    store.close()
    service = make_service(tmp_path)
    try:
        assert not service.owner.published.public["finished"] and not finished_flag(tmp_path, done)
    finally:
        service.close()


def test_alerts_that_stand_come_back_after_a_restart(tmp_path):
    service = make_service(tmp_path)
    try:
        new_game(service)
        assert play(service, "pick tritons", seat=0).ok
        view = seen_out_of_reach(service)  # region 1 taken, then tokens on region 20: not adjacent
        alerts = service.owner.published.public["alerts"]
        assert [(a["code"], a["region"], a["about"]) for a in alerts] == [("not-adjacent", 20, "move")]
    finally:
        service.close()
    service = make_service(tmp_path)
    try:
        assert service.owner.published.public["alerts"] == alerts
        service.owner.submit(Observation(sight(view))).result(5)  # still on the board: the same alert
        assert service.owner.published.public["alerts"] == alerts
        settled = service.owner.submit(Resolve(alerts[0]["id"], accept=True)).result(5)
        assert settled.ok, settled
        assert alerts[0]["id"] not in [a["id"] for a in service.owner.published.public["alerts"]]
    finally:
        service.close()
    service = make_service(tmp_path)
    try:  # settled stays settled
        assert alerts[0]["id"] not in [a["id"] for a in service.owner.published.public["alerts"]]
    finally:
        service.close()


def test_the_cameras_question_comes_back_after_a_restart_and_can_be_answered(tmp_path, monkeypatch):
    service = make_service(tmp_path)
    try:
        setup = new_game(service)
        game = Game(setup)
        options = [a for a in game.legal_actions()][:2]
        asked = Question("Two moves fit what the camera sees: which one was played?", tuple((a,) for a in options))
        monkeypatch.setattr(service.owner.follower, "declare", lambda game, region: Seen(question=asked))
        assert service.owner.submit(Declare(1)).result(5).ok
        shown = service.owner.published.public["question"]
        assert shown == asked.to_json()
    finally:
        service.close()
    service = make_service(tmp_path)
    try:
        assert service.owner.published.public["question"] == shown
        out = service.owner.submit(Answer(1)).result(5)
        assert out.ok, out
        assert service.owner.published.public["actions"] == 1
        assert service.owner.published.public["log"][-1]["notation"] == options[1].notation()
        assert service.owner.published.public["question"] is None
    finally:
        service.close()
    service = make_service(tmp_path)
    try:  # answered stays answered
        assert service.owner.published.public["question"] is None
    finally:
        service.close()

