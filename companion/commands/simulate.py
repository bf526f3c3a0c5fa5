"""companion simulate --map 4p [--players N] --seed S [--out FILE]"""
from __future__ import annotations

import maps

from ..errors import UserError
from ..rules import Game
from ..rules.record import write
from ..shuffle import seeded_setup
from ..simulate import play
from ..summary import one_line

HELP = "Play a complete seeded game on the simulated table, write its record, print a summary."


def add_arguments(p):
    p.add_argument("--map", default=None, help="2p, 3p, 4p, 5p or a map file (default 5p); for warcraft, "
                   "islands joined by '+' (default: the SAMPLE islands for --players)")
    p.add_argument("--players", type=int, default=None, help="2 to 5 (default: the map's player count)")
    p.add_argument("--seed", type=int, default=1, help="the same seed always gives the same game (default 1)")
    p.add_argument("--ruleset", default="smallworld", help="the ruleset (default smallworld)")
    p.add_argument("--out", metavar="FILE", help="write the game record (JSON Lines) here")


def run(args) -> int:
    from ..rules import ruleset as rulesets
    try:
        rules = rulesets.get(args.ruleset)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if args.players is not None and not 2 <= args.players <= 5:
        raise UserError(f"--players must be 2 to 5, not {args.players}")
    if args.map is None:
        default_map = getattr(rules, "default_map", None)
        args.map = default_map(args.players or 5) if default_map else "5p"
    try:
        board = rules.load_board(args.map)
    except maps.MapError as exc:
        raise UserError(str(exc)) from None
    players = args.players or board.players
    if not 2 <= players <= 5:
        raise UserError(f"--players must be 2 to 5, not {players}")
    try:
        setup = seeded_setup(args.map, players, args.seed, args.ruleset)
        Game(setup)  # a setup that does not hold together (islands for another player count) is one line
    except ValueError as exc:
        raise UserError(str(exc)) from None
    game = play(setup, args.seed)
    if args.out:
        try:
            write(args.out, setup, game.history)
        except OSError as exc:
            raise UserError(f"{args.out}: cannot write: {exc.strerror}") from None
    print(one_line(game))
    return 0
