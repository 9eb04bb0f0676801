"""Shared look of every picture: colours, side styles, fonts, token shapes and PNG encoding.

Table pictures are drawn straight into a fixed palette (`canvas`, `pen`): each colour is
its palette entry, anti-aliased text blends through the palette's steps, and the PNG is
written without quantizing at the compression level chosen in docs/performance.md.

Colours come from the Okabe-Ito palette, which stays distinguishable for the common
kinds of colour blindness; sides also differ by token shape, so colour is never the
only cue.
"""
from __future__ import annotations

import functools
import hashlib
import io
import json
import math
import threading
from typing import Callable, Optional

from PIL import Image, ImageChops, ImageDraw, ImageFont

INK = (24, 28, 33)
PAPER = (246, 246, 243)
MUTED = (110, 118, 128)
WHITE = (255, 255, 255)
GREY = (160, 160, 160)  # a side nobody holds, a neutralized character
VOID = (38, 44, 52)
FLOOR = (214, 220, 226)
OPEN_EDGE = (160, 170, 181)
HAZARD = (240, 228, 66)  # Okabe-Ito yellow: closed doors, stun
MOVE_MARK = (230, 159, 0)  # Okabe-Ito orange: the last movement path
ATTACK_MARK = (204, 121, 167)  # Okabe-Ito reddish purple: the last attack
COVER = (86, 180, 233)  # Okabe-Ito sky blue
ASSIMILATED = (0, 158, 115)  # Okabe-Ito bluish green

# (fill, shape) per side; the first side of an affiliation gets its preferred style. The
# first four stay apart also as protanopes, deuteranopes and tritanopes see them (bluish
# green would come close to blue for tritanopes): tests/test_images_teams.py measures it.
STYLES = [
    ((0, 114, 178), "circle"),
    ((213, 94, 0), "square"),
    ((86, 180, 233), "diamond"),
    ((230, 159, 0), "hexagon"),
    ((0, 158, 115), "triangle"),
    ((204, 121, 167), "octagon"),
]
PREFERRED = {"federation": 0, "borg": 1}


def blend(colour, towards, amount: float) -> tuple[int, int, int]:
    """Mix `colour` with `towards` (amount 0 keeps colour, 1 gives towards)."""
    return tuple(round(c + (t - c) * amount) for c, t in zip(colour, towards))


def washed(colour) -> tuple[int, int, int]:
    """An activated token's fill."""
    return blend(colour, WHITE, 0.55)


def dimmed(colour) -> tuple[int, int, int]:
    """A cancelled, missed or replaced die."""
    return blend(colour, PAPER, 0.72)


def ink_on(colour):
    """Black or white, whichever reads better on `colour`."""
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 135 else WHITE


CORRIDOR_FLOOR = blend(FLOOR, (120, 150, 190), 0.18)
LIFT_FLOOR = blend(FLOOR, INK, 0.12)
BOARD_NAME = blend(FLOOR, INK, 0.16)
GLYPH = blend(FLOOR, INK, 0.42)  # turbolift arrows, transporter rings
RULE = blend(PAPER, INK, 0.15)
DIM_INK = blend(INK, PAPER, 0.6)


def _palette() -> Image.Image:
    """Every colour the pictures use, anti-aliasing steps between text and its grounds, then a
    colour cube for anything else. Converting to a fixed palette is ~10x faster than
    computing one per picture, keeps the named colours exact and the bytes deterministic."""
    sides = [c for c, _ in STYLES] + [GREY]
    exact = [INK, PAPER, MUTED, WHITE, GREY, VOID, FLOOR, OPEN_EDGE, HAZARD, MOVE_MARK, ATTACK_MARK, COVER,
             ASSIMILATED, CORRIDOR_FLOOR, LIFT_FLOOR, BOARD_NAME, GLYPH, RULE, DIM_INK]
    exact += sides + [washed(c) for c in sides] + [dimmed(c) for c in sides]
    grounds = [(WHITE, VOID), (WHITE, INK), (INK, PAPER), (MUTED, PAPER), (MUTED, FLOOR), (MUTED, CORRIDOR_FLOOR),
               (MUTED, LIFT_FLOOR), (BOARD_NAME, FLOOR), (INK, HAZARD), (INK, FLOOR)]
    grounds += [(ink_on(c), c) for c in sides] + [(ink_on(washed(c)), washed(c)) for c in sides]
    ramps = [blend(a, b, k / 4) for a, b in grounds for k in (1, 2, 3)]
    cube = [(r, g, b) for r in range(0, 256, 51) for g in range(0, 256, 51) for b in range(0, 256, 51)]
    colours = list(dict.fromkeys(exact + ramps + cube))[:256]
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for colour in colours for v in colour] + [0] * (768 - 3 * len(colours)))
    return palette


