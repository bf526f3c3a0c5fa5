"""The 20 special power badges of Small World of Warcraft (Appendix II), each on the neutral hooks.

Badge values are not printed in the rulebook: they are read off the badges (``values``).
"""
from __future__ import annotations

from ..errors import Reason
from ..traits import count_regions
from . import pieces
from .actions import ChampionConquer, Herd, Intimidate, Portal
from .fees import ATTACK
from .traits import WarcraftPower


class TerrainBonus(WarcraftPower):
    """One bonus coin per region of a kind the tribe controls at turn's end."""

    what = ""

    def test(self, region) -> bool:
        return region.terrain == self.what

    def coins(self, game, tribe):
        label = "Fields" if self.what == "fields" else self.what.capitalize()
        return [(f"{label} regions ({self.title})", count_regions(game, tribe, self.test))]


class Archaeologist(WarcraftPower):
    name, title = "archaeologist", "Archaeologist"
    text = (  # the rulebook's words (Appendix II)
        "This scholar Race loves to study old things and strange sites: it gets 1 bonus Victory Coin for each "
        "Artifact and each Legendary Place it controls at turn's end."
    )

    def coins(self, game, tribe):
        # "1 bonus Victory Coin for each Artifact and each Legendary Place it controls": markers, not regions
        n = sum(len(game.revealed_in(rid)) for rid in game.regions_of(tribe.name))
        return [("Artifacts and Legendary Places (Archaeologist)", n)]


class BattleMaster(WarcraftPower):
    name, title = "battle-master", "Battle Master"
    text = (  # the rulebook's words (Appendix II)
        "The Race with this power lives for victory in battle. Each time it conquers a non-empty Region, it "
        "collects 1 bonus Victory Coin."
    )

    def conquest_coins(self, game, tribe, region, defenders, defender):
        return [("non-empty regions conquered (Battle Master)", 1)] if defenders else []


class BeastMaster(WarcraftPower):
    """Beasts join conquests like race tokens, each counting 1 for defence where it stands, are
    redeployed with ``herd``, and are all discarded and taken again at the start of the next turn."""

    name, title = "beast-master", "Beast Master"
    text = (  # the rulebook's words (Appendix II)
        "Being able to tame beasts can be very helpful in battle. At the beginning of each of its turns, the Beast "
        "Master Race first discards all its Beast tokens. After checking how many Hill Regions it controls, it "
        "takes a matching number of Beast tokens. For any purpose, these Beast tokens are treated like Race tokens, "
        "used for conquering and redeployed at the end of the turn. However, when a Region with at least one Beast "
        "token is conquered, one Beast Token is discarded as a loss while all other tokens are redeployed normally."
    )
    actions = (Herd,)
    markers_removed_on_decline = (pieces.BEAST,)

    def explain_action(self, game, tribe, action):
        problem = game.placement_problem(tribe, "Beasts are redeployed")
        if problem:
            return problem
        if game.wc.turn.used.get("herd"):
            return Reason("once-per-turn", "Beasts are redeployed once, with your troops.")
        held = game.regions_of(tribe.name)
        total = game.wc.beasts + sum(game.regions[r].marker(pieces.BEAST) for r in held)
        for rid, _ in action.beasts:
            if rid not in held:
                return Reason("not-yours", f"Region {rid} is not held by your {tribe.race.title}.")
        if sum(n for _, n in action.beasts) != total:
            return Reason("token-count", f"You have {total} Beasts to place, not {sum(n for _, n in action.beasts)}.")
        return None

    def apply_action(self, game, tribe, action):
        game.wc.turn.used["herd"] = 1
        for rid in game.regions_of(tribe.name):
            n = game.regions[rid].marker(pieces.BEAST)
            if n:
                game.remove_marker(rid, pieces.BEAST, n)
        for rid, n in action.beasts:
            game.place_marker(rid, pieces.BEAST, n)
        game.wc.beasts = 0

    def legal_own_actions(self, game, tribe):
        held = game.regions_of(tribe.name)
        if game.phase != "redeployment" or not held:
            return []
        total = game.wc.beasts + sum(game.regions[r].marker(pieces.BEAST) for r in held)
        return [Herd(((held[-1], total),))] if total else []

    def tames_beasts(self):
        return True

    def turn_start(self, game, tribe):
        for rid in game.board.ids:  # "first discards all its Beast tokens"
            n = game.regions[rid].marker(pieces.BEAST)
            if n:
                game.remove_marker(rid, pieces.BEAST, n)
        hills = count_regions(game, tribe, lambda r: r.terrain == "hill")
        game.wc.beasts = min(hills, game.supply(pieces.BEAST))


