"""The board as it looks: the picture, each region an element over it, the pieces drawn on it."""
import cv2
import numpy as np
import pytest

import maps
from companion.service import layout, picture
from companion.rules import actions as A
from companion.service.inputs import NewGame, Play
from companion.shuffle import seeded_setup
from companion.simulate import play as simulate

from .conftest import needs_chromium, open_page, overflow, unlock


@pytest.mark.parametrize("name", ["2p", "5p"])
def test_the_schematic_has_one_outline_per_region_and_its_pieces_go_inside(name):
    board = maps.load(name)
    pic = picture.schematic(board)
    assert sorted(pic.outlines) == sorted(board.ids) and pic.jpeg is None
    for rid, poly in pic.outlines.items():
        x, y, room = pic.anchors[rid]
        assert cv2.pointPolygonTest(poly.astype(np.float32), (x, y), True) == pytest.approx(room, abs=2.5)
        assert room > 10, f"region {rid} has no room for its pieces"
    drawing = layout.geometry(board)
    assert [r["id"] for r in drawing["regions"]] == list(board.ids)
    assert all(r["path"].startswith("M") and r["path"].endswith("Z") for r in drawing["regions"])
    assert drawing["source"] == "schematic" and drawing["image"] is None


def test_the_calibrated_photo_is_the_board_with_the_grown_outlines(calibrated):
    from calibration import check
    from vision.settings import Settings
    calibration, _ = check.load_for_vision(Settings(), calibrated[0])
    pic = picture.from_calibration(calibration)
    image = cv2.imdecode(np.frombuffer(pic.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape[:2] == (pic.height, pic.width)
    assert sorted(pic.outlines) == sorted(calibration.geometry.regions)
    for rid, poly in pic.outlines.items():  # the outlines are in the photo's pixels
        assert poly.min() >= -1 and poly[:, 0].max() <= pic.width + 1 and poly[:, 1].max() <= pic.height + 1
    drawing = layout.geometry(maps.load("2p"), pic)
    assert drawing["source"] == "photo" and drawing["image"] == "/api/board/2p.jpg"
    assert (drawing["width"], drawing["height"]) == (pic.width, pic.height)


def test_pictures_are_made_in_the_background_and_a_failure_keeps_the_schematic():
    class Broken:
        map = "2p"
        calibration = None  # from_calibration fails on it
    pictures = picture.Pictures(saved=Broken())
    board = maps.load("2p")
    assert pictures.get(board) == (None, True)  # being made: the schematic meanwhile
    for _ in range(200):
        got, pending = pictures.get(board)
        if not pending:
            break
        import time
        time.sleep(0.01)
    assert (got, pending) == (None, False) and pictures.image("2p") is None
    assert picture.Pictures().get(board) == (None, False)  # nothing to make: the schematic


@needs_chromium
@pytest.mark.slow
def test_each_region_is_a_named_focusable_element_with_its_pieces_drawn(browser, server):
    service = server.service
    setup = seeded_setup("2p", 2, 4)
    assert service.owner.submit(NewGame(setup)).result(5).ok
    history = simulate(setup, 4).history
    upto = max(i for i, a in enumerate(history[:16]) if isinstance(a, A.Conquer))  # end on a conquest
    for action in history[:upto + 1]:
        assert service.owner.submit(Play(action)).result(5).ok
    public = service.owner.published.public
    occupied = {int(r): s for r, s in public["regions"].items() if s["tokens"] and s["owner"] is not None}
    assert occupied and public["last_move"]
    for size in ("phone", "screen"):
        w = unlock(open_page(browser, size), server.url)
        page = w.page
        page.wait_for_selector("#board .region")
        regions = page.locator("#board [data-region]")
        assert regions.count() == len(public["regions"])
        for rid, s in occupied.items():
            g = page.locator(f'#board [data-region="{rid}"]')
            assert g.get_attribute("tabindex") == "0" and g.get_attribute("role") == "button"
            name = g.get_attribute("aria-label")
            assert f"{s['tokens']} {s['race_title']}" in name, name
            assert g.locator(".count").text_content() == str(s["tokens"])
            owner = public["players"][s["owner"]]
            assert g.locator(".seat-letter").text_content() == owner["letter"]
        for rid in public["last_move"]["regions"]:
            assert "last" in page.locator(f'#board [data-region="{rid}"]').get_attribute("class")
        page.focus(f'#board [data-region="{min(occupied)}"]')
        page.keyboard.press("Enter")
        assert page.text_content("#region-info").startswith(f"Region {min(occupied)}:")
        assert overflow(page) <= 0, size
        assert not w.errors, w.errors
        page.context.close()