PALETTE = _palette()
_PALETTE_BYTES = bytes(PALETTE.getpalette())  # as bytes: a new picture takes them without converting a list
COMPRESS_LEVEL = 3  # zlib level: about half the time of level 6 for 1.2-1.3x the bytes (docs/performance.md)


def to_palette(image: Image.Image) -> Image.Image:
    """An RGB picture mapped onto the fixed palette (nearest colour, no dithering)."""
    return image.quantize(palette=PALETTE, dither=Image.Dither.NONE)


@functools.lru_cache(maxsize=1024)
def ink(colour) -> int:
    """The palette entry a colour is drawn as: the one quantizing would give, so a picture
    drawn in the palette matches one drawn in RGB and quantized."""
    return to_palette(Image.new("RGB", (1, 1), tuple(colour))).getpixel((0, 0))


def _entry(colour):
    return ink(colour) if isinstance(colour, tuple) else colour


class PaletteDraw(ImageDraw.ImageDraw):
    """Drawing on a picture in the fixed palette: colours are given as RGB, as everywhere,
    and land as their palette entry (see `ink`)."""

    def __init__(self, image: Image.Image):
        super().__init__(image)
        self.picture = image

    def _getink(self, ink_colour, fill=None):
        return super()._getink(_entry(ink_colour), _entry(fill))

    def line(self, xy, fill=None, width: int = 1, joint=None) -> None:
        """As ImageDraw's; a plain line in an RGB colour goes straight to Pillow's core."""
        if joint is None and isinstance(fill, tuple) and width:
            self.draw.draw_lines(xy, ink(fill), width)
        else:
            super().line(xy, fill, width, joint)

    def polygon(self, xy, fill=None, outline=None, width: int = 1) -> None:
        """As ImageDraw's, but a thick outline is drawn on the patch around the polygon:
        Pillow masks it with a blank picture the size of the whole canvas."""
        if outline is None or width <= 1 or not isinstance(xy[0], (tuple, list)):
            super().polygon(xy, fill, outline, width)
            return
        xs, ys = [x for x, _ in xy], [y for _, y in xy]
        left, top = max(0, math.floor(min(xs)) - width - 2), max(0, math.floor(min(ys)) - width - 2)
        box = (left, top, min(self.picture.width, math.ceil(max(xs)) + width + 3),
               min(self.picture.height, math.ceil(max(ys)) + width + 3))
        if box[0] >= box[2] or box[1] >= box[3]:
            return
        patch = self.picture.crop(box)
        ImageDraw.ImageDraw.polygon(PaletteDraw(patch), [(x - left, y - top) for x, y in xy], fill, outline, width)
        self.picture.paste(patch, box[:2])


def canvas(size: tuple[int, int], colour) -> Image.Image:
    """A blank picture in the fixed palette, filled with `colour`."""
    image = Image.new("P", size, ink(colour))
    image.putpalette(_PALETTE_BYTES)
    return image


def pen(image: Image.Image) -> ImageDraw.ImageDraw:
    """A drawing context for `image`: palette-aware for a palette picture."""
    return PaletteDraw(image) if image.mode == "P" else ImageDraw.Draw(image)


_STAMPS: dict[tuple, tuple] = {}  # key -> (piece, cover of one bit a pixel: Pillow core images; its box around the anchor)
_STAMPS_LIMIT = 1024  # pieces cropped to what they cover: a few KB each
_STAMPS_LOCK = threading.Lock()
_PLACED: dict[tuple, tuple] = {}  # (key, cx, cy, reach) -> (piece, its box on the picture, cover): no sums to redo
_PLACED_LIMIT = 4096  # a stamp at one exact place: a piece shared with _STAMPS and its box