class Blacksmith(WarcraftPower):
    name, title = "blacksmith", "Blacksmith"
    text = (  # the rulebook's words (Appendix II)
        "A Race with this power can forge mighty weapons: it may conquer all the Regions at a cost of 1 token less "
        "than normal (a minimum of 1 token is still required)."
    )

    def conquest_discount(self, game, tribe, region):
        return 1


class Championing(WarcraftPower):
    name, title = "championing", "Championing"
    text = (  # the rulebook's words (Appendix II)
        "This Race controls 1 mighty Champion. Once a turn, it may conquer any adjacent Region for free, regardless "
        "of the number of enemy tokens and defenses in it. Once conquered, place the Champion token in this Region. "
        "The Champion counts as 1 Race token for defense. If another player conquers the Region with the Champion, "
        "it is taken prisoner. No defending Race token is discarded. The owner of the Champion must immediately pay "
        "their opponent a 1 Victory Coin ransom and retrieve it. They then redeploy it like a regular Race token "
        "and will be able to use it again on their next turn."
    )
    actions = (ChampionConquer,)
    markers_removed_on_decline = (pieces.CHAMPION,)

    def explain_action(self, game, tribe, action):
        problem = game.conquering_problem(tribe)
        if problem:
            return problem
        if game.wc.turn.used.get("champion"):
            return Reason("once-per-turn", "The Champion conquers once a turn.")
        problem = game.target_problem(tribe, action.region)
        if problem:
            return problem
        held = set(game.regions_of(tribe.name))
        if not held & game.board[action.region].adjacent:
            return Reason("not-adjacent", f"The Champion conquers an adjacent region; region {action.region} "
                          "is not adjacent to yours.")
        need = tribe.race.min_tokens_per_region()
        if game.hand_after_ready(tribe) < need:
            return Reason("no-tokens", f"The Champion goes in with {need} race token{'s' if need > 1 else ''} "
                          "from your hand (a region is held by race tokens).")
        return None

    def apply_action(self, game, tribe, action):
        game.wc.turn.used["champion"] = 1
        for rid in game.board.ids:
            if game.regions[rid].marker(pieces.CHAMPION):
                game.remove_marker(rid, pieces.CHAMPION)
        game.wc.loose_champion = False
        game.take_region(tribe, action.region, tribe.race.min_tokens_per_region())  # its fees are paid there
        game.place_marker(action.region, pieces.CHAMPION)

    def legal_own_actions(self, game, tribe):
        if game.phase != "conquest":
            return []
        held = set(game.regions_of(tribe.name))
        near = set().union(*(game.board[h].adjacent for h in held)) if held else set()
        return [ChampionConquer(r) for r in sorted(near - held)]


class Defensive(WarcraftPower):
    name, title = "defensive", "Defensive"
    text = (  # the rulebook's words (Appendix II)
        "At the end of its turn, the Defensive Race places a Watch Tower token in each of its Fields Regions where "
        "it controls the majority of adjacent Regions (i.e. controls more Regions than any other Active or In "
        "Decline Race) and removes any Watch Tower from Fields Regions it no longer controls this majority. A Watch "
        "Tower token makes a Region immune to all powers and conquest attempts."
    )
    markers_removed_on_decline = (pieces.WATCH_TOWER,)

    def turn_end(self, game, tribe):
        held = set(game.regions_of(tribe.name))
        for rid in game.board.ids:
            region, rs = game.board[rid], game.regions[rid]
            majority = rid in held and region.terrain == "fields" and game.holds_majority(tribe.name, region)
            if rs.marker(pieces.WATCH_TOWER) and not majority:
                game.remove_marker(rid, pieces.WATCH_TOWER)
            elif majority and not rs.marker(pieces.WATCH_TOWER) and game.supply(pieces.WATCH_TOWER) > 0:
                game.place_marker(rid, pieces.WATCH_TOWER)


