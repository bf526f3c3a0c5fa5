"""Fuzz benchmark: the long versions of tests/hostile, printed as JSON counts (target: zero of each).

    python bench/fuzz.py                     # every fuzzer, default sizes (a few minutes on a Pi)
    python bench/fuzz.py --n 200 --only api  # one fuzzer, smaller

Each fuzzer runs in its own process under a 2.5 GB address-space cap, each case under a 60 s alarm,
and counts: ``tracebacks`` (an exception a user would see as one), ``server_errors`` (a 500 from
the API), ``hangs`` (a case over 60 s: a calibration step on a busy Pi takes seconds),
``leaked_totals`` (a coin total in a sentence the table or another phone receives),
``memory_blowups`` (a MemoryError, or the process growing by over 200 MB).

Fuzzers: records (``companion replay`` on mutated records of both rulesets), api (every route, any
body, as table, seat or stranger), config (mutated configuration files), islands (mutated island
files and house map files), serial_host (the companion's side of the scoring box link fed garbage
and mutated frames), firmware (the scoring box's own logic, as MicroPython runs it, fed the same).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
CASE_S = 60  # a hang: one case (a request, a record...) over a minute, on a loaded 2-core machine
MEMORY_CAP = int(2.5 * 1024 ** 3)
GROWTH_MB = 200
FUZZERS = ("records", "api", "config", "islands", "serial_host", "firmware")
DEFAULT_N = {"records": 2500, "api": 5000, "config": 2000, "islands": 2000, "serial_host": 3000, "firmware": 3000}

NASTY = [[1], {"a": 1}, [[[]]], 10 ** 18, -1, -10 ** 12, "", "x" * 5000, None, True, 1.5, "/dev/zero", "/etc/passwd",
         "sample-large-1+/dev/zero", "\u2603", 0, 99999999, "🎲", {"act": "pick"}, ["smallworld"], {"3": -1},
         {"x": 2},
         {"99": 2}, "conquer", [1, 2, 3], "../../etc/passwd", "\u202e", "<script>", 2 ** 63, "NaN"]


class Hang(BaseException):  # not an Exception: no handler of the code under test may swallow it
    pass


def _alarm(signum, frame):
    raise Hang()


def deep(n: int) -> str:
    return "[" * n + "]" * n


def mutate(value, rng: random.Random):
    """A JSON value with one part replaced, removed or nested."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        value = dict(value)
        key = rng.choice(list(value))
        r = rng.random()
        if r < 0.6:
            value[key] = mutate(value[key], rng)
        elif r < 0.8:
            del value[key]
        else:
            value[rng.choice(["act", "ruleset", "map", "players", "x", "format", "regions", "size"])] = \
                rng.choice(NASTY)
        return value
    if isinstance(value, list) and value and rng.random() < 0.7:
        value = list(value)
        i = rng.randrange(len(value))
        value[i] = mutate(value[i], rng)
        return value
    return rng.choice(NASTY)


def garble(text: str, rng: random.Random) -> bytes:
    """Text with byte-level damage: torn, junk inserted, deep nesting, huge numbers, non-UTF-8."""
    raw = text.encode()
    r = rng.random()
    if r < 0.15:
        return raw[:rng.randrange(len(raw) + 1)]
    if r < 0.3:
        at = rng.randrange(len(raw) + 1)
        return raw[:at] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 12))) + raw[at:]
    if r < 0.4:
        return raw + deep(rng.choice([50, 5000, 100_000])).encode()
    if r < 0.5:
        return re.sub(rb"\d+", lambda m: b"9" * rng.choice([5, 400, 4500]), raw, count=1)
    return raw


