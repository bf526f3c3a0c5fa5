"""The 14 race banners of Small World (Appendix II of the rulebook), each on the neutral hooks."""
from __future__ import annotations

from . import pieces
from .actions import Convert
from .errors import Reason
from .traits import Race, count_regions


class Amazons(Race):
    name, title, tokens, box = "amazons", "Amazons", 6, 15
    text = (  # the rulebook's words (Appendix II)
        "Four of your Amazon tokens may only be used for conquest, not for defense, as indicated by the +4 on the "
        "banner itself. So you start your initial turn with 10 Amazon tokens (plus any additional ones that may be "
        "granted to you by the Special Power associated with the Amazons, depending on your combo). At the end of "
        "each of your Troop Redeployments (see Troop Redeployment, p. 5), remove four tokens from the map, making "
        "sure to leave at least one Amazon token in each of your Regions if possible, and only take these four "
        "tokens back in hand to redeploy on the map once you Ready your Troops (see Ready your Troops, p. 6) at the "
        "start of your next turn."
    )

    def extra_tokens(self):
        return 4  # "+4 usable only for conquest"

    def held_back_after_redeployment(self):
        return 4


class Dwarves(Race):
    name, title, tokens, box = "dwarves", "Dwarves", 3, 8
    text = (  # the rulebook's words (Appendix II)
        "Each Mine Region your Dwarves occupy is worth 1 bonus Victory coin, at the end of your turn. This power is "
        "kept even when the Dwarves are In Decline."
    )

    def coins(self, game, tribe):
        return [("Mine regions (Dwarves)", count_regions(game, tribe, lambda r: r.mine))]

    def coins_in_decline(self, game, tribe):
        return self.coins(game, tribe)  # "This power is kept even when the Dwarves are In Decline."


class Elves(Race):
    name, title, tokens, box = "elves", "Elves", 6, 11
    text = (  # the rulebook's words (Appendix II)
        "When the enemy conquers one of your Regions, keep all your Elf tokens in hand for redeployment at the end "
        "of the current player's turn, rather than discarding 1 Elf token back into the storage tray (see Enemy "
        "Losses & Withdrawals, p. 4)."
    )

    def losses_when_conquered(self):
        return 0


class Ghouls(Race):
    name, title, tokens, box = "ghouls", "Ghouls", 5, 10
    text = (  # the rulebook's words (Appendix II)
        "Your Ghoul tokens all stay on the map when going into Decline, instead of the usual 1 token per Region. In "
        "addition, unlike other Races, once In Decline, your Ghouls can continue to conquer new Regions in the "
        "following turns, playing exactly as if they were still Active tokens. However these conquests must be done "
        "at the start of your turn, before any conquest by your Active race. You may even attack your own currently "
        "Active race with your In Decline Ghouls, if you wish."
    )

    def keeps_all_tokens_in_decline(self):
        return True

    def conquers_in_decline(self):
        return True


class Giants(Race):
    name, title, tokens, box = "giants", "Giants", 6, 11
    text = (  # the rulebook's words (Appendix II)
        "Your Giants may conquer any Region adjacent to a Mountain Region they occupy at a cost of 1 less Giant "
        "token than normal. A minimum of 1 Giant token is still required."
    )

    def conquest_discount(self, game, tribe, region):
        held = game.regions_of(tribe.name)
        return 1 if any(game.board[h].mountain and h in region.adjacent for h in held) else 0


class Halflings(Race):
    name, title, tokens, box = "halflings", "Halflings", 6, 11
    text = (  # the rulebook's words (Appendix II)
        "Your Halfling tokens may enter the map through any Region of the map, not just border ones. Place a "
        "Hole-in-the-Ground in each of the first 2 Regions you conquer, to make them immune to enemy conquests as "
        "well as racial and special powers. You remove your Holes-in-the-Ground (and lose the protection they "
        "confer in these Regions) when your Halflings go into Decline, or if you choose to abandon a Region "
        "containing a Hole-in-the-Ground."
    )
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
    text = (  # the rulebook's words (Appendix II)
        "Each Farmland Region your Humans occupy is worth 1 bonus Victory coin, at the end of your turn."
    )

    def coins(self, game, tribe):
        return [("Farmland regions (Humans)", count_regions(game, tribe, lambda r: r.terrain == "farmland"))]


