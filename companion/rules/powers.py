"""The 20 special power badges of Small World (Appendix II of the rulebook), each on the neutral hooks."""
from __future__ import annotations

from itertools import combinations

from . import pieces
from .actions import Ally, DragonConquer, Encamp, Fortify, Heroes
from .errors import Reason
from .traits import Power, count_regions


class TerrainBonus(Power):
    """One bonus coin per region of a terrain the tribe occupies (Forest, Hill, Swamp)."""

    terrain = ""

    def coins(self, game, tribe):
        return [(f"{self.terrain.capitalize()} regions ({self.title})",
                 count_regions(game, tribe, lambda r: r.terrain == self.terrain))]


class Alchemist(Power):
    name, title, tokens = "alchemist", "Alchemist", 4
    text = (  # the rulebook's words (Appendix II)
        "Collect 2 bonus Victory coins at the end of each turn your race hasn't yet gone into Decline."
    )

    def coins(self, game, tribe):
        return [("Alchemist", 2)]


class Berserk(Power):
    name, title, tokens = "berserk", "Berserk", 4
    text = (  # the rulebook's words (Appendix II)
        "You may use the Reinforcement die before each of your conquests, rather than just the last one of your "
        "turn. Roll the die first; select the Region you wish to conquer; then place the required number of Race "
        "tokens (minus the die results) there. If you do not have enough tokens left, this is your final conquest "
        "attempt for the turn. As usual, a minimum of 1 token is still required to attempt the conquest."
    )

    def rolls_before_conquest(self):
        return True


class Bivouacking(Power):
    name, title, tokens = "bivouacking", "Bivouacking", 5
    text = (  # the rulebook's words (Appendix II)
        "Deploy the 5 Encampment tokens in any of your Region(s), during your Troop Redeployment phase. Each "
        "Encampment counts as 1 Race token toward the defense of the Region in which it is placed (thereby "
        "protecting a single Race token with an Encampment from the Sorcerer's Racial Power). Multiple Encampments "
        "may be placed in the same Region to obtain a higher defense bonus. Each turn you may break camp and settle "
        "in any new Region you occupy. Encampments are never lost during an attack on the Region they are in: they "
        "are redeployed at the end of the current player's turn. When the Race they were associated with goes into "
        "Decline, they disappear."
    )
    markers_placed = (pieces.ENCAMPMENT,)
    actions = (Encamp,)
    markers_removed_on_decline = (pieces.ENCAMPMENT,)

    def explain_action(self, game, tribe, action):
        problem = game.placement_problem(tribe, "Encampments are deployed")
        if problem:
            return problem
        return self.placement_problem(game, tribe, action.encampments, game.regions_of(tribe.name))

    @staticmethod
    def placement_problem(game, tribe, placement, held):
        total = sum(n for _, n in placement)
        if total > pieces.MARKERS_IN_BOX[pieces.ENCAMPMENT]:
            return Reason("too-many-encampments", f"There are only 5 Encampments; you placed {total}.")
        for rid, _ in placement:
            if rid not in held:
                return Reason("not-yours", f"You can only place Encampments in your own regions; "
                              f"region {rid} is not one of them.")
        return None

    def apply_action(self, game, tribe, action):
        self.place(game, tribe, action.encampments)
        game.turn.encamped = True

    @staticmethod
    def place(game, tribe, placement):
        for rid in game.board.ids:
            n = game.regions[rid].marker(pieces.ENCAMPMENT)
            if n and game.regions[rid].race == tribe.name:
                game.remove_marker(rid, pieces.ENCAMPMENT, n)
        for rid, n in placement:
            game.place_marker(rid, pieces.ENCAMPMENT, n)

    def legal_own_actions(self, game, tribe):
        held = game.regions_of(tribe.name)
        return [Encamp(((rid, 5),)) for rid in held]

    def resettles_markers(self, game, tribe):
        return game.encampments_lost


class Commando(Power):
    name, title, tokens = "commando", "Commando", 4
    text = (  # the rulebook's words (Appendix II)
        "You may conquer any Region with 1 less Race token than normal. A minimum of 1 token is still required."
    )

    def conquest_discount(self, game, tribe, region):
        return 1


