"""The 16 race banners of Small World of Warcraft (Appendix II), each on the neutral hooks.

Banner values are not printed in the rulebook: they are read off the banners (``values``). ``box``
is the tokens in the box; ``faction`` the usual side, which a table may correct (header options).
"""
from __future__ import annotations

from ..errors import Reason
from ..traits import count_regions
from . import pieces
from .actions import Airborne, Form, Objectives, PlaceBombs
from .fees import POWER
from .traits import WarcraftRace


class BloodElves(WarcraftRace):
    name, title, box, faction = "blood-elves", "Blood Elves", 10, "horde"
    text = (  # the rulebook's words (Appendix II)
        "Blood Elves are thirsty for magic. They collect 1 bonus Victory Coin for each Magic Region they occupy at "
        "turn's end."
    )

    def coins(self, game, tribe):
        return [("Magic regions (Blood Elves)", count_regions(game, tribe, lambda r: r.magic))]


class Draenei(WarcraftRace):
    name, title, box, faction = "draenei", "Draenei", 12, "alliance"
    text = (  # the rulebook's words (Appendix II)
        "During each opponent's turns, the Draenei may call the Holy Light: the first Race token they should "
        "discard (due to conquests or any type of power) stays with the player to be redeployed normally. All "
        "following casualties are discarded as usual."
    )

    def holy_light(self):
        return True


class Dwarves(WarcraftRace):
    name, title, box, faction = "dwarves", "Dwarves", 10, "alliance"
    text = (  # the rulebook's words (Appendix II)
        "Dwarves may conquer Mountain Regions at a cost of 2 tokens less than normal (a minimum of 1 token is still "
        "required)."
    )

    def conquest_discount(self, game, tribe, region):
        return 2 if region.mountain else 0


class Ethereals(WarcraftRace):
    name, title, box, faction = "ethereals", "Ethereals", 10, "neutral"
    text = (  # the rulebook's words (Appendix II)
        "Ethereals are Artifact collectors. Once per turn, they can steal an Artifact from a Region adjacent to one "
        "they occupy by moving this Artifact token into this adjacent Region (and they may use the Artifact power "
        "immediately) OR they may conquer any adjacent Region that contains a Legendary Place at a cost of 2 tokens "
        "less than normal (a minimum of 1 token is still required)."
    )

    def steals(self):
        return True

    def conquest_discount(self, game, tribe, region):
        # "OR they may conquer any adjacent Region that contains a Legendary Place at a cost of 2 tokens less"
        if game.wc.turn.used.get("ethereal") or not game.place_in(region.id):
            return 0
        return 2 if set(game.regions_of(tribe.name)) & region.adjacent else 0

    def after_conquest(self, game, tribe, region_id):
        if game.place_in(region_id) and not game.wc.turn.used.get("ethereal"):
            game.wc.turn.used["ethereal"] = 1  # the once-a-turn choice is spent on the Place


class Forsaken(WarcraftRace):
    name, title, box, faction = "forsaken", "Forsaken", 20, "horde"
    text = (  # the rulebook's words (Appendix II)
        "The Forsaken may enlist the dead bodies of their enemies. Each time they force the loss of a Race token "
        "(either Active or In Decline), they may spend 1 Victory Coin to get an additional Forsaken Race token. "
        "Additional tokens are received after the last conquest of the turn, before the redeployment step (i.e. "
        "they cannot be used for conquests until next turn)."
    )

    def enlists(self):
        return True

    def redeployment_bonus_tokens(self, game, tribe):
        return game.wc.turn.enlisted


class Gnomes(WarcraftRace):
    name, title, box, faction = "gnomes", "Gnomes", 10, "alliance"
    text = (  # the rulebook's words (Appendix II)
        "Thanks to their Flying Machines, Gnomes can launch, once per turn, an airborne assault on any Region of "
        "any board. They may treat this Region as though it were adjacent. In addition, after the region is "
        "selected, they roll a free reinforcement die before the assault in order to potentially reduce the cost. "
        "If this airborne assault is their last possible conquest, they may benefit from the reinforcement die roll "
        "twice: once for the Gnome ability and once for the normal final conquest attempt."
    )
    actions = (Airborne,)

    def also_adjacent(self, game, tribe, region, held):
        return game.wc.turn.airborne_region == region.id

    def conquest_discount(self, game, tribe, region):
        if game.wc.turn.airborne_region == region.id:
            return game.wc.turn.airborne_die or 0
        return 0

    def explain_action(self, game, tribe, action):
        if game.wc.turn.used.get("airborne"):
            return Reason("once-per-turn", "The Gnomes launch one airborne assault a turn.")
        problem = game.conquering_problem(tribe)
        if problem:
            return problem
        if action.region not in game.board:
            return Reason("unknown-region", f"There is no region {action.region} on this map.")
        return game.target_problem(tribe, action.region, airborne=True)

    def apply_action(self, game, tribe, action):
        game.wc.turn.used["airborne"] = 1
        game.wc.turn.airborne_region = action.region
        game.wc.pending.append(["airborne-die", action.region])

    def legal_own_actions(self, game, tribe):
        if game.phase != "conquest" or game.wc.turn.used.get("airborne"):
            return []
        held = set(game.regions_of(tribe.name))
        return [Airborne(rid) for rid in game.board.ids if rid not in held]


