import sqlite3

from companion.rules.actions import Conquer, Pick, Redeploy
from companion.service.store import Store
from companion.shuffle import seeded_setup


def test_actions_survive_a_new_connection(tmp_path):
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    setup = seeded_setup("2p", 2, 1)
    gid = store.new_game(setup, 5, ["AAAAAA", "BBBBBB"])
    store.append(gid, 0, Pick("tritons"), "web")
    store.append(gid, 1, Conquer(3), "web")
    store.close()
    again = Store(path)
    g = again.game(gid)
    assert g.setup == setup and g.die_seed == 5 and g.seat_codes == ("AAAAAA", "BBBBBB") and not g.finished
    assert again.actions(gid) == [Pick("tritons"), Conquer(3)]
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_undo_removes_the_last_action_and_games_are_kept(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    a = store.new_game(seeded_setup("2p", 2, 1), 1, ["A", "B"])
    store.append(a, 0, Pick("tritons"), "web")
    store.remove_last(a, 0)
    assert store.actions(a) == []
    store.set_finished(a, True)
    b = store.new_game(seeded_setup("3p", 3, 2), 2, ["A", "B", "C"])
    assert [g.id for g in store.games()] == [a, b] and store.latest().id == b and store.game(a).finished


def test_meta(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    assert store.meta_or_create("k", lambda: "v1") == "v1"
    assert store.meta_or_create("k", lambda: "v2") == "v1"


def test_a_corrected_action_replaces_the_stored_one(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    a = store.new_game(seeded_setup("2p", 2, 1), 1, ["A", "B"])
    store.append(a, 0, Pick("tritons"), "web")
    store.append(a, 1, Redeploy(((3, 2),)), "camera")
    store.append(a, 2, Pick("amazons"), "web")
    store.replace(a, 1, Redeploy(((3, 1), (4, 1))), "camera")
    reopened = Store(tmp_path / "s.sqlite3")
    assert reopened.actions(a) == [Pick("tritons"), Redeploy(((3, 1), (4, 1))), Pick("amazons")]


def test_a_missed_action_is_put_into_the_past_and_the_later_ones_move_on(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    a = store.new_game(seeded_setup("2p", 2, 1), 1, ["A", "B"])
    for seq, action in enumerate([Pick("tritons"), Redeploy(((3, 2),)), Pick("amazons")]):
        store.append(a, seq, action, "web")
    store.insert(a, 1, Pick("ratmen"), "camera")
    reopened = Store(tmp_path / "s.sqlite3")
    assert reopened.actions(a) == [Pick("tritons"), Pick("ratmen"), Redeploy(((3, 2),)), Pick("amazons")]
    store.append(a, 4, Pick("elves"), "web")  # numbering goes on after the last
    assert Store(tmp_path / "s.sqlite3").actions(a)[-1] == Pick("elves")
