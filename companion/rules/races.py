"""The 14 race banners of Small World (Appendix II of the rulebook), each on the neutral hooks."""
from __future__ import annotations

from . import pieces
from .actions import Convert
from .errors import Reason
from .traits import Race, count_regions


class Amazons(Race):
    name, title, tokens, box = "amazons", "Amazons", 6, 15

    def extra_tokens(self):
        return 4  # "+4 usable only for conquest"

    def held_back_after_redeployment(self):
        return 4


class Dwarves(Race):
    name, title, tokens, box = "dwarves", "Dwarves", 3, 8

    def coins(self, game, tribe):
        return [("Mine regions (Dwarves)", count_regions(game, tribe, lambda r: r.mine))]

    def coins_in_decline(self, game, tribe):
        return self.coins(game, tribe)  # "This power is kept even when the Dwarves are In Decline."


class Elves(Race):
    name, title, tokens, box = "elves", "Elves", 6, 11

    def losses_when_conquered(self):
        return 0


class Ghouls(Race):
    name, title, tokens, box = "ghouls", "Ghouls", 5, 10

    def keeps_all_tokens_in_decline(self):
        return True

    def conquers_in_decline(self):
        return True


class Giants(Race):
    name, title, tokens, box = "giants", "Giants", 6, 11

    def conquest_discount(self, game, tribe, region):
        held = game.regions_of(tribe.name)
        return 1 if any(game.board[h].mountain and h in region.adjacent for h in held) else 0


class Halflings(Race):
    name, title, tokens, box = "halflings", "Halflings", 6, 11
    markers_removed_on_decline = (pieces.HOLE,)

    def enters_anywhere(self):
        return True

    def after_conquest(self, game, tribe, region_id):
        # "Place a Hole-in-the-Ground in each of the first 2 Regions you conquer"
        if tribe.holes_placed < 2 and game.supply(pieces.HOLE) > 0:
            game.place_marker(region_id, pieces.HOLE)
            tribe.holes_placed += 1


class Humans(Race):
    name, title, tokens, box = "humans", "Humans", 5, 10

    def coins(self, game, tribe):
        return [("Farmland regions (Humans)", count_regions(game, tribe, lambda r: r.terrain == "farmland"))]


class Orcs(Race):
    name, title, tokens, box = "orcs", "Orcs", 5, 10

    def coins(self, game, tribe):
        return [("non-empty regions conquered (Orcs)", tribe.conquered_nonempty)]


class Ratmen(Race):
    name, title, tokens, box = "ratmen", "Ratmen", 8, 13


class Skeletons(Race):
    name, title, tokens, box = "skeletons", "Skeletons", 6, 20

    def redeployment_bonus_tokens(self, game, tribe):
        return tribe.conquered_nonempty // 2


class Sorcerers(Race):
    name, title, tokens, box = "sorcerers", "Sorcerers", 5, 18
    actions = (Convert,)

    def explain_action(self, game, tribe, action):
        problem = game.conquering_problem(tribe)
        if problem:
            return problem
        rid = action.region
        if rid not in game.board:
            return Reason("unknown-region", f"There is no region {rid} on this map.")
        held = set(game.regions_of(tribe.name))
        if not held or not any(h in game.board[rid].adjacent for h in held):
            return Reason("not-adjacent", f"Region {rid} is not adjacent to any "
                          "region your Sorcerers hold.")
        problem = game.target_problem(tribe, rid, held)
        if problem:
            return problem
        target = game.owner_tribe(rid)
        if target is None or target.in_decline:
            return Reason("not-active-opponent", "The Sorcerers can only replace an opponent's active token.")
        region = game.regions[rid]
        if region.tokens != 1 or region.marker(pieces.ENCAMPMENT):
            return Reason("not-alone", f"The {target.race.title} token in {game.board[rid].describe()} is not "
                          "alone (an Encampment protects it); the Sorcerers can only replace a lone token.")
        if target.owner in game.turn.converted:
            return Reason("once-per-opponent", f"Your Sorcerers already replaced a token of "
                          f"{game.players[target.owner].name} this turn (once per turn per opponent).")
        if game.tray(tribe.name) < 1:
            return Reason("tray-empty", "There are no Sorcerer tokens left in the storage tray.")
        if game.hand_after_ready(tribe) < 1:
            return Reason("no-tokens", "You must have at least one Sorcerer token in hand to conquer.")
        return None

    def apply_action(self, game, tribe, action):
        target = game.owner_tribe(action.region)
        game.turn.converted.add(target.owner)
        game.take_region(tribe, action.region, tokens=0, from_tray=1, defender_loses_all=True)

    def legal_own_actions(self, game, tribe):
        held = set(game.regions_of(tribe.name))
        near = set().union(*(game.board[h].adjacent for h in held)) if held else set()
        return [Convert(rid) for rid in sorted(near - held) if game.regions[rid].tokens == 1]


class Tritons(Race):
    name, title, tokens, box = "tritons", "Tritons", 6, 11

    def conquest_discount(self, game, tribe, region):
        return 1 if region.coastal else 0


class Trolls(Race):
    name, title, tokens, box = "trolls", "Trolls", 5, 10

    def after_conquest(self, game, tribe, region_id):
        # "Place a Troll's Lair in each Region your Trolls occupy"
        if not game.regions[region_id].marker(pieces.TROLL_LAIR) and game.supply(pieces.TROLL_LAIR) > 0:
            game.place_marker(region_id, pieces.TROLL_LAIR)


class Wizards(Race):
    name, title, tokens, box = "wizards", "Wizards", 5, 10

    def coins(self, game, tribe):
        return [("Magic Source regions (Wizards)", count_regions(game, tribe, lambda r: r.magic))]


RACES: tuple[type[Race], ...] = (Amazons, Dwarves, Elves, Ghouls, Giants, Halflings, Humans, Orcs, Ratmen,
                                 Skeletons, Sorcerers, Tritons, Trolls, Wizards)
