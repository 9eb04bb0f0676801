"""A re-roll that cannot help (ruling P59): new faces on a side's dice could not change the
roll in that side's favour once those dice already give it the best result any faces could."""
import pytest

from engine.awaymissions.actions import could_improve
from engine.awaymissions.state import Roll


def roll(dice, opposing=(), kind="attack", target="c2") -> Roll:
    """A roll on the dice board: the actor's dice against the target's."""
    return Roll(kind=kind, actor="c1", active_player="p1", actor_player="p1", dice=list(dice),
                target=target, target_player="p2" if target else None, opposing=list(opposing))


@pytest.mark.parametrize("dice, opposing, actor, target", [
    ([5, 3], [5, 4], True, False),   # both attack dice cancelled: the defender is at its best
    ([6, 2], [4, 1], False, True),   # both hit: the attacker is at its best
    ([6, 6], [5, 5], False, True),   # both hit; sixes of the defender's would cancel them
    ([4], [], False, False),         # an uncontested 4 hits, and the defender has no dice
    ([2], [], True, False),          # an uncontested 2 misses: a new face could hit
    ([5, 4, 2], [6], True, False),   # the 5 is cancelled by a 6 (at its best); the 2 could still hit
    ([5, 4], [6], False, False),     # the 6 cancels any face, and the uncontested 4 already hits
])
def test_what_new_faces_could_change(dice, opposing, actor, target):
    shown = roll(dice, opposing)
    assert could_improve(shown, "actor") is actor
    assert could_improve(shown, "target") is target


def test_an_unopposed_skill_test_at_its_best_cannot_be_helped_and_one_below_can():
    assert not could_improve(roll([6, 4], kind="skill", target=None), "actor")
    assert could_improve(roll([6, 3], kind="skill", target=None), "actor")
