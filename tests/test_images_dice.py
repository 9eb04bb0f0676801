"""Dice board: lining up, re-roll history, dimmed cancelled dice, uncontested slots, words."""
import io

from PIL import Image, ImageDraw

from engine.awaymissions.content import load_pack
from images import dice as D
from images.demo import attack_events, midgame_view, skill_events
from images.style import INK, PAPER, STYLES, blend
from images.tokens import short_labels

BLUE, ORANGE = STYLES[0][0], STYLES[1][0]


def decoded(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def close(pixel, colour, tolerance=18) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def row_y(i: int) -> float:
    return D.TOP + i * D.ROW + D.ROW / 2


def die_body(image, x, i):
    """A point on a die's face clear of its pips and strike line."""
    return image.getpixel((round(x), round(row_y(i) - D.DIE / 2 + 5)))


def test_rerolls_are_tracked_to_the_dice_they_replaced():
    board = D.gather(attack_events())
    assert [d.face for d in board.dice] == [6, 6, 5, 5, 4]
    assert [d.replaced for d in board.dice] == [[], [2], [], [], []]
    assert [d.face for d in board.opposing] == [6, 5, 3]
    assert [d.replaced for d in board.opposing] == [[], [], [1]]
    again = D.apply_reroll(board.dice, [1], [6, 5, 5, 4, 1])
    assert [(d.face, d.replaced) for d in again] == [(6, []), (5, []), (5, []), (4, []), (1, [2, 6])]


def test_cancelled_die_is_dimmed_and_hits_are_not():
    image = decoded(D.render_dice(midgame_view(), attack_events()))
    cancelled, hit = die_body(image, D.LEFT_X, 0), die_body(image, D.LEFT_X, 1)
    assert close(cancelled, blend(BLUE, PAPER, 0.72))
    assert close(hit, BLUE)
    assert close(die_body(image, D.RIGHT_X, 0), ORANGE)  # the defense die that cancelled stays bright


def test_uncontested_dice_face_an_empty_dashed_slot():
    image = decoded(D.render_dice(midgame_view(), attack_events()))
    assert close(die_body(image, D.RIGHT_X, 3), PAPER, 6)  # no die in the slot
    edge = [image.getpixel((round(D.RIGHT_X - D.DIE / 2 + dx), round(row_y(3) + dy)))
            for dx in range(-1, 2) for dy in range(-20, 20)]
    assert any(not close(p, PAPER, 6) for p in edge)  # dashed outline
    assert close(die_body(image, D.LEFT_X, 3), BLUE)  # a 5, uncontested: a hit


def test_replaced_die_is_shown_dimmed_beside_its_replacement():
    image = decoded(D.render_dice(midgame_view(), attack_events()))
    old_x = D.LEFT_X - D.DIE / 2 - 22 - D.SMALL / 2
    assert close(image.getpixel((round(old_x), round(row_y(1) - D.SMALL / 2 + 4))), blend(BLUE, PAPER, 0.72))
    assert close(image.getpixel((round(old_x), round(row_y(0) - D.SMALL / 2 + 4))), PAPER, 6)  # not re-rolled
    old_right = D.RIGHT_X + D.DIE / 2 + 22 + D.SMALL / 2
    assert close(image.getpixel((round(old_right), round(row_y(2) - D.SMALL / 2 + 4))), blend(ORANGE, PAPER, 0.72))


def test_result_in_words():
    view = midgame_view()
    labels = short_labels(view["characters"])
    names = {"p1": "Ana", "p2": "Ben"}
    cards = load_pack(view["pack"]).cards
    lines = D.result_lines(D.gather(attack_events()), labels, names, cards)
    assert lines[0] == "4 hits + 1 DAMAGE = 5 damage to D4."
    assert "D4 loses 2 DEFENSE, 2 ATTACK, 1 MOVE." in lines
    assert "D4 is neutralized." in lines
    assert f"Re-roll: Ben played {cards['borg-adaptive-shielding'].name} on 1 defense die (1)." in lines
    assert D.result_lines(D.gather(skill_events()), labels, names, cards)[0] == "3 successes against A5."
    stunned = attack_events()[:2] + [{"type": "resolved", "kind": "attack", "actor": "FERROW", "target": "D4-12",
                                      "dice": [6, 5, 5, 4, 2], "opposing": [6, 5, 1],
                                      "outcome": ["cancelled", "cancelled", "hit", "hit", "miss"],
                                      "successes": 2, "damage": 0, "stun": True}]
    assert D.result_lines(D.gather(stunned), labels, names, cards)[0] == "2 hits with a stun weapon: D4 is stunned."


def test_unopposed_skill_test_and_open_reroll_window():
    view = midgame_view()
    solo = [{"type": "rolled", "kind": "skill", "actor": "OKAFOR", "target": None, "dice": [2, 5], "opposing": []},
            {"type": "resolved", "kind": "skill", "actor": "OKAFOR", "target": None, "dice": [5, 2], "opposing": [],
             "outcome": ["hit", "miss"], "successes": 1}]
    image = decoded(D.render_dice(view, solo))
    assert close(die_body(image, D.LEFT_X, 0), BLUE) and close(die_body(image, D.LEFT_X, 1), blend(BLUE, PAPER, 0.72))
    assert close(die_body(image, D.RIGHT_X, 0), PAPER, 6)  # no challenger, no slot
    waiting = decoded(D.render_dice(view, attack_events()[:2]))
    assert close(die_body(waiting, D.LEFT_X, 0), BLUE) and close(die_body(waiting, D.LEFT_X, 4), BLUE)
    assert close(die_body(waiting, D.RIGHT_X, 2), ORANGE)  # nothing dimmed before the dice are compared


def test_no_roll_no_picture_and_same_bytes_each_time():
    view = midgame_view()
    assert D.render_dice(view, [{"type": "moved", "character": "FERROW", "path": ["E6"]}]) is None
    assert D.render_dice(view, attack_events()) == D.render_dice(view, attack_events())


def test_die_faces_show_their_pips():
    image = Image.new("RGB", (80, 80), PAPER)
    draw = ImageDraw.Draw(image)
    for face in range(1, 7):
        draw.rectangle((0, 0, 80, 80), fill=PAPER)
        D.draw_die(draw, 40, 40, 58, face, BLUE)
        centre_pip = close(image.getpixel((40, 40)), (255, 255, 255), 30)
        assert centre_pip == (face % 2 == 1)
    assert close(image.getpixel((40 - 16, 40)), (255, 255, 255), 30)  # six: middle row pips
    draw.rectangle((0, 0, 80, 80), fill=PAPER)
    D.draw_die(draw, 40, 40, 58, 6, BLUE, ring=True)
    assert close(image.getpixel((40, 40 - 29 - 3)), INK, 30)
