"""A finished game's recap: one frame per activation (a Renegades orbit frame per round),
each the board with that activation's moves and attacks marked above a caption saying
which frame it is and what it shows, as an animated GIF
(ruling P43: the format Discord plays inline everywhere).

    recap = render_recap(chapters)   # chapters: engine/service/story.Chapter
    recap.data, recap.frames, recap.playing_ms

The whole animation lasts at most LONGEST_MS and fits in LIMIT bytes: frames are shown
for less time in a longer game, and drawn smaller while the file is too big. Every frame
is drawn from a public view, so no hidden card shows.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Callable, Iterator, Protocol, Sequence

from PIL import Image

from images.board import board_image
from images.orbit import orbit_image
from images.style import PALETTE, VOID, WHITE, canvas, pen, text, to_palette
from images.surface import surface_image

LONGEST_MS = 20_000  # the whole recap
FRAME_MS = 1_200  # a frame, in a short game
SHORTEST_MS = 20  # GIF players show a shorter frame for 100 ms
LIMIT = 8 << 20  # bytes: within a bot's upload limit on any server
SCALES = (1.0, 0.75, 0.5, 0.35)  # tried in turn until the recap fits in LIMIT

CAPTION = 34  # pixels below each frame for its caption (where the footer changes anyway)
KINDS = {"board": "an activation", "orbit": "the ships' turns in orbit", "surface": "a landing party's activation"}
PICTURES: dict[str, Callable[[dict, list[dict]], Image.Image]] = {
    "board": lambda view, events: board_image(view, events, waiting=False),
    "orbit": orbit_image,
    "surface": surface_image,
}


class Chapter(Protocol):
    """What a frame is drawn from (engine/service/story.Chapter)."""

    picture: str
    round: int
    view: dict
    events: list[dict]


@dataclass(frozen=True)
class Recap:
    """The animation and what it holds."""

    data: bytes
    frames: int
    playing_ms: int  # the whole animation, once through
    scale: float  # of the frames' drawn size


def frame_ms(frames: int) -> int:
    """How long each frame shows: FRAME_MS, less in a long game so that all of them last at
    most LONGEST_MS (a whole number of hundredths, as GIF keeps it)."""
    return max(SHORTEST_MS, min(FRAME_MS, LONGEST_MS // max(frames, 1) // 10 * 10))


def caption(chapter: Chapter, number: int, frames: int) -> str:
    """The line below a frame: which one it is, of how many, and what it shows."""
    return f"{number} of {frames} · round {chapter.round} · {KINDS[chapter.picture]}"


def frames_of(chapters: Sequence[Chapter], scale: float = 1.0) -> Iterator[Image.Image]:
    """Every chapter drawn above its caption, on canvases of one size (the largest
    picture's), in the palette, at `scale`. A generator, each picture let go as its frame
    is made: the GIF writer keeps a copy of every frame, so no list of them is kept too."""
    drawn = [PICTURES[c.picture](c.view, c.events) for c in chapters]
    size = (max((d.width for d in drawn), default=1), max((d.height for d in drawn), default=1) + CAPTION)
    for number, chapter in enumerate(chapters, start=1):
        picture, drawn[number - 1] = drawn[number - 1], None
        frame = canvas(size, VOID)
        frame.paste(picture, ((size[0] - picture.width) // 2, (size[1] - CAPTION - picture.height) // 2))
        text(pen(frame), (12, size[1] - CAPTION / 2), caption(chapter, number, len(drawn)), 18, WHITE, "lm")
        yield frame if scale == 1.0 else _smaller(frame, scale)


def render_recap(chapters: Sequence[Chapter], limit: int = LIMIT) -> Recap:
    """The recap of these chapters as an animated GIF within `limit` bytes (ValueError with
    no chapters, or when even the smallest frames do not fit; each smaller try draws the
    frames again)."""
    if not chapters:
        raise ValueError("a recap needs at least one activation")
    each = frame_ms(len(chapters))
    for scale in SCALES:
        data = _gif(frames_of(chapters, scale), each)
        if len(data) <= limit:
            return Recap(data, len(chapters), each * len(chapters), scale)
    raise ValueError(f"the recap of {len(chapters)} frames does not fit in {limit} bytes")


def _smaller(frame: Image.Image, scale: float) -> Image.Image:
    size = (round(frame.width * scale), round(frame.height * scale))
    return to_palette(frame.convert("RGB").resize(size, Image.Resampling.LANCZOS))


def _gif(frames: Iterator[Image.Image], each: int) -> bytes:
    out = io.BytesIO()
    next(frames).save(out, "GIF", save_all=True, append_images=frames, duration=each, loop=0,
                      palette=PALETTE.getpalette())
    return out.getvalue()
