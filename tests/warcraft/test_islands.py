"""Island files: the loader refuses a bad one in one line; a game's map joins 2 to 5 islands."""
import json

import pytest

import maps
from maps import islands


def island(**change):
    data = {"format": "smallworld-island/1", "name": "home-s", "size": "S", "regions": [
        {"id": 1, "terrain": "fields", "entry": True, "adjacent": [2]},
        {"id": 2, "terrain": "hill", "marker": True, "murloc": True, "symbols": ["cavern"], "adjacent": [1, 3]},
        {"id": 3, "terrain": "lake", "adjacent": [2]}]}
    data.update(change)
    return json.dumps(data)


def test_a_good_island_parses():
    isl = islands.parse_island(island(), "home.json")
    assert isl.size == "S" and len(isl.regions) == 3 and not isl.sample


@pytest.mark.parametrize("change, message", [
    ({"size": "XL"}, "home.json: size must be S, M or L"),
    ({"regions": [{"id": 1, "terrain": "fields", "entry": True, "marker": True, "adjacent": [2]},
                  {"id": 2, "terrain": "hill", "adjacent": []}]}, "home.json: region 2: adjacent must be"),
    ({"regions": [{"id": 1, "terrain": "fields", "entry": True, "marker": True, "adjacent": [2]},
                  {"id": 2, "terrain": "hill", "adjacent": [3]}, {"id": 3, "terrain": "hill", "adjacent": [2]}]},
     "home.json: region 1: adjacent lists 2, but region 2 does not list 1"),
    ({"regions": [{"id": 1, "terrain": "fields", "entry": True, "adjacent": [2]},
                  {"id": 2, "terrain": "hill", "adjacent": [1]}]}, "exactly one region carries the size icon"),
    ({"regions": [{"id": 1, "terrain": "fields", "marker": True, "adjacent": [2]},
                  {"id": 2, "terrain": "hill", "adjacent": [1]}]}, "no Entry Region"),
    ({"regions": [{"id": 1, "terrain": "sea", "entry": True, "adjacent": [2]},
                  {"id": 2, "terrain": "hill", "marker": True, "entry": True, "adjacent": [1]}]},
     "home.json: region 1: a sea carries no symbol, anchor"),
    ({"regions": [{"id": 1, "terrain": "tundra", "adjacent": [2]}]}, "terrain 'tundra' is not one of"),
    ({"regions": [{"id": 1, "terrain": "fields", "entry": True, "marker": True, "adjacent": [2]},
                  {"id": 2, "terrain": "hill", "adjacent": [1]}, {"id": 3, "terrain": "hill", "adjacent": [4]},
                  {"id": 4, "terrain": "hill", "adjacent": [3]}]}, "region 3: is not connected"),
])
def test_a_bad_island_is_refused_in_one_line(change, message):
    with pytest.raises(maps.MapError) as info:
        islands.parse_island(island(**change), "home.json")
    assert message in str(info.value) and "\n" not in str(info.value)


def test_sample_islands_are_labelled_samples():
    for name in islands.builtin_names():
        isl = islands.load_island(name)
        assert isl.sample and "SAMPLE" in isl.title and "NOT a printed board" in isl.title
    assert islands.load(islands.sample_map(2)).title.startswith("SAMPLE islands (not the printed boards)")


@pytest.mark.parametrize("players, rounds", [(2, 10), (3, 10), (4, 9), (5, 8)])
def test_island_sets_and_rounds_by_player_count(players, rounds):
    board = islands.load(islands.sample_map(players))
    assert board.players == players and board.rounds == rounds
    assert len({r.island for r in board}) == players


def test_the_wrong_set_of_islands_is_refused():
    with pytest.raises(maps.MapError, match="2 players play on 1 large \\+ 1 small islands, found 2 small"):
        islands.load("sample-small-1+sample-small-2")
    with pytest.raises(maps.MapError, match="listed twice"):
        islands.load("sample-large-1+sample-small-1+sample-small-1+sample-large-1+sample-medium-1")
    with pytest.raises(maps.MapError, match="no such island"):
        islands.load("sample-large-1+nowhere")


def test_game_ids_are_island_then_region_and_islands_are_apart():
    board = islands.load(islands.sample_map(2))
    r = board[203]
    assert (r.island, r.local, r.island_name) == (2, 3, "sample-small-1")
    assert all(a // 100 == r.id // 100 for r in board for a in r.adjacent)
    assert "island 2" in r.describe() and "Fields" in r.describe()


def test_an_island_file_by_path(tmp_path):
    path = tmp_path / "home.json"
    path.write_text(island(), encoding="utf-8")
    board = islands.load(f"sample-large-1+{path}")
    assert len(board) == 12 + 3 and board[202].murloc and board[201].entry