class Diplomat(Power):
    name, title, tokens = "diplomat", "Diplomat", 5
    text = (  # the rulebook's words (Appendix II)
        "At the end of your turn, you may select one opponent whose Active race you did not attack this turn as "
        "your ally. You are now at peace with him and he cannot attack your active race until your next turn. You "
        "may change allies each turn, or stay at peace with the same opponent. Tokens In Decline are not impacted "
        "(so Ghouls In Decline are immune to this power and may still attack you)."
    )
    actions = (Ally,)

    def explain_action(self, game, tribe, action):
        problem = game.placement_problem(tribe, "An ally is chosen")
        if problem:
            return problem
        if game.turn.ally_chosen:
            return Reason("once-per-turn", "You already chose an ally this turn.")
        if not 0 <= action.player < len(game.players) or action.player == tribe.owner:
            return Reason("not-opponent", f"Seat {action.player} is not one of your opponents.")
        if action.player in game.turn.attacked:
            return Reason("attacked-this-turn", f"You attacked {game.players[action.player].name}'s active race "
                          "this turn, so they cannot be your ally.")
        return None

    def apply_action(self, game, tribe, action):
        game.allies[tribe.owner] = action.player
        game.turn.ally_chosen = True

    def legal_own_actions(self, game, tribe):
        return [Ally(p) for p in range(len(game.players)) if p != tribe.owner]


class DragonMaster(Power):
    name, title, tokens = "dragon-master", "Dragon Master", 5
    text = (  # the rulebook's words (Appendix II)
        "Once per turn, you may conquer a Region using a single Race token, regardless of the number of enemy "
        "tokens defending it. Once conquered, place your Dragon there. The Region is now immune to enemy conquests "
        "as well as to their racial and special powers until your Dragon moves. During each new turn, you may move "
        "your Dragon to a different Region you wish to conquer. Your Dragon disappears when you go into Decline; "
        "remove it from the board and place it back in the storage tray at that time."
    )
    actions = (DragonConquer,)
    markers_removed_on_decline = (pieces.DRAGON,)

    def explain_action(self, game, tribe, action):
        problem = game.conquering_problem(tribe)
        if problem:
            return problem
        if game.turn.dragon_used:
            return Reason("once-per-turn", "The Dragon already conquered this turn (once per turn).")
        problem = game.target_problem(tribe, action.region)
        if problem:
            return problem
        if game.hand_after_ready(tribe) < 1:
            return Reason("no-tokens", "You must have at least one token in hand to conquer with the Dragon.")
        return None

    def apply_action(self, game, tribe, action):
        for rid in game.board.ids:
            if game.regions[rid].marker(pieces.DRAGON):
                game.remove_marker(rid, pieces.DRAGON)
        game.turn.dragon_used = True
        game.take_region(tribe, action.region, tokens=1)
        game.place_marker(action.region, pieces.DRAGON)

    def legal_own_actions(self, game, tribe):
        if game.turn.dragon_used:
            return []
        return [DragonConquer(rid) for rid in game.in_reach(tribe)]


class Flying(Power):
    name, title, tokens = "flying", "Flying", 5
    text = (  # the rulebook's words (Appendix II)
        "You may conquer any Region of the map except Seas and Lakes. These Regions do not need to be adjacent or "
        "contiguous to ones you already occupy."
    )

    def enters_anywhere(self):
        return True  # "immune to the First Conquest rule"

    def ignores_adjacency(self):
        return True


class Forest(TerrainBonus):
    name, title, tokens, terrain = "forest", "Forest", 4, "forest"
    text = (  # the rulebook's words (Appendix II)
        "Collect 1 bonus Victory coin for each Forest Region you occupy at turn's end."
    )