# ---------------------------------------------------------------- the fuzzers, one case each
class Fuzzer:
    def __init__(self, seed: int, tmp: Path):
        self.rng = random.Random(seed)
        self.tmp = tmp
        self.counts = {"cases": 0, "tracebacks": 0, "server_errors": 0, "hangs": 0, "leaked_totals": 0,
                       "memory_blowups": 0}
        self.examples: list[str] = []

    def bad(self, kind: str, what: str) -> None:
        self.counts[kind] += 1
        if len(self.examples) < 5:
            self.examples.append(f"{kind}: {what[:300]}")

    def close(self) -> None:
        pass


class Records(Fuzzer):
    def __init__(self, seed, tmp):
        super().__init__(seed, tmp)
        from companion.rules.record import dumps
        from companion.shuffle import seeded_setup
        from companion.simulate import play
        self.bases = []
        for ruleset, map_name, players in (("smallworld", "3p", 3), ("warcraft", None, 3)):
            setup = seeded_setup(map_name or "sample-large-1+sample-medium-1+sample-small-1", players, seed, ruleset)
            game = play(setup, seed)
            self.bases.append([json.loads(line) for line in dumps(setup, game.history).splitlines()])

    def case(self) -> None:
        from companion import cli
        lines = list(self.rng.choice(self.bases))
        for _ in range(self.rng.randint(1, 3)):
            j = self.rng.randrange(min(len(lines), 40))
            lines[j] = mutate(lines[j], self.rng)
        path = self.tmp / "record.jsonl"
        path.write_bytes(garble("\n".join(json.dumps(x) for x in lines) + "\n", self.rng))
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = cli.main(["replay", str(path)])
        if status not in (0, 1, 2) or err.getvalue().count("\n") > 1 or "Traceback" in err.getvalue():
            self.bad("tracebacks", err.getvalue())


class Config(Fuzzer):
    GOOD = ('[service]\nport = 8000\ndata_dir = "/tmp/x"\nallowed_hosts = ["t.lan"]\nkeepalive_s = 15.0\n'
            '[demo]\nruleset = "smallworld"\nmap = "2p"\nplayers = 2\npace_s = 1.5\n'
            '[camera]\nsource = "simulated:{map}:3"\nretry_s = 5.0\n[scoring_box]\nenabled = false\n'
            '[gpio]\nenabled = false\n')
    VALUES = ['"' + "x" * 5000 + '"', "nan", "inf", "9223372036854775807", "-1", "0", "1e308", '"/dev/zero"',
              "[1, [2, [3]]]", "{a = 1}", '"\\u0000"', '""', "true", deep(400), '"camera:7"', '"warcraft"',
              '"sample-large-1+' + "x" * 3000 + '"', '"' + "9" * 50 + '"', "[" + '"a",' * 300 + "]"]

    def case(self) -> None:
        from companion.service import config
        lines = self.GOOD.split("\n")
        for _ in range(self.rng.randint(1, 3)):
            k = self.rng.randrange(len(lines))
            if "=" in lines[k]:
                lines[k] = lines[k].split("=")[0] + "= " + self.rng.choice(self.VALUES)
        path = self.tmp / "c.toml"
        path.write_bytes(garble("\n".join(lines), self.rng))
        try:
            config.load(path, env={})
        except config.ConfigError as exc:
            if "\n" in str(exc):
                self.bad("tracebacks", f"two lines: {exc}")


class Islands(Fuzzer):
    def __init__(self, seed, tmp):
        super().__init__(seed, tmp)
        from maps import islands
        self.bases = [json.loads(p.read_text()) for p in sorted((ROOT / "maps" / "islands").glob("*.json"))]
        self.boards = [json.loads(p.read_text()) for p in sorted((ROOT / "maps" / "boards").glob("*.json"))]
        self.islands = islands

    def case(self) -> None:
        """An island file (and a map of it) or, one case in three, a house map file."""
        import maps
        from maps import MapError
        board = self.rng.random() < 0.33
        data = mutate(self.rng.choice(self.boards if board else self.bases), self.rng)
        path = self.tmp / "island.json"
        path.write_bytes(garble(json.dumps(data), self.rng))
        try:
            if board:
                maps.load(str(path))
            else:
                self.islands.load_island(str(path))
                self.islands.load(f"sample-large-1+{path}", check_set=False)
        except MapError as exc:
            if "\n" in str(exc):
                self.bad("tracebacks", f"two lines: {exc}")


