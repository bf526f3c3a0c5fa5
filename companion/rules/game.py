"""A game of Small World: ``legal_actions()``, ``explain(action)``, ``apply(action)``, ``undo()``.

``apply`` is the only place the state changes. Chance arrives as actions (``roll``, ``reveal``) or as
setup data (the stack orders). The record (setup + history) is the game: ``undo`` replays all but
the last action.
"""
from __future__ import annotations

import copy
from dataclasses import asdict
from typing import Iterable

import maps

from . import pieces
from . import ruleset as rulesets
from .actions import (Abandon, Action, Attempt, Conquer, Decline, Encamp, EndTurn, Pick, Redeploy, Resettle,
                      Reveal, Roll, placement)
from .errors import IllegalAction, Reason
from .setup import Setup
from .state import CHANGES, Player, RegionState, Slot, Tribe, Turn

CHANCE = -1  # the "player" who acts at a chance node (a badge revealed from the reshuffled pile)

PHASES = ("pick", "conquest", "final-roll", "redeployment", "resettlement", "over")


# Actions that place a distribution of tokens or markers over regions: too many to list (a race
# with 12 tokens over 6 regions has 462 redeployments), so ``legal_actions()`` gives representatives
# of them and ``explain`` accepts any other. A ruleset's game class adds its own (``Game.PLACEMENTS``).
PLACEMENTS: tuple[type, ...] = (Redeploy, Resettle, Encamp)