class Fortified(Power):
    name, title, tokens = "fortified", "Fortified", 3
    text = (  # the rulebook's words (Appendix II)
        "Once per turn, as long as your Fortified Race is active, you may place 1 Fortress in a Region you occupy. "
        "The Fortress is worth 1 bonus Victory coin at turn's end, unless you are In Decline. The Fortress also "
        "augments your Region's defense by 1 (just as if you had an additional Race token stationed there), even if "
        "you are In Decline. Remove the Fortress if you abandon the Region or when an enemy conquers it. There can "
        "only ever be a maximum of 1 Fortress per Region, and a maximum of 6 Fortresses on the map."
    )
    markers_placed = (pieces.FORTRESS,)
    actions = (Fortify,)

    def explain_action(self, game, tribe, action):
        if tribe.in_decline or game.turn.declined or game.phase not in ("conquest", "redeployment") \
                or game.players[game.turn.player].active != tribe.name:
            return Reason("wrong-phase", "A Fortress is placed during your own turn, while your race is active.")
        problem = game.decline_redeploy_problem(tribe)
        if problem:
            return problem
        if game.turn.fortified:
            return Reason("once-per-turn", "You already placed a Fortress this turn (once per turn).")
        rid = action.region
        if rid not in game.board or game.regions[rid].race != tribe.name:
            return Reason("not-yours", f"Region {rid} is not one of your regions.")
        if game.regions[rid].marker(pieces.FORTRESS):
            return Reason("fortress-here", f"Region {rid} already has a Fortress (one per region).")
        if game.supply(pieces.FORTRESS) < 1:
            return Reason("fortress-limit", "All 6 Fortresses are already on the map.")
        return None

    def apply_action(self, game, tribe, action):
        game.place_marker(action.region, pieces.FORTRESS)
        game.turn.fortified = True
        game.turn.expanded = True  # a turn of conquests: no decline after placing a Fortress

    def coins(self, game, tribe):
        forts = sum(1 for rid in game.regions_of(tribe.name) if game.regions[rid].marker(pieces.FORTRESS))
        return [("Fortresses (Fortified)", forts)]

    def legal_own_actions(self, game, tribe):
        return [Fortify(rid) for rid in game.regions_of(tribe.name)]


class Heroic(Power):
    name, title, tokens = "heroic", "Heroic", 5
    text = (  # the rulebook's words (Appendix II)
        "At the end of your turn, place each of your 2 Heroes in 2 different Regions you occupy. These 2 Regions "
        "are immune to enemy conquests as well as to their racial and special powers until your Heroes move. Your "
        "Heroes disappear when you go into Decline."
    )
    markers_placed = (pieces.HERO,)
    actions = (Heroes,)
    markers_removed_on_decline = (pieces.HERO,)

    def explain_action(self, game, tribe, action):
        problem = game.placement_problem(tribe, "Heroes are placed")
        if problem:
            return problem
        held = game.regions_of(tribe.name)
        want = min(2, len(held))
        if len(action.regions) != want or len(set(action.regions)) != len(action.regions):
            return Reason("hero-count", f"Place your 2 Heroes in {want} different regions you occupy.")
        for rid in action.regions:
            if rid not in held:
                return Reason("not-yours", f"Region {rid} is not one of your regions.")
        return None

    def apply_action(self, game, tribe, action):
        for rid in game.board.ids:
            if game.regions[rid].marker(pieces.HERO):
                game.remove_marker(rid, pieces.HERO, game.regions[rid].marker(pieces.HERO))
        for rid in action.regions:
            game.place_marker(rid, pieces.HERO)
        game.turn.heroes_placed = True

    def legal_own_actions(self, game, tribe):
        held = game.regions_of(tribe.name)
        if len(held) < 2:
            return [Heroes(tuple(held))] if held else []
        return [Heroes(pair) for pair in combinations(held, 2)]


class Hill(TerrainBonus):
    name, title, tokens, terrain = "hill", "Hill", 4, "hill"
    text = (  # the rulebook's words (Appendix II)
        "Collect 1 bonus Victory coin for each Hill Region you occupy at turn's end."
    )


