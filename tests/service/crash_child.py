"""The crash test's child: a store and a game owner (no web server) playing a scripted game.

    python crash_child.py DATA_DIR SEED

It resumes whatever the store holds, then submits the script's next actions one at a time and
prints ``ack N`` (N actions stored) after each is acknowledged. The parent SIGKILLs it anywhere.
"""
import sys
from pathlib import Path

from companion.service.inputs import NewGame, Play
from companion.service.owner import GameOwner
from companion.service.store import Store
from companion.shuffle import seeded_setup
from companion.simulate import play


def script(seed: int):
    setup = seeded_setup("2p", 2, seed)
    return setup, play(setup, seed).history


def main() -> None:
    data, seed = Path(sys.argv[1]), int(sys.argv[2])
    setup, actions = script(seed)
    store = Store(data / "companion.sqlite3")
    owner = GameOwner(store, die_seed=seed).start()
    if owner.published.game_id is None:
        assert owner.submit(NewGame(setup, die_seed=seed)).result().ok
    done = owner.published.public["actions"]
    print(f"ready {done}", flush=True)
    for action in actions[done:]:
        outcome = owner.submit(Play(action)).result()
        assert outcome.ok, outcome
        print(f"ack {owner.published.public['actions']}", flush=True)
    print("finished", flush=True)


if __name__ == "__main__":
    main()