class Game:
    PLACEMENTS = PLACEMENTS
    # what the box holds; a ruleset's game class may say otherwise
    MARKERS_IN_BOX = pieces.MARKERS_IN_BOX
    PRIMITIVE = pieces.LOST_TRIBE  # the race that belongs to no player (Lost Tribes)
    PRIMITIVE_TOKENS = pieces.LOST_TRIBE_TOKENS
    PRIMITIVE_TITLE = "Lost Tribe"
    IMMUNITY_MARKERS = pieces.IMMUNITY_MARKERS  # markers that make a region immune to conquest

    def __new__(cls, setup: Setup | None = None, board: maps.Board | None = None):
        """``Game(setup)`` is a game of the setup's ruleset (which may have its own game class)."""
        if cls is Game and setup is not None:
            cls = rulesets.get(setup.ruleset).game_class() or cls
        return super().__new__(cls)

    def __init__(self, setup: Setup, board: maps.Board | None = None):
        self.setup = setup
        self.rules = rulesets.get(setup.ruleset)
        self.board = board if board is not None else self.rules.board(setup.map)
        self._adjacent = {r.id: r.adjacent for r in self.board}
        self._region = {r.id: r for r in self.board}  # the board's regions, without a method call each
        self.history: list[Action] = []
        self._held_memo: list | None = None  # [state.CHANGES when made, {race: regions}]
        self._reset()

    # ------------------------------------------------------------------ setup and replay
    def _reset(self) -> None:
        s = self.setup
        self.players = [Player(name=n, coins=pieces.STARTING_COINS) for n in s.players]
        self.regions: dict[int, RegionState] = {r.id: RegionState() for r in self.board}
        self.tribes: dict[str, Tribe] = {}
        self.markers_supply = dict(self.MARKERS_IN_BOX)
        self.lost_tribe_tray = self.PRIMITIVE_TOKENS
        for r in self.board:
            if r.mountain and self.markers_supply[pieces.MOUNTAIN] > 0:
                self.place_marker(r.id, pieces.MOUNTAIN)
            if self._starts_primitive(r) and self.lost_tribe_tray > 0:
                self.regions[r.id].race, self.regions[r.id].tokens = self.PRIMITIVE, 1
                self.lost_tribe_tray -= 1
        self.race_stack = list(s.races)
        self.power_stack = list(s.powers)
        self.power_discard: list[str] = []
        self.power_pile: list[str] = []  # the reshuffled discards, drawn by chance
        self.column: list[Slot] = []
        self._refill_column()
        self.round = 1
        self.rounds = self.board.rounds
        self.allies: dict[int, int] = {}
        self.resettle_queue: list[tuple[int, str]] = []
        self.encampments_lost = False
        self.finished = False
        self.phase = "pick"
        self._start_turn(0)

    def _starts_primitive(self, region) -> bool:
        """Whether a token of the race that belongs to no player starts on the region."""
        return region.lost_tribe

    @classmethod
    def replay(cls, setup: Setup, actions: Iterable[Action], board: maps.Board | None = None) -> "Game":
        game = cls(setup, board)
        for action in actions:
            game.apply(action)
        return game

    def copy(self) -> "Game":
        """An independent game in the same state (board and rules shared: they never change)."""
        return copy.deepcopy(self, {id(self.board): self.board, id(self.rules): self.rules,
                                    id(self.setup): self.setup, id(self._adjacent): self._adjacent,
                                    id(self._region): self._region})

    def undo(self) -> Action:
        """Take back the last action: replay all but it. Returns the action taken back."""
        if not self.history:
            raise IllegalAction("nothing-to-undo", "No action has been played yet.")
        last = self.history[-1]
        self._rewrite(self.history[:-1])
        return last

    def replace(self, index: int, action: Action) -> Action:
        """Put ``action`` in place of the one at ``index`` and replay the rest (a redeployment the
        camera first saw under a stack, corrected). If any action no longer fits, nothing changes and
        the reason is raised. Returns the action replaced."""
        if not 0 <= index < len(self.history):
            raise IllegalAction("no-such-action", f"There is no action number {index + 1}.")
        was = self.history[index]
        self._rewrite(self.history[:index] + [action] + self.history[index + 1:])
        return was

    def insert(self, index: int, action: Action) -> None:
        """Put a missed ``action`` before the one at ``index`` and replay the rest (a Fortress the
        camera first saw under a stack). If any action no longer fits, nothing changes and the reason
        is raised."""
        if not 0 <= index <= len(self.history):
            raise IllegalAction("no-such-action", f"There is no action number {index + 1}.")
        self._rewrite(self.history[:index] + [action] + self.history[index:])

    def remove(self, index: int) -> Action:
        """Take out the action at ``index`` and replay the rest (an insertion taken back)."""
        if not 0 <= index < len(self.history):
            raise IllegalAction("no-such-action", f"There is no action number {index + 1}.")
        was = self.history[index]
        self._rewrite(self.history[:index] + self.history[index + 1:])
        return was

    def rewrite(self, actions: list[Action]) -> None:
        """Replay the history as ``actions`` (the table corrected its log); if one does not fit,
        nothing changes and the reason is raised."""
        self._rewrite(list(actions))

    def _rewrite(self, actions: list[Action]) -> None:
        """Replay the history as ``actions``; if one does not fit, the history stays as it was."""
        old = list(self.history)
        self.history = []
        self._reset()
        try:
            for a in actions:
                self.apply(a)
        except IllegalAction:
            self.history = []
            self._reset()
            for a in old:
                self.apply(a)
            raise

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> int:
        """Seat of the player who acts now; ``CHANCE`` when a badge must be revealed."""
        if self.phase == "pick" and self._unrevealed():
            return CHANCE
        if self.phase == "resettlement":
            return self.resettle_queue[0][0]
        return self.turn.player

    def regions_of(self, race: str) -> list[int]:
        """The regions a race holds, in board order (a new list: the caller may change it)."""
        return list(self._held(race))

    def forget(self) -> None:
        """Drop what the game remembers of its state (``bench/engine.py`` times calls made cold)."""
        self._held_memo = None

    def _held(self, race: str) -> list[int]:
        """``regions_of`` remembered until a region's race or tokens change (``state.CHANGES``)."""
        memo = self._held_memo
        if memo is None or memo[0] != CHANGES[0]:
            memo = self._held_memo = [CHANGES[0], {}]
        held = memo[1].get(race)
        if held is None:
            held = memo[1][race] = [rid for rid, rs in self.regions.items() if rs.race == race and rs.tokens > 0]
        return held

    def owner_tribe(self, region_id: int) -> Tribe | None:
        race = self.regions[region_id].race
        return self.tribes.get(race) if race else None

    def tray(self, race: str) -> int:
        """Tokens of a race still in the storage tray (the box limit minus those in play)."""
        on_board = sum(rs.tokens for rs in self.regions.values() if rs.race == race)
        tribe = self.tribes.get(race)
        held = (tribe.hand + tribe.reserve) if tribe else 0
        return self.rules.box(race) - on_board - held

    def supply(self, kind: str) -> int:
        return self.markers_supply[kind]

    def active_tribe(self, player: int) -> Tribe | None:
        name = self.players[player].active
        return self.tribes[name] if name else None

    def tribes_of(self, player: int) -> list[Tribe]:
        p = self.players[player]
        return [self.tribes[n] for n in ([p.active] if p.active else []) + p.declined]

    def awaiting(self) -> tuple[str, object] | None:
        """Table input a ruleset waits for before anything else, as ``(kind, race or region)``; the
        base game waits for none (its badge from the reshuffled pile is a ``CHANCE`` turn)."""
        return None

    def marker_kinds(self) -> tuple[str, ...]:
        """Every kind of marker this game may put on a region."""
        return tuple(pieces.MARKER_NAMES)

    def marker_title(self, kind: str) -> str:
        """A marker's name as printed ("Troll's Lair")."""
        return pieces.MARKER_NAMES.get(kind, kind)

    def faction_of(self, race: str | None) -> str | None:
        """A race's faction; None: this game has no factions."""
        return None

    def coin_transfers(self) -> list[tuple[int | None, int | None, int, str]]:
        """Coins moved outside scoring, in order: ``(from seat, to seat, coins, why)``, None for the
        stash. The base game moves none."""
        return []

    def conquest_cost(self, tribe: Tribe, region_id: int) -> int:
        """Tokens needed to conquer the region: 2 + markers + defenders, less the tribe's discounts."""
        rs = self.regions[region_id]
        cost = 2 + self.defenders_counted(tribe, region_id)
        if rs.markers:
            cost += sum(rs.marker(m) for m in pieces.DEFENCE_MARKERS)
        return max(1, cost - self.discount(tribe, self._region[region_id]))

    def discount(self, tribe: Tribe, region) -> int:
        """Tokens fewer the tribe's race and power need to conquer ``region``."""
        key = (type(tribe.race), type(tribe.power), tribe.in_decline)
        traits = _DISCOUNTERS.get(key)
        if traits is None:
            traits = _DISCOUNTERS[key] = tuple(i for i, t in enumerate(self._traits(tribe))
                                               if _overrides(t, "conquest_discount"))
        if not traits:
            return 0
        both = (tribe.race, tribe.power)
        return sum(both[i].conquest_discount(self, tribe, region) for i in traits)

    def defenders_counted(self, tribe: Tribe, region_id: int) -> int:
        """Defending tokens that raise the cost: "+1 additional Race token for each Lost Tribe or other
        player's Race token already present in the Region" (your own tokens in decline are not)."""
        rs = self.regions[region_id]
        if not rs.race:
            return 0
        defender = self.tribes.get(rs.race)
        return 0 if defender is not None and defender.owner == tribe.owner else rs.tokens

    def losses_when_conquered(self, defender: Tribe) -> int:
        """Tokens a defender discards when one of its regions is conquered: the race's own rule while
        it is active ("Race benefits no longer apply once the race is put In Decline"), else one."""
        return defender.race.losses_when_conquered() if defender.active else 1

    def note_attack(self, tribe: Tribe, defender: Tribe | None) -> None:
        """Remember that the active race attacked an opponent's active race this turn (Diplomat:
        "whose Active race you did not attack"; "you" is the race holding the power, never a race in
        decline such as Ghouls)."""
        if defender is not None and defender.active and tribe.active and defender.owner != tribe.owner:
            self.turn.attacked.add(defender.owner)

    def outcome(self) -> dict | None:
        """None while the game goes on; then the winner(s) with the tie-break explained."""
        if not self.finished:
            return None
        on_board = [sum(self.regions[rid].tokens for t in self.tribes_of(i) for rid in self.regions_of(t.name))
                    for i in range(len(self.players))]
        best = max(p.coins for p in self.players)
        leaders = [i for i, p in enumerate(self.players) if p.coins == best]
        tie_break = None
        if len(leaders) > 1:
            most = max(on_board[i] for i in leaders)
            tie_break = (f"tied on {best} coins; won on race tokens on the board "
                         f"({', '.join(f'{self.players[i].name} {on_board[i]}' for i in leaders)})")
            leaders = [i for i in leaders if on_board[i] == most]
        return {"winners": leaders, "coins": [p.coins for p in self.players], "tokens_on_board": on_board,
                "tie_break": tie_break}

    # ------------------------------------------------------------------ legality
    def explain(self, action: Action) -> Reason | None:
        """Why the action is illegal now, or None when it is legal."""
        return self._explain(action)

    def _explain(self, action: Action) -> Reason | None:
        if self.finished:
            return Reason("game-over", "The game is over.")
        if self.phase == "pick" and self._unrevealed() and not isinstance(action, Reveal):
            return Reason("reveal-first", "A special power badge must be revealed from the reshuffled pile first.")
        if self.phase == "resettlement" and not isinstance(action, Resettle):
            seat, race = self.resettle_queue[0]
            return Reason("resettle-first", f"{self.players[seat].name} first resettles the "
                          f"{self.tribes[race].race.title} tokens held in hand.")
        handler = getattr(self, _EXPLAIN.get(action.act) or _names(action.act)[0], None)
        if handler is not None:
            return handler(action)
        tribe = self._owner_of_action(action)
        if tribe is None:
            return Reason("no-such-power", f"None of your races or special powers can '{action.act}'.")
        trait = tribe.race if isinstance(action, tribe.race.actions) else tribe.power
        return trait.explain_action(self, tribe, action)

    def check(self, action: Action) -> None:
        reason = self.explain(action)
        if reason is not None:
            raise reason.error()

    def is_legal(self, action: Action) -> bool:
        return self.explain(action) is None

    def apply(self, action: Action) -> None:
        """Play one action; raises IllegalAction (a ValueError) with the reason when it is illegal."""
        self.check(action)
        handler = getattr(self, _DO.get(action.act) or _names(action.act)[1], None)
        if handler is not None:
            handler(action)
        else:
            tribe = self._owner_of_action(action)
            trait = tribe.race if isinstance(action, tribe.race.actions) else tribe.power
            trait.apply_action(self, tribe, action)
        self.history.append(action)

    def legal_actions(self) -> list[Action]:
        """Every legal action now, each once, in a stable order.

        Every action that names regions, races, players, faces or counts is listed in full. The one
        exception is a *placement* (``self.PLACEMENTS``: redeployment, resettlement, Encampments; in
        Warcraft also Beasts and Bombs), a distribution of tokens or markers over the regions, whose
        count grows combinatorially: representatives are listed (all in one region, for each region;
        an even spread) and ``explain`` accepts any other. No caller needs them all: a table enters
        its placement (the phone's redeployment form, the camera's view, a record) and ``explain``
        checks it. ``tests/rules/differential.py`` holds this equal to asking ``explain`` of every
        action a player could name."""
        return self._legal_actions()

    def _legal_actions(self) -> list[Action]:
        if self.finished:
            return []
        if self.phase == "pick" and self._unrevealed():
            return [Reveal(p) for p in sorted(set(self.power_pile))]
        if self.phase == "resettlement":
            player, race = self.resettle_queue[0]
            return [a for a in dict.fromkeys(self._placements_for_resettle(self.tribes[race])) if self.is_legal(a)]
        if self.phase == "final-roll":
            return [Roll(face) for face in sorted(set(pieces.DIE_FACES))]
        # (actions, whether they are known legal already): the conquests and redeployments are built
        # legal (``_conquest_candidates``, ``_redeploy_candidates``); the rest are asked of ``explain``
        groups: list[tuple[list[Action], bool]] = []
        me = self.turn.player
        if self.phase == "pick":
            groups.append(([Pick(slot.race) for slot in self.column], False))
        active = self.active_tribe(me)
        if self.phase in ("pick", "conquest"):
            for tribe in self.tribes_of(me):
                if tribe.in_decline and tribe.race.conquers_in_decline():
                    groups.append((self._conquest_candidates(tribe, tribe.name), True))
                    groups.append((self._redeploy_candidates(tribe, tribe.name), True))
        if self.phase == "conquest" and active is not None:
            groups.append(([Decline()], False))
            groups.append((self._conquest_candidates(active, None), True))
            if active.power.rolls_before_conquest() and self.turn.berserk_die is None:
                groups.append(([Roll(face) for face in sorted(set(pieces.DIE_FACES))], False))
            groups.append((self._redeploy_candidates(active, None), True))
            for trait in (active.race, active.power):
                groups.append((trait.legal_own_actions(self, active), False))
        if self.phase == "redeployment" and active is not None:
            groups.append(([EndTurn(), Decline()], False))
            for trait in (active.race, active.power):
                groups.append((trait.legal_own_actions(self, active), False))
        seen = set()  # the groups built legal hold no action twice, and none of another group's kind
        out = []
        for actions, legal in groups:
            if legal:
                out += actions
                continue
            for a in actions:
                if a not in seen and self.is_legal(a):
                    seen.add(a)
                    out.append(a)
        return out

    def _conquest_candidates(self, tribe: Tribe, race: str | None) -> list[Action]:
        """The legal conquests, final attempts and abandons of a tribe: what ``_explain_conquer``,
        ``_explain_attempt`` and ``_explain_abandon`` accept, with the checks that do not depend on the
        region made once, and each region's target and cost asked once (the differential tests hold
        this equal to asking ``explain`` of every candidate)."""
        if self.conquering_problem(tribe) is not None:
            return []
        held_list = self.regions_of(tribe.name)
        held = set(held_list)
        out: list[Action] = []
        reach = self.in_reach(tribe)
        hand = self.hand_after_ready(tribe)
        if hand >= 1:
            die = (self.turn.berserk_die or 0) if tribe.active else 0
            attempts = not (tribe.active and self.turn.berserk_die is not None) and self._may_attempt(tribe)
            regions = self._region
            wet = any(t.conquers_water() for t in self._traits(tribe))
            for rid in reach:
                if not wet and regions[rid].water:
                    continue  # target_problem: "water"
                if self.target_problem(tribe, rid, held) is not None:
                    continue
                cost = self.conquest_cost(tribe, rid)
                if hand >= max(1, cost - die):
                    out.append(Conquer(rid, race))
                if attempts and 0 < cost - hand <= pieces.FINAL_ATTEMPT_MAX_SHORTFALL:
                    out.append(Attempt(rid, race))
        if not tribe.conquered:
            out += [Abandon(rid, race) for rid in held]  # (set order: what seeded simulations have always used)
        return out

    def in_reach(self, tribe: Tribe) -> list[int]:
        """The regions the tribe's conquests may target by the map's reach (adjacent, or anywhere
        for a race entering the map or Flying), in board order; ``target_problem`` says the rest."""
        held = set(self.regions_of(tribe.name))
        traits = self._traits(tribe)
        if not held or any(t.ignores_adjacency() for t in traits):
            return [rid for rid in self.board.ids if rid not in held]
        board = self.board
        adjacent = self._adjacent
        near = set().union(*(adjacent[h] for h in held))
        for t in traits:
            if _overrides(t, "also_adjacent"):
                near |= {r.id for r in board if t.also_adjacent(self, tribe, r, held)}
        near |= self._reach_beyond_adjacency()
        return sorted(near - held)

    def _reach_beyond_adjacency(self) -> set[int]:
        """Regions any race may conquer without being adjacent (none in the base game)."""
        return set()

    def _may_attempt(self, tribe: Tribe) -> bool:
        """Whether the tribe's tokens allow a final attempt at all (a ruleset may say more)."""
        return True

    def _redeploy_candidates(self, tribe: Tribe, race: str | None) -> list[Action]:
        """Representative redeployments that ``_explain_redeploy`` accepts (the tribe-wide checks once)."""
        _, problem = self._conquering_tribe(race)
        if problem or self._redeploy_problem(tribe):
            return []
        held = self.regions_of(tribe.name)
        total = self.tokens_to_redeploy(tribe)
        spreads = _spreads(held, total)  # each region keeps one token at least, ``total`` in all
        if self._spreads_need_check(tribe):
            held_set = set(held)
            spreads = [p for p in spreads if self._redeploy_placement_problem(tribe, p, held_set, total) is None]
        return [Redeploy(p, race) for p in spreads]

    def _spreads_need_check(self, tribe: Tribe) -> bool:
        """Whether a ruleset asks more of a redeployment than one token in each region (Tauren)."""
        return False

    def _placements_for_resettle(self, tribe: Tribe) -> list[Action]:
        held = self.regions_of(tribe.name)
        enc = None
        if tribe.power.resettles_markers(self, tribe) and held:
            enc = placement({held[0]: pieces.MARKERS_IN_BOX[pieces.ENCAMPMENT]})
        out = []
        for extra in _spreads(held, tribe.hand + len(held)):
            adds = placement({r: n - 1 for r, n in extra})
            out.append(Resettle(tribe.name, adds, enc))
        return out

    # ------------------------------------------------------------------ helpers for traits
    def _traits(self, tribe: Tribe):
        """The race and power whose conquest hooks apply: both while active, the race alone after."""
        return (tribe.race, tribe.power) if tribe.active else (tribe.race,)

    def place_marker(self, region_id: int, kind: str, count: int = 1) -> None:
        self.regions[region_id].add_marker(kind, count)
        self.markers_supply[kind] -= count

    def remove_marker(self, region_id: int, kind: str, count: int = 1) -> None:
        self.regions[region_id].add_marker(kind, -count)
        self.markers_supply[kind] += count

    def conquering_problem(self, tribe: Tribe) -> Reason | None:
        """Whether this tribe may conquer now, whatever the target."""
        me = self.turn.player
        if tribe.owner != me:
            return Reason("not-your-race", f"The {tribe.race.title} are not yours.")
        if tribe.in_decline:
            if not tribe.race.conquers_in_decline():
                return Reason("race-in-decline", f"Your {tribe.race.title} are in decline and cannot conquer.")
            if self.phase not in ("pick", "conquest") or self.turn.expanded:
                return Reason("ghouls-first", f"Your {tribe.race.title} in decline must conquer at the start of "
                              "your turn, before any conquest by your active race.")
        else:
            if self.phase == "pick":
                return Reason("pick-first", "Pick a race and special power combo first.")
            problem = self.decline_redeploy_problem(tribe)
            if problem:
                return problem
        if self.phase == "final-roll":
            return Reason("roll-pending", "Roll the Reinforcement Die for your final conquest attempt first.")
        if tribe.conquests_over or tribe.redeployed or self.phase not in ("pick", "conquest"):
            return Reason("conquests-over", "Your conquests for this turn are over.")
        return None

    def decline_redeploy_problem(self, tribe: Tribe) -> Reason | None:
        """Whether a race in decline that conquered this turn (Ghouls) still has to redeploy first."""
        for other in self.tribes_of(tribe.owner):
            if other is not tribe and other.readied and not other.redeployed:
                return Reason("redeploy-first", f"Redeploy your {other.race.title} in decline before your "
                              "active race acts.")
        return None

    def target_problem(self, tribe: Tribe, region_id: int, held: set[int] | None = None) -> Reason | None:
        """Whether the region may be the target of this tribe's conquest, whatever the tokens."""
        region = self._region.get(region_id)
        if region is None:
            return Reason("unknown-region", f"There is no region {region_id} on this map.")
        rs = self.regions[region_id]
        if rs.race == tribe.race.name:
            return Reason("own-region", f"Your {tribe.race.title} already hold {region.describe()}.")
        traits = (tribe.race, tribe.power) if not tribe.in_decline else (tribe.race,)
        if region.water and not any(t.conquers_water() for t in traits):
            return Reason("water", f"{_cap(region.describe())} is a {region.terrain}: only a Seafaring race may "
                          "conquer the Seas and the Lake.")
        defender = self.tribes.get(rs.race) if rs.race else None
        immune = [pieces.MARKER_NAMES[m] for m in pieces.IMMUNITY_MARKERS if rs.marker(m)] if rs.markers else ()
        if immune and (defender is None or defender.owner != tribe.owner):  # "immune to enemy conquests"
            return Reason("immune", f"{_cap(region.describe())} holds a {immune[0]} and is immune to conquest.")
        if defender is not None and defender.active and tribe.active and \
                self.allies.get(defender.owner) == tribe.owner:  # "Tokens In Decline are not impacted"
            return Reason("ally", f"You are at peace with {self.players[defender.owner].name}, whose Diplomat "
                          f"chose you as ally: you cannot attack their {defender.race.title} until their next turn.")
        if held is None:
            held = set(self.regions_of(tribe.name))
        if not held:
            if not (region.entry or any(t.enters_anywhere() for t in traits)):
                return Reason("not-entry", f"{_cap(region.describe())} is not a border region: a race entering the map "
                              "must first conquer a region on the edge of the board or on a Sea that touches it.")
        elif not (not held.isdisjoint(region.adjacent) or any(t.ignores_adjacency() for t in traits)
                  or any(t.also_adjacent(self, tribe, region, held) for t in traits)):
            return Reason("not-adjacent", f"{_cap(region.describe())} is not adjacent to any region your "
                          f"{tribe.race.title} hold.")
        return None

    def placement_problem(self, tribe: Tribe, what: str) -> Reason | None:
        """Whether the active tribe may now place its markers (after its troop redeployment)."""
        if tribe.in_decline or self.players[self.turn.player].active != tribe.name:
            return Reason("not-your-race", f"{what} by your active race only.")
        if self.phase != "redeployment":
            return Reason("wrong-phase", f"{what} after your troop redeployment, before the end of your turn.")
        return None

    def take_region(self, tribe: Tribe, region_id: int, tokens: int, from_tray: int = 0,
                    defender_loses_all: bool = False) -> None:
        """The conquest itself: the defender's losses, the tokens placed, the markers that go or come."""
        self._ready(tribe)
        rs = self.regions[region_id]
        nonempty = rs.race is not None and rs.tokens > 0
        defender = self.tribes.get(rs.race) if rs.race else None
        if rs.race == self.PRIMITIVE:
            self.lost_tribe_tray += rs.tokens
        elif defender is not None:
            lost = rs.tokens if defender_loses_all else min(rs.tokens, self.losses_when_conquered(defender))
            defender.hand += rs.tokens - lost
            self.note_attack(tribe, defender)
        for kind in list(rs.markers):
            if kind == pieces.MOUNTAIN:
                continue  # "Mountains are immovable, and remain in place"
            if kind == pieces.ENCAMPMENT:
                self.encampments_lost = True
            self.remove_marker(region_id, kind, rs.marker(kind))
        rs.race, rs.tokens = tribe.name, tokens + from_tray
        tribe.hand -= tokens
        tribe.conquered.append(region_id)
        if nonempty:
            tribe.conquered_nonempty += 1
        if tribe.active:
            self.turn.expanded = True
        for trait in self._traits(tribe):
            trait.after_conquest(self, tribe, region_id)
        if defender is not None:
            self._vanish_if_gone(defender)

    # ------------------------------------------------------------------ pick
    def _explain_pick(self, a: Pick) -> Reason | None:
        if self.phase != "pick":
            return Reason("wrong-phase", "You can only pick a new combo at the start of a turn without an "
                          "active race.")
        me = self.turn.player
        for tribe in self.tribes_of(me):
            if tribe.readied and not tribe.redeployed:
                return Reason("redeploy-first", f"Redeploy your {tribe.race.title} before picking a combo.")
        for index, slot in enumerate(self.column):
            if slot.race == a.race:
                if self.players[me].coins < index:
                    return Reason("not-enough-coins", f"The {slot.power} {slot.race} combo costs {index} coins "
                                  f"(one on each combo above it); you have {self.players[me].coins}.")
                return None
        return Reason("not-in-column", f"The {a.race} banner is not one of the combos on the table.")

    def _do_pick(self, a: Pick) -> None:
        me = self.turn.player
        player = self.players[me]
        index = next(i for i, s in enumerate(self.column) if s.race == a.race)
        slot = self.column.pop(index)
        for above in self.column[:index]:
            above.coins += 1
        player.coins += slot.coins - index
        race, power = self.rules.race(slot.race), self.rules.power(slot.power)
        tribe = Tribe(race=race, power=power, owner=me)
        self.tribes[race.name] = tribe
        tribe.hand = min(race.tokens + power.tokens + race.extra_tokens() + power.extra_tokens(),
                         self.tray(race.name))
        player.active = race.name
        self.turn.picked = True
        self._refill_column()
        self.phase = "conquest"

    def _unrevealed(self) -> bool:
        return any(slot.power is None for slot in self.column)

    def _refill_column(self) -> None:
        while len(self.column) < 6 and self.race_stack:
            if self.power_stack:
                power = self.power_stack.pop(0)
            else:
                waiting = sum(1 for s in self.column if s.power is None)
                if len(self.power_pile) - waiting <= 0:
                    self.power_pile += self.power_discard
                    self.power_discard = []
                if len(self.power_pile) - waiting <= 0:
                    return
                power = None  # revealed by chance from the reshuffled pile
            self.column.append(Slot(self.race_stack.pop(0), power))

    def _explain_reveal(self, a: Reveal) -> Reason | None:
        if not (self.phase == "pick" and self._unrevealed()):
            return Reason("nothing-to-reveal", "No special power badge is waiting to be revealed.")
        if a.power not in self.power_pile:
            return Reason("not-in-pile", f"The {a.power} badge is not in the reshuffled pile.")
        return None

    def _do_reveal(self, a: Reveal) -> None:
        self.power_pile.remove(a.power)
        next(s for s in self.column if s.power is None).power = a.power

    # ------------------------------------------------------------------ conquest
    def _conquering_tribe(self, race: str | None) -> tuple[Tribe | None, Reason | None]:
        me = self.turn.player
        if race is None:
            tribe = self.active_tribe(me)
            if tribe is None:
                if self.phase == "pick":
                    return None, Reason("pick-first", "Pick a race and special power combo first.")
                return None, Reason("no-active-race", "You have no active race.")
            return tribe, None
        if not self.rules.is_race(race):
            return None, Reason("unknown-race", f"There is no race {race!r}.")
        tribe = self.tribes.get(race)
        if tribe is None or tribe.owner != me:
            return None, Reason("not-your-race", f"The {self.rules.race_title(race)} are not yours.")
        return tribe, None

    def _ready(self, tribe: Tribe) -> None:
        """Ready your troops: all but one token per region into hand, and the tokens held back."""
        if tribe.readied:
            return
        tribe.readied = True
        for rid in self.regions_of(tribe.name):
            rs = self.regions[rid]
            tribe.hand += rs.tokens - 1
            rs.tokens = 1
        tribe.hand += tribe.reserve
        tribe.reserve = 0
        if tribe.in_decline:
            self.turn.ghouls_started = True
        else:
            self.turn.expanded = True

    def _explain_conquer(self, a: Conquer) -> Reason | None:
        tribe, problem = self._conquering_tribe(a.race)
        problem = problem or self.conquering_problem(tribe) or self.target_problem(tribe, a.region)
        if problem:
            return problem
        die = self.turn.berserk_die if tribe.active else None
        cost = self.conquest_cost(tribe, a.region) - (die or 0)
        hand = self.hand_after_ready(tribe)
        if hand < 1:
            return Reason("no-tokens", "You must have at least one race token in hand to conquer.")
        if hand < max(1, cost):
            return Reason("too-few-tokens", f"Conquering {self.board[a.region].describe()} takes {max(1, cost)} "
                          f"{tribe.race.title} tokens; you have {hand} in hand.")
        return None

    def hand_after_ready(self, tribe: Tribe) -> int:
        """Tokens the tribe has to conquer with once its troops are readied."""
        if tribe.readied:
            return tribe.hand
        return tribe.hand + tribe.reserve + sum(self.regions[r].tokens - 1 for r in self.regions_of(tribe.name))

    def _do_conquer(self, a: Conquer) -> None:
        tribe, _ = self._conquering_tribe(a.race)
        self._ready(tribe)
        full = self.conquest_cost(tribe, a.region)
        die = self.turn.berserk_die if tribe.active else None
        self.turn.berserk_die = None
        needed_die = tribe.hand < full
        self.take_region(tribe, a.region, max(1, full - (die or 0)))
        if needed_die:
            tribe.conquests_over = True  # Berserk: "If you do not have enough tokens left, this is your final"

    def _explain_attempt(self, a: Attempt) -> Reason | None:
        tribe, problem = self._conquering_tribe(a.race)
        problem = problem or self.conquering_problem(tribe) or self.target_problem(tribe, a.region)
        if problem:
            return problem
        if tribe.active and self.turn.berserk_die is not None:
            return Reason("die-already-rolled", "You already rolled the die for this conquest.")
        hand = self.hand_after_ready(tribe)
        if hand < 1:
            return Reason("no-tokens", "A final conquest attempt needs at least one unused race token.")
        short = self.conquest_cost(tribe, a.region) - hand
        if short <= 0:
            return Reason("not-short", f"You have enough tokens to conquer {self.board[a.region].describe()} "
                          "outright: conquer it without the die.")
        if short > pieces.FINAL_ATTEMPT_MAX_SHORTFALL:
            return Reason("out-of-reach", f"You are {short} tokens short of conquering "
                          f"{self.board[a.region].describe()}; the die can make up 3 at most.")
        return None

    def _do_attempt(self, a: Attempt) -> None:
        tribe, _ = self._conquering_tribe(a.race)
        self._ready(tribe)
        self.note_attack(tribe, self.owner_tribe(a.region))  # an attempt is an attack, won or lost
        self.turn.attempt = a.region
        self.turn.attempt_race = tribe.name
        self.phase = "final-roll"

    def _explain_roll(self, a: Roll) -> Reason | None:
        if a.face not in pieces.DIE_FACES:
            return Reason("die-face", f"The Reinforcement Die has faces 0, 1, 2 and 3, not {a.face}.")
        if self.phase == "final-roll":
            return None
        tribe = self.active_tribe(self.turn.player)
        if tribe is None or not tribe.power.rolls_before_conquest() or self.phase != "conquest":
            return Reason("no-attempt", "Declare the region of your final conquest attempt before rolling the die.")
        problem = self.conquering_problem(tribe)
        if problem:
            return problem
        if self.turn.berserk_die is not None:
            return Reason("die-already-rolled", "You already rolled the die for this conquest.")
        return None

    def _do_roll(self, a: Roll) -> None:
        self.turn.last_die = a.face
        if self.phase != "final-roll":
            tribe = self.active_tribe(self.turn.player)
            self._ready(tribe)
            self.turn.berserk_die = a.face
            return
        tribe = self.tribes[self.turn.attempt_race]
        rid = self.turn.attempt
        if tribe.hand + a.face >= self.conquest_cost(tribe, rid):
            self.take_region(tribe, rid, tribe.hand)
        tribe.conquests_over = True
        self.turn.attempt = self.turn.attempt_race = None
        self.phase = "conquest" if self.players[self.turn.player].active else "pick"

    def _explain_abandon(self, a: Abandon) -> Reason | None:
        tribe, problem = self._conquering_tribe(a.race)
        problem = problem or self.conquering_problem(tribe)
        if problem:
            return problem
        if tribe.conquered:
            return Reason("abandon-after-conquest", "Regions are abandoned while readying troops, before the "
                          "first conquest of the turn.")
        if a.region not in self.board or self.regions[a.region].race != tribe.name:
            return Reason("not-yours", f"Region {a.region} is not held by your {tribe.race.title}.")
        return None

    def _do_abandon(self, a: Abandon) -> None:
        tribe, _ = self._conquering_tribe(a.race)
        self._ready(tribe)
        rs = self.regions[a.region]
        tribe.hand += rs.tokens
        self._empty_region(a.region)

    def _empty_region(self, region_id: int) -> None:
        rs = self.regions[region_id]
        rs.race, rs.tokens = None, 0
        for kind in list(rs.markers):
            if kind != pieces.MOUNTAIN:
                self.remove_marker(region_id, kind, rs.marker(kind))

    # ------------------------------------------------------------------ redeployment
    def redeployment_bonus(self, tribe: Tribe) -> int:
        """Tokens an active tribe takes from the tray for this turn's redeployment."""
        return sum(t.redeployment_bonus_tokens(self, tribe) for t in (tribe.race, tribe.power)
                   if _overrides(t, "redeployment_bonus_tokens"))

    def tokens_to_redeploy(self, tribe: Tribe) -> int:
        held = self.regions_of(tribe.name)
        if not held:
            return 0  # no region to redeploy into: the tokens stay in hand for a new first conquest
        on_board = sum(self.regions[r].tokens for r in held)
        total = on_board + tribe.hand + (0 if tribe.readied else tribe.reserve)
        if tribe.active:
            bonus = self.redeployment_bonus(tribe)
            total += min(bonus, self.tray(tribe.name)) if bonus else 0
            total -= min(total, sum(t.held_back_after_redeployment() for t in (tribe.race, tribe.power)
                                    if _overrides(t, "held_back_after_redeployment")))
        return total

    def _explain_redeploy(self, a: Redeploy) -> Reason | None:
        tribe, problem = self._conquering_tribe(a.race)
        if problem:
            return problem
        problem = self._redeploy_problem(tribe)
        if problem:
            return problem
        held = set(self.regions_of(tribe.name))
        return self._redeploy_placement_problem(tribe, a.tokens, held, self.tokens_to_redeploy(tribe))

    def _redeploy_placement_problem(self, tribe: Tribe, tokens, held: set[int], total: int) -> Reason | None:
        """Whether ``tokens`` is a placement of the tribe's ``total`` tokens over the regions it ``held``."""
        return _placement_problem(tokens, held, total, tribe.race.title, keep_all=total >= len(held))

    def _redeploy_problem(self, tribe: Tribe) -> Reason | None:
        """Whether the tribe may redeploy now, whatever the placement."""
        if self.phase == "final-roll":
            return Reason("roll-pending", "Roll the Reinforcement Die for your final conquest attempt first.")
        if tribe.redeployed:
            return Reason("already-redeployed", f"Your {tribe.race.title} were already redeployed this turn.")
        if tribe.in_decline:
            if not tribe.race.conquers_in_decline():
                return Reason("race-in-decline", f"Your {tribe.race.title} are in decline and do not redeploy.")
            if self.phase not in ("pick", "conquest") or self.turn.expanded or self.turn.declined:
                return Reason("ghouls-first", f"Your {tribe.race.title} in decline act at the start of your turn, "
                              "before your active race.")
        elif self.phase != "conquest" or self.turn.declined:
            return Reason("wrong-phase", "Troops are redeployed once, when your conquests end.")
        else:
            problem = self.decline_redeploy_problem(tribe)
            if problem:
                return problem
        return None

    def _do_redeploy(self, a: Redeploy) -> None:
        tribe, _ = self._conquering_tribe(a.race)
        self._ready(tribe)
        held = self.regions_of(tribe.name)
        if tribe.active and held:
            bonus = self.redeployment_bonus(tribe)
            tribe.hand += min(bonus, self.tray(tribe.name)) if bonus else 0
        for rid in held:
            tribe.hand += self.regions[rid].tokens
            self.regions[rid].tokens = 0
        placed = dict(a.tokens)
        for rid in held:  # (a region holds a race only while it holds tokens: these are all of the race's)
            if placed.get(rid):
                self.regions[rid].tokens = placed[rid]
            else:
                self._empty_region(rid)  # Amazons short of tokens: "leave one per region if possible"
        tribe.hand -= sum(placed.values())
        if tribe.active:
            held_back = tribe.hand if placed else 0  # (the regions placed into are the race's regions now)
            tribe.reserve += held_back
            tribe.hand -= held_back
        tribe.conquests_over = True
        tribe.redeployed = True
        if tribe.active:
            self.turn.redeployed = True
            self.turn.expanded = True
            self.phase = "redeployment"

    # ------------------------------------------------------------------ decline, end of turn
    def _explain_decline(self, a: Decline) -> Reason | None:
        me = self.turn.player
        tribe = self.active_tribe(me)
        if tribe is None:
            return Reason("no-active-race", "You have no active race to put in decline.")
        if self.phase == "redeployment":
            if tribe.power.declines_after_scoring() or tribe.race.declines_after_scoring():
                return None
            return Reason("decline-at-start", "A race goes into decline at the start of a turn, instead of "
                          "conquering (Stout may decline after scoring).")
        if self.turn.picked:
            return Reason("decline-at-start", f"Your {tribe.race.title} were picked this turn: a race goes into "
                          "decline at the start of a later turn.")
        if self.phase != "conquest" or self.turn.expanded or self.turn.ghouls_started:
            return Reason("decline-at-start", "A race goes into decline at the start of a turn, instead of "
                          "conquering.")
        return None

    def _do_decline(self, a: Decline) -> None:
        me = self.turn.player
        tribe = self.active_tribe(me)
        if self.phase == "redeployment":  # Stout: after a turn of conquests, after scoring
            self._score(me)
            self._go_into_decline(tribe)
        else:
            self.turn.declined = True
            self._go_into_decline(tribe)
            self._score(me)
        self._finish_turn()

    def _go_into_decline(self, tribe: Tribe) -> None:
        player = self.players[tribe.owner]
        if tribe.power.counts_toward_decline_limit():
            for name in list(player.declined):
                old = self.tribes[name]
                if old.power.counts_toward_decline_limit():
                    self._vanish(old)
        for trait in (tribe.race, tribe.power):
            for kind in trait.markers_removed_on_decline:
                for rid in self.board.ids:
                    if self.regions[rid].marker(kind):
                        self.remove_marker(rid, kind, self.regions[rid].marker(kind))
        if not tribe.race.keeps_all_tokens_in_decline():
            for rid in self.regions_of(tribe.name):
                self.regions[rid].tokens = 1
        tribe.hand = tribe.reserve = 0
        if not tribe.power.keeps_badge_in_decline():
            self.power_discard.append(tribe.power.name)
        tribe.in_decline = True
        player.active = None
        player.declined.append(tribe.name)
        self.allies.pop(tribe.owner, None)
        self._vanish_if_gone(tribe)

    def _vanish_if_gone(self, tribe: Tribe) -> None:
        if tribe.in_decline and not self.regions_of(tribe.name) and tribe.hand == 0:
            self._vanish(tribe)

    def _vanish(self, tribe: Tribe) -> None:
        """A race in decline leaves the map: tokens to the tray, banner to the bottom of the stack."""
        for rid in self.regions_of(tribe.name):
            self._empty_region(rid)
        del self.tribes[tribe.name]
        self.players[tribe.owner].declined.remove(tribe.name)
        if tribe.power.keeps_badge_in_decline():
            self.power_discard.append(tribe.power.name)
        self.race_stack.append(tribe.name)
        self._refill_column()

    def _explain_end(self, a: EndTurn) -> Reason | None:
        if self.phase != "redeployment":
            return Reason("redeploy-first", "Redeploy your troops before ending your turn." if self.phase in
                          ("conquest", "final-roll") else "You cannot end a turn now.")
        return None

    def _do_end(self, a: EndTurn) -> None:
        self._score(self.turn.player)
        self._finish_turn()

    def _score(self, seat: int) -> None:
        """Scoring Victory coins: one per region of each race, plus the bonuses of the active combo."""
        player = self.players[seat]
        items: list[tuple[str, int]] = []
        for tribe in self.tribes_of(seat):
            n = len(self.regions_of(tribe.name))
            items.append((f"regions of the {tribe.title()}", n))
            if tribe.active:
                items += tribe.race.coins(self, tribe) + tribe.power.coins(self, tribe)
            else:
                items += tribe.race.coins_in_decline(self, tribe)
        active = self.active_tribe(seat)
        if active is not None:
            active.turns_active += 1
        total = sum(n for _, n in items)
        player.coins += total
        player.income.append({"round": self.round, "items": [[what, n] for what, n in items if n],
                              "total": total})

    def _finish_turn(self) -> None:
        self._queue_resettlement()
        if self.resettle_queue:
            self.phase = "resettlement"
        else:
            self._next_turn()

    def _queue_resettlement(self) -> None:
        me = self.turn.player
        n = len(self.players)
        self.resettle_queue = []
        for seat in [(me + k) % n for k in range(1, n + 1)]:
            for tribe in self.tribes_of(seat):
                if (tribe.hand > 0 or tribe.power.resettles_markers(self, tribe) and tribe.active and seat != me) \
                        and self.regions_of(tribe.name):
                    self.resettle_queue.append((seat, tribe.name))

    def _explain_resettle(self, a: Resettle) -> Reason | None:
        if self.phase != "resettlement":
            return Reason("wrong-phase", "Resettlement happens at the end of the turn in which your tokens were "
                          "conquered.")
        seat, race = self.resettle_queue[0]
        if a.race != race:
            return Reason("resettle-order", f"{self.players[seat].name} resettles the "
                          f"{self.tribes[race].race.title} now (clockwise from the active player's left).")
        tribe = self.tribes[race]
        held = set(self.regions_of(race))
        if a.encampments:
            if not tribe.power.resettles_markers(self, tribe) or not tribe.active:
                return Reason("no-encampments", "You have no Encampments to put back.")
            problem = tribe.power.placement_problem(self, tribe, a.encampments, held)
            if problem:
                return problem
        return _placement_problem(a.tokens, held, tribe.hand, tribe.race.title, keep_all=False)

    def _do_resettle(self, a: Resettle) -> None:
        tribe = self.tribes[a.race]
        for rid, n in a.tokens:
            self.regions[rid].tokens += n
            tribe.hand -= n
        if a.encampments is not None:
            tribe.power.place(self, tribe, a.encampments)
        self.resettle_queue.pop(0)
        if not self.resettle_queue:
            self._next_turn()

    def _next_turn(self) -> None:
        self.encampments_lost = False
        for tribe in list(self.tribes.values()):
            if tribe.in_decline and not self.regions_of(tribe.name) and not tribe.race.conquers_in_decline():
                tribe.hand = 0
            self._vanish_if_gone(tribe)
        seat = (self.turn.player + 1) % len(self.players)
        if seat == 0:
            self.round += 1
            if self.round > self.rounds:
                self.round = self.rounds
                self.finished = True
                self.phase = "over"
                return
        self._start_turn(seat)

    def _start_turn(self, seat: int) -> None:
        self.turn = Turn(player=seat)
        self.allies.pop(seat, None)  # a Diplomat's peace lasts "until your next turn"
        for tribe in self.tribes_of(seat):
            tribe.new_turn()
        self.phase = "conquest" if self.players[seat].active else "pick"

    # ------------------------------------------------------------------ power actions
    def _owner_of_action(self, action: Action) -> Tribe | None:
        for tribe in self.tribes_of(self.turn.player):
            if isinstance(action, tribe.race.actions + tribe.power.actions):
                if tribe.active or isinstance(action, tribe.race.actions) and tribe.race.conquers_in_decline():
                    return tribe
        return None

    def fingerprint(self) -> tuple:
        """Everything the state holds, as plain comparable data: equal fingerprints, equal games."""
        tribes = tuple(sorted((name, t.power.name, t.owner, t.in_decline, t.hand, t.reserve, t.turns_active,
                               t.holes_placed, t.readied, t.conquests_over, t.redeployed, tuple(sorted(t.conquered)),
                               t.conquered_nonempty) for name, t in self.tribes.items()))
        return (self.phase, self.round, self.finished, tribes,
                tuple((rid, rs.race, rs.tokens, tuple(sorted(rs.markers.items())))
                      for rid, rs in sorted(self.regions.items())),
                tuple((p.name, p.coins, p.active, tuple(p.declined), repr(p.income)) for p in self.players),
                repr(asdict(self.turn)), tuple((s.race, s.power, s.coins) for s in self.column),
                tuple(self.race_stack), tuple(self.power_stack), tuple(self.power_discard), tuple(self.power_pile),
                tuple(sorted(self.allies.items())), tuple(self.resettle_queue), self.encampments_lost,
                tuple(sorted(self.markers_supply.items())), self.lost_tribe_tray)

    # ------------------------------------------------------------------ the public view
    def snapshot(self) -> dict:
        """The whole state as plain data (what ``companion replay --json`` prints)."""
        out = self.outcome()
        return {
            "ruleset": self.rules.name,
            "map": self.board.name,
            "round": self.round,
            "rounds": self.rounds,
            "finished": self.finished,
            "winner": [self.players[i].name for i in out["winners"]] if out else None,
            "phase": self.phase,
            "current_player": None if self.finished else (
                None if self.current_player == CHANCE else self.players[self.current_player].name),
            "players": [{
                "name": p.name, "coins": p.coins,
                "active": self._tribe_json(p.active),
                "in_decline": [self._tribe_json(n) for n in p.declined],
                "tokens_in_hand": self.tribes[p.active].hand if p.active else 0,
            } for p in self.players],
            "regions": {str(rid): {
                "owner": self.players[self.tribes[rs.race].owner].name if rs.race in self.tribes else None,
                "race": rs.race, "tokens": rs.tokens,
                "in_decline": bool(rs.race in self.tribes and self.tribes[rs.race].in_decline),
                "markers": dict(sorted(rs.markers.items())),
            } for rid, rs in self.regions.items()},
            "combos": [{"race": s.race, "power": s.power, "coins": s.coins, "cost": i}
                       for i, s in enumerate(self.column)],
            "outcome": out,
        }

    def _tribe_json(self, name: str | None) -> dict | None:
        if name is None:
            return None
        t = self.tribes[name]
        return {"race": t.race.name, "power": t.power.name, "hand": t.hand, "held_back": t.reserve}


