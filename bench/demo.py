"""The README's first command, played to the end: `companion demo` as a user starts it (a process
of its own, pace 0, the simulated camera on), N seeds per map, watched through /api/state. Prints JSON.

    python bench/demo.py [--seeds 10] [--first-seed 1] [--maps 2p,3p,4p,5p] [--ruleset smallworld]
                         [--give-up 300] [--jobs 1] [--cold]

Per game: finished (the table screen shows the final scores), actions, seconds, the longest time the
game did not move, the start-up (the printed address; the first action; the first action the camera
read; each also in CPU seconds of the process, what it would take on an idle machine), and what the demo's players had to do for the companion (questions answered, moves entered by
hand, alerts answered "the board is right") and the watchdog's reports, counted from its log.
A game that has not moved for --give-up seconds is stopped and counted unfinished. --cold: the first
game of each map starts with an empty cache (what the camera keeps between runs), as on a new install.
For --ruleset warcraft (no camera path) the maps are the SAMPLE islands for 2 to 5 players.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADDRESS = re.compile(r"companion demo: open (http://\S+) \(on this machine (http://\S+)\)")
SAID = {"questions answered": "The camera asks", "entered by hand": "by hand.",
        "board is right": "the players tell it the board is right", "watchdog": "has not moved for"}


def cpu_s(pid: int) -> float | None:
    """The CPU seconds a process has used so far (all its threads): on a loaded machine, what its
    start-up would take on an idle one (it is mostly one thread at a time)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return round((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), 2)
    except (OSError, ValueError, IndexError):
        return None


def state(url: str) -> dict | None:
    try:
        with urllib.request.urlopen(url + "api/state", timeout=5) as r:
            return json.load(r)
    except (OSError, ValueError):
        return None


