import cv2
import numpy as np
import pytest

import maps
from calibration import CalibrationError, flow, regions
from vision.geometry import load


def test_one_click_per_region_grows_outlines_close_to_the_truth(calibrated, table):
    folder, report = calibrated
    g = load(folder.file("geometry.json"))
    ious = [regions.iou(g.regions[rid], poly) for rid, poly in table.geometry.regions.items()]
    assert np.median(ious) >= 0.9
    assert min(ious) >= 0.8
    # The map's adjacency is respected as far as the printed board allows: same report as the truth
    # (this printed 2p board has every adjacency of the map, so nothing to tell the player).
    truth = table.geometry.adjacency_report
    assert regions.adjacency(table.geometry) == truth
    assert report["regions"]["adjacency"] == truth
    assert report["regions"]["problems"] == regions.describe_adjacency("2p", truth)


def test_short_printed_borders_keep_their_length(calibrated, table):
    # A border a few millimetres long between two three-region junctions (6-11 and 20-22 on this
    # board) is where a flood running along the printed line would eat it.
    folder, _ = calibrated
    grown = regions.borders(load(folder.file("geometry.json")))
    printed = regions.borders(table.geometry)
    short = {pair: mm for pair, mm in printed.items() if mm < 20}
    assert (6, 11) in short and (20, 22) in short
    for pair, mm in short.items():
        assert grown.get(pair, 0) >= mm - 2, (pair, mm, grown.get(pair, 0))


def test_border_lines_are_thin_dark_lines_on_any_terrain():
    img = np.full((80, 120, 3), 200, np.uint8)
    img[:, 60:] = (150, 90, 30)  # dark sea on the right
    img[:, 58:61] = 40  # the printed line between the two
    img[20:24, 10:50] = 40  # a line on light terrain
    cv2.circle(img, (90, 40), 8, (230, 230, 230), -1)  # a printed symbol is not a line
    cv2.circle(img, (90, 40), 4, (60, 60, 190), -1)
    lines = regions.border_lines(img, 2.0)
    assert lines[40, 59] and lines[22, 30]
    assert not lines[40, 30] and not lines[40, 100] and not lines[40, 90]


def test_prompts_name_terrain_and_symbols():
    order = regions.prompts("2p")
    assert [p["id"] for p in order] == sorted(p["id"] for p in order)
    assert order[0]["prompt"] == "Click inside region 0 (Sea)"


def test_seeds_are_checked(calibrated):
    folder, _ = calibrated
    b = flow.board(folder)
    with pytest.raises(CalibrationError, match="no click yet for regions"):
        regions.check_seeds(b, {0: [100, 100]})
    with pytest.raises(CalibrationError, match="outside the play area"):
        regions.check_seeds(b, {0: [1, 1]})
    with pytest.raises(CalibrationError, match="not on map 2p"):
        regions.check_seeds(b, {99: [100, 100]})


def test_fixing_a_region_validates_and_redoes_the_adjacency(calibrated, tmp_path):
    import shutil
    from calibration.folder import Folder
    folder = Folder(tmp_path / "copy")
    shutil.copytree(calibrated[0].path, folder.path)
    b = flow.board(folder)
    g = load(folder.file("geometry.json"))
    with pytest.raises(CalibrationError, match="crosses itself"):
        flow.fix_region(folder, 3, [[100, 100], [200, 200], [200, 100], [100, 200]])
    with pytest.raises(CalibrationError, match="smaller than one token"):
        flow.fix_region(folder, 3, [[100, 100], [101, 100], [101, 101]])
    with pytest.raises(CalibrationError, match="outside the play area"):
        flow.fix_region(folder, 3, [[0, 0], [300, 0], [300, 300]])
    with pytest.raises(CalibrationError, match="region 77 is not on map"):
        flow.fix_region(folder, 77, g.regions[3].tolist())
    # An outline drawn a little inside the printed border still reaches its neighbours: vision gives
    # the gap between outlines to the nearest region.
    shrunk = (g.regions[3] - g.regions[3].mean(0)) * 0.8 + g.regions[3].mean(0)
    out = flow.fix_region(folder, 3, shrunk.tolist())
    assert out["adjacency"] == {"missing": [], "extra": []} and out["problems"] == []
    assert folder.info("regions")["fixed"] == [3]
    assert np.allclose(load(folder.file("geometry.json")).regions[3], shrunk, atol=0.01)
    # Dragged onto the wrong region, it loses every neighbour, and the companion names each pair.
    moved = (g.regions[3] - g.regions[3].mean(0)) * 0.5 + regions.inner_point(g.regions[0])
    out = flow.fix_region(folder, 3, moved.tolist())
    missing = out["adjacency"]["missing"]
    assert missing == sorted(sorted([3, n]) for n in maps.load("2p")[3].adjacent)
    assert [0, 3] in out["adjacency"]["extra"]
    for (one, other), sentence in zip(missing, out["problems"]):
        assert sentence.startswith(f"region {one} (") and f"and region {other} (" in sentence
        assert sentence.endswith("should touch but do not")
    assert any(p.startswith("region 0 (Sea) and region 3 (") and p.endswith("the map does not make them adjacent")
               for p in out["problems"])
    assert b.map == "2p"


def _grown(map_name: str, seed: int, tier: str, design: int, tmp_path):
    """A simulated camera pose of another printing, its empty board photographed: (truth, grown outlines)."""
    from calibration.folder import Folder
    from calibration.reference import load_rectified
    from calibration.sim import SimulatedTable
    from vision.settings import Settings
    table = SimulatedTable(map_name, seed, tier, (1280, 720), design)
    folder = Folder(tmp_path / f"{map_name}-{seed}")
    flow.markers_step(folder, map_name)
    flow.reference_step(Settings(), folder, table)
    polys = regions.grow(flow.board(folder), load_rectified(folder), flow.truth_seeds(table))
    return table.geometry.regions, polys


@pytest.mark.parametrize("pose", [("2p", 5052, "foreign-hard", 128, (5, 6)), ("5p", 5195, "foreign-clean", 105, (35, 42))])
def test_a_click_on_a_printed_symbol_grows_the_whole_region(pose, tmp_path):
    """The middle of a region, where a player clicks, is where its symbols are printed. A flood started inside a
    symbol's light ring left it only at that ring's contrast, after the neighbour's flood had crossed the faint
    border between two dark terrains and taken the region: it was grown as the symbol alone (and read empty in
    every frame). On these poses the click lies on a symbol; every region grows as printed."""
    map_name, seed, tier, design, rids = pose
    truth, polys = _grown(map_name, seed, tier, design, tmp_path)
    assert all(regions.iou(truth[rid], polys[rid]) >= 0.9 for rid in rids), \
        {rid: round(regions.iou(truth[rid], polys[rid]), 2) for rid in rids}
    assert min(regions.iou(p, polys[rid]) for rid, p in truth.items()) >= 0.8


def test_a_glare_spot_on_the_empty_board_does_not_let_a_neighbour_in(tmp_path):
    """The lamp's glare washes a region's border line out to less contrast than the glare's own slope: the
    neighbour's flood crossed it and took all of the region but the glare's bright middle. The border lines found
    are barriers, and the flood runs on the print without the light's slow slopes."""
    truth, polys = _grown("3p", 5273, "foreign-hard", 147, tmp_path)
    assert regions.iou(truth[11], polys[11]) >= 0.9 and regions.iou(truth[5], polys[5]) >= 0.9