class Enraged(WarcraftPower):
    name, title = "enraged", "Enraged"
    text = (  # the rulebook's words (Appendix II)
        "For each conquest of a Region with at least two defending Race tokens, an Enraged Race collects as many "
        "bonus Victory Coins as the number of defending Race tokens."
    )

    def conquest_coins(self, game, tribe, region, defenders, defender):
        return [("defenders of regions conquered (Enraged)", defenders)] if defenders >= 2 else []


class Explorer(WarcraftPower):
    name, title = "explorer", "Explorer"
    text = (  # the rulebook's words (Appendix II)
        "An Explorer Race Collects 1 bonus Victory Coin for each game board where it occupies at least one Region "
        "at turn's end."
    )

    def coins(self, game, tribe):
        islands = {game.board[rid].island for rid in game.regions_of(tribe.name)}
        return [("islands occupied (Explorer)", len(islands))]


class Farmer(TerrainBonus):
    name, title, what = "farmer", "Farmer", "fields"
    text = (  # the rulebook's words (Appendix II)
        "The Farmer Race collects 1 bonus Victory Coin for each Fields Region it controls at turn's end."
    )


class Fishing(WarcraftPower):
    name, title = "fishing", "Fishing"
    text = (  # the rulebook's words (Appendix II)
        "A Fishing Race collects 1 bonus Victory Coin at turn's end for each Region it controls adjacent to a Lake "
        "or a Sea."
    )

    def coins(self, game, tribe):
        return [("regions by a Lake or Sea (Fishing)", count_regions(game, tribe, lambda r: r.coastal))]


class Garrisoned(WarcraftPower):
    name, title = "garrisoned", "Garrisoned"
    text = (  # the rulebook's words (Appendix II)
        "Great fortifications builders, the Garrisoned Race places 1 Fort token in each Region it occupies. The "
        "Fort augments the Region's defense by 1 (just as if there was an additional Race token stationed there) "
        "and remains In Decline. Discard the Fort if the Region is conquered or emptied. There can only ever be a "
        "maximum of 1 Fort per Region, and a maximum of 10 Forts on the boards."
    )

    def turn_end(self, game, tribe):
        for rid in game.regions_of(tribe.name):
            if not game.regions[rid].marker(pieces.FORT) and game.supply(pieces.FORT) > 0:
                game.place_marker(rid, pieces.FORT)


class Herbalist(TerrainBonus):
    name, title, what = "herbalist", "Herbalist", "hill"
    text = (  # the rulebook's words (Appendix II)
        "The Herbalist Race understands the power of plants and collects 1 bonus Victory Coin for each Hill Region "
        "it controls at turn's end."
    )


