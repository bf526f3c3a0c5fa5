"""Screenshots of every dashboard page at a phone's size (390x844) and a table screen's (1920x1080).

A service on this machine with a seeded game (the board drawn over vision's rendered board, as the
demo shows it, unless --schematic), then Debian's Chromium (Playwright) opens each page: the table
screen in a game and at its end (``end-*``), a player's phone, setup, past games, a finished game,
calibration, join. Writes ``NAME-390.png`` and ``NAME-1920.png`` (full pages) into --out and prints JSON: each
page's file and how many CSS pixels it is wider than the screen (0: no horizontal scrolling).
``--docs DIR`` also writes small PNGs for the README (the table screen, a phone, the end, setup).

    python bench/screens.py [--out DIR] [--docs docs/screens] [--map 2p] [--schematic]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
TABLE_CODE = "SCREENS1"
SIZES = {390: {"width": 390, "height": 844}, 1920: {"width": 1920, "height": 1080}}


def start(data: str, map_name: str, rendered: bool):
    from companion.service.config import Config, ServiceSettings
    from companion.service.server import Server
    config = Config(service=ServiceSettings(host="127.0.0.1", port=0, data_dir=data, table_code=TABLE_CODE,
                                            keepalive_s=2.0, die_seed=5))
    server = Server(config, hardware=False)
    server.start_service()
    server.service.pictures.rendered_maps = rendered
    threading.Thread(target=server.run, daemon=True).start()
    server.url = f"http://127.0.0.1:{server.port}"
    return server


def play(service, map_name: str, seed: int, upto: int | None):
    from companion.rules import actions as A
    from companion.service.inputs import NewGame, Play
    from companion.shuffle import seeded_setup
    from companion.simulate import play as simulate
    import maps
    setup = seeded_setup(map_name, maps.load(map_name).players, seed)
    history = simulate(setup, seed).history
    if upto is not None:  # stop on a conquest, so the last move shows
        upto = max(i for i, a in enumerate(history[:upto]) if isinstance(a, A.Conquer)) + 1
    assert service.owner.submit(NewGame(setup)).result(10).ok
    for action in history[:upto]:
        assert service.owner.submit(Play(action)).result(10).ok
    return service.owner.published.game_id


def wait_picture(service, map_name: str, limit_s: float = 300.0) -> str:
    import maps
    board = maps.load(map_name)
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        picture, pending = service.pictures.get(board)
        if not pending:
            return picture.source if picture is not None else "schematic"
        time.sleep(0.5)
    return "schematic (the picture was not ready)"


def unlocked(browser, viewport: dict, url: str):
    """A new page at this size whose screen has given the table code (the table screen)."""
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"{url}/unlock")
    page.fill("input[name=code]", TABLE_CODE)
    page.click("main button")
    page.wait_for_url(f"{url}/")
    return page


def small_png(src: Path, dst: Path, width: int, height: int | None = None) -> None:
    import cv2
    image = cv2.imread(str(src))
    if height is not None:
        image = image[:height]
    scale = width / image.shape[1]
    image = cv2.resize(image, (width, int(image.shape[0] * scale)), interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(dst), image, [cv2.IMWRITE_PNG_COMPRESSION, 9])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="folder for the screenshots (default: a new temporary folder)")
    ap.add_argument("--docs", help="also write small PNGs for the README into this folder")
    ap.add_argument("--map", default="2p")
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--schematic", action="store_true", help="no rendered board: the map of outlines")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright
    out = Path(args.out or tempfile.mkdtemp(prefix="screens-"))
    out.mkdir(parents=True, exist_ok=True)
    server = start(tempfile.mkdtemp(prefix="screens-data-"), args.map, not args.schematic)
    service = server.service
    pages: dict = {}
    t0 = time.monotonic()
    try:
        finished = play(service, args.map, args.seed + 1, None)
        current = play(service, args.map, args.seed, 24)
        source = wait_picture(service, args.map)
        code = service.owner.published.codes[service.owner.published.public["current"]]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for width, viewport in SIZES.items():
                table = unlocked(browser, viewport, server.url)
                phone = browser.new_context(viewport=viewport).new_page()
                phone.goto(f"{server.url}/join/{code}")
                phone.click("main button")
                phone.wait_for_url(f"{server.url}/seat")
                shots = [("table", table, "/"), ("seat", phone, None), ("setup", table, "/setup"),
                         ("games", table, "/games"), ("game", table, f"/games/{finished}"),
                         ("calibrate", table, "/calibrate"), ("calibrate-camera", table, "/calibrate/camera"),
                         ("calibrate-regions", table, "/calibrate/regions"), ("calibrate-tokens", table, "/calibrate/tokens"),
                         ("join", browser.new_context(viewport=viewport).new_page(), "/join")]
                for name, page, path in shots:
                    if path is not None:
                        page.goto(server.url + path)
                    if name in ("table", "seat"):
                        page.wait_for_selector("#board .region")
                    page.wait_for_timeout(600)
                    file = out / f"{name}-{width}.png"
                    page.screenshot(path=str(file), full_page=True)
                    wider = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                    pages[f"{name}-{width}"] = {"file": str(file), "wider_px": max(0, wider)}
            # the end of a game on the table screen: the reveal, the chart, where the coins came from
            ended = play(service, args.map, args.seed + 2, None)
            for width, viewport in SIZES.items():
                table = unlocked(browser, viewport, server.url)
                table.wait_for_selector("#end:not(.hidden) #income details")
                table.locator("#income summary").first.click()
                table.wait_for_timeout(1500)  # the reveal's rows
                file = out / f"end-{width}.png"
                table.screenshot(path=str(file), full_page=True)
                wider = table.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                pages[f"end-{width}"] = {"file": str(file), "wider_px": max(0, wider), "game": ended}
            browser.close()
        if args.docs:
            docs = Path(args.docs)
            docs.mkdir(parents=True, exist_ok=True)
            small_png(out / "table-1920.png", docs / "table.png", 800, 1080)
            small_png(out / "seat-390.png", docs / "phone.png", 390, 1500)
            small_png(out / "end-1920.png", docs / "end.png", 800, 1080)
            small_png(out / "setup-390.png", docs / "setup.png", 390, 1500)
    finally:
        server.close()
    print(json.dumps({"board": source, "map": args.map, "game": current, "out": str(out), "pages": pages,
                      "overflowing": sorted(k for k, v in pages.items() if v["wider_px"]),
                      "seconds": round(time.monotonic() - t0, 1)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
