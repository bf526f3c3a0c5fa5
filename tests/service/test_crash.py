"""Kill the service (SIGKILL) at random points of a scripted game and restart it, 50 times and more:
every action acknowledged before a kill is in the store, in order, and nothing else (at most the
one action being committed at the moment of the kill, which is the script's next)."""
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.service.store import Store

from .crash_child import script

CHILD = Path(__file__).with_name("crash_child.py")
KILLS = 50


def stored(data: Path):
    store = Store(data / "companion.sqlite3")
    try:
        game = store.latest()
        return [] if game is None else store.actions(game.id)
    finally:
        store.close()


@pytest.mark.slow
def test_sigkill_at_random_points_loses_nothing_acknowledged(tmp_path):
    rng = random.Random(2024)
    seed = 3
    _, actions = script(seed)
    kills = 0
    acked = 0
    runs = 0
    while kills < KILLS:
        runs += 1
        assert runs < KILLS * 3, "the game ended too early for the kills wanted"
        child = subprocess.Popen([sys.executable, str(CHILD), str(tmp_path), str(seed)], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        ready = child.stdout.readline()
        assert ready.startswith("ready"), child.stderr.read()
        resumed = int(ready.split()[1])
        assert acked <= resumed <= acked + 1
        acked = resumed
        target = rng.randint(0, 3)
        finished = False
        for _ in range(target):
            line = child.stdout.readline()
            if line.startswith("ack"):
                acked = int(line.split()[1])
            else:
                finished = True
                break
        time.sleep(rng.random() * 0.004)  # land anywhere: mid-apply, mid-commit, mid-print
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        for line in child.stdout.read().splitlines():  # what it printed before dying was acknowledged too
            if line.startswith("ack"):
                acked = int(line.split()[1])
            elif line == "finished":
                finished = True
        child.stdout.close()
        child.stderr.close()
        kills += 1
        have = stored(tmp_path)
        assert have == actions[:len(have)], "the store holds an action the script never played"
        assert acked <= len(have) <= acked + 1, f"acknowledged {acked}, stored {len(have)}"
        acked = len(have)
        if finished or acked == len(actions):
            tmp_path = tmp_path / "next"  # a fresh store for the remaining kills
            tmp_path.mkdir()
            acked = 0
    assert kills >= KILLS