class Goblins(WarcraftRace):
    name, title, box, faction = "goblins", "Goblins", 11, "horde"
    text = (  # the rulebook's words (Appendix II)
        "At the end of their turn, Goblins may place Bombs in adjacent Regions that are occupied by opponents' "
        "Active Races. When you first pick the Goblins Race, shuffle the 12 Bomb tokens and place the stack "
        "facedown next to you. If you place bombs in adjacent opponents' Regions, pick the tokens from the top of "
        "the stack and place them facedown (never more than one Bomb token per Region) without looking at them. At "
        "the beginning of your next turn, if the Region with a Bomb token is still occupied by an opponent (and "
        "even if the Race has gone In Decline in the meantime), reveal the Bomb token: an explosion is treated as a "
        "successful conquest (the opponent loses 1 Race token, retrieves all others for redeployment as usual) "
        "except the Region is now empty. A miss has no effect. In either case, the Bomb token is discarded to the "
        "box. If the Region is emptied before your next turn, put the Bomb token back on top of the stack without "
        "looking at it. When the Goblins go In Decline, the Bomb tokens that were placed at the end of their "
        "previous turn are revealed and their effect is applied normally. If the Bomb tokens stack is depleted, "
        "Goblins can no longer place Bombs on the boards."
    )
    actions = (PlaceBombs,)

    def explain_action(self, game, tribe, action):
        problem = game.placement_problem(tribe, "Bombs are placed")
        if problem:
            return problem
        if game.wc.turn.used.get("bombs"):
            return Reason("once-per-turn", "Bombs are placed once, at the end of your turn.")
        if len(action.regions) > game.wc.bomb_stack:
            return Reason("no-bombs-left", f"Only {game.wc.bomb_stack} Bomb tokens are left in the stack.")
        if len(set(action.regions)) != len(action.regions):
            return Reason("one-bomb-per-region", "Never more than one Bomb token per region.")
        held = set(game.regions_of(tribe.name))
        for rid in action.regions:
            owner = game.owner_tribe(rid) if rid in game.board else None
            if rid not in game.board or not held & game.board[rid].adjacent or owner is None or \
                    not owner.active or owner.owner == tribe.owner:
                return Reason("bomb-target", f"Bombs go on regions adjacent to yours held by an opponent's "
                              f"active race; region {rid} is not one.")
            if game.regions[rid].marker(pieces.BOMB):
                return Reason("one-bomb-per-region", f"Region {rid} already holds a Bomb.")
        # a Watch Tower: "immune to all powers"; the Aegis: "... unless the opponent pays the owner 2"
        return game.immunity_problem(tribe, tuple(action.regions), POWER) if action.regions else None

    def apply_action(self, game, tribe, action):
        game.wc.turn.used["bombs"] = 1
        for rid in action.regions:
            game.pay_fees(tribe.owner, rid, POWER)
            game.regions[rid].add_marker(pieces.BOMB)
            game.wc.bombs[rid] = tribe.owner  # revealed at the start of this player's next turn
            game.wc.bomb_stack -= 1

    def legal_own_actions(self, game, tribe):
        if game.phase != "redeployment":
            return []
        held = set(game.regions_of(tribe.name))
        targets = [r for r in game.board.ids if held & game.board[r].adjacent and game.owner_tribe(r)
                   and game.owner_tribe(r).active and game.owner_tribe(r).owner != tribe.owner
                   and not game.regions[r].marker(pieces.BOMB) and not game.regions[r].marker(pieces.WATCH_TOWER)]
        # a placement (a set of regions): each region alone, and all of them (see Game.legal_actions)
        out = [PlaceBombs((r,)) for r in targets]
        if len(targets) > 1:
            out.append(PlaceBombs(tuple(targets[:game.wc.bomb_stack])))
        return out