def _frames(rng: random.Random) -> bytes:
    from firmware import proto
    kind = rng.choice(["HELLO", "STATE", "ACK", "NAK", "DIE", "X", ""])
    fields = [rng.choice(["1", "0", "-", "ff00aa", "99", "x" * rng.randrange(80), "\u00e9", "3", ""])
              for _ in range(rng.randrange(8))]
    try:
        frame = proto.encode(rng.choice([0, 1, 255, 9999, 10 ** 8]), kind, fields)
    except UnicodeEncodeError:
        frame = b"$1,HELLO*0000\n"
    r = rng.random()
    if r < 0.3:
        frame = frame.replace(b"\n", rng.choice([b"\r\n", b"", b"\n\n", b"$"]))
    elif r < 0.5:
        at = rng.randrange(len(frame))
        frame = frame[:at] + bytes([rng.randrange(256)]) + frame[at + 1:]
    elif r < 0.6:
        frame = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 600)))
    return frame


class SerialHost(Fuzzer):
    def __init__(self, seed, tmp):
        super().__init__(seed, tmp)
        import logging
        from companion.hardware.display import TableDisplay
        from companion.hardware.session import HostSession
        self.logged = [0]

        class Count(logging.Handler):
            def emit(inner, record):
                self.logged[0] += 1
        log = logging.getLogger("companion.hardware.scoring_box")
        log.addHandler(Count())
        log.setLevel(logging.INFO)
        log.propagate = False
        self.inputs = []
        self.host = HostSession(self.inputs.append)
        self.now = 0.0
        self.host.start(self.now)
        self.host.show(TableDisplay(round=1), self.now)

    def case(self) -> None:
        for _ in range(20):
            self.host.feed(_frames(self.rng), self.now)
            self.now += 0.01
        self.host.tick(self.now)
        if len(self.host.output()) > 100_000:
            self.bad("memory_blowups", "the host's output grew past 100 KB")

    def close(self) -> None:
        minutes = max(self.now / 60, 1 / 60)
        self.counts["log_lines_per_minute"] = round(self.logged[0] / minutes, 1)
        if self.logged[0] / minutes > 60:
            self.bad("memory_blowups", f"{self.logged[0]} log lines in {self.now:.0f} s of garbage")


class Firmware(Fuzzer):
    def __init__(self, seed, tmp):
        super().__init__(seed, tmp)
        sys.path.insert(0, str(ROOT / "firmware"))  # as MicroPython imports it: flat modules
        from firmware.scorebox import ScoreBox
        self.box = ScoreBox(0)
        self.ms = 0

    def case(self) -> None:
        for _ in range(20):
            self.box.feed(_frames(self.rng), self.ms)
            self.box.button(self.rng.random() < 0.5, self.ms)
            self.box.tick(self.ms)
            self.box.frame(self.ms)
            self.ms += self.rng.choice([1, 20, 400, 5000])
        if len(self.box.output()) > 100_000 or len(self.box.problems) > 64:
            self.bad("memory_blowups", "the box keeps what it should not")