class Intimidating(WarcraftPower):
    name, title = "intimidating", "Intimidating"
    text = (  # the rulebook's words (Appendix II)
        "Three times per turn, these masters in manipulation may move 1 Race token from an opponent's neighboring "
        "region, whether the Race is Active or In Decline, to any Region controlled by the same Race (if there are "
        "any, otherwise discard the token). This can be done in 3 different regions or several times in the same "
        "region. Murlocs are always discarded; a Wisp Wall or a Fort, if any, is discarded (it counts as a power "
        "use) before a Race token can be moved away; this power must be used before the last conquest of the turn."
    )
    actions = (Intimidate,)

    def explain_action(self, game, tribe, action):
        problem = game.conquering_problem(tribe)
        if problem:
            return problem
        if game.wc.turn.used.get("intimidate", 0) >= 3:
            return Reason("three-per-turn", "Intimidating works three times a turn.")
        if action.region not in game.board:
            return Reason("unknown-region", f"There is no region {action.region} on this map.")
        rs = game.regions[action.region]
        held = set(game.regions_of(tribe.name))
        victim = game.owner_tribe(action.region)
        if not (held & game.board[action.region].adjacent) or rs.race is None or \
                (victim is not None and victim.owner == tribe.owner):
            return Reason("not-neighbour", f"Region {action.region} is not an opponent's region next to yours.")
        problem = game.immunity_problem(tribe, action.region, ATTACK)
        if problem:
            return problem
        if victim is not None and not _wall(rs):
            others = [r for r in game.regions_of(victim.name) if r != action.region]
            if action.to not in others and (action.to or others):
                return Reason("intimidate-to", f"The token moves to another region of the {victim.race.title} "
                              "(0, discarded, only when they have none).")
        elif action.to:  # "Murlocs are always discarded"; a Wall or a Fort "is discarded" first
            return Reason("intimidate-to", "Nothing moves to another region: a Murloc is discarded, a Wisp Wall "
                          "or a Fort is discarded before any token moves (write 0).")
        return None

    def apply_action(self, game, tribe, action):
        game.wc.turn.used["intimidate"] = game.wc.turn.used.get("intimidate", 0) + 1
        game.pay_fees(tribe.owner, action.region, ATTACK)
        rs = game.regions[action.region]
        victim = game.owner_tribe(action.region)
        game.note_attack(tribe, victim)
        for kind in (pieces.WISP_WALL, pieces.FORT):  # "discarded (it counts as a power use)"
            if rs.marker(kind):
                game.remove_marker(action.region, kind)
                return
        rs.tokens -= 1
        if victim is not None and action.to:
            game.regions[action.to].tokens += 1
        elif victim is not None:
            lost = game.losses(victim, action.region, 1)  # a Holy Light keeps the discarded token
            victim.hand += 1 - lost
            game.wc.turn.kills += lost  # Forsaken: "Each time they force the loss of a Race token"
        else:
            game.lost_tribe_tray += 1  # "Murlocs are always discarded"
            game.wc.turn.kills += 1
        if victim is not None and 0 < rs.tokens < victim.race.min_tokens_per_region() and \
                len(game.regions_of(victim.name)) > 1:
            victim.hand += rs.tokens  # a Tauren left alone goes back in hand, redeployed at the turn's end
            rs.tokens = 0
        if rs.tokens == 0:
            game.empty_region(action.region)
            if victim is not None:
                game.vanish_if_gone(victim)

    def legal_own_actions(self, game, tribe):
        if game.phase != "conquest":
            return []
        held = set(game.regions_of(tribe.name))
        near = set().union(*(game.board[h].adjacent for h in held)) if held else set()
        out = []
        for rid in sorted(near - held):
            victim = game.owner_tribe(rid)
            others = [r for r in game.regions_of(victim.name) if r != rid] if victim and not \
                _wall(game.regions[rid]) else []
            out += [Intimidate(rid, to) for to in others] or [Intimidate(rid, 0)]
        return out


def _wall(rs) -> bool:
    return bool(rs.marker(pieces.WISP_WALL) or rs.marker(pieces.FORT))


class Marshdweller(WarcraftPower):
    name, title = "marshdweller", "Marshdweller"
    text = (  # the rulebook's words (Appendix II)
        "Opponents must pay the Marshdweller Race 1 Victory Coin before conquering any Marshdweller's Swamp Region. "
        "This power is still Active when In Decline."
    )

    def keeps_badge_in_decline(self):
        return True  # "This power is still Active when In Decline."

    def attack_fee(self, game, tribe, region):
        return 1 if region.terrain == "swamp" else 0


class Mining(WarcraftPower):
    name, title = "mining", "Mining"
    text = (  # the rulebook's words (Appendix II)
        "The Mining Race is thirsty for precious stones: it collects 1 bonus Victory Coin for each Cavern Region it "
        "controls at turn's end."
    )

    def coins(self, game, tribe):
        return [("Cavern regions (Mining)", count_regions(game, tribe, lambda r: r.cavern))]