def _cap(text: str) -> str:
    """The sentence's first letter in capitals, the rest as it is ('Region 12 (Hill, Cavern)')."""
    return text[:1].upper() + text[1:]


def _spreads(held: list[int], total: int) -> list:
    """A few representative placements of ``total`` tokens over ``held`` regions (one at least each)."""
    if not held:
        return [()]
    if total < len(held):
        return [placement({r: 1 for r in held[:total]})]
    extra = total - len(held)
    order = sorted(held)
    ones = [(r, 1) for r in order]
    if not extra:
        return [tuple(ones)]
    out = []
    for i, r in enumerate(order):
        spread = ones[:]
        spread[i] = (r, 1 + extra)
        out.append(tuple(spread))
    many, rest = divmod(extra, len(held))
    if len(held) > 1 and (many or rest > 1):  # else the even spread is one of the others
        even = [(r, 1 + many + (1 if i < rest else 0)) for i, r in enumerate(held)]
        out.append(tuple(sorted(even)))
    return out


_EXPLAIN: dict[str, str] = {}  # act -> the name of the game's method that explains it
_DO: dict[str, str] = {}  # act -> the name of the game's method that plays it


def _names(act: str) -> tuple[str, str]:
    _EXPLAIN[act], _DO[act] = f"_explain_{act}", f"_do_{act}"
    return _EXPLAIN[act], _DO[act]