class Api(Fuzzer):
    SLOW = ("/events/", "/calibrate/api/camera", "/calibrate/api/watch", "/calibrate/api/reference",
            "/calibrate/api/tokens/selftest", "/calibrate/api/check", "/calibrate/api/regions/grow",
            "/calibrate/preview.jpg", "/calibrate/rectified.png", "/calibrate/tray.png", "/static/")
    TOTAL = re.compile(r"you have (\d+|none)(?! in hand)")

    def __init__(self, seed, tmp):
        super().__init__(seed, tmp)
        import logging
        from companion.service.config import Config as C, ServiceSettings
        from companion.service.inputs import NewGame
        from companion.service.runtime import Service
        from companion.service.web import create_app
        from companion.shuffle import seeded_setup
        logging.getLogger("companion.service.web.app").setLevel(logging.CRITICAL)
        self.service = Service(C(service=ServiceSettings(data_dir=str(tmp / "data"), table_code="TABLE7",
                                                         die_seed=1)), hardware=False, camera=False).start()
        self.service.owner._refused.limit = 10 ** 9  # fuzz the answers, not the slowing down
        self.app = create_app(self.service, testing=True)
        self.NewGame, self.setup = NewGame, seeded_setup
        self._new_game()
        self.paths = {m: sorted({r.rule for r in self.app.url_map.iter_rules()
                                 if m in r.methods and not r.rule.startswith(self.SLOW)}) for m in ("GET", "POST")}

    def _new_game(self) -> None:
        ruleset = self.rng.choice(["smallworld", "warcraft"])
        map_name = "2p" if ruleset == "smallworld" else "sample-large-1+sample-small-1"
        self.service.owner.submit(self.NewGame(self.setup(map_name, 2, self.rng.randrange(999), ruleset))).result(10)
        self.browsers = {"table": self._browser("table"), "ann": self._browser(0), "ben": self._browser(1),
                         "stranger": self._browser(None)}

    def _browser(self, who):
        client = self.app.test_client()
        page = client.get("/unlock" if who == "table" else "/")
        token = re.search(rb'name="csrf-token" content="([^"]+)"', page.data).group(1).decode()
        if who == "table":
            client.post("/unlock", data={"code": "TABLE7", "csrf_token": token})
        elif who is not None:
            code = self.service.owner.published.codes[who]
            client.post("/join", data={"code": code, "csrf_token": token})
        return client, token

    def _body(self) -> bytes:
        r = self.rng.random()
        game = self.service.owner.game
        if r < 0.35 and game is not None:  # a plausible action, legal or not, so the game moves on
            legal = game.legal_actions() if hasattr(game, "legal_actions") else []
            if legal and self.rng.random() < 0.6:
                return json.dumps({"action": self.rng.choice(list(legal)).notation()}).encode()
            ids = list(game.board.ids)
            words = [f"conquer {self.rng.choice(ids)}", f"pick {self.rng.choice(game.column).race}",
                     "end", "decline", f"redeploy {self.rng.choice(ids)}:1", "enlist 2", "form worgen",
                     f"use doomhammer {self.rng.choice(ids)}"]
            return json.dumps({"action": self.rng.choice(words)}).encode()
        if r < 0.7:
            return json.dumps(mutate({"action": {"act": "conquer", "region": 3}, "face": 2, "region": 4,
                                      "option": 0, "accept": True, "map": "2p", "races": {"orcs": 5}},
                                     self.rng)).encode()
        if r < 0.8:
            return deep(self.rng.choice([30, 5000, 200_000])).encode()
        return bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(0, 64)))

    def case(self) -> None:
        who = self.rng.choice(list(self.browsers))
        client, token = self.browsers[who]
        fill = self.rng.choice(["1", "99999999999999999999", "-1", "x" * 3000, "..", "%ff", "0", "sample-large-1"])
        if self.rng.random() < 0.25:
            path = re.sub(r"<[^>]+>", fill, self.rng.choice(self.paths["GET"]))
            r = client.get(path, query_string={k: self.rng.choice(["2p", "warcraft", "x" * 3000, "//evil", "-1"])
                                               for k in self.rng.sample(["map", "ruleset", "next"], 2)})
        else:
            path = re.sub(r"<[^>]+>", fill, self.rng.choice(self.paths["POST"]))
            if path in ("/lock", "/leave", "/setup"):
                return
            r = client.post(path, data=self._body(),
                            content_type=self.rng.choice(["application/json", "text/plain"]),
                            headers={"X-CSRF-Token": token})
        if r.status_code >= 500:
            self.bad("server_errors", f"{who} {path} {r.status_code} {r.data[:200]!r}")
        if b"Traceback" in r.data:
            self.bad("tracebacks", f"{who} {path} {r.data[:200]!r}")
        text = r.data.decode("utf-8", "replace")
        owner_seat = self.service.owner.game.turn.player if self.service.owner.game else None
        reader = {"ann": 0, "ben": 1}.get(who)
        if self.TOTAL.search(text) and reader != owner_seat:
            self.bad("leaked_totals", f"{who} read {self.TOTAL.search(text).group(0)!r} on {path}")
        public = self.browsers["stranger"][0].get("/api/state").data.decode("utf-8", "replace")
        if self.TOTAL.search(public):
            self.bad("leaked_totals", f"the public state holds {self.TOTAL.search(public).group(0)!r}")
        if self.service.owner.game is None or self.service.owner.game.finished or self.rng.random() < 0.002:
            self._new_game()

    def close(self) -> None:
        self.service.close()


