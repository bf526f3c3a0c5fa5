"""Engine benchmark: replay simulated games and time ``legal_actions()`` on mid-game positions, for
the base game on the 4- and 5-player maps and for Small World of Warcraft. Prints JSON.

    python bench/engine.py [--games 100] [--repeat 5]

Targets (issue 24): ``legal_actions()`` median <= 30 us on mid-game 4p and 5p positions, replay <= 15 us
per action. Times are the CPU time of this process (``time.process_time``: what one core spends,
not the wall clock, which other work on a shared machine inflates), each position timed
``--repeat`` times, cold (nothing remembered about it), and its fastest run kept; ``cpu_load`` says
how busy the machine was. Positions
are taken from 40 % to 60 % of each game (every 5th action), never the same state twice in a row.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from companion.rules import Game
from companion.shuffle import seeded_setup
from companion.simulate import play


def _setup(kind: str, seed: int):
    if kind == "warcraft-4p":
        from maps import islands
        return seeded_setup(islands.sample_map(4), 4, seed, ruleset="warcraft")
    players = int(kind[0])
    return seeded_setup(kind, players, seed)


def bench(kind: str, games: int, repeat: int) -> dict:
    records = []
    for seed in range(games):
        setup = _setup(kind, seed)
        records.append((setup, play(setup, seed).history))
    per_action = []
    for setup, history in records:
        best = None
        for _ in range(max(1, repeat // 2)):
            start = time.process_time()
            Game.replay(setup, history)
            took = time.process_time() - start
            best = took if best is None else min(best, took)
        per_action.append(best / len(history) * 1e6)
    legal_us = []
    for setup, history in records:
        game = Game.replay(setup, history[: int(len(history) * 0.4)])
        for action in history[int(len(history) * 0.4): int(len(history) * 0.6)]:
            game.apply(action)
            if len(game.history) % 5:
                continue
            best = None
            for _ in range(repeat):
                game.forget()  # cold: as just after an action, nothing about the position remembered
                start = time.process_time()
                game.legal_actions()
                took = time.process_time() - start
                best = took if best is None else min(best, took)
            legal_us.append(best * 1e6)
    legal_us.sort()
    return {
        "games": len(records),
        "actions_per_game_median": statistics.median(len(h) for _, h in records),
        "replay_us_per_action_median": round(statistics.median(per_action), 2),
        "positions": len(legal_us),
        "legal_actions_us_median": round(statistics.median(legal_us), 1),
        "legal_actions_us_p95": round(legal_us[int(0.95 * len(legal_us)) - 1], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    out = {kind: bench(kind, args.games, args.repeat) for kind in ("4p", "5p", "warcraft-4p")}
    out["targets"] = {"legal_actions_us_median": 30, "replay_us_per_action": 15}
    out["met"] = all(out[k]["legal_actions_us_median"] <= 30 and out[k]["replay_us_per_action_median"] <= 15
                     for k in ("4p", "5p"))
    out["cpu_load"] = [round(x, 2) for x in os.getloadavg()]
    out["cpus"] = os.cpu_count()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