_OVERRIDES: dict[tuple[type, str], bool] = {}
_DISCOUNTERS: dict[tuple[type, type, bool], tuple[int, ...]] = {}  # which of (race, power) give a discount


def _overrides(trait, hook: str) -> bool:
    """Whether a race or power answers ``hook`` itself (the neutral answer is never worth asking)."""
    key = (type(trait), hook)
    known = _OVERRIDES.get(key)
    if known is None:
        from .traits import Trait
        known = _OVERRIDES[key] = getattr(type(trait), hook) is not getattr(Trait, hook)
    return known


def _placement_problem(tokens, held: set[int], total: int, title: str, keep_all: bool) -> Reason | None:
    placed = dict(tokens)
    for rid in placed:
        if rid not in held:
            return Reason("not-yours", f"Region {rid} is not held by your {title}: tokens are redeployed only "
                          "into regions your race already occupies.")
    if sum(placed.values()) != total:
        return Reason("token-count", f"You have {total} {title} tokens to place, not {sum(placed.values())}.")
    if keep_all and len(placed) < len(held):  # (every region placed into is held: checked above)
        for rid in sorted(held):
            if not placed.get(rid):
                return Reason("empty-region", f"Leave at least one token in region {rid}: redeployment never "
                              "abandons a region.")
    return None