def stamp(draw: ImageDraw.ImageDraw, key: tuple, cx: float, cy: float, reach: int,
          paint: Callable[[ImageDraw.ImageDraw, float, float], None]) -> None:
    """What `paint(draw, cx, cy)` draws within `reach` pixels of (cx, cy), drawn once per
    `key` (everything it depends on) and place (see _anchor), then pasted: tokens, dice and
    doors recur from picture to picture. Only what it paints fully is pasted, so anti-aliased
    text must lie on a ground it paints too. On an RGB picture, or reaching past the top or
    left edge, it simply paints."""
    placed = _PLACED.get((key, cx, cy, reach))
    if placed is not None and isinstance(draw, PaletteDraw):
        draw.im.paste(*placed)
        return
    x, y = math.floor(cx), math.floor(cy)
    if not isinstance(draw, PaletteDraw) or min(x, y) < reach + 2:
        paint(draw, cx, cy)
        return
    (ox, where_x), (oy, where_y) = _anchor(cx, reach), _anchor(cy, reach)
    found_key = (key, cx - x, cy - y, where_x, where_y, reach)
    found = _STAMPS.get(found_key)
    if found is None:
        found = _draw_stamp((ox, oy), (cx - x, cy - y), reach, paint)
    piece, cover, left, top, right, bottom = found
    placed = (piece, (x + left, y + top, x + right, y + bottom), cover)
    with _STAMPS_LOCK:  # pictures are drawn on worker threads
        for kept, found_here, limit in ((_STAMPS, (found_key, found), _STAMPS_LIMIT),
                                        (_PLACED, ((key, cx, cy, reach), placed), _PLACED_LIMIT)):
            if found_here[0] not in kept:
                if len(kept) >= limit:
                    kept.pop(next(iter(kept)), None)
                kept[found_here[0]] = found_here[1]
    draw.im.paste(*placed)


def _anchor(centre: float, reach: int) -> tuple[int, tuple]:
    """The pixel a stamp for `centre` is drawn around on its own canvas, and what of the
    place that keeps: floating-point sums round alike only between numbers of one binary
    order of magnitude, so a piece is drawn in the same power-of-two range as in place
    (with the same parity, as round() breaks ties to even), or at the very place when its
    reach crosses from one range into the next. Then every pixel comes out as in place."""
    pixel = math.floor(centre)
    low, high = pixel - reach - 2, pixel + reach + 2
    if low >= 1:
        base = 1 << (low.bit_length() - 1)
        if high < 2 * base:
            return base + reach + 2 + (pixel - base - reach - 2) % 2, ("range", base, pixel % 2)
    return pixel, ("at", pixel)


def _draw_stamp(origin: tuple[int, int], offset: tuple[float, float], reach: int,
                paint) -> tuple:
    """The piece in the palette and the pixels it covers (those that come out the same on
    two grounds), cropped to them, as Pillow's core images (pasted without the wrappers'
    cost), and their box around the anchor pixel `origin`."""
    (ox, oy), (dx, dy) = origin, offset
    box = (max(0, ox - reach - 1), max(0, oy - reach - 1), ox + reach + 2, oy + reach + 2)
    grounds = []
    for ground in (INK, WHITE):
        image = Image.new("RGB", box[2:], ground)
        paint(ImageDraw.Draw(image), ox + dx, oy + dy)
        grounds.append(image.crop(box))
    cover = ImageChops.difference(*grounds).convert("L").point([255] + [0] * 255)
    inner = cover.getbbox() or (0, 0, 1, 1)
    left, top = box[0] + inner[0] - ox, box[1] + inner[1] - oy
    cover = cover.crop(inner).convert("1", dither=Image.Dither.NONE)  # a 1-bit mask pastes in about half the time
    return (to_palette(grounds[0].crop(inner)).im, cover.im, left, top,
            left + inner[2] - inner[0], top + inner[3] - inner[1])


def side_styles(players: list[dict]) -> dict[str, tuple[tuple[int, int, int], str]]:
    """Seat -> (colour, shape), each seat a different style, stable for a player list."""
    taken: set[int] = set()
    styles = {}
    for player in players:
        index = PREFERRED.get(player.get("affiliation", ""))
        if index is None or index in taken:
            index = next(i for i in range(len(STYLES)) if i not in taken)
        taken.add(index)
        styles[player["seat"]] = STYLES[index % len(STYLES)]
    return styles


