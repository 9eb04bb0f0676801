"""The rules glossary and card lookup: every term found by name, typo and plural; every link
real; refusals cite a rule that exists; the card picture is stable."""
import shutil

import pytest

from engine.awaymissions import rules
from engine.awaymissions.scenario import build
from engine.renegades import rules as renegades
from engine.errors import RuleError
from engine.glossary import Entry, Glossary, load_entries, load_glossary, normalise
from engine.glossary.cards import answer, card_index
from engine.glossary.validate import glossary_problems
from images.card import render_card
from tests.conftest import two_player_config

GLOSSARY = load_glossary()


def one_letter_typo(term: str) -> str:
    """The term with one letter doubled (a typo a player makes), in its longest word."""
    word = max(term.split(), key=len)
    typo = word[:2] + word[2] + word[2:]
    return term.replace(word, typo, 1)


def plural(term: str) -> str:
    words = term.split()
    last = words[-1]
    words[-1] = last[:-1] + "ies" if last.endswith("y") and last[-2] not in "aeiou" else last + "s"
    return " ".join(words)


@pytest.mark.parametrize("entry", GLOSSARY.entries, ids=lambda e: e.key)
def test_every_term_is_found_by_name_by_a_typo_and_by_its_plural(entry):
    assert entry in GLOSSARY.lookup(entry.term)
    assert GLOSSARY.lookup(entry.term)[0].term == entry.term
    assert entry.term in [e.term for e in GLOSSARY.lookup(one_letter_typo(entry.term))], one_letter_typo(entry.term)
    assert entry.term in [e.term for e in GLOSSARY.lookup(plural(entry.term))], plural(entry.term)


def test_the_glossary_covers_every_ruleset_and_its_links_are_real():
    assert {e.ruleset for e in GLOSSARY.entries} == {"awaymissions", "renegades", "leagues"}
    assert len(GLOSSARY.entries) >= 100
    assert glossary_problems() == []
    for entry in GLOSSARY.entries:
        assert all(GLOSSARY.resolve(link, entry.ruleset) is not None for link in entry.see), entry.term


def test_the_validator_reports_broken_links_rulings_and_cards(tmp_path):
    folder = tmp_path / "glossary"
    shutil.copytree("content/glossary", folder)
    path = folder / "awaymissions.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("see: [recover, incapacitated, damage]", "see: [recover, nowhere]", 1)
    text = text.replace("rulings: [R11, R17, R19]", "rulings: [R11, R999]", 1)
    text = text.replace("cards: [fed-dive-for-cover]", "cards: [no-such-card]", 1)
    path.write_text(text + "\n  - term: Stun\n    short: again\n", encoding="utf-8")
    problems = glossary_problems(str(folder))
    assert any("Stun: see 'nowhere' is no entry" in p for p in problems)
    assert any("ruling R999 is not in" in p for p in problems)
    assert any("no card or character 'no-such-card'" in p for p in problems)
    assert any("Stun: also in awaymissions.yaml" in p for p in problems)


def test_a_duplicate_key_in_a_glossary_file_is_refused(tmp_path):
    (tmp_path / "x.yaml").write_text("ruleset: renegades\nruleset: renegades\nentries: []\n", encoding="utf-8")
    assert any("given twice" in p for p in glossary_problems(str(tmp_path)))


def test_a_term_in_two_rulesets_names_both():
    glossary = Glossary(load_entries() + [Entry(term="Faction", short="a side", ruleset="awaymissions")])
    assert glossary.rulesets_of(glossary.get("renegades/faction")) == ["awaymissions", "renegades"]
    assert [e.ruleset for e in glossary.lookup("factions")] == ["awaymissions", "renegades"]


def test_plurals_and_spacing_reduce_to_one_form():
    assert normalise("Bonus Action Tokens") == normalise("bonus action token")
    assert normalise("Activations") == "activation" and normalise("abilities") == "ability"


def _refusal(spec, seat, command):
    state = build(spec)
    with pytest.raises(RuleError) as refused:
        rules.apply(state, seat, command)
    return refused.value


