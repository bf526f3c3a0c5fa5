"""Mutated island files and map files: a board or one MapError line naming the file, never a traceback."""
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import maps
from maps import MapError, islands

from .values import hostile_values

SAMPLES = sorted((Path(islands.__file__).parent / "islands").glob("*.json"))
BASES = [json.loads(p.read_text(encoding="utf-8")) for p in SAMPLES]
BOARDS = [json.loads(p.read_text(encoding="utf-8"))
          for p in sorted((Path(maps.__file__).parent / "boards").glob("*.json"))]
FIELDS = ["players", "rounds", "lost_tribe", "border", "coastal", "format", "name", "title", "size", "sample",
          "regions", "id", "terrain", "symbols", "adjacent", "entry", "murloc", "marker", "note"]


def _set(data, path: list, value):
    """``data`` with the field reached by ``path`` (indices taken modulo) set to ``value``."""
    data = json.loads(json.dumps(data))
    node = data
    for step in path[:-1]:
        if isinstance(node, list) and node:
            node = node[step % len(node)] if isinstance(step, int) else node[0]
        elif isinstance(node, dict) and isinstance(step, str) and isinstance(node.get(step), (list, dict)):
            node = node[step]
    last = path[-1]
    if isinstance(node, dict):
        node[last if isinstance(last, str) else "id"] = value
    elif isinstance(node, list) and node:
        node[(last if isinstance(last, int) else 0) % len(node)] = value
    return data


def check(path) -> None:
    try:
        islands.load_island(str(path))
        islands.load(f"sample-large-1+{path}", check_set=False)
    except MapError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 700, str(exc)


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(base=st.sampled_from(BASES), path=st.lists(st.one_of(st.sampled_from(FIELDS), st.integers(0, 40)),
                                                  min_size=1, max_size=4), value=hostile_values())
def test_any_mutated_island_is_one_line(tmp_path_factory, base, path, value):
    file = tmp_path_factory.mktemp("i") / "island.json"
    file.write_text(json.dumps(_set(base, path, value)), encoding="utf-8", errors="surrogatepass")
    check(file)


@pytest.mark.parametrize("text", [b"[" * 100_000 + b"]" * 100_000, b'{"format": "smallworld-island/1", "size": {}}',
                                  b'{"format": "smallworld-island/1", "size": []}', b"\xff\xfe{}", b""])
def test_the_shapes_seen_are_one_line(tmp_path, text):
    file = tmp_path / "island.json"
    file.write_bytes(text)
    with pytest.raises(MapError):
        islands.load_island(str(file))


@pytest.mark.parametrize("name", ["/dev/zero", "/tmp", "/proc/self/mem", "x" * 5000])
def test_only_a_regular_file_is_an_island(name):
    with pytest.raises(MapError) as caught:
        islands.load_island(name)
    assert "\n" not in str(caught.value)
    assert not islands.is_islands(f"sample-large-1+{name}")


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(base=st.sampled_from(BOARDS), path=st.lists(st.one_of(st.sampled_from(FIELDS), st.integers(0, 60)),
                                                   min_size=1, max_size=4), value=hostile_values())
def test_any_mutated_map_file_is_one_line(tmp_path_factory, base, path, value):
    file = tmp_path_factory.mktemp("m") / "house.json"
    file.write_text(json.dumps(_set(base, path, value)), encoding="utf-8", errors="surrogatepass")
    try:
        maps.load(str(file))
    except MapError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 700, str(exc)