def team_name(team: str) -> str:
    """A team's name as people read it ('team-a' -> 'Team A')."""
    return team.replace("-", " ").title()


def teams_of(view: dict) -> dict[str, list[dict]]:
    """Team -> its players, in a team game ({} otherwise)."""
    if not view.get("options", {}).get("teams"):
        return {}
    found: dict[str, list[dict]] = {}
    for player in view.get("players", []):
        found.setdefault(player["team"], []).append(player)
    return found


def decider(decision: dict, names: dict[str, str]) -> str:
    """Who a picture says a decision waits for: a decision put to a team names every
    teammate who may answer it ('Bo or Di')."""
    return " or ".join(names.get(s, s) for s in (decision["player"], *decision.get("also", [])))


@functools.lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font, so pictures look the same on every machine."""
    return ImageFont.load_default(size=size)


@functools.lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> int:
    left, _, right, _ = font(size).getbbox(text)
    return right - left


@functools.lru_cache(maxsize=1024)
def fit_size(text: str, width: int, largest: int, smallest: int = 9) -> int:
    """The largest font size from `largest` down at which `text` fits in `width` pixels."""
    size = largest
    while size > smallest and text_width(text, size) > width:
        size -= 1
    return size


def clipped(string: str, size: int, width: int) -> str:
    """`string` as it fits in `width` pixels at font `size`: whole, or its longest start that
    fits with an ellipsis after it."""
    if text_width(string, size) <= width:
        return string
    low, high = 0, len(string)
    while low < high:
        middle = (low + high + 1) // 2
        if text_width(string[:middle].rstrip() + "…", size) <= width:
            low = middle
        else:
            high = middle - 1
    return string[:low].rstrip() + "…"


@functools.lru_cache(maxsize=4096)
def _text_mask(string: str, size: int, anchor: str) -> tuple[Image.Image, Image.Image, int, int]:
    """Anti-aliased coverage of a text and where it covers at all, rendered once and
    reused (most labels repeat)."""
    left, top, right, bottom = font(size).getbbox(string, anchor=anchor)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)))
    ImageDraw.Draw(mask).text((-left, -top), string, font=font(size), fill=255, anchor=anchor)
    mask.coverage = mask.tobytes()  # for bytes.translate through a ramp
    return mask, mask.point([0] + [255] * 255), left, top


@functools.lru_cache(maxsize=512)
def _ramp(fill: tuple, ground: int) -> bytes:
    """Coverage 0-255 -> the palette entry of `fill` blended over the entry `ground`, as
    blending in RGB and then quantizing gives it (a table for bytes.translate)."""
    strip = Image.new("RGB", (256, 1), tuple(_PALETTE_BYTES[3 * ground:3 * ground + 3]))
    ImageDraw.Draw(strip).bitmap((0, 0), Image.frombytes("L", (256, 1), bytes(range(256))), fill=fill)
    return to_palette(strip).tobytes()


@functools.lru_cache(maxsize=4096)
def _text_patch(string: str, size: int, anchor: str, fill: tuple, ground: int) -> tuple[object, bool]:
    """A text's pixels over one palette entry (see _ramp), drawn once per text and colours,
    as Pillow's core image; and whether it may be pasted whole (its blank pixels are the
    entry `ground` itself), which costs a tenth of pasting it through the text's cover."""
    ramp = _ramp(fill, ground)
    mask = _text_mask(string, size, anchor)[0]
    return Image.frombytes("P", mask.size, mask.coverage.translate(ramp)).im, ramp[0] == ground


Clear = tuple[tuple[int, int, int, int], tuple[int, int, int]]  # (box, colour): a part holding only that colour


