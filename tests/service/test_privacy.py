"""The coin-privacy rule: no player's total in any response or streamed event seen by the table or
by another seat. Starting coins are raised to 70000 so that every total is a number no region id,
token count or version can be (any 70001-79999 in a text is a total)."""
import re
import threading

import pytest

from companion.rules import pieces
from companion.service.inputs import NewGame, Play
from companion.shuffle import seeded_setup
from companion.simulate import play as simulate

from .helpers import Browser

START = 70000
TOTAL = re.compile(r"(?<!\d)7\d{4}(?!\d)")


def totals_in(text: str) -> set[int]:
    return {int(m) for m in TOTAL.findall(text) if int(m) > START}


@pytest.fixture
def rich(monkeypatch):
    monkeypatch.setattr(pieces, "STARTING_COINS", START)


def collect(stream, into: list, stop: threading.Event):
    for chunk in stream:
        into.append(chunk)
        if stop.is_set():
            return


def test_no_total_reaches_the_table_or_another_seat(rich, service, app):
    setup = seeded_setup("3p", 3, 11)
    history = simulate(setup, 11).history
    assert service.owner.submit(NewGame(setup)).result(5).ok
    table = Browser(app).unlock()
    codes = [s["code"] for s in table.get("/api/join-codes").json]
    seats = [Browser(app).join(c) for c in codes]
    public = Browser(app)

    stop = threading.Event()
    streams = {"table": []} | {f"seat:{i}": [] for i in range(3)}
    threads = [threading.Thread(target=collect, args=(service.hub.stream(ch), out, stop), daemon=True)
               for ch, out in streams.items()]
    for t in threads:
        t.start()

    seen = {"table": [], "public": [], 0: [], 1: [], 2: []}
    own = {i: set() for i in range(3)}

    def sample():
        for who, browser in (("table", table), ("public", public)):
            for path in ("/", "/api/state", "/api/log", "/games", "/seat", "/api/layout"):
                seen[who].append(browser.get(path).data.decode())
        seen["table"].append(table.get("/api/join-codes").data.decode())
        for i, b in enumerate(seats):
            for path in ("/", "/seat", "/api/seat", "/api/state", "/api/log"):
                seen[i].append(b.get(path).data.decode())
            own[i].add(service.owner.published.seats[i]["coins"])
        for who, browser in (("table", table), ("public", public)):
            r = browser.get("/events/table", buffered=False)
            seen[who].append(next(c for c in r.response if b"event:" in c).decode())
            r.close()

    cut = len(history) - 15  # stop before the end: the totals are revealed then
    for n, action in enumerate(history[:cut]):
        assert service.owner.submit(Play(action)).result(5).ok
        for i in range(3):
            own[i].add(service.owner.published.seats[i]["coins"])
        if n % 25 == 0:
            sample()
    sample()
    for i in range(3):
        assert service.owner.published.seats[i]["coins"] > START  # everybody has scored
    stop.set()
    service.owner.submit(Play(history[cut])).result(5)  # one more event wakes the collectors
    for t in threads:
        t.join(5)

    for who in ("table", "public"):
        text = "\n".join(seen[who]) + ("\n".join(streams["table"]) if who == "table" else "")
        assert totals_in(text) == set(), f"a coin total reached the {who} view"
        assert '"coins": 7' not in text
    for i in range(3):
        text = "\n".join(seen[i]) + "\n".join(streams[f"seat:{i}"])
        found = totals_in(text)
        assert found, "the seat sees its own total"
        assert found <= own[i], f"seat {i} saw another player's total: {found - own[i]}"
    assert len(streams["table"]) > cut // 2 and all(len(streams[f"seat:{i}"]) > cut // 2 for i in range(3))
