"""A game of Small World of Warcraft: the base turn machinery, with islands, Entry Regions and the
travel cost, Murlocs, the Faction Bonus, Artifacts and Legendary Places, and chance or table input
(banner and badge values, marker faces, Bomb faces) arriving as actions.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..actions import Decline, Roll
from ..errors import Reason, RecordError
from ..game import CHANCE, Game, _cap
from . import pieces
from .actions import Detonate, Discover, Enlist, Form, Herd, Place, PlaceBombs, Side, Steal, Use, Values
from .fees import ATTACK, CONQUEST, POWER


@dataclass
class WarcraftTurn:
    """What Warcraft remembers about the current turn."""

    defeated: dict = field(default_factory=dict)  # race -> regions the active race conquered from it
    bonus: list = field(default_factory=list)  # [what, coins] earned by conquests, paid at scoring
    used: dict = field(default_factory=dict)  # once-a-turn powers and artifacts already used
    form: str | None = None  # Worgen
    kills: int = 0  # race tokens (Murlocs included) whose loss the active race forced (Forsaken)
    enlisted: int = 0
    airborne_region: int | None = None
    airborne_die: int | None = None
    side: str | None = None  # a neutral race on the Battleground
    paid_harmony: list = field(default_factory=list)
    attempt_paid: int | None = None  # the region of a final attempt whose attack fees were paid
    holy_light: list = field(default_factory=list)  # Draenei races already spared a loss this turn


@dataclass
class WarcraftState:
    values_races: dict = field(default_factory=dict)
    values_powers: dict = field(default_factory=dict)
    factions: dict = field(default_factory=dict)  # the table's corrections to the banners' factions
    pending: list = field(default_factory=list)  # input awaited: [kind, region or race]
    faces_left: list = field(default_factory=list)  # Artifact and Place markers not yet revealed
    gone: list = field(default_factory=list)  # markers out of the game (a Well drawn on a dry island)
    bomb_stack: int = 12
    bomb_faces: dict = field(default_factory=lambda: dict(pieces.BOMBS))  # faces not yet revealed
    bombs: dict = field(default_factory=dict)  # region -> the seat of the player whose Goblins placed it
    harmony: dict = field(default_factory=dict)  # seat -> the Pandaren race whose token they hold
    objectives_owner: int | None = None
    beasts: int = 0
    # pieces that survived a conquest of their region, redeployed by their race as it resettles
    loose_beasts: dict = field(default_factory=dict)  # race -> Beasts (``herd``)
    loose_champion: str | None = None  # the race whose Champion was ransomed back (``place champion R``)
    redraw_place: int | None = None  # a Well drawn on a dry island: another Legendary Place is drawn here
    stash_in: int = 0  # coins taken from the stash outside scoring
    stash_out: int = 0  # coins paid to the stash
    transfers: list = field(default_factory=list)  # [from seat, to seat, coins, why]
    turn: WarcraftTurn = field(default_factory=WarcraftTurn)


PENDING_ACTIONS = {"values": Values, "discover": Discover, "detonate": Detonate, "airborne-die": Roll}


class WarcraftGame(Game):
    PLACEMENTS = Game.PLACEMENTS + (Herd, PlaceBombs)
    MARKERS_IN_BOX = pieces.MARKERS_IN_BOX
    PRIMITIVE = pieces.MURLOC
    PRIMITIVE_TOKENS = pieces.MURLOC_TOKENS
    PRIMITIVE_TITLE = "Murlocs"
    IMMUNITY_MARKERS = (pieces.WATCH_TOWER,)

    def __init__(self, setup, board=None):
        super().__init__(setup, board)
        if len(setup.players) != self.board.players:
            raise RecordError(f"map: {self.board.name} is {self.board.players} islands, for {self.board.players} "
                              f"players; this game has {len(setup.players)}")

    # ------------------------------------------------------------------ setup
    def _reset(self) -> None:
        opts = self.setup.options or {}
        values = opts.get("values", {})
        self.wc = WarcraftState(values_races=dict(values.get("races", {})),
                                values_powers=dict(values.get("powers", {})),
                                factions=dict(opts.get("factions", {})),
                                faces_left=sorted(pieces.ARTIFACTS + pieces.PLACES))
        super()._reset()
        for r in self.board:
            if r.marker:  # "place one facedown on each board, in the Regions featuring the S, M, or L icon"
                self.regions[r.id].add_marker(pieces.FACE_DOWN)

    def _starts_primitive(self, region) -> bool:
        return region.murloc

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> int:
        if not self.finished and self.wc.pending:
            return self.turn.player if self.wc.pending[0][0] == "values" else CHANCE
        return super().current_player

    def awaiting(self) -> tuple[str, object] | None:
        """``("values", race)``, ``("discover", region)``, ``("detonate", region)`` or
        ``("airborne-die", region)``: the input awaited before anything else, or None."""
        if self.finished or not self.wc.pending:
            return None
        kind, arg = self.wc.pending[0]
        return kind, arg

    def coin_transfers(self) -> list[tuple[int | None, int | None, int, str]]:
        return [tuple(t) for t in self.wc.transfers]

    def marker_kinds(self) -> tuple[str, ...]:
        return tuple(pieces.MARKER_NAMES) + pieces.ARTIFACTS + pieces.PLACES

    def marker_title(self, kind: str) -> str:
        return pieces.MARKER_NAMES.get(kind) or pieces.MARKER_TITLES.get(kind, kind)

    def faction_of(self, race: str | None) -> str:
        """``alliance``, ``horde`` or ``neutral`` (Murlocs and empty regions are neutral)."""
        if race is None or race == pieces.MURLOC or not self.rules.is_race(race):
            return "neutral"
        if race in self.wc.factions:
            return self.wc.factions[race]
        return self.rules._races[race].faction

    def faction_of_region(self, region_id: int) -> str:
        return self.faction_of(self.regions[region_id].race)

    def nonempty(self, region_id: int) -> bool:
        """"non-empty if, and only if, it contains at least one Murloc or Race token\""""
        rs = self.regions[region_id]
        return rs.race is not None and rs.tokens > 0

    def revealed_in(self, region_id: int) -> list[str]:
        return [k for k in self.regions[region_id].markers if k in pieces.ARTIFACTS + pieces.PLACES]

    def place_in(self, region_id: int) -> list[str]:
        return [k for k in self.regions[region_id].markers if k in pieces.PLACES]

    def where(self, marker: str) -> int | None:
        return next((rid for rid, rs in self.regions.items() if rs.marker(marker)), None)

    def holder(self, marker: str):
        """The active tribe occupying the region of an Artifact or Place (In Decline races do not benefit)."""
        rid = self.where(marker)
        tribe = self.owner_tribe(rid) if rid is not None else None
        return tribe if tribe is not None and tribe.active else None

    def controls(self, tribe, marker: str) -> bool:
        held = self.holder(marker)
        return held is not None and held.name == tribe.name

    def holds_majority(self, race: str, region) -> bool:
        """Whether ``race`` holds more of the region's neighbours than any other race (Watch Towers)."""
        counts: dict[str, int] = {}
        for rid in region.adjacent:
            r = self.regions[rid].race
            if r:
                counts[r] = counts.get(r, 0) + 1
        mine = counts.pop(race, 0)
        return mine > 0 and all(mine > n for n in counts.values())

    # ------------------------------------------------------------------ coins between players
    def pay(self, seat: int, to: int | None, coins: int, why: str) -> None:
        """Coins from a player's hidden total to another's, or to the stash (``to`` None)."""
        coins = min(coins, self.players[seat].coins)
        if coins <= 0:
            return
        self.players[seat].coins -= coins
        if to is None:
            self.wc.stash_out += coins
        else:
            self.players[to].coins += coins
        self.wc.transfers.append([seat, to, coins, why])

    def gain(self, seat: int, coins: int, why: str) -> None:
        """Coins from the stash outside scoring (Military Objectives, the Worgen's human form)."""
        self.players[seat].coins += coins
        self.wc.stash_in += coins
        self.wc.transfers.append([None, seat, coins, why])

    def fees(self, seat: int, region_id: int, kinds=CONQUEST) -> list[tuple[int, int, str]]:
        """Coins owed before acting on a region, of the ``kinds`` this way of acting owes:

        - ``harmony``: a player holding a Pandaren's Harmony token "must pay 2 Victory Coins to the
          Pandaren before attacking them (attempting to conquer their regions or forcing the removal
          of a Race token from their territory by any means)", once a turn;
        - ``aegis``: the Aegis' region "is immune to all powers and conquest attempts unless the
          opponent pays the owner of the Aegis 2 Victory Coins";
        - ``marsh``: "Opponents must pay the Marshdweller Race 1 Victory Coin before conquering any
          Marshdweller's Swamp Region" (a conquest only; the power is "still Active when In Decline").
        """
        defender = self.owner_tribe(region_id)
        if defender is None or defender.owner == seat:
            return []
        out = []
        if "harmony" in kinds and defender.active and self.wc.harmony.get(seat) == defender.name and \
                seat not in self.wc.turn.paid_harmony:
            out.append((defender.owner, 2, "Harmony"))
        if "marsh" in kinds:
            region = self.board[region_id]
            traits = [defender.race, defender.power] if defender.active else \
                [defender.race] + ([defender.power] if defender.power.keeps_badge_in_decline() else [])
            for trait in traits:
                n = trait.attack_fee(self, defender, region)
                if n:
                    out.append((defender.owner, n, trait.title))
        if "aegis" in kinds and self.regions[region_id].marker("aegis-of-aggramar") and defender.active:
            out.append((defender.owner, 2, "Aegis of Aggramar"))
        return out

    def pay_fees(self, seat: int, region_id: int, kinds=CONQUEST) -> None:
        for to, n, why in self.fees(seat, region_id, kinds):
            self.pay(seat, to, n, why)
            if why == "Harmony":
                self.wc.turn.paid_harmony.append(seat)

    def owed(self, seat: int, region_ids, kinds=CONQUEST) -> list[tuple[int, int, str]]:
        """The fees of acting on several regions at once (Harmony counted once)."""
        out, harmony = [], False
        for rid in region_ids:
            for fee in self.fees(seat, rid, kinds):
                if fee[2] == "Harmony":
                    if harmony:
                        continue
                    harmony = True
                out.append(fee)
        return out

    def immunity_problem(self, tribe, region_id, kinds=CONQUEST, extra: int = 0) -> Reason | None:
        """A Watch Tower ("immune to all powers and conquest attempts"); or coins the player cannot pay
        first (``kinds`` of fees, see ``fees``, on one region or several, plus ``extra``)."""
        rids = region_id if isinstance(region_id, tuple) else (region_id,)
        for rid in rids:
            if self.regions[rid].marker(pieces.WATCH_TOWER):
                return Reason("immune", f"{_cap(self.board[rid].describe())} holds a Watch Tower and is immune to "
                              "all powers and conquest attempts.")
        fees = self.owed(tribe.owner, rids, kinds)
        owed = extra + sum(n for _, n, _ in fees)
        if owed > self.players[tribe.owner].coins:
            what = " and ".join([w for _, _, w in fees] + (["the Doomhammer"] if extra else []))
            return Reason("cannot-pay", f"Acting on {' and '.join(self.board[r].describe() for r in rids)} costs "
                          f"{owed} coins first ({what}); you have {self.players[tribe.owner].coins}.")
        return None

    # ------------------------------------------------------------------ conquest rules
    def travel_cost(self, tribe, region) -> int:
        """"+1 additional Race token for the travel cost if the Region is an Entry Region that is not
        adjacent to a Region already occupied by the same Race\""""
        held = set(self.regions_of(tribe.name))
        if held & region.adjacent:
            return 0
        traits = self._traits(tribe)
        if any(t.travel_cost_waived(self, tribe, region) for t in traits) or self.controls(tribe, "meeting-stone"):
            return 0
        if any(t.also_adjacent(self, tribe, region, held) for t in traits):
            return 0  # "as though it were adjacent" (Kobolds' Caverns, the Gnomes' airborne assault)
        if not held:  # a first conquest always sails, unless it starts in a Cavern (Kobolds) or a Sea (Naga)
            return 1 if all(t.travel_cost_for_entry(self, tribe, region) for t in traits) else 0
        return 1 if region.entry else 0

    def conquest_cost(self, tribe, region_id: int, item: str | None = None, adjacent: bool = False) -> int:
        """2 + markers + "+1 additional Race token for each Murloc or each other Race's token already
        present" (your own race in decline is another race) + the travel cost (none when ``adjacent``:
        Ashes of Al'ar, "as if this Region was adjacent"), less the discounts, at least 1."""
        rs = self.regions[region_id]
        region = self.board[region_id]
        cost = 2 + sum(rs.marker(m) for m in pieces.DEFENCE_MARKERS) + (rs.tokens if rs.race else 0)
        if not adjacent:
            cost += self.travel_cost(tribe, region)
        discount = self.discount(tribe, region)
        if item == "frostmourne":
            discount += 2
        cost = max(1, cost - discount)
        if item == "doomhammer":
            cost = 1
        return max(cost, tribe.race.min_tokens_per_region())

    def target_problem(self, tribe, region_id: int, held=None, airborne: bool = False) -> Reason | None:
        if region_id not in self.board:
            return Reason("unknown-region", f"There is no region {region_id} on this map.")
        region = self.board[region_id]
        rs = self.regions[region_id]
        if rs.race == tribe.name:
            return Reason("own-region", f"Your {tribe.race.title} already hold {region.describe()}.")
        traits = self._traits(tribe)
        if region.water and not any(t.conquers_water() for t in traits):
            return Reason("water", f"{_cap(region.describe())} is a {region.terrain}: only the Naga may conquer "
                          "Seas and Lakes.")
        problem = self.immunity_problem(tribe, region_id)
        if problem:
            return problem
        if tribe.active and tribe.power.tames_beasts() and self.wc.beasts and self._race_hand_after_ready(tribe) < 1:
            return Reason("no-tokens", "Beasts go in with race tokens: you need at least one race token in hand.")
        if held is None:
            held = set(self.regions_of(tribe.name))
        if airborne:
            return None
        if not held:  # a region "as though it were adjacent" (the Gnomes' airborne assault) may be the first
            if not (region.entry or any(t.entry_ok(self, tribe, region) or t.also_adjacent(self, tribe, region, held)
                                        for t in traits)):
                return Reason("not-entry", f"{_cap(region.describe())} has no anchor: a race entering the islands "
                              "must first conquer an Entry Region.")
        elif not (held & region.adjacent or region.entry
                  or any(t.also_adjacent(self, tribe, region, held) for t in traits)):
            return Reason("not-adjacent", f"{_cap(region.describe())} is neither adjacent to a region your "
                          f"{tribe.race.title} hold nor an Entry Region.")
        return None

    def conquering_problem(self, tribe) -> Reason | None:
        problem = super().conquering_problem(tribe)
        if problem is None and tribe.active and tribe.race.needs_form() and self.wc.turn.form is None:
            return Reason("form-first", "The Worgen choose their form (human or Worgen) before conquering.")
        return problem

    # ------------------------------------------------------------------ the conquest itself
    def take_region(self, tribe, region_id: int, tokens: int, from_tray: int = 0,
                    defender_loses_all: bool = False) -> None:
        if self.wc.turn.attempt_paid == region_id:  # the attack's fees were paid as the attempt was declared
            self.wc.turn.attempt_paid = None
            self.pay_fees(tribe.owner, region_id, ("marsh",))
        else:
            self.pay_fees(tribe.owner, region_id)
        self._ready(tribe)
        rs = self.regions[region_id]
        defenders = rs.tokens if rs.race else 0
        beaten = rs.race
        defender = self.tribes.get(rs.race) if rs.race else None
        lost = 0
        if rs.race == self.PRIMITIVE:
            self.lost_tribe_tray += rs.tokens
            lost = rs.tokens
        elif defender is not None:
            lost = self.conquest_losses(tribe.owner, defender, region_id)
            defender.hand += rs.tokens - lost
            self.note_attack(tribe, defender)
        for kind in list(rs.markers):
            if kind in (pieces.WISP_WALL, pieces.FORT, pieces.WATCH_TOWER, pieces.BEAST):
                self.remove_marker(region_id, kind, rs.marker(kind))
        if rs.marker(pieces.MILITARY_OBJECTIVE) and tribe.active and self.faction_of(tribe.name) != "horde":
            self.remove_marker(region_id, pieces.MILITARY_OBJECTIVE)
            self.gain(tribe.owner, 2, "Military Objective")
            owner = self.wc.objectives_owner
            if owner is not None and owner != tribe.owner:
                self.gain(owner, 2, "Military Objective (Humans)")
        if rs.marker(pieces.BOMB) and self.wc.bombs.get(region_id) == tribe.owner:
            self._bomb_back(region_id)
        beasts = 0
        if tribe.active and tribe.power.tames_beasts():
            beasts = min(self.wc.beasts, tokens - 1, max(0, tokens - tribe.hand))
            self.wc.beasts -= beasts
        rs.race, rs.tokens = tribe.name, tokens - beasts + from_tray
        tribe.hand -= tokens - beasts
        if beasts:
            self.place_marker(region_id, pieces.BEAST, beasts)
        tribe.conquered.append(region_id)
        if defenders:
            tribe.conquered_nonempty += 1
        if tribe.active:
            self.turn.expanded = True
            self.wc.turn.kills += lost  # Forsaken: "Each time they force the loss of a Race token"
            if beaten and beaten != tribe.name:
                self.wc.turn.defeated[beaten] = self.wc.turn.defeated.get(beaten, 0) + 1
            for trait in (tribe.race, tribe.power):
                self.wc.turn.bonus += [[w, n] for w, n in
                                       trait.conquest_coins(self, tribe, self.board[region_id], defenders, defender)]
        for trait in self._traits(tribe):
            trait.after_conquest(self, tribe, region_id)
        if rs.marker(pieces.FACE_DOWN):
            self.wc.pending.append(["discover", region_id])
        if defender is not None:
            self._vanish_if_gone(defender)

    def conquest_losses(self, seat: int, defender, region_id: int) -> int:
        """The race tokens a defender discards when ``seat`` conquers its region, or a Bomb explodes
        there ("treated as a successful conquest"): a Beast instead when one stands there ("one Beast
        Token is discarded as a loss while all other tokens are redeployed normally"), none when the
        Champion is taken prisoner, every token of a race in decline ("all In Decline tokens are
        discarded"), else the race's usual loss; then the Chapel and the Holy Light (``losses``)."""
        rs = self.regions[region_id]
        beasts = rs.marker(pieces.BEAST)
        if beasts:
            self.remove_marker(region_id, pieces.BEAST, beasts)
            if beasts > 1:  # redeployed by their owner as it resettles (``herd``)
                self.wc.loose_beasts[defender.name] = self.wc.loose_beasts.get(defender.name, 0) + beasts - 1
            return 0
        if rs.marker(pieces.CHAMPION):
            # "it is taken prisoner. No defending Race token is discarded. The owner of the Champion must
            # immediately pay their opponent a 1 Victory Coin ransom and retrieve it. They then redeploy it"
            self.remove_marker(region_id, pieces.CHAMPION)
            self.wc.loose_champion = defender.name
            if defender.owner != seat:
                self.pay(defender.owner, seat, 1, "Champion ransom")
            return 0
        if defender.in_decline and rs.tokens > 1:
            lost = rs.tokens
        else:
            lost = min(rs.tokens, self.losses_when_conquered(defender))
        return self.losses(defender, region_id, lost)

    def losses(self, defender, region_id: int, lost: int) -> int:
        """How many of ``lost`` tokens the defender really discards, whether by a conquest or a power:
        none while its race occupies the Light's Hope Chapel ("A Race occupying the Light's Hope Chapel
        does not suffer any Race token loss when attacked", in any of its regions), one fewer by the
        Draenei's Holy Light."""
        if lost and self.controls(defender, "lights-hope-chapel"):
            lost = 0
        if lost and defender.active and defender.race.holy_light() and defender.owner != self.turn.player \
                and defender.name not in self.wc.turn.holy_light:
            lost -= 1  # "the first Race token they should discard (due to conquests or any type of power)"
            self.wc.turn.holy_light.append(defender.name)
        return lost

    def _do_attempt(self, a) -> None:
        """"attempting to conquer their regions" is attacking them: Harmony and the Aegis are paid as
        the attempt is declared, won or lost; Marshdweller's coin only if the conquest happens."""
        tribe, _ = self._conquering_tribe(a.race)
        self.pay_fees(tribe.owner, a.region, ATTACK)
        self.wc.turn.attempt_paid = a.region
        super()._do_attempt(a)

    def _do_conquer(self, a) -> None:
        tribe, _ = self._conquering_tribe(a.race)
        self._ready(tribe)
        self.take_region(tribe, a.region, self.conquest_cost(tribe, a.region))

    def _empty_region(self, region_id: int) -> None:
        rs = self.regions[region_id]
        rs.race, rs.tokens = None, 0
        if rs.marker(pieces.BOMB):
            self._bomb_back(region_id)  # "If the Region is emptied ... put the Bomb token back on top"
        for kind in (pieces.WISP_WALL, pieces.FORT, pieces.WATCH_TOWER, pieces.BEAST, pieces.CHAMPION):
            if rs.marker(kind):
                self.remove_marker(region_id, kind, rs.marker(kind))

    empty_region = _empty_region

    def vanish_if_gone(self, tribe) -> None:
        self._vanish_if_gone(tribe)

    def _bomb_back(self, region_id: int) -> None:
        self.regions[region_id].add_marker(pieces.BOMB, -1)
        self.wc.bombs.pop(region_id, None)
        self.wc.bomb_stack += 1

    def _ready(self, tribe) -> None:
        if tribe.readied:
            return
        keep = tribe.race.min_tokens_per_region()
        before = {rid: self.regions[rid].tokens for rid in self.regions_of(tribe.name)}
        super()._ready(tribe)
        if keep > 1:  # Tauren: "Under no circumstances should a Tauren token be left alone"
            for rid, n in before.items():
                back = min(keep, n) - self.regions[rid].tokens
                self.regions[rid].tokens += back
                tribe.hand -= back

    def hand_after_ready(self, tribe) -> int:
        beasts = self.wc.beasts if tribe.active and tribe.power.tames_beasts() else 0
        return beasts + self._race_hand_after_ready(tribe)

    def _race_hand_after_ready(self, tribe) -> int:
        if tribe.readied:
            return tribe.hand
        keep = tribe.race.min_tokens_per_region()
        return tribe.hand + tribe.reserve + sum(max(0, self.regions[r].tokens - keep)
                                                for r in self.regions_of(tribe.name))

    # ------------------------------------------------------------------ legality and input
    def _explain(self, action) -> Reason | None:
        if not self.finished and self.wc.pending:
            kind, arg = self.wc.pending[0]
            if not isinstance(action, PENDING_ACTIONS[kind]):
                what = {"values": lambda: f"the banner and badge values of the {self.rules.race_title(arg)}",
                        "discover": lambda: f"the marker turned up in region {arg}",
                        "detonate": lambda: f"the face of the Bomb in region {arg}",
                        "airborne-die": lambda: "the Gnomes' free Reinforcement Die"}[kind]()
                return Reason("input-first", f"First say {what}.")
            return getattr(self, f"_explain_{action.act}")(action)
        if self.finished:
            return super()._explain(action)
        if self.phase == "resettlement" and isinstance(action, (Herd, Place)):
            return self._explain_put_back(action)
        if self.phase == "conquest" and not isinstance(action, (Form, Decline)):
            tribe = self.active_tribe(self.turn.player)
            if tribe is not None and tribe.race.needs_form() and self.wc.turn.form is None:
                # "At the beginning of each of their turns, Worgen must choose between their human form ...
                # or Worgen form": before anything else of the turn (going into decline ends their turns)
                return Reason("form-first", "The Worgen choose their form (human or Worgen) at the beginning of "
                              "their turn, before anything else.")
        return super()._explain(action)

    # pieces put back while resettling ----------------------------------------------------------------
    def _explain_put_back(self, a) -> Reason | None:
        """Beasts and the Champion that survived a conquest are "redeployed normally" by their race as
        it resettles, before its ``resettle`` (after it, those still off the map are discarded)."""
        race = self.resettle_queue[0][1]
        held = set(self.regions_of(race))
        if isinstance(a, Herd):
            loose = self.wc.loose_beasts.get(race, 0)
            if not loose:
                return Reason("nothing-to-redeploy", "No Beast of the race resettling now waits to be redeployed.")
            for rid, _ in a.beasts:
                if rid not in held:
                    return Reason("not-yours", f"Region {rid} is not held by the {self.tribes[race].race.title}.")
            if sum(n for _, n in a.beasts) != loose:
                return Reason("token-count", f"{loose} Beasts wait to be redeployed, not "
                              f"{sum(n for _, n in a.beasts)}.")
            return None
        if a.item != pieces.CHAMPION or self.wc.loose_champion != race:
            return Reason("nothing-to-redeploy", "Only a Champion ransomed back this turn is placed while resettling.")
        if a.region not in held:
            return Reason("not-yours", f"Region {a.region} is not held by the {self.tribes[race].race.title}.")
        return None

    def _do_herd(self, a) -> None:
        if self.phase != "resettlement":
            tribe = self._owner_of_action(a)
            tribe.power.apply_action(self, tribe, a)
            return
        race = self.resettle_queue[0][1]
        self.wc.loose_beasts.pop(race)
        for rid, n in a.beasts:
            self.place_marker(rid, pieces.BEAST, n)

    def _do_resettle(self, a) -> None:
        self.wc.loose_beasts.pop(a.race, None)  # Beasts not redeployed are discarded
        if self.wc.loose_champion == a.race:
            self.wc.loose_champion = None  # off the map until the next Champion conquest
        super()._do_resettle(a)

    def _legal_actions(self):
        if self.finished:
            return []
        if self.wc.pending:
            kind, arg = self.wc.pending[0]
            if kind == "values":
                tribe = self.tribes[arg]
                from .ruleset import SAMPLE_BANNER, SAMPLE_BADGE
                return [Values(arg, self.wc.values_races.get(arg, SAMPLE_BANNER),
                               self.wc.values_powers.get(tribe.power.name, SAMPLE_BADGE))]
            if kind == "discover":
                return [Discover(arg, f) for f in self._discover_faces(arg)]
            if kind == "detonate":
                return [Detonate(arg, f) for f, n in sorted(self.wc.bomb_faces.items()) if n > 0]
            return [Roll(f) for f in sorted(set((0, 1, 2, 3)))]
        out = super()._legal_actions()
        me = self.turn.player
        if self.phase == "resettlement":
            race = self.resettle_queue[0][1]
            held = self.regions_of(race)
            if self.wc.loose_beasts.get(race):
                out += [Herd(((rid, self.wc.loose_beasts[race]),)) for rid in held]
            if self.wc.loose_champion == race:
                out += [Place(pieces.CHAMPION, rid) for rid in held]
            return out
        tribe = self.active_tribe(me)
        if tribe is not None and self.phase == "conquest" and tribe.race.needs_form() and self.wc.turn.form is None:
            return [a for a in out if isinstance(a, (Form, Decline))]  # "At the beginning of each of their turns"
        if tribe is not None and self.phase == "conquest":
            for item in ("ashes-of-alar", "doomhammer", "frostmourne"):
                if self.controls(tribe, item):
                    out += [a for a in (Use(item, rid) for rid in self.board.ids) if self.is_legal(a)]
            if tribe.race.enlists() and self.wc.turn.kills:
                out += [a for a in (Enlist(n) for n in range(1, self.wc.turn.kills + 1)) if self.is_legal(a)]
            if tribe.race.steals():
                out += [a for a in self._steal_candidates(tribe) if self.is_legal(a)]
            if self.controls(tribe, "battleground") and self.faction_of(tribe.name) == "neutral":
                out += [a for a in (Side("alliance"), Side("horde")) if self.is_legal(a)]
        if tribe is not None and self.phase == "redeployment":
            for item in ("aegis-of-aggramar", "heart-of-azeroth"):
                if self.controls(tribe, item):
                    out += [a for a in (Place(item, r) for r in self.regions_of(tribe.name)) if self.is_legal(a)]
        return out

    def _steal_candidates(self, tribe):
        held = set(self.regions_of(tribe.name))
        out = []
        for item in pieces.ARTIFACTS:
            rid = self.where(item)
            if rid is not None and rid not in held:
                out += [Steal(rid, to) for to in sorted(held & self.board[rid].adjacent)]
        return out

    # values ---------------------------------------------------------------------------------
    def _do_pick(self, a) -> None:
        super()._do_pick(a)
        tribe = self.tribes[a.race]
        banner = self.wc.values_races.get(tribe.name)
        badge = self.wc.values_powers.get(tribe.power.name)
        if banner is None or badge is None:
            tribe.hand = 0
            self.wc.pending.append(["values", tribe.name])
        else:
            tribe.hand = min(banner + badge, self.tray(tribe.name))
        if tribe.race.needs_form():
            pass  # the Worgen choose their form before their first conquest, like every turn

    def _explain_values(self, a: Values) -> Reason | None:
        if not self.wc.pending or self.wc.pending[0] != ["values", a.race]:
            return Reason("no-values-wanted", "No banner or badge values are awaited now.")
        tribe = self.tribes[a.race]
        for what, n in (("banner", a.banner), ("badge", a.badge)):
            if not 0 <= n <= pieces.MAX_VALUE:
                return Reason("bad-value", f"A {what} value is a number from 0 to {pieces.MAX_VALUE}, not {n}.")
        known = self.wc.values_races.get(a.race), self.wc.values_powers.get(tribe.power.name)
        if known[0] is not None and known[0] != a.banner or known[1] is not None and known[1] != a.badge:
            return Reason("values-mismatch", f"This table has already read {tribe.race.title} {known[0]} and "
                          f"{tribe.power.title} {known[1]}.")
        if a.banner + a.badge < 1:
            return Reason("bad-value", "A combo gives at least one race token.")
        return None

    def _do_values(self, a: Values) -> None:
        tribe = self.tribes[a.race]
        self.wc.values_races[a.race] = a.banner
        self.wc.values_powers[tribe.power.name] = a.badge
        tribe.hand = min(a.banner + a.badge, self.tray(tribe.name))
        self.wc.pending.pop(0)

    # markers ---------------------------------------------------------------------------------
    def _explain_discover(self, a: Discover) -> Reason | None:
        if not self.wc.pending or self.wc.pending[0] != ["discover", a.region]:
            return Reason("nothing-to-discover", f"No marker is being turned up in region {a.region}.")
        if a.marker not in self.wc.faces_left:
            return Reason("not-in-box", f"{a.marker!r} is not an Artifact or Legendary Place still face down "
                          f"(left: {', '.join(self.wc.faces_left)}).")
        if self.wc.redraw_place == a.region and a.marker not in pieces.PLACES:
            return Reason("not-a-place", "The Well of Eternity found no Sea or Lake on its island: another "
                          f"Legendary Place token is drawn, and {pieces.MARKER_TITLES[a.marker]} is an Artifact.")
        return None

    def _discover_faces(self, region_id: int) -> list[str]:
        """The faces the marker turned up in ``region_id`` may show."""
        if self.wc.redraw_place == region_id:
            return [f for f in self.wc.faces_left if f in pieces.PLACES]
        return list(self.wc.faces_left)

    def _do_discover(self, a: Discover) -> None:
        self.wc.pending.pop(0)
        self.wc.faces_left.remove(a.marker)
        self.wc.redraw_place = None
        rs = self.regions[a.region]
        if a.marker == "well-of-eternity":
            island = self.board[a.region].island
            water = [r.id for r in self.board if r.island == island and r.water]
            if not water:  # "otherwise draw another Legendary Place token"
                self.wc.gone.append(a.marker)
                if any(f in pieces.PLACES for f in self.wc.faces_left):
                    self.wc.redraw_place = a.region
                    self.wc.pending.insert(0, ["discover", a.region])
                else:  # no Legendary Place left to draw: the marker is gone
                    rs.add_marker(pieces.FACE_DOWN, -1)
                return
            self.regions[water[0]].add_marker(a.marker)
        else:
            rs.add_marker(a.marker)
        rs.add_marker(pieces.FACE_DOWN, -1)

    # bombs -------------------------------------------------------------------------------------
    def _explain_detonate(self, a: Detonate) -> Reason | None:
        if not self.wc.pending or self.wc.pending[0] != ["detonate", a.region]:
            return Reason("nothing-to-detonate", f"No Bomb is being revealed in region {a.region}.")
        if self.wc.bomb_faces.get(a.result, 0) <= 0:
            return Reason("not-in-box", f"No {a.result!r} Bomb is still face down (faces: exploding, dud).")
        return None

    def _do_detonate(self, a: Detonate) -> None:
        self.wc.pending.pop(0)
        self.wc.bomb_faces[a.result] -= 1
        rs = self.regions[a.region]
        rs.add_marker(pieces.BOMB, -1)
        bomber = self.wc.bombs.pop(a.region, self.turn.player)
        if a.result != "exploding":
            return
        victim = self.owner_tribe(a.region)
        if victim is None or victim.owner == bomber:
            return
        # Harmony: "forcing the removal of a Race token from their territory by any means" is attacking
        # the Pandaren; a player who cannot pay the 2 coins first cannot attack them, and the Bomb does nothing
        if sum(n for _, n, _ in self.fees(bomber, a.region, ("harmony",))) > self.players[bomber].coins:
            return
        self.pay_fees(bomber, a.region, ("harmony",))
        # "an explosion is treated as a successful conquest (the opponent loses 1 Race token, retrieves all
        # others for redeployment as usual) except the Region is now empty"
        victim.hand += rs.tokens - self.conquest_losses(bomber, victim, a.region)
        self._empty_region(a.region)
        self._vanish_if_gone(victim)

    def _reveal_bombs(self, seat: int) -> None:
        for rid, owner in sorted(self.wc.bombs.items()):
            if owner == seat:
                victim = self.owner_tribe(rid)
                if victim is not None and victim.owner != seat:
                    self.wc.pending.append(["detonate", rid])
                else:
                    self._bomb_back(rid)

    # Gnomes' die -----------------------------------------------------------------------------
    def _explain_roll(self, a: Roll) -> Reason | None:
        if self.wc.pending and self.wc.pending[0][0] == "airborne-die":
            return None if a.face in (0, 1, 2, 3) else Reason("die-face", f"The Reinforcement Die has faces 0, "
                                                                     f"1, 2 and 3, not {a.face}.")
        return super()._explain_roll(a)

    def _do_roll(self, a: Roll) -> None:
        if self.wc.pending and self.wc.pending[0][0] == "airborne-die":
            self.wc.pending.pop(0)
            self.wc.turn.airborne_die = a.face
            self.turn.last_die = a.face
            return
        tribe = self.tribes.get(self.turn.attempt_race) if self.phase == "final-roll" else None
        beasts = self.wc.beasts if tribe is not None and tribe.active and tribe.power.tames_beasts() else 0
        if not beasts:
            super()._do_roll(a)
            return
        # the final conquest attempt of a Beast Master: its Beasts go in with its last race tokens
        self.turn.last_die = a.face
        rid = self.turn.attempt
        if tribe.hand + beasts + a.face >= self.conquest_cost(tribe, rid):
            self.take_region(tribe, rid, tribe.hand + beasts)
        tribe.conquests_over = True
        self.turn.attempt = self.turn.attempt_race = None
        self.phase = "conquest" if self.players[self.turn.player].active else "pick"

    # Forsaken ------------------------------------------------------------------------------------
    def _explain_enlist(self, a: Enlist) -> Reason | None:
        tribe = self.active_tribe(self.turn.player)
        if tribe is None or not tribe.race.enlists():
            return Reason("no-such-power", "None of your races or special powers can 'enlist'.")
        if self.phase != "conquest" or tribe.redeployed:
            return Reason("wrong-phase", "Tokens are enlisted after the last conquest, before redeployment.")
        if self.wc.turn.enlisted:
            return Reason("once-per-turn", "The Forsaken enlist once a turn, after their last conquest.")
        if not 1 <= a.count <= self.wc.turn.kills:
            return Reason("too-many", f"The Forsaken forced {self.wc.turn.kills} losses this turn; they may enlist "
                          f"1 to {self.wc.turn.kills}.")
        if a.count > self.players[tribe.owner].coins:
            return Reason("not-enough-coins", f"Each token costs 1 coin; you have {self.players[tribe.owner].coins}.")
        if a.count > self.tray(tribe.name):
            return Reason("tray-empty", f"Only {self.tray(tribe.name)} Forsaken tokens are left in the tray.")
        return None

    def _do_enlist(self, a: Enlist) -> None:
        tribe = self.active_tribe(self.turn.player)
        self.pay(tribe.owner, None, a.count, "Forsaken enlisted")
        self.wc.turn.enlisted = a.count
        self._ready(tribe)
        tribe.conquests_over = True  # "they cannot be used for conquests until next turn"

    # artifacts and places ------------------------------------------------------------------------
    def _explain_use(self, a: Use) -> Reason | None:
        tribe = self.active_tribe(self.turn.player)
        if a.item not in ("ashes-of-alar", "doomhammer", "frostmourne"):
            return Reason("not-usable", f"{a.item!r} is not an Artifact used to conquer (Ashes of Al'ar, "
                          "Doomhammer, Frostmourne).")
        if tribe is None or not self.controls(tribe, a.item):
            return Reason("not-holder", f"Your active race does not hold the {pieces.MARKER_TITLES[a.item]}.")
        if self.wc.turn.used.get(a.item):
            return Reason("once-per-turn", f"The {pieces.MARKER_TITLES[a.item]} is used once a turn.")
        problem = self.conquering_problem(tribe)
        if problem:
            return problem
        problem = self.target_problem(tribe, a.region, airborne=a.item == "ashes-of-alar")
        if problem:
            return problem
        hand = self.hand_after_ready(tribe)
        cost = self._use_cost(tribe, a)
        if hand < 1:
            return Reason("no-tokens", "You must have at least one race token in hand to conquer.")
        if hand < cost:
            return Reason("too-few-tokens", f"Conquering {self.board[a.region].describe()} takes {cost} "
                          f"{tribe.race.title} tokens; you have {hand} in hand.")
        if a.item == "doomhammer":
            return self.immunity_problem(tribe, a.region, extra=2)
        return None

    def _use_cost(self, tribe, a: Use) -> int:
        if a.item == "ashes-of-alar":
            # "must still pay the normal conquest cost as if this Region was adjacent" (at least 1)
            return self.conquest_cost(tribe, a.region, adjacent=True)
        return self.conquest_cost(tribe, a.region, a.item)

    def _do_use(self, a: Use) -> None:
        tribe = self.active_tribe(self.turn.player)
        cost = self._use_cost(tribe, a)
        self.wc.turn.used[a.item] = 1
        if a.item == "doomhammer":
            previous = self.owner_tribe(a.region)
            self.pay(tribe.owner, previous.owner if previous and previous.owner != tribe.owner else None, 2,
                     "Doomhammer")
        frm = self.where(a.item)
        self.regions[frm].add_marker(a.item, -1)
        self.take_region(tribe, a.region, cost)
        self.regions[a.region].add_marker(a.item)  # "An Artifact remains in the Region it has last been used in."

    def _explain_place(self, a: Place) -> Reason | None:
        tribe = self.active_tribe(self.turn.player)
        if a.item not in ("aegis-of-aggramar", "heart-of-azeroth"):
            return Reason("not-placeable", f"{a.item!r} is not placed at the end of a turn (Aegis of Aggramar, "
                          "Heart of Azeroth).")
        if tribe is None or not self.controls(tribe, a.item):
            return Reason("not-holder", f"Your active race does not hold the {pieces.MARKER_TITLES[a.item]}.")
        problem = self.placement_problem(tribe, f"The {pieces.MARKER_TITLES[a.item]} is placed")
        if problem:
            return problem
        if a.region not in self.regions_of(tribe.name):
            return Reason("not-yours", f"Region {a.region} is not held by your {tribe.race.title}.")
        return None

    def _do_place(self, a: Place) -> None:
        if a.item == pieces.CHAMPION:
            self.place_marker(a.region, pieces.CHAMPION)
            self.wc.loose_champion = None
            return
        self.regions[self.where(a.item)].add_marker(a.item, -1)
        self.regions[a.region].add_marker(a.item)

    def _explain_side(self, a: Side) -> Reason | None:
        tribe = self.active_tribe(self.turn.player)
        if tribe is None or not self.controls(tribe, "battleground") or self.faction_of(tribe.name) != "neutral":
            return Reason("not-holder", "Only a neutral race occupying the Battleground chooses a side.")
        if a.faction not in ("alliance", "horde"):
            return Reason("faction", "Choose alliance or horde.")
        if self.wc.turn.side is not None:
            return Reason("once-per-turn", "The side for this turn is already chosen.")
        return None

    def _do_side(self, a: Side) -> None:
        self.wc.turn.side = a.faction

    def _explain_steal(self, a: Steal) -> Reason | None:
        tribe = self.active_tribe(self.turn.player)
        if tribe is None or not tribe.race.steals():
            return Reason("no-such-power", "None of your races or special powers can 'steal'.")
        problem = self.conquering_problem(tribe)
        if problem:
            return problem
        if self.wc.turn.used.get("ethereal"):
            return Reason("once-per-turn", "The Ethereals steal or use a Legendary Place discount once a turn.")
        if a.region not in self.board or not any(self.regions[a.region].marker(i) for i in pieces.ARTIFACTS):
            return Reason("no-artifact", f"Region {a.region} holds no Artifact.")
        held = set(self.regions_of(tribe.name))
        if a.to not in held or a.region not in self.board[a.to].adjacent:
            return Reason("not-adjacent", f"The Artifact moves into a region of yours next to region {a.region}.")
        return self.immunity_problem(tribe, a.region, POWER)

    def _do_steal(self, a: Steal) -> None:
        tribe = self.active_tribe(self.turn.player)
        self.pay_fees(tribe.owner, a.region, POWER)
        self.wc.turn.used["ethereal"] = 1
        item = next(i for i in pieces.ARTIFACTS if self.regions[a.region].marker(i))
        self.regions[a.region].add_marker(item, -1)
        self.regions[a.to].add_marker(item)

    # ------------------------------------------------------------------ turn boundaries
    def _start_turn(self, seat: int) -> None:
        self.wc.turn = WarcraftTurn()
        self.wc.loose_beasts, self.wc.loose_champion = {}, None
        super()._start_turn(seat)
        self._reveal_bombs(seat)
        mine = {t.name for t in self.tribes_of(seat)}
        for holder, giver in list(self.wc.harmony.items()):  # Harmony tokens come back, even in decline
            if giver in mine or giver not in self.tribes:
                del self.wc.harmony[holder]
        tribe = self.active_tribe(seat)
        if tribe is not None:
            for trait in (tribe.race, tribe.power):
                trait.turn_start(self, tribe)

    def redeployment_bonus(self, tribe) -> int:
        bonus = super().redeployment_bonus(tribe)
        return bonus + (1 if self.controls(tribe, "spirit-healer") else 0)

    def _redeploy_placement_problem(self, tribe, tokens, held, total):
        problem = super()._redeploy_placement_problem(tribe, tokens, held, total)
        keep = tribe.race.min_tokens_per_region()
        if problem is None and keep > 1 and total >= keep * len(held) and any(n < keep for _, n in tokens):
            return Reason("tauren-alone", "Never leave a Tauren token alone: at least 2 in each region.")
        return problem

    def _reach_beyond_adjacency(self) -> set[int]:
        """Entry Regions: "any Entry Region of any board, paying the +1 Token cost"."""
        return {r.id for r in self.board if r.entry}

    def _spreads_need_check(self, tribe) -> bool:
        return tribe.race.min_tokens_per_region() > 1

    def _may_attempt(self, tribe) -> bool:
        return self._race_hand_after_ready(tribe) >= tribe.race.min_tokens_per_region()

    def _explain_attempt(self, a):
        problem = super()._explain_attempt(a)
        if problem is None:
            tribe, _ = self._conquering_tribe(a.race)
            if not self._may_attempt(tribe):
                return Reason("tauren-alone", "A Tauren token never occupies a region alone: a final conquest "
                              "attempt needs at least 2 tokens.")
        return problem

    def _go_into_decline(self, tribe) -> None:
        keep = tribe.race.min_tokens_per_region()
        kept = {rid: min(keep, self.regions[rid].tokens) for rid in self.regions_of(tribe.name)}
        super()._go_into_decline(tribe)
        if keep > 1:  # Tauren "leave 2 Race tokens in each Region, instead of 1"
            for rid, n in kept.items():
                if self.regions[rid].race == tribe.name:
                    self.regions[rid].tokens = n

    def _do_end(self, a) -> None:
        me = self.turn.player
        tribe = self.active_tribe(me)
        if tribe is not None:
            for trait in (tribe.race, tribe.power):
                trait.turn_end(self, tribe)
            heart = self.holder("heart-of-azeroth")
            if heart is not None and heart.owner == me:
                near = self.board[self.where("heart-of-azeroth")].adjacent
                for seat in range(len(self.players)):
                    other = self.active_tribe(seat)
                    if seat != me and other is not None and set(self.regions_of(other.name)) & near:
                        self.pay(seat, me, 1, "Heart of Azeroth")
        super()._do_end(a)

    def _score(self, seat: int) -> None:
        player = self.players[seat]
        items: list[tuple[str, int]] = []
        for tribe in self.tribes_of(seat):
            items.append((f"regions of the {tribe.title()}", len(self.regions_of(tribe.name))))
            if tribe.active:
                items += tribe.race.coins(self, tribe) + tribe.power.coins(self, tribe)
                items += [(w, n) for w, n in self.wc.turn.bonus]
                items += self._faction_bonus(tribe)
                items += self._place_coins(tribe)
            else:
                items += tribe.race.coins_in_decline(self, tribe)
            well = self.where("well-of-eternity")
            if well is not None and self._well_leader(well) == tribe.name:
                items.append(("most regions by the Well of Eternity", 2))
        active = self.active_tribe(seat)
        if active is not None:
            active.turns_active += 1
        total = sum(n for _, n in items)
        player.coins += total
        player.income.append({"round": self.round, "items": [[w, n] for w, n in items if n], "total": total})

    def _faction_bonus(self, tribe) -> list[tuple[str, int]]:
        """"1 Victory Coin for each Race of the opposite Faction they defeated" (Battleground: twice)."""
        mine = self.faction_of(tribe.name)
        if mine == "neutral":
            mine = self.wc.turn.side or "neutral" if self.controls(tribe, "battleground") else "neutral"
        if mine == "neutral":
            return []
        other = "horde" if mine == "alliance" else "alliance"
        per_race = 2 if self.controls(tribe, "battleground") else 1
        n = sum(min(k, per_race) for race, k in self.wc.turn.defeated.items() if self.faction_of(race) == other)
        return [("Faction Bonus", n)]

    def _place_coins(self, tribe) -> list[tuple[str, int]]:
        out = []
        if self.controls(tribe, "dark-portal"):
            out.append(("Dark Portal", 2))
        if self.controls(tribe, "karazhan"):
            kz = self.where("karazhan")
            terrain = self.board[kz].terrain
            out.append(("Karazhan", sum(1 for r in self.regions_of(tribe.name)
                                        if r != kz and self.board[r].terrain == terrain)))
        return out

    def _well_leader(self, well: int) -> str | None:
        counts: dict[str, int] = {}
        for rid in self.board[well].adjacent:
            race = self.regions[rid].race
            if race:
                counts[race] = counts.get(race, 0) + 1
        if not counts:
            return None
        best = max(counts.values())
        leaders = [r for r, n in counts.items() if n == best]
        return leaders[0] if len(leaders) == 1 else None  # "In the case of a tie, nobody claims this bonus."

    def chance_weight(self, action) -> int:
        """How many of the hidden pieces show this face (a seeded draw weighs faces by it): Bombs are
        6 exploding and 6 duds, less those already revealed; every other face counts once."""
        if isinstance(action, Detonate):
            return self.wc.bomb_faces.get(action.result, 0)
        return 1

    def known_values(self) -> dict:
        """The banner and badge values this table has given so far, in the shape of the header's
        ``options.values`` and of the table's values file (for the service to keep)."""
        return {"races": dict(sorted(self.wc.values_races.items())),
                "powers": dict(sorted(self.wc.values_powers.items()))}

    # ------------------------------------------------------------------ record and view
    def fingerprint(self) -> tuple:
        return super().fingerprint() + (repr(asdict(self.wc)),)

    def snapshot(self) -> dict:
        out = super().snapshot()
        out["warcraft"] = {
            "islands": sorted({(r.island, r.island_name) for r in self.board}),
            "factions": {name: self.faction_of(name) for name in self.tribes},
            "awaiting": self.wc.pending[0] if self.wc.pending else None,
            "harmony": {self.players[s].name: race for s, race in self.wc.harmony.items()},
            "bombs_in_stack": self.wc.bomb_stack,
            "markers_face_down": sum(rs.marker(pieces.FACE_DOWN) for rs in self.regions.values()),
        }
        return out