class Humans(WarcraftRace):
    name, title, box, faction = "humans", "Humans", 10, "alliance"
    text = (  # the rulebook's words (Appendix II)
        "Humans can designate strategic regions for non-Horde players. At the end of each of their turns, they "
        "place their 2 Military Objective tokens (retrieved, if necessary) in up to 2 different non-Alliance "
        "regions. If any non-Horde player (including the Humans, themselves) successfully conquers a region with a "
        "Military Objective token, they earn 2 bonus Victory Coins and gives the token back to the Human player, "
        "who also earns 2 bonus Victory Coins if they weren't the one who conquered the region. If any Horde player "
        "conquers a Region with a Military Objective, nothing happens and the token stays in the Region."
    )
    actions = (Objectives,)
    markers_removed_on_decline = (pieces.MILITARY_OBJECTIVE,)

    def explain_action(self, game, tribe, action):
        problem = game.placement_problem(tribe, "Military Objectives are placed")
        if problem:
            return problem
        if not 1 <= len(action.regions) <= 2 or len(set(action.regions)) != len(action.regions):
            return Reason("objectives", "Place the 2 Military Objectives in up to 2 different regions.")
        for rid in action.regions:  # "in up to 2 different non-Alliance regions": a Sea or a Lake is a Region
            if rid not in game.board:
                return Reason("objectives", f"There is no region {rid} on this map.")
            if game.faction_of_region(rid) == "alliance":
                return Reason("alliance-region", f"Military Objectives go in non-Alliance regions; region {rid} "
                              "is held by an Alliance race.")
        return None

    def apply_action(self, game, tribe, action):
        for rid in game.board.ids:  # "retrieved, if necessary"
            n = game.regions[rid].marker(pieces.MILITARY_OBJECTIVE)
            if n:
                game.remove_marker(rid, pieces.MILITARY_OBJECTIVE, n)
        for rid in action.regions:
            game.place_marker(rid, pieces.MILITARY_OBJECTIVE)
        game.wc.objectives_owner = tribe.owner

    def legal_own_actions(self, game, tribe):
        if game.phase != "redeployment":
            return []
        spots = [rid for rid in game.board.ids if game.faction_of_region(rid) != "alliance"]
        # a placement (up to 2 regions): every spot alone, and every pair
        return [Objectives((a,)) for a in spots] + \
            [Objectives((a, b)) for i, a in enumerate(spots) for b in spots[i + 1:]]


class Kobolds(WarcraftRace):
    name, title, box, faction = "kobolds", "Kobolds", 11, "neutral"
    text = (  # the rulebook's words (Appendix II)
        "Inhabitants of the underground, Kobolds can pop up in any cave; they may attack any Cavern Region as "
        "though it were adjacent. For their first conquest, Kobolds can use a Cavern Region as an Entry Region and "
        "if they do, they do not pay the extra +1 Race token travel cost."
    )

    def also_adjacent(self, game, tribe, region, held):
        return region.cavern

    def entry_ok(self, game, tribe, region):
        return region.cavern

    def travel_cost_for_entry(self, game, tribe, region):
        return not region.cavern


class Naga(WarcraftRace):
    name, title, box, faction = "naga", "Naga", 11, "neutral"
    text = (  # the rulebook's words (Appendix II)
        "The Naga are used to living under the ocean so, unlike other Races, they may conquer Sea and Lake Regions. "
        "Their first conquest may even be a Sea or a Lake (requiring 2 Race tokens) and then they expand from "
        "there. Naga remain in Seas and Lakes while In Decline."
    )

    def conquers_water(self):
        return True

    def entry_ok(self, game, tribe, region):
        return region.water  # "Their first conquest may even be a Sea or a Lake (requiring 2 Race tokens)"

    def travel_cost_for_entry(self, game, tribe, region):
        return not region.water


class NightElves(WarcraftRace):
    name, title, box, faction = "night-elves", "Night Elves", 9, "alliance"
    text = (  # the rulebook's words (Appendix II)
        "Night Elves may conquer Forest Regions at a cost of 1 token less than normal (a minimum of 1 token is "
        "still required). Each time the Night Elves conquer a Forest, they place a Wisp Wall token on it. A Wisp "
        "Wall counts as 1 token for defense and remains In Decline but is removed when the Region is conquered or "
        "emptied."
    )

    def conquest_discount(self, game, tribe, region):
        return 1 if region.terrain == "forest" else 0

    def after_conquest(self, game, tribe, region_id):
        if game.board[region_id].terrain == "forest" and game.supply(pieces.WISP_WALL) > 0:
            game.place_marker(region_id, pieces.WISP_WALL)