CLASSES = {"records": Records, "api": Api, "config": Config, "islands": Islands, "serial_host": SerialHost,
           "firmware": Firmware}


def rss_mb() -> float:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def one(name: str, n: int, seed: int) -> dict:
    """Run one fuzzer here (the child process): its counts."""
    try:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    except (ValueError, OSError):
        pass
    signal.signal(signal.SIGALRM, _alarm)
    with tempfile.TemporaryDirectory(prefix=f"fuzz-{name}-") as tmp:
        fuzzer = CLASSES[name](seed, Path(tmp))
        start, started = rss_mb(), time.monotonic()
        for _ in range(n):
            fuzzer.counts["cases"] += 1
            signal.alarm(CASE_S)
            try:
                fuzzer.case()
            except Hang:
                fuzzer.bad("hangs", f"a case ran over {CASE_S} s")
            except MemoryError:
                fuzzer.bad("memory_blowups", "MemoryError")
            except Exception as exc:  # the class of defect this bench counts
                fuzzer.bad("tracebacks", "".join(traceback.format_exception_only(exc)).strip()
                           + " at " + traceback.format_tb(exc.__traceback__)[-1].strip().splitlines()[0])
            finally:
                signal.alarm(0)
        fuzzer.close()
        grown = rss_mb() - start
        if grown > GROWTH_MB:
            fuzzer.bad("memory_blowups", f"the process grew by {grown:.0f} MB")
        return {**fuzzer.counts, "seconds": round(time.monotonic() - started, 1), "rss_growth_mb": round(grown, 1),
                "examples": fuzzer.examples}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=0, help="cases per fuzzer (default: each fuzzer's own)")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--only", action="append", choices=FUZZERS, help="run only these fuzzers")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]  # bench/*.py shadow no package
    if args.child:
        print(json.dumps(one(args.child[0], int(args.child[1]), int(args.child[2]))))
        return
    out: dict = {"seed": args.seed, "fuzzers": {}}
    for name in args.only or FUZZERS:
        n = args.n or DEFAULT_N[name]
        proc = subprocess.run([sys.executable, __file__, "--child", name, str(n), str(args.seed)],
                              capture_output=True, text=True, timeout=CASE_S * n + 600, cwd=ROOT)
        try:
            out["fuzzers"][name] = json.loads(proc.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):  # the fuzzer's process itself died: count it
            out["fuzzers"][name] = {"cases": n, "tracebacks": 1, "server_errors": 0, "hangs": 0,
                                    "leaked_totals": 0, "memory_blowups": int(proc.returncode in (-9, 137)),
                                    "examples": [proc.stderr[-300:]]}
    keys = ("tracebacks", "server_errors", "hangs", "leaked_totals", "memory_blowups")
    out["totals"] = {k: sum(f.get(k, 0) for f in out["fuzzers"].values()) for k in keys}
    out["totals"]["cases"] = sum(f.get("cases", 0) for f in out["fuzzers"].values())
    out["targets"] = {k: 0 for k in keys}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
