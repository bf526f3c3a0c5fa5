"""Reconnect time of the scoring box link: the simulator process killed (unplug) and restarted (replug).

Prints JSON: how long the link takes to notice the unplug, and from the moment the new box is
plugged in (its pty exists) until it has acknowledged the current state again.
Run: .venv/bin/python bench/reconnect.py [--runs N]
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time

from companion.hardware.display import TableDisplay
from companion.hardware.link import ScoringBoxLink
from companion.hardware.settings import ScoringBoxSettings


def start_box(link_path: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "firmware.sim", "--link", link_path],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    proc.stdout.readline()
    return proc


def wait(condition, timeout=10.0) -> float:
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > timeout:
            raise SystemExit("timed out")
        time.sleep(0.001)
    return time.monotonic()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(relativeCreated)6.0f ms %(message)s")
    detect, replug = [], []
    with tempfile.TemporaryDirectory() as tmp:
        link_path = os.path.join(tmp, "scorebox")
        settings = ScoringBoxSettings(enabled=True, path=link_path)  # defaults: reconnect_s 0.2
        proc = start_box(link_path)
        with ScoringBoxLink(settings, lambda i: None) as link:
            for n in range(args.runs):
                snapshot = TableDisplay(round=n % 10 + 1, colour=(n, 0, 0))
                link.show(snapshot)
                wait(lambda: link.status.showing == snapshot)
                pulled = time.monotonic()
                proc.kill()
                proc.wait()
                detect.append(wait(lambda: link.status.state == "looking") - pulled)
                proc = start_box(link_path)
                plugged = time.monotonic()
                replug.append(wait(lambda: link.status.showing == snapshot) - plugged)
        proc.kill()
        proc.wait()
    ms = lambda xs: {"median_ms": round(statistics.median(xs) * 1000, 1), "max_ms": round(max(xs) * 1000, 1)}
    print(json.dumps({"runs": args.runs, "reconnect_s": settings.reconnect_s,
                      "unplug_noticed": ms(detect), "replug_to_state_acknowledged": ms(replug)}, indent=2))


if __name__ == "__main__":
    main()