@pytest.mark.parametrize("command, family", [
    ("move REYES A1", "move"), ("attack REYES D4-12 phaser", "attack"), ("cover D4-12", "take-cover"),
    ("recover REYES", "recover"), ("special REYES no-such-action", "special-action"),
    ("cycle fed-restore-life-support", "cycle"), ("play fed-red-alert", "event-card"),
])
def test_a_refused_action_cites_a_glossary_entry_that_exists(command, family):
    spec = {"layout": "standard", "start": {"round": 1, "phase": "action", "turn": "p1"},
            "characters": {"REYES": {"space": "C5"}, "D4-12": {"space": "J6"}},
            "steps": []}
    state = build(spec)
    state, _ = rules.apply(state, "p1", "activate REYES")
    with pytest.raises(RuleError) as refused:
        rules.apply(state, "p1", command)
    assert refused.value.term == f"awaymissions/{family}"
    assert GLOSSARY.get(refused.value.term) is not None


def test_setup_and_decision_refusals_cite_their_rules():
    state = rules.new_game(two_player_config(layout="standard"), 3)
    seat = rules.awaited(state)[0]
    for command, family in (("core nothing", "core-mission"), ("move REYES C4", "activation")):
        with pytest.raises(RuleError) as refused:
            rules.apply(state, seat, command)
        assert refused.value.term == f"awaymissions/{family}" and GLOSSARY.get(refused.value.term)


def test_every_rule_a_command_can_cite_exists():
    assert [term for term in rules.RULE_OF.values() if GLOSSARY.get(f"awaymissions/{term}") is None] == []


def test_cards_are_found_by_name_code_typo_and_plural():
    index = card_index()
    assert len(index.cards) >= 70
    for card in index.cards:
        assert index.find(card.name)[0].code == card.code
        assert index.find(card.code)[0].code == card.code
    assert index.find("Emergency Beam-Outs")[0].code == "fed-emergency-beam-out"
    assert index.find("field tricoder")[0].code == "fed-field-tricorder"
    beam = index.get("fed-emergency-beam-out")
    assert beam.timing == "interrupt when damaged" and "awaymissions/interrupt" in beam.entries
    assert "R30" in beam.rulings


def test_the_card_picture_is_the_same_for_the_same_card_and_shows_its_name_band():
    from io import BytesIO

    from PIL import Image
    card = card_index().get("REYES")
    first, second = render_card(card), render_card(card)
    assert first == second
    picture = Image.open(BytesIO(first))
    assert picture.width == 550 and picture.height > 150
    assert picture.getpixel((5, 5)) != picture.getpixel((5, 100))  # the name band differs from the paper


def _renegades_refusal(state, command) -> RuleError:
    with pytest.raises(RuleError) as refused:
        renegades.apply(state, renegades.awaited(state)[0], command)
    return refused.value


def test_a_refused_renegades_command_cites_the_rule_of_its_phase():
    orbit = renegades.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}]}, 7)
    assert _renegades_refusal(orbit, "attack KESTREL NOBODY").term == "renegades/ship-combat"
    assert _renegades_refusal(orbit, "move KESTREL Q9").term == "renegades/ship-movement"
    surface = renegades.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}], "quick": True, "world_cards": 6}, 7)
    assert _renegades_refusal(surface, "deploy KESTREL NOBODY").term == "renegades/landing-party"
    while surface.phase != "surface":
        seat = renegades.awaited(surface)[0]
        surface, _ = renegades.apply(surface, seat, renegades.legal_commands(surface, seat)[0])
    for command, entry in (("attack NOBODY GRUND", "crew-combat"), ("move NOBODY A1", "crew-movement"),
                           ("drop NOBODY arc-pistol", "gear"), ("take NOBODY", "mission-parameter")):
        refused = _renegades_refusal(surface, command)
        assert refused.term == f"renegades/{entry}" and GLOSSARY.get(refused.term), command


def test_every_rule_a_renegades_command_can_cite_exists():
    assert set(renegades.RULE_OF) == set(renegades.COMMANDS)
    for phase in ("orbital", "surface"):
        assert [verb for verb in renegades.COMMANDS if GLOSSARY.get(renegades.cited(verb, phase)) is None] == []


@pytest.mark.parametrize("query, table, key", [
    ("first player", "awaymissions", "awaymissions/first-activation"),
    ("first player", "renegades", "renegades/initiative"),
    ("wounds", "renegades", "renegades/wounds"),
    ("wounds", "awaymissions", "awaymissions/damage"),
    ("bonus actions", "awaymissions", "awaymissions/bonus-action-token"),
    ("bonus actions", None, "awaymissions/bonus-action-token"),
    ("movement", "awaymissions", "awaymissions/move"),
    ("movement", "renegades", "renegades/crew-movement"),
    ("move", "renegades", "renegades/crew-movement"),
    ("elude", "renegades", "renegades/eluding"),
    ("elude", None, "renegades/eluding"),
    ("salvage", "renegades", "renegades/salvage"),
    ("salvage", None, "renegades/salvage"),
])
def test_each_query_players_asked_finds_its_entry_at_that_table(query, table, key):
    """Issue 29: the game at the table's entry first, and the obvious synonyms found."""
    assert answer(query, table).entry.key == key
    assert GLOSSARY.lookup(query, prefer=table)[0].key == key