class Orcs(Race):
    name, title, tokens, box = "orcs", "Orcs", 5, 10
    text = (  # the rulebook's words (Appendix II)
        "Each not empty Region your Orcs conquered this turn is worth 1 bonus Victory coin, at the end of your "
        "turn."
    )

    def coins(self, game, tribe):
        return [("non-empty regions conquered (Orcs)", tribe.conquered_nonempty)]


class Ratmen(Race):
    name, title, tokens, box = "ratmen", "Ratmen", 8, 13
    text = (  # the rulebook's words (Appendix II)
        "No Race benefit; their sheer number of tokens is enough!"
    )


class Skeletons(Race):
    name, title, tokens, box = "skeletons", "Skeletons", 6, 20
    text = (  # the rulebook's words (Appendix II)
        "During your Troop Redeployment (p. 5), take 1 new Skeleton token from the storage tray for every 2 "
        "non-empty Regions you conquered this turn, and add it to the troops you redeploy at the end of your turn. "
        "If there are no more tokens in the storage tray, you do not receive any additional tokens."
    )

    def redeployment_bonus_tokens(self, game, tribe):
        return tribe.conquered_nonempty // 2


class Sorcerers(Race):
    name, title, tokens, box = "sorcerers", "Sorcerers", 5, 18
    text = (  # the rulebook's words (Appendix II)
        "Once per turn per opponent, your Sorcerers can conquer a Region by substituting one of your opponent's "
        "Active tokens with one of your own taken from the storage tray. If there are no more tokens in the storage "
        "tray, then you cannot conquer a new Region in this way. The token your Sorcerers replaces must be the only "
        "race token in its Region (A single Troll token with its Troll's Lair is considered alone for this purpose; "
        "likewise for a Race token in a Fortress or on a Mountain, these markers provide no protection to a lone "
        "Race token) and that Region must be adjacent to one of your Sorcerers'. Place the substituted opponent's "
        "Race token back into the storage tray. If an Elf is converted by a Sorcerer, the Elf does lose his token."
    )
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
    text = (  # the rulebook's words (Appendix II)
        "Your Tritons may conquer all Coastal Regions (those bordering a Sea or Lake) at a cost of 1 less Triton "
        "token than normal. A minimum of 1 Triton token is still required."
    )

    def conquest_discount(self, game, tribe, region):
        return 1 if region.coastal else 0


class Trolls(Race):
    name, title, tokens, box = "trolls", "Trolls", 5, 10
    text = (  # the rulebook's words (Appendix II)
        "Place a Troll's Lair in each Region your Trolls occupy. The Troll's Lair augments your region's defense by "
        "1 (just as if you had an additional Troll token stationed there), and stays in the Region even after your "
        "Trolls go into Decline. Remove the Troll's Lair if you abandon the Region or when an enemy conquers it."
    )

    def after_conquest(self, game, tribe, region_id):
        # "Place a Troll's Lair in each Region your Trolls occupy"
        if not game.regions[region_id].marker(pieces.TROLL_LAIR) and game.supply(pieces.TROLL_LAIR) > 0:
            game.place_marker(region_id, pieces.TROLL_LAIR)


class Wizards(Race):
    name, title, tokens, box = "wizards", "Wizards", 5, 10
    text = (  # the rulebook's words (Appendix II)
        "Each Magic Region your Wizards occupy is worth 1 bonus Victory coin, at the end of your turn."
    )

    def coins(self, game, tribe):
        return [("Magic Source regions (Wizards)", count_regions(game, tribe, lambda r: r.magic))]


RACES: tuple[type[Race], ...] = (Amazons, Dwarves, Elves, Ghouls, Giants, Halflings, Humans, Orcs, Ratmen,
                                 Skeletons, Sorcerers, Tritons, Trolls, Wizards)
