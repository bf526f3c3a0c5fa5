import numpy as np
import pytest

from calibration import CalibrationError, flow, regions
from vision.geometry import load


def test_one_click_per_region_grows_outlines_close_to_the_truth(calibrated, table):
    folder, report = calibrated
    g = load(folder.file("geometry.json"))
    ious = [regions.iou(g.regions[rid], poly) for rid, poly in table.geometry.regions.items()]
    assert np.median(ious) >= 0.9
    assert min(ious) >= 0.8
    # The map's adjacency is respected as far as the printed board allows: same report as the truth.
    assert report["regions"]["adjacency"] == table.geometry.adjacency_report
    assert any("should touch but do not" in p for p in report["regions"]["problems"])


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
    shrunk = (g.regions[3] - g.regions[3].mean(0)) * 0.5 + g.regions[3].mean(0)
    out = flow.fix_region(folder, 3, shrunk.tolist())
    assert out["adjacency"]["missing"]  # region 3 no longer reaches its neighbours
    assert folder.info("regions")["fixed"] == [3]
    assert np.allclose(load(folder.file("geometry.json")).regions[3], shrunk, atol=0.01)
    assert b.map == "2p"
