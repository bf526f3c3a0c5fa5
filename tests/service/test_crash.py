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


def flag_and_record(data: Path):
    """The finished flag as stored (no repair: straight from the file) and the stored actions."""
    from companion.rules import Game
    store = Store(data / "companion.sqlite3")
    try:
        game = store.latest()
        if game is None:
            return None, []
        actions = store.actions(game.id)
        return game.finished, actions, Game.replay(game.setup, actions).finished
    finally:
        store.close()


def run_child(data: Path, seed: int, until: int, rng: random.Random):
    """Start the child on ``data``; SIGKILL it a few milliseconds after its ``until``-th action is
    acknowledged (None: let it finish). Returns the number acknowledged and whether it finished."""
    child = subprocess.Popen([sys.executable, str(CHILD), str(data), str(seed)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    ready = child.stdout.readline()
    assert ready.startswith("ready"), child.stderr.read()
    acked, finished = int(ready.split()[1]), False
    while until is None or acked < until:
        line = child.stdout.readline()
        if line.startswith("ack"):
            acked = int(line.split()[1])
        else:
            finished = line.strip() == "finished"
            break
    if not finished:
        time.sleep(rng.random() * 0.012)  # into the next action: its apply, its one commit, its print
        os.kill(child.pid, signal.SIGKILL)
    child.wait()
    for line in child.stdout.read().splitlines():
        if line.startswith("ack"):
            acked = int(line.split()[1])
        elif line == "finished":
            finished = True
    child.stdout.close()
    child.stderr.close()
    return acked, finished


@pytest.mark.slow
def test_sigkill_around_the_end_of_many_games_keeps_the_finished_flag_right(tmp_path):
    """The last action and the finished flag are one commit: killed anywhere around a game's end,
    the store never says finished for a game that is not, nor unfinished for one that is."""
    rng = random.Random(18)
    for seed in range(1, 9):
        data = tmp_path / f"game{seed}"
        data.mkdir()
        _, actions = script(seed)
        end = len(actions)
        acked = 0
        for until in (rng.randint(1, end - 4), end - 2, end - 1, None):
            until = None if until is None else max(until, acked)
            acked_now, finished = run_child(data, seed, until, rng)
            stored_flag, have, replayed_flag = flag_and_record(data)
            assert have == actions[:len(have)], "the store holds an action the script never played"
            assert acked_now <= len(have) <= acked_now + 1, f"acknowledged {acked_now}, stored {len(have)}"
            assert stored_flag == replayed_flag == (len(have) == end), \
                f"seed {seed}: {len(have)}/{end} actions stored, finished flag {stored_flag}"
            acked = len(have)
            if finished:
                break
        assert flag_and_record(data)[:2] == (True, actions)
