"""The frame of a square grid with lettered columns (the Renegades orbital and surface
boards): where each square sits in the picture."""
from __future__ import annotations

from dataclasses import dataclass

from engine.renegades.contents.content import cell_xy


@dataclass(frozen=True)
class GridFrame:
    """A grid of `cols` x `rows` squares of `cell` pixels, with `margin` around it and
    `footer` pixels below it."""

    cols: int
    rows: int
    cell: int
    margin: int
    footer: int

    @property
    def size(self) -> tuple[int, int]:
        return self.cols * self.cell + 2 * self.margin, self.rows * self.cell + 2 * self.margin + self.footer

    def box(self, square: str) -> tuple[int, int, int, int]:
        x, y = cell_xy(square)
        left, top = self.margin + x * self.cell, self.margin + y * self.cell
        return left, top, left + self.cell, top + self.cell

    def centre(self, square: str) -> tuple[float, float]:
        left, top, _, _ = self.box(square)
        return left + self.cell / 2, top + self.cell / 2