class Orcs(WarcraftRace):
    name, title, box, faction = "orcs", "Orcs", 11, "horde"
    text = (  # the rulebook's words (Appendix II)
        "Orcs are natural-born conquerors. Each conquest of an Alliance-occupied Region is worth 1 bonus Victory "
        "Coin. This power is cumulative with the usual Faction Bonus."
    )

    def conquest_coins(self, game, tribe, region, defenders, defender):
        if defender is not None and game.faction_of(defender.name) == "alliance":
            return [("Alliance regions conquered (Orcs)", 1)]
        return []


class Pandaren(WarcraftRace):
    name, title, box, faction = "pandaren", "Pandaren", 10, "neutral"
    text = (  # the rulebook's words (Appendix II)
        "At the end of every turn, Pandaren give a Harmony token to each opponent whose Active Race they did not "
        "attack this turn (including the first turn of the game, to players who do not own any Race yet). A player "
        "with a Harmony token must pay 2 Victory Coins to the Pandaren before attacking them (attempting to conquer "
        "their regions or forcing the removal of a Race token from their territory by any means). These 2 Victory "
        "Coins are only paid once, even if the opponent attacks several Pandaren Regions. Each Harmony token is "
        "retrieved by Pandaren at the beginning of each of their turns."
    )

    # "Each Harmony token is retrieved by Pandaren at the beginning of each of their turns." (the game
    # takes them back at the start of the owner's turn, in decline too)

    def turn_end(self, game, tribe):
        for seat in range(len(game.players)):
            if seat != tribe.owner and seat not in game.turn.attacked and seat not in game.wc.harmony \
                    and len(game.wc.harmony) < pieces.HARMONY_TOKENS:
                game.wc.harmony[seat] = tribe.name


class Tauren(WarcraftRace):
    name, title, box, faction = "tauren", "Tauren", 16, "horde"
    text = (  # the rulebook's words (Appendix II)
        "These large, resilient warriors may never occupy (nor conquer) a Region with less than 2 Race tokens. "
        "However, they still lose one token when conquered. Under no circumstances should a Tauren token be left "
        "alone, even during the \"Ready your troops\" phase. If a Race token would be left alone for any reason, the "
        "player controlling The Tauren must redeploy it to a Region they already control. When going In Decline, "
        "they leave 2 Race tokens in each Region, instead of 1."
    )

    def min_tokens_per_region(self):
        return 2


class Trolls(WarcraftRace):
    name, title, box, faction = "trolls", "Trolls", 11, "horde"
    text = (  # the rulebook's words (Appendix II)
        "Known to be cunning warriors, Trolls may conquer any non-empty Region at a cost of 1 token less than "
        "normal (a minimum of 1 token is still required)."
    )

    def conquest_discount(self, game, tribe, region):
        return 1 if game.nonempty(region.id) else 0


class Worgen(WarcraftRace):
    name, title, box, faction = "worgen", "Worgen", 10, "alliance"
    text = (  # the rulebook's words (Appendix II)
        "At the beginning of each of their turns, Worgen must choose between their human form (they immediately get "
        "2 bonus Victory Coins) or Worgen form (they pay 1 Victory Coin and all conquests this turn are at a cost "
        "of 1 token less than normal, but a minimum of 1 token is still required)."
    )
    actions = (Form,)

    def needs_form(self):
        return True

    def conquest_discount(self, game, tribe, region):
        return 1 if game.wc.turn.form == "worgen" else 0

    def explain_action(self, game, tribe, action):
        if action.form not in ("human", "worgen"):
            return Reason("form", "The Worgen choose their human form or their Worgen form.")
        if game.wc.turn.form is not None:
            return Reason("form-chosen", "The Worgen already chose their form this turn.")
        if game.phase != "conquest" or tribe.readied:  # unreachable while form-first holds; kept as a guard
            return Reason("form-first", "The Worgen choose their form at the beginning of their turn.")
        if action.form == "worgen" and game.players[tribe.owner].coins < 1:
            return Reason("not-enough-coins", "The Worgen form costs 1 coin; you have none.")
        return None

    def apply_action(self, game, tribe, action):
        game.wc.turn.form = action.form
        if action.form == "human":
            game.gain(tribe.owner, 2, "human form (Worgen)")
        else:
            game.pay(tribe.owner, None, 1, "Worgen form")

    def legal_own_actions(self, game, tribe):
        return [Form("human"), Form("worgen")]


RACES = (BloodElves, Draenei, Dwarves, Ethereals, Forsaken, Gnomes, Goblins, Humans, Kobolds, Naga, NightElves,
         Orcs, Pandaren, Tauren, Trolls, Worgen)