def one_game(ruleset: str, where: str, seed: int, give_up: float, cache: str | None) -> dict:
    """Start `companion demo`, watch it until the game ends (or stops moving), stop it."""
    data = tempfile.mkdtemp(prefix="bench-demo-")
    config = Path(data) / "config.toml"
    config.write_text("[demo]\nrestart_s = 3600\n")  # one game per process
    where_args = ["--players", where] if ruleset == "warcraft" else ["--map", where]
    cmd = [sys.executable, "-m", "companion", "demo", "--config", str(config), "--pace", "0", "--seed", str(seed),
           "--ruleset", ruleset, *where_args, "--port", "0", "--host", "127.0.0.1", "--data", data]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    if cache:
        env["COMPANION_CACHE"] = cache
    out = {"ruleset": ruleset, "map" if ruleset != "warcraft" else "players": where, "seed": seed}
    t0 = time.monotonic()
    child = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    log: list[str] = []
    reader = threading.Thread(target=lambda: log.extend(child.stderr), daemon=True)
    reader.start()
    url = None
    for line in child.stdout:
        m = ADDRESS.match(line)
        if m:
            url = m.group(2)
            out["address_s"] = round(time.monotonic() - t0, 2)
            out["address_cpu_s"] = cpu_s(child.pid)
            break
    threading.Thread(target=lambda: [None for _ in child.stdout], daemon=True).start()
    try:
        if url is None:
            out.update(finished=False, error="no address printed")
            return out
        actions, moved, longest, first_camera = -1, time.monotonic(), 0.0, None
        public: dict = {}
        while child.poll() is None:
            public = state(url) or public
            now = time.monotonic()
            n = public.get("actions", 0) if not public.get("no_game") else -1
            if n != actions:
                if actions >= 0 or n > 0:
                    longest = max(longest, now - moved)
                if n > 0 and "first_action_s" not in out:
                    out["first_action_s"] = round(now - t0, 2)
                    out["first_action_cpu_s"] = cpu_s(child.pid)
                actions, moved = n, now
            if first_camera is None and any(e.get("source") == "camera" for e in public.get("log") or ()):
                first_camera = out["first_camera_action_s"] = round(now - t0, 2)
                out["first_camera_action_cpu_s"] = cpu_s(child.pid)
            if public.get("finished"):
                break
            if now - moved > give_up:
                longest = max(longest, now - moved)
                break
            time.sleep(0.2)
        end = public.get("end") or {}
        out.update(finished=bool(public.get("finished")), actions=max(actions, 0),
                   seconds=round(time.monotonic() - t0, 1), longest_still_s=round(max(longest, 0.0), 1),
                   final_scores=bool(end), step=public.get("step"))
        if public.get("notice"):
            out["notice"] = public["notice"]["text"]
        if child.poll() is not None:
            out["exited"] = child.returncode
    finally:
        if child.poll() is None:
            child.send_signal(signal.SIGINT)
            try:
                child.wait(10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        reader.join(5)
    text = "".join(log)
    out["players_did"] = {k: text.count(v) for k, v in SAID.items()}
    if "Traceback" in text:
        out["traceback"] = text[text.index("Traceback"):][:2000]
    return out


def summary(games: list[dict]) -> dict:
    def spread(key):
        values = [g[key] for g in games if key in g]
        return {"median": round(statistics.median(values), 2), "max": round(max(values), 2)} if values else None
    done = sum(g.get("finished", False) for g in games)
    return {"games": len(games), "finished": done, "finished_pct": round(100 * done / max(1, len(games)), 1),
            "longest_still_s": max((g.get("longest_still_s", 0) for g in games), default=0),
            "seconds": spread("seconds"), "address_s": spread("address_s"), "first_action_s": spread("first_action_s"),
            "first_camera_action_s": spread("first_camera_action_s"),
            "address_cpu_s": spread("address_cpu_s"), "first_action_cpu_s": spread("first_action_cpu_s"),
            "first_camera_action_cpu_s": spread("first_camera_action_cpu_s"),
            "players_did": {k: sum(g.get("players_did", {}).get(k, 0) for g in games) for k in SAID}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="games per map")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--maps", help="comma-separated (default 2p,3p,4p,5p; warcraft: 2,3,4,5 players)")
    parser.add_argument("--ruleset", default="smallworld", choices=("smallworld", "warcraft"))
    parser.add_argument("--give-up", type=float, default=300.0, help="seconds without a move before a game is stopped")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument("--cold", action="store_true", help="the first game of each map starts with an empty cache")
    args = parser.parse_args()
    wheres = (args.maps or ("2,3,4,5" if args.ruleset == "warcraft" else "2p,3p,4p,5p")).split(",")
    cold = {w: tempfile.mkdtemp(prefix="bench-demo-cache-") for w in wheres} if args.cold else {}
    runs = [(w, s) for w in wheres for s in range(args.first_seed, args.first_seed + args.seeds)]
    started, load = time.monotonic(), os.getloadavg()

    def run(where_seed):
        where, seed = where_seed
        cache = cold.get(where) if seed == args.first_seed else None
        game = one_game(args.ruleset, where, seed, args.give_up, cache)
        print(json.dumps(game), file=sys.stderr, flush=True)  # progress: one line a game
        return game

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        if args.cold:  # the cold start of each map first, alone: what it costs is the point
            games = [run(r) for r in runs if r[1] == args.first_seed]
            games += list(pool.map(run, [r for r in runs if r[1] != args.first_seed]))
        else:
            games = list(pool.map(run, runs))
    per_map = {w: summary([g for g in games if g.get("map", g.get("players")) == w]) for w in wheres}
    print(json.dumps({"bench": "demo", "ruleset": args.ruleset, "pace": 0, "seeds_per_map": args.seeds,
                      "first_seed": args.first_seed, "jobs": args.jobs, "cold": args.cold,
                      "cpus": os.cpu_count(), "load_avg": {"start": [round(x, 1) for x in load],
                                                              "end": [round(x, 1) for x in os.getloadavg()]},
                      "wall_s": round(time.monotonic() - started, 1),
                      "total": summary(games), "per_map": per_map, "games": games}, indent=1))


if __name__ == "__main__":
    main()
