"""Engine benchmark: replay 200 simulated 5-player games; time legal_actions() mid-game. Prints JSON.

    python bench/engine.py [--games 200]
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

from companion.rules import Game
from companion.shuffle import seeded_setup
from companion.simulate import play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    games = [(seeded_setup("5p", 5, seed), play(seeded_setup("5p", 5, seed), seed).history)
             for seed in range(args.games)]
    replay_ms = []
    actions = 0
    for setup, history in games:
        start = time.perf_counter()
        Game.replay(setup, history)
        replay_ms.append((time.perf_counter() - start) * 1000)
        actions += len(history)
    legal_ms = []
    for setup, history in games[:50]:
        game = Game.replay(setup, history[: len(history) // 2])
        start = time.perf_counter()
        for _ in range(20):
            game.legal_actions()
        legal_ms.append((time.perf_counter() - start) * 1000 / 20)
    print(json.dumps({
        "games": len(games),
        "actions_per_game_median": statistics.median(len(h) for _, h in games),
        "replay_ms_median": round(statistics.median(replay_ms), 3),
        "replay_ms_p95": round(sorted(replay_ms)[int(0.95 * len(replay_ms)) - 1], 3),
        "actions_per_second": round(actions / (sum(replay_ms) / 1000)),
        "legal_actions_ms_median": round(statistics.median(legal_ms), 3),
        "legal_actions_ms_p95": round(sorted(legal_ms)[int(0.95 * len(legal_ms)) - 1], 3),
    }, indent=1))


if __name__ == "__main__":
    main()