@pytest.mark.parametrize("query, code", [("Captain Orla Vesk", "VESK"), ("Hard Burn", "hard-burn"),
                                         ("captain orla vesk", "VESK"), ("drone", "DRONE")])
def test_a_card_asked_for_as_a_rule_is_answered_with_the_card(query, code):
    found = answer(query, "renegades")
    assert found.entry is None and found.card.code == code


def test_a_term_of_the_table_comes_before_a_card_of_the_same_name():
    assert answer("drone", "awaymissions").entry.key == "awaymissions/drone"
    assert answer("drone").entry.key == "awaymissions/drone"


def test_nothing_like_a_term_offers_the_nearest_terms_of_the_table_first():
    found = answer("xyzzy", "renegades")
    assert found.entry is None and found.card is None and len(found.nearest) == 3
    assert answer("elude", "renegades").nearest == ()  # only when nothing matches
    near = answer("landing partt", "renegades")
    assert near.entry.key == "renegades/landing-party"


CARD_SECTIONS = {"renegades": ("crew", "ships", "fighters", "tactical", "missions", "world_events", "weapons",
                               "search_items", "salvage", "villains", "gear", "upgrades", "campaigns",
                               "surface_locations", "orbit_locations"),
                 "awaymissions": ("cards", "characters")}
NOT_CARDS = {"surfaces", "crew_abilities"}  # the surface boards; abilities printed on crew cards


def test_every_card_of_every_pack_is_found_by_its_name():
    """Every section of every pack that holds cards is indexed: each card by its name and
    its code (a weapon and its shore leave gear card are one card)."""
    from engine.glossary.cards import packs
    from engine.rulesets import RULESETS
    from engine.renegades.contents.content import SECTIONS
    assert set(SECTIONS) == set(CARD_SECTIONS["renegades"]) | NOT_CARDS
    index = card_index()
    rulesets = set()
    for folder, ruleset in packs():
        rulesets.add(ruleset)
        pack = RULESETS[ruleset].load_pack(folder)
        for section in CARD_SECTIONS[ruleset]:
            for code, card in getattr(pack, section).items():
                found = index.find(card.name, prefer=ruleset)
                assert found and found[0].name == card.name and found[0].code == code, (section, card.name)
                assert index.find(code)[0].code == code
    assert rulesets == {"awaymissions", "renegades"}


def test_a_character_attack_of_one_die_says_die():
    facts = card_index().get("REYES").facts
    assert "Hand phaser: +1 die, DAMAGE 1" in facts and not [f for f in facts if "+1 dice" in f]
    assert "attack 5 dice" in " ".join(card_index().get("VESK").facts)


def test_an_entry_in_plain_text_names_its_cards_and_links_in_words():
    from engine.glossary import plain_text
    from engine.glossary.cards import card_names
    cover = GLOSSARY.get("awaymissions/take-cover")
    text = plain_text(cover, tuple(card_names(cover)))
    assert "Cards: Dive for Cover" in text and "fed-dive-for-cover" not in text
    assert "See: Attack, Move" in text


def test_a_refusal_names_the_decision_in_words_with_a_command_to_type():
    """Issue 29: not "a 'start_area' decision: start BOARD" but what is asked, and a legal example."""
    assert set(rules.ASKED) == set(rules._LEGAL)
    state = rules.new_game(two_player_config(layout="standard"), 3)
    while state.pending[0].kind != "start_area":
        seat = rules.awaited(state)[0]
        state, _ = rules.apply(state, seat, rules.legal_commands(state, seat)[0])
    seat = rules.awaited(state)[0]
    with pytest.raises(RuleError) as refused:
        rules.apply(state, seat, "move REYES C4")
    example = rules.legal_commands(state, seat)[0]
    assert str(refused.value) == ("Not now: first choose the board where your away team beams down "
                                  f"(for example: {example}).")
    assert "start_area" not in str(refused.value)