class Mountaineer(TerrainBonus):
    name, title, what = "mountaineer", "Mountaineer", "mountain"
    text = (  # the rulebook's words (Appendix II)
        "The Mountaineer Race collects 1 bonus Victory Coin for each Mountain Region it controls at turn's end."
    )


class PortalMage(WarcraftPower):
    name, title = "portal-mage", "Portal Mage"
    text = (  # the rulebook's words (Appendix II)
        "Twice a turn, these Portal masters may exchange all the tokens (except Mountain and Legendary Places "
        "tokens) between 2 Magic Regions."
    )
    actions = (Portal,)

    def explain_action(self, game, tribe, action):
        problem = game.conquering_problem(tribe)
        if problem:
            return problem
        if game.wc.turn.used.get("portal", 0) >= 2:
            return Reason("twice-per-turn", "The Portal Mage exchanges twice a turn.")
        if len(action.regions) != 2 or action.regions[0] == action.regions[1] or \
                any(r not in game.board or not game.board[r].magic for r in action.regions):
            return Reason("not-magic", "Name two different Magic regions to exchange.")
        # exchanging moves an opponent's tokens out of their region: Harmony and the Aegis are owed
        return game.immunity_problem(tribe, tuple(action.regions), ATTACK)

    def apply_action(self, game, tribe, action):
        game.wc.turn.used["portal"] = game.wc.turn.used.get("portal", 0) + 1
        a, b = (game.regions[r] for r in action.regions)
        for rid in action.regions:
            game.pay_fees(tribe.owner, rid, ATTACK)
            game.note_attack(tribe, game.owner_tribe(rid))
        a.race, b.race = b.race, a.race
        a.tokens, b.tokens = b.tokens, a.tokens
        moving = [k for k in set(a.markers) | set(b.markers)
                  if k not in (pieces.MOUNTAIN, pieces.FACE_DOWN, pieces.BOMB) + pieces.PLACES]
        ma = {k: a.markers.pop(k) for k in moving if k in a.markers}
        mb = {k: b.markers.pop(k) for k in moving if k in b.markers}
        a.markers.update(mb)
        b.markers.update(ma)
        for rid in action.regions:  # "When a player enters a Region with a facedown ... marker, reveal it."
            if game.regions[rid].race and game.regions[rid].marker(pieces.FACE_DOWN):
                game.wc.pending.append(["discover", rid])

    def legal_own_actions(self, game, tribe):
        if game.phase != "conquest":
            return []
        magic = [r.id for r in game.board if r.magic]
        return [Portal((a, b)) for i, a in enumerate(magic) for b in magic[i + 1:]]


class Ranger(TerrainBonus):
    name, title, what = "ranger", "Ranger", "forest"
    text = (  # the rulebook's words (Appendix II)
        "Forest lovers, the Ranger Race collects 1 bonus Victory Point for each Forest Region it controls at turn's "
        "end."
    )


class Sailing(WarcraftPower):
    name, title = "sailing", "Sailing"
    text = (  # the rulebook's words (Appendix II)
        "These travelling experts do not pay the extra +1 Race token travel cost when conquering a non-adjacent "
        "Entry Region of a board."
    )

    def travel_cost_waived(self, game, tribe, region):
        return True


class SwampWalker(TerrainBonus):
    name, title, what = "swamp-walker", "Swamp Walker", "swamp"
    text = (  # the rulebook's words (Appendix II)
        "The Swamp Walker Race collects 1 bonus Victory Coin for each Swamp Region it controls at turn's end."
    )



POWERS = (Archaeologist, BattleMaster, BeastMaster, Blacksmith, Championing, Defensive, Enraged, Explorer, Farmer,
          Fishing, Garrisoned, Herbalist, Intimidating, Marshdweller, Mining, Mountaineer, PortalMage, Ranger,
          Sailing, SwampWalker)
