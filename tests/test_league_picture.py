"""The standings picture: bars to scale, marks in words and symbols, contrast, same bytes."""
import io

from PIL import Image

from engine.league.standings import Standing
from images import standings as S
from images.style import INK, PAPER, WHITE, fit_size


def decoded(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def close(pixel, colour, tolerance=18) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def contrast(a, b) -> float:
    """WCAG contrast ratio of two colours."""
    def luminance(c):
        linear = [(v / 255) / 12.92 if v <= 10 else (((v / 255) + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


ROWS = [Standing(1, "Admiral", "1", "Ann", 6, 360), Standing(2, "Vice Admiral", "2", "Bo", 3, 300),
        Standing(3, "Rear Admiral", "3", "Cy", 0, 0)]


def middle(i):
    return S.row_top(i) + S.ROW // 2


def dark_in(image, box) -> int:
    x0, y0, x1, y1 = box
    return sum(close(image.getpixel((x, y)), INK, 90) for x in range(x0, x1) for y in range(y0, y1))


def test_battle_points_bars_are_to_scale_and_numbers_are_written():
    image = decoded(S.render_standings("Arena", ROWS, "FP", "after round 3 of 3"))
    assert image.size == (S.WIDTH, S.row_top(3) + S.PAD)
    assert S.bar_length(3, 6) == S.BAR_WIDTH // 2 and S.bar_length(0, 0) == 0
    assert close(image.getpixel((S.BAR_X + S.BAR_WIDTH - 2, middle(0))), S.BAR, 4)  # the leader's bar is full
    assert close(image.getpixel((S.BAR_X + S.BAR_WIDTH // 2 - 2, middle(1))), S.BAR, 4)
    assert close(image.getpixel((S.BAR_X + S.BAR_WIDTH // 2 + 2, middle(1))), WHITE, 4)  # Bo: half of it
    assert close(image.getpixel((S.BAR_X + 2, middle(2))), PAPER, 4)  # no points, no bar
    for i in range(3):  # rank, name, Battle Points and Fleet Points are written on every row
        top = S.row_top(i)
        for box in ((S.RANK_RIGHT - 20, top, S.RANK_RIGHT, top + S.ROW), (S.NAME_X, top, S.NAME_X + 40, top + 22),
                    (S.BP_RIGHT - 14, top, S.BP_RIGHT, top + S.ROW),
                    (S.TIEBREAK_RIGHT - 14, top, S.TIEBREAK_RIGHT, top + S.ROW)):
            assert dark_in(image, box) > 5, (i, box)
    assert close(image.getpixel((2, S.row_top(0) + 2)), PAPER, 2) and close(image.getpixel((2, S.row_top(1) + 2)), WHITE, 2)


def test_marks_are_symbols_and_words_and_a_dropped_player_is_struck_through():
    rows = [Standing(1, "Admiral", "1", "Ann", 4, 200, tied=True), Standing(2, "Vice Admiral", "2", "Bo", 4, 200, tied=True),
            Standing(3, "Rear Admiral", "3", "Cy", 2, 89, provisional=True),
            Standing(4, "Commodore", "4", "Dee Dropped", 1, 45, dropped=True)]
    assert S.notes_for(rows) == list(S.NOTES.values()) and S.notes_for(ROWS) == []
    image = decoded(S.render_standings("Arena", rows))
    assert image.height == S.row_top(4) + S.PAD + 20 * 3
    strike = round(S.row_top(3) + 4 + 17 * 0.62)
    run = [close(image.getpixel((x, y)), INK, 30) for x in range(S.NAME_X + 2, S.NAME_X + 60)
           for y in (strike - 1, strike, strike + 1)]
    assert sum(run) >= 58  # an unbroken line through the name
    for k in range(3):  # the footnotes are written under the table
        y = S.row_top(4) + 6 + 20 * k
        assert sum(not close(image.getpixel((x, y + dy)), PAPER, 30) for x in range(S.PAD, S.PAD + 150)
                   for dy in range(14)) > 20


def test_readable_and_colour_blind_safe():
    assert contrast(INK, PAPER) >= 7 and contrast(INK, WHITE) >= 7 and contrast(WHITE, INK) >= 7
    assert min(contrast(S.SECONDARY, PAPER), contrast(S.SECONDARY, WHITE)) >= 4.5  # small grey text: AA
    assert contrast(S.BAR, PAPER) >= 3 and contrast(S.BAR, WHITE) >= 3  # the bar against both row grounds
    assert S.BAR == (0, 114, 178)  # Okabe-Ito blue, the only accent colour; marks never rely on it
    assert fit_size("Commander Elizabeth Shelby-Riker", S.NAME_WIDTH, 17) >= 14  # a 32-character name at 550 px


def test_the_same_rows_give_the_same_bytes_and_an_empty_table_still_renders():
    assert S.render_standings("Arena", ROWS) == S.render_standings("Arena", list(ROWS))
    empty = decoded(S.render_standings("Arena", []))
    assert empty.size == (S.WIDTH, S.row_top(1) + S.PAD)
    assert any(close(empty.getpixel((x, y)), S.SECONDARY, 6)  # "No players yet."
               for x in range(S.NAME_X, S.NAME_X + 100) for y in range(middle(0) - 5, middle(0) + 5))
