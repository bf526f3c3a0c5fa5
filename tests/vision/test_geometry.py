import json

import numpy as np
import pytest

import maps
from vision import geometry, layout
from vision.errors import GeometryError


def test_layout_is_deterministic_and_covers_every_region(geometry2p):
    again = layout.generate(maps.load("2p"))
    assert again.to_json() == geometry2p.to_json()
    assert set(geometry2p.regions) == set(maps.load("2p").ids)


def test_layout_respects_most_of_the_map_adjacency(geometry2p):
    board = maps.load("2p")
    pairs = {tuple(sorted((r.id, a))) for r in board for a in r.adjacent}
    missing = geometry2p.adjacency_report["missing"]
    assert len(missing) <= 0.15 * len(pairs)
    assert all(tuple(p) in pairs for p in missing)


def test_save_and_load_round_trip(tmp_path, geometry2p):
    path = tmp_path / "g.json"
    geometry2p.save(path)
    loaded = geometry.load(path)
    assert loaded.region_ids == geometry2p.region_ids
    assert [m.center for m in loaded.markers] == [m.center for m in geometry2p.markers]
    for rid in loaded.region_ids:
        assert np.allclose(loaded.regions[rid], geometry2p.regions[rid], atol=0.01)


def test_raster_labels_every_play_pixel(geometry2p):
    r = geometry.raster(geometry2p, 1.0)
    assert (r.nearest[r.play_mask > 0] >= 0).all()
    assert (r.areas > 0).all()


@pytest.mark.parametrize("text, words", [
    ("{", "not valid JSON"),
    ('{"format": "other"}', "format must be"),
    ('{"format": "smallworld-geometry/1", "width_mm": 10}', "missing or malformed"),
])
def test_bad_geometry_is_one_line_error(text, words):
    with pytest.raises(GeometryError) as err:
        geometry.parse(text, "g.json")
    assert words in str(err.value) and "\n" not in str(err.value) and str(err.value).startswith("g.json")


def test_geometry_needs_all_four_markers(geometry2p):
    data = json.loads(geometry2p.to_json())
    data["markers"] = data["markers"][:3]
    with pytest.raises(GeometryError, match="markers must be exactly"):
        geometry.parse(json.dumps(data))


def test_room_counts_the_tokens_that_lie_side_by_side(geometry2p):
    from dataclasses import replace
    square = np.array([[0, 0], [100, 0], [100, 100], [0, 100]], float)
    geo = replace(geometry2p, regions={1: square, 2: square * 0.5, 3: np.array([[0, 0], [200, 0], [200, 18], [0, 18]], float)})
    room = geometry.room(geo)
    # 100 mm square, 20 mm tokens: centres within an 80 mm square, a token's share of a packed layout
    # each (give or take the outline's pixels)
    assert abs(room[1] - (1 + int(80 * 80 / (20 * 20 * 0.866)))) <= 1
    assert room[2] < room[1] and room[3] == 1  # a strip narrower than a token: one, however long
