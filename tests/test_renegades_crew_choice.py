"""A crew named at set-up (N241): typed by code or card name, checked one for each station,
and the completions offered while it is typed (engine/renegades/crew_choice.py)."""
import pytest

from engine.errors import RuleError
from engine.renegades import rules
from engine.renegades.setup import crew_choice
from engine.renegades.contents.content import load_pack

PACK = load_pack("content/renegades")
SOLO = {"mode": "coop", "seats": 1}


def _crews_offered(typed="", depth=0):
    """Every crew reached by taking one of the first three completions at each of the first
    four picks, then any of the fifth."""
    offered = [value for value, _ in crew_choice.completions(PACK, "coalition", typed)]
    if depth == 4 or not offered:
        return offered
    return [crew for value in offered[1 if depth == 0 else 0:][:3] for crew in _crews_offered(value + ", ", depth + 1)]


def test_every_crew_the_completions_lead_to_mans_every_station_and_fits_discord():
    crews = _crews_offered()
    assert len({frozenset(value.split(", ")) for value in crews}) > 10  # many different crews
    for value in crews:
        codes = crew_choice.named_crew(PACK, "coalition", value)
        state = rules.new_game({"mode": "coop", "players": [{"seat": "p1", "npc_crew": codes}]}, 1)
        assert sorted(state.ships["WARDEN"].stations.values()) == sorted(codes)
    every = crew_choice.completions(PACK, "coalition", "")
    assert len(every) <= crew_choice.CHOICES and all(len(v) <= 100 and len(label) <= 100 for v, label in every)


def test_a_second_commander_is_never_offered_beside_the_first():
    offered = {value for value, _ in crew_choice.completions(PACK, "coalition", "HALVERN, ")}
    assert "HALVERN, SOLANE" not in offered and "HALVERN, PELL" in offered


@pytest.mark.parametrize("options, typed, said", [
    ({"mode": "coop", "seats": 2}, "SOLANE KOVIN ILDA NOOR FENWICK", "Only the solo game"),
    ({**SOLO, "draft": True}, "SOLANE KOVIN ILDA NOOR FENWICK", "not both"),
    (SOLO, "SOLANE, KOVIN, ILDA, NOOR, Dr. Mara Ansel, Fenwick", "you named 6"),
])
def test_a_choice_that_cannot_be_played_is_refused(options, typed, said):
    with pytest.raises(RuleError, match=said):
        crew_choice.solo_choice(PACK, options, typed)


def test_no_choice_is_the_standard_crew_and_a_draft_names_none():
    assert crew_choice.solo_choice(PACK, SOLO, None) is None
    assert crew_choice.solo_choice(PACK, {**SOLO, "draft": True}, None) is None
    assert crew_choice.standard_crew(PACK, "coalition") == ["HALVERN", "PELL", "ORSO", "ANSEL", "BRECK"]