class Merchant(Power):
    name, title, tokens = "merchant", "Merchant", 2
    text = (  # the rulebook's words (Appendix II)
        "Collect 1 bonus Victory coin for any Region you occupy at turn's end."
    )

    def coins(self, game, tribe):
        return [("regions (Merchant)", len(game.regions_of(tribe.name)))]


class Mounted(Power):
    name, title, tokens = "mounted", "Mounted", 5
    text = (  # the rulebook's words (Appendix II)
        "You may conquer any Hill or Farmland Region with 1 less Race token than normal. A minimum of 1 token is "
        "still required."
    )

    def conquest_discount(self, game, tribe, region):
        return 1 if region.terrain in ("hill", "farmland") else 0


class Pillaging(Power):
    name, title, tokens = "pillaging", "Pillaging", 5
    text = (  # the rulebook's words (Appendix II)
        "Each non-empty Region you conquer this turn is worth 1 bonus Victory coin at turn's end."
    )

    def coins(self, game, tribe):
        return [("non-empty regions conquered (Pillaging)", tribe.conquered_nonempty)]


class Seafaring(Power):
    name, title, tokens = "seafaring", "Seafaring", 5
    text = (  # the rulebook's words (Appendix II)
        "As long as your Seafaring race is active, you may conquer the Seas and the Lake, considering them as 3 "
        "empty Regions. You keep these Regions even once you go into Decline, and continue scoring for them for as "
        "long as you have tokens there. Only Seafaring races may occupy the Seas and the Lake."
    )

    def conquers_water(self):
        return True


class Spirit(Power):
    name, title, tokens = "spirit", "Spirit", 5
    text = (  # the rulebook's words (Appendix II)
        "When the Race tokens associated with your Spirit Special Power go into Decline, they never count toward "
        "the limit stated in Entering In Decline (p. 6) regarding having a single In Decline race on the map at any "
        "given time. You may thus end up with two different races In Decline on the map at the same time and score "
        "for them both. If a third race you control goes into Decline, your Spirits remain on the board, although "
        "the other race already In Decline disappears, as normal. In other words, your In Decline Spirits never "
        "leave the map (except when taking losses from opponents' conquests), though other races sent In Decline "
        "may go away when a new race goes into decline."
    )

    def counts_toward_decline_limit(self):
        return False

    def keeps_badge_in_decline(self):
        return True


class Stout(Power):
    name, title, tokens = "stout", "Stout", 4
    text = (  # the rulebook's words (Appendix II)
        "You may go In Decline at the end of a regular turn of conquests, after scoring, instead of spending an "
        "entire turn going into Decline."
    )

    def declines_after_scoring(self):
        return True


class Swamp(TerrainBonus):
    name, title, tokens, terrain = "swamp", "Swamp", 4, "swamp"
    text = (  # the rulebook's words (Appendix II)
        "Collect 1 bonus Victory coin for each Swamp Region you occupy at turn's end."
    )


class Underworld(Power):
    name, title, tokens = "underworld", "Underworld", 5
    text = (  # the rulebook's words (Appendix II)
        "You may conquer any Region with a Cavern with 1 less Race token than normal. A minimum of 1 token is still "
        "required. All Regions with a Cavern are also considered adjacent to each other for your conquest purposes."
    )

    def conquest_discount(self, game, tribe, region):
        return 1 if region.cavern else 0

    def also_adjacent(self, game, tribe, region, held):
        # "All Regions with a Cavern are also considered adjacent to each other"
        return region.cavern and any(game.board[h].cavern for h in held)


class Wealthy(Power):
    name, title, tokens = "wealthy", "Wealthy", 4
    text = (  # the rulebook's words (Appendix II)
        "Collect 7 bonus Victory coins, once only, at the end of your first turn."
    )

    def coins(self, game, tribe):
        return [("Wealthy, once", 7)] if tribe.turns_active == 0 else []


POWERS: tuple[type[Power], ...] = (
    Alchemist, Berserk, Bivouacking, Commando, Diplomat, DragonMaster, Flying, Forest, Fortified, Heroic,
    Hill, Merchant, Mounted, Pillaging, Seafaring, Spirit, Stout, Swamp, Underworld, Wealthy)
