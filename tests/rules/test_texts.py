"""Every banner and badge carries its text in the rulebook's words (Appendix II of each rulebook), for
the phones' picks: it belongs to the race's or power's class, never to the web layer."""
import pytest

from companion.rules import ruleset as rulesets

PIECES = [(rs.name, kind, name) for rs in rulesets.RULESETS.values()
          for kind, names in (("race", rs.race_names()), ("power", rs.power_names())) for name in names]


@pytest.mark.parametrize("ruleset, kind, name", PIECES)
def test_each_banner_and_badge_has_its_rulebook_text(ruleset, kind, name):
    rules = rulesets.get(ruleset)
    piece = rules.race(name) if kind == "race" else rules.power(name)
    assert len(piece.text) > 40 and piece.text[0].isupper() and piece.text.rstrip()[-1] in ".!)"
    assert "  " not in piece.text and "*" not in piece.text and "\n" not in piece.text


def test_the_texts_are_each_pieces_own():
    """No text is copied onto another piece (a slip of the extraction), quoted samples are exact."""
    for rs in rulesets.RULESETS.values():
        texts = [rs.race(n).text for n in rs.race_names()] + [rs.power(n).text for n in rs.power_names()]
        assert len(set(texts)) == len(texts)
    base, wc = rulesets.get("smallworld"), rulesets.get("warcraft")
    assert base.power("alchemist").text == ("Collect 2 bonus Victory coins at the end of each turn your race hasn't "
                                            "yet gone into Decline.")
    assert base.race("ratmen").text == "No Race benefit; their sheer number of tokens is enough!"
    assert wc.race("humans").text.startswith("Humans can designate strategic regions for non-Horde players.")
    assert wc.race("gnomes").text.endswith("once for the Gnome ability and once for the normal final conquest attempt.")
    assert wc.race("kobolds").text.startswith("Inhabitants of the underground, Kobolds")