def _blend_text(draw: PaletteDraw, xy: tuple[int, int], found: tuple, string: str, size: int, anchor: str,
                fill, clear: Optional[Clear] = None) -> None:
    """Anti-aliased text on a palette picture (`found`: its _text_mask): over one colour as
    a cached patch of ramp entries, over several by blending that patch in RGB. The ground
    is looked at, unless the text lies within `clear`. (Pillow's core calls: most labels
    are small, and the wrappers cost more than the pixels.)"""
    mask, cover, _, _ = found
    x, y = xy
    box = (x, y, x + mask.width, y + mask.height)
    image = draw.picture
    inside = 0 <= x and 0 <= y and box[2] <= image.width and box[3] <= image.height
    if inside and clear is not None and _within(box, clear[0]):
        low = high = ink(clear[1])
    else:
        low, high = draw.im.crop(box).getextrema() if inside else (0, 1)
    if low == high:
        patch, whole = _text_patch(string, size, anchor, tuple(fill), low)
        if whole:
            draw.im.paste(patch, box)
            return
    else:
        blended = image.crop(box).convert("RGB")
        ImageDraw.Draw(blended).bitmap((0, 0), mask, fill=tuple(fill))
        patch = to_palette(blended).im
    draw.im.paste(patch, box, cover.im)


def _within(box: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], string: str, size: int, fill,
         anchor: str = "la", clear: Optional[Clear] = None) -> Optional[tuple[int, int, int, int]]:
    """Text at a point, placed by a Pillow anchor ('la' top-left, 'mm' centre, 'lm', 'rm', 'rb' ...);
    returns the box it may cover (None for no text). `clear`: a box of the picture and the
    one colour the caller knows it holds (nothing drawn there yet): a text wholly inside
    it is pasted without looking at the picture first."""
    if not string:
        return None
    found = _text_mask(string, size, anchor)
    at = (round(xy[0]) + found[2], round(xy[1]) + found[3])
    if isinstance(draw, PaletteDraw):
        _blend_text(draw, at, found, string, size, anchor, fill, clear)
    else:
        draw.bitmap(at, found[0], fill=fill)
    return at[0], at[1], at[0] + found[0].width, at[1] + found[0].height


def centred_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], string: str, size: int, fill,
                 clear: Optional[Clear] = None) -> None:
    """Text centred on a point (`clear` as for `text`)."""
    text(draw, xy, string, size, fill, "mm", clear)


def polygon_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Corner points of a token shape of radius r (None for a circle)."""
    corners = {"square": (4, 45), "diamond": (4, 0), "hexagon": (6, 0), "triangle": (3, -90), "octagon": (8, 22.5)}
    count, start = corners[shape]
    scale = 0.9 if shape == "square" else 1.0
    if shape == "square":
        r *= 1.25
    if shape == "triangle":
        r *= 1.2
        cy += r * 0.18
    return [(cx + r * scale * math.cos(math.radians(start + 360 * i / count)),
             cy + r * scale * math.sin(math.radians(start + 360 * i / count))) for i in range(count)]


def draw_shape(draw: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float, fill, outline=None,
               width: int = 1) -> None:
    """A token shape centred on (cx, cy) (stamped on a palette picture)."""
    def paint(draw, cx: float, cy: float) -> None:
        if shape == "circle":
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)
        else:
            draw.polygon(polygon_points(shape, cx, cy, r), fill=fill, outline=outline, width=width)
    stamp(draw, ("shape", shape, r, fill, outline, width), cx, cy, math.ceil(1.3 * r) + width + 3, paint)


def dashed_line(draw: ImageDraw.ImageDraw, a, b, fill, width: int, dash: float, gap: float) -> None:
    """A dashed straight line from a to b, starting and ending with a dash."""
    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return
    count = max(1, round((length + gap) / (dash + gap)))
    step = length / count
    part = step * dash / (dash + gap)
    for i in range(count):
        s = i * step + (step - part) / 2
        e = s + part
        draw.line([(x0 + (x1 - x0) * s / length, y0 + (y1 - y0) * s / length),
                   (x0 + (x1 - x0) * e / length, y0 + (y1 - y0) * e / length)], fill=fill, width=width)


def digest(drawn) -> str:
    """A short fingerprint of what a picture draws (plain data): two pictures drawn from
    the same parts are the same, so a table need not draw or upload it again."""
    return hashlib.sha256(json.dumps(drawn, sort_keys=True, default=str).encode()).hexdigest()


def encode(image: Image.Image) -> bytes:
    """PNG bytes of a picture in the fixed palette (an RGB one is mapped onto it first):
    fast, small, deterministic."""
    out = io.BytesIO()
    (image if image.mode == "P" else to_palette(image)).save(out, "PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()
