"""The mission area: boards placed in slots, their doors matched, coordinates assigned.

Boards sit on one square grid. The two-player layout puts the Main Corridor (8x2) in
the middle with four mission-board slots around it (nw, ne above; sw, se below, turned
half a turn so their south side faces the corridor). The six-board layout of 3- and
4-player games adds a slot at each end of the corridor (w, e, turned a quarter turn so
their south side faces the corridor's end door). The Borg-cube layout puts four
mission boards in a 2x2 square with no corridor. A board may be mirrored ("flip").

Where two boards touch, an edge is a door only when both boards have a door there;
any other door on a touching edge is blocked. Corridor doors that face no board get
a turbolift space beside them (four-board corridor layout only).
"""
from __future__ import annotations

import string
from collections import OrderedDict
from typing import Literal, Optional

import msgspec

from engine.awaymissions.content import Board, Pack, cell_xy

Edge = tuple[str, str]

# slot -> (x, y) of the board's north-west cell once placed, and its quarter turns
# (each turns the board so that its south side faces one side further clockwise: 1 west, 2 north, 3 east)
CORRIDOR_SLOTS = {"nw": (1, 0, 0), "ne": (5, 0, 0), "sw": (1, 6, 2), "se": (5, 6, 2)}
SIX_SLOTS = {**CORRIDOR_SLOTS, "w": (-3, 3, 3), "e": (9, 3, 1)}
CORRIDOR_ORIGIN = (1, 4)
CUBE_SLOTS = {"nw": (0, 0, 0), "ne": (4, 0, 0), "sw": (0, 4, 2), "se": (4, 4, 2)}
CUBE_BOARDS = ("armory", "medical-lab", "science-lab", "transporter-room")


class Placement(msgspec.Struct, omit_defaults=True):
    """One mission board in one slot."""

    board: str
    slot: str
    flip: bool = False


class LayoutSpec(msgspec.Struct, omit_defaults=True):
    """How the mission area is put together; the geometry is derived from it."""

    mode: Literal["corridor", "cube"] = "corridor"
    corridor: Optional[str] = None
    placements: list[Placement] = []
    six: bool = False  # the six-board corridor layout of 3- and 4-player games (no turbolift spaces)

    def key(self) -> str:
        parts = [self.mode, self.corridor or "-"]
        parts += [f"{p.board}@{p.slot}{'~' if p.flip else ''}" for p in self.placements]
        return "|".join(parts) + ("|six" if self.six else "")

    @property
    def slots(self) -> dict[str, tuple[int, int, int]]:
        """The slots of this layout: name -> (x, y, quarter turns)."""
        if self.mode == "cube":
            return CUBE_SLOTS
        return SIX_SLOTS if self.six else CORRIDOR_SLOTS

    @property
    def size(self) -> int:
        """How many mission boards the finished layout holds."""
        return len(self.slots)


class Space(msgspec.Struct, frozen=True):
    """One space of the mission area, named by the coordinate players type."""

    id: str
    board: str
    x: int
    y: int
    features: tuple[str, ...] = ()


class Geometry:
    """Spaces and typed edges of a laid-out mission area. Immutable; cached per layout."""

    def __init__(self, spaces: dict[str, Space], edges: dict[Edge, str], blocked_doors: list[Edge],
                 lifts: dict[str, tuple[str, ...]]):
        self.spaces = spaces
        self.edges = edges  # (a, b) both ways -> "open" | "door" | "wall"
        self.blocked_doors = blocked_doors
        self.lifts = lifts  # turbolift space -> turbolift spaces on other boards
        self.at = {(s.x, s.y): s.id for s in spaces.values()}
        self.links: dict[str, tuple[tuple[str, str], ...]] = {}
        for sid in spaces:
            self.links[sid] = tuple((b, kind) for (a, b), kind in edges.items() if a == sid and kind != "wall")
        self.doors = sorted({tuple(sorted(e)) for e, kind in edges.items() if kind == "door"})
        self.boards = sorted({s.board for s in spaces.values()})
        self.los_memo: dict = {}
        self.sight_memo: dict = {}  # (a, b, occupied, screens) -> line of sight (Table.sees)

    def board_spaces(self, board: str) -> list[str]:
        return [s.id for s in self.spaces.values() if s.board == board]

    def with_feature(self, feature: str) -> list[str]:
        return [s.id for s in self.spaces.values() if feature in s.features]


def _transform(board: Board, turns: int, flip: bool):
    """Map a local cell (x, y) and a direction to the board's placed orientation: mirrored
    first, then turned `turns` quarter turns (each takes south to west)."""

    def cell(x: int, y: int) -> tuple[int, int]:
        width, height = board.width, board.height
        if flip:
            x = width - 1 - x
        for _ in range(turns % 4):
            x, y = height - 1 - y, x
            width, height = height, width
        return x, y

    def direction(dx: int, dy: int) -> tuple[int, int]:
        if flip:
            dx = -dx
        for _ in range(turns % 4):
            dx, dy = -dy, dx
        return dx, dy

    return cell, direction


def _outer_doors(board: Board) -> list[tuple[int, int, int, int]]:
    """(x, y, dx, dy) of each door on the board's outer edge, in local terms."""
    doors = []
    for side, positions in board.doors_out.items():
        for p in positions:
            if side == "north":
                doors.append((p, 0, 0, -1))
            elif side == "south":
                doors.append((p, board.height - 1, 0, 1))
            elif side == "west":
                doors.append((0, p, -1, 0))
            else:
                doors.append((board.width - 1, p, 1, 0))
    return doors


class _Draft:
    """Boards dropped onto the grid, before coordinates are assigned."""

    def __init__(self):
        self.cells: dict[tuple[int, int], tuple[str, tuple[str, ...]]] = {}
        self.inner: dict[frozenset, str] = {}
        self.door_marks: dict[tuple[tuple[int, int], tuple[int, int]], str] = {}

    def add(self, board: Board, ox: int, oy: int, turns: int, flip: bool) -> None:
        cell, direction = _transform(board, turns, flip)

        def place(x: int, y: int) -> tuple[int, int]:
            cx, cy = cell(x, y)
            return ox + cx, oy + cy

        for x in range(board.width):
            for y in range(board.height):
                name = f"{string.ascii_lowercase[x]}{y + 1}"
                self.cells[place(x, y)] = (board.code, tuple(board.features.get(name, ())))
        for x in range(board.width):
            for y in range(board.height):
                for nx, ny in ((x + 1, y), (x, y + 1)):
                    if nx < board.width and ny < board.height:
                        self.inner[frozenset((place(x, y), place(nx, ny)))] = "open"
        for kind, pairs in (("wall", board.walls), ("door", board.doors)):
            for a, b in pairs:
                self.inner[frozenset((place(*cell_xy(a)), place(*cell_xy(b))))] = kind
        for x, y, dx, dy in _outer_doors(board):
            gx, gy = place(x, y)
            ddx, ddy = direction(dx, dy)
            self.door_marks[((gx, gy), (gx + ddx, gy + ddy))] = board.code

    def copy(self) -> "_Draft":
        """Another draft with the same boards, to add to without changing this one."""
        other = _Draft()
        other.cells, other.inner, other.door_marks = dict(self.cells), dict(self.inner), dict(self.door_marks)
        return other

    def matched_doors(self, board_code: str) -> tuple[int, int]:
        """(doors of this board matched by a neighbour, of those the ones onto a corridor)."""
        matched = to_corridor = 0
        for (here, there), owner in self.door_marks.items():
            if owner == board_code and (there, here) in self.door_marks:
                matched += 1
                if self.cells[there][0].startswith("corridor"):
                    to_corridor += 1
        return matched, to_corridor


def _draft(pack: Pack, spec: LayoutSpec) -> _Draft:
    draft = _Draft()
    slots = spec.slots
    if spec.mode == "corridor" and spec.corridor:
        draft.add(pack.boards[spec.corridor], *CORRIDOR_ORIGIN, 0, False)
    for p in spec.placements:
        ox, oy, turns = slots[p.slot]
        draft.add(pack.boards[p.board], ox, oy, turns, p.flip)
    return draft


_SCORES: dict[tuple[str, str, str], tuple[int, int]] = {}
_BASES: dict[tuple[str, str], _Draft] = {}  # drafts that trial placements are added to (never changed)


def _trial_draft(pack: Pack, spec: LayoutSpec) -> _Draft:
    """The draft of `spec`, built as the draft of all but its last placement (kept, since
    every trial placement in a setup step adds to the same boards) plus that placement."""
    if not spec.placements:
        return _draft(pack, spec)
    base = LayoutSpec(spec.mode, spec.corridor, spec.placements[:-1], spec.six)
    key = (pack.path, base.key())
    found = _BASES.get(key)
    if found is None:
        if len(_BASES) > 1_000:
            _BASES.clear()
        found = _BASES[key] = _draft(pack, base)
    draft = found.copy()
    last = spec.placements[-1]
    ox, oy, turns = spec.slots[last.slot]
    draft.add(pack.boards[last.board], ox, oy, turns, last.flip)
    return draft


def placement_score(pack: Pack, spec: LayoutSpec, board_code: str) -> tuple[int, int]:
    """How well `board_code` (already in spec) connects: (matched doors, doors to the corridor)."""
    key = (pack.path, spec.key(), board_code)
    score = _SCORES.get(key)
    if score is None:
        if len(_SCORES) > 50_000:
            _SCORES.clear()
        score = _SCORES[key] = _trial_draft(pack, spec).matched_doors(board_code)
    return score


_GEOMETRIES: "OrderedDict[tuple[str, str], Geometry]" = OrderedDict()
GEOMETRIES_KEPT = 64  # layouts whose geometry (and line-of-sight memo) stays in memory


def geometry(pack: Pack, spec: LayoutSpec) -> Geometry:
    """The geometry of a layout, built once per pack and layout and then shared."""
    key = (pack.path, spec.key())
    built = _GEOMETRIES.get(key)
    if built is None:
        built = _GEOMETRIES[key] = _build(pack, spec)
        if len(_GEOMETRIES) > GEOMETRIES_KEPT:
            _GEOMETRIES.popitem(last=False)
    else:
        _GEOMETRIES.move_to_end(key)
    return built


def _build(pack: Pack, spec: LayoutSpec) -> Geometry:
    draft = _draft(pack, spec)
    cells = dict(draft.cells)
    lifts_added: list[tuple[tuple[int, int], tuple[int, int]]] = []
    if spec.mode == "corridor" and not spec.six:
        for (here, there), owner in draft.door_marks.items():
            if owner.startswith("corridor") and there not in cells:
                cells[there] = (owner, ("turbolift",))
                lifts_added.append((here, there))
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    minx, miny = min(xs), min(ys)

    def name(xy: tuple[int, int]) -> str:
        return f"{string.ascii_uppercase[xy[0] - minx]}{xy[1] - miny + 1}"

    spaces = {name(xy): Space(name(xy), board, xy[0] - minx, xy[1] - miny, features)
              for xy, (board, features) in sorted(cells.items(), key=lambda kv: (kv[0][1], kv[0][0]))}
    edges: dict[Edge, str] = {}
    blocked: list[Edge] = []
    for (x, y) in cells:
        for nxy in ((x + 1, y), (x, y + 1)):
            if nxy not in cells:
                continue
            pair = frozenset(((x, y), nxy))
            if pair in draft.inner:
                kind = draft.inner[pair]
            else:
                here_door = (((x, y), nxy) in draft.door_marks) or (((x, y), nxy) in lifts_added)
                there_door = ((nxy, (x, y)) in draft.door_marks) or ((nxy, (x, y)) in lifts_added)
                lift_edge = ((x, y), nxy) in lifts_added or (nxy, (x, y)) in lifts_added
                if lift_edge or (here_door and there_door):
                    kind = "door"
                else:
                    kind = "wall"
                    if here_door or there_door:
                        blocked.append((name((x, y)), name(nxy)))
            a, b = name((x, y)), name(nxy)
            edges[(a, b)] = edges[(b, a)] = kind
    lifts: dict[str, tuple[str, ...]] = {}
    if spec.mode == "corridor":
        lift_spaces = [s for s in spaces.values() if "turbolift" in s.features]
        for s in lift_spaces:
            lifts[s.id] = tuple(t.id for t in lift_spaces if t.board != s.board)
    return Geometry(spaces, edges, blocked, lifts)


def placement_problem(pack: Pack, spec: LayoutSpec, placement: Placement) -> Optional[str]:
    """Why `placement` may not be added to `spec` (None when it may).

    A board must join flat in a free slot, connect by at least one door to the
    Main Corridor (in the cube: to a board already placed), and be oriented so that
    as many of its doors as possible are matched.
    """
    board = pack.boards.get(placement.board)
    if board is None or board.kind != "mission":
        return f"'{placement.board}' is not a mission board"
    if any(p.board == placement.board for p in spec.placements):
        return f"the {board.name} is already placed"
    slots = spec.slots
    if placement.slot not in slots:
        return f"'{placement.slot}' is not a slot (choose from {', '.join(slots)})"
    if any(p.slot == placement.slot for p in spec.placements):
        return f"slot {placement.slot} is taken"
    if spec.mode == "cube" and placement.board not in CUBE_BOARDS:
        return "the Borg cube is made of the Armory, Medical Lab, Science Lab and Transporter Room"
    scores = {}
    for flip in (False, True):
        trial = LayoutSpec(spec.mode, spec.corridor, [*spec.placements, Placement(placement.board, placement.slot, flip)],
                           spec.six)
        scores[flip] = placement_score(pack, trial, placement.board)
    matched, to_corridor = scores[placement.flip]
    if spec.mode == "corridor" and to_corridor == 0:
        return f"the {board.name} must connect to the Main Corridor by a door there"
    if spec.mode == "cube" and spec.placements and matched == 0:
        return f"the {board.name} must connect by a door to a board already placed"
    if matched < max(m for m, _ in scores.values()):
        return f"the {board.name} must be {'mirrored' if not placement.flip else 'unmirrored'} there, to match more doors"
    return None


def best_placement(pack: Pack, spec: LayoutSpec, board: str, slot: str) -> Optional[Placement]:
    """The legal placement of `board` in `slot`, unmirrored if both ways are legal."""
    for flip in (False, True):
        placement = Placement(board, slot, flip)
        if placement_problem(pack, spec, placement) is None:
            return placement
    return None


PRESETS = {
    "standard": ("corridor", "corridor-federation", ["bridge", "engineering", "science-lab", "medical-lab"]),
    "borg-corridor": ("corridor", "corridor-borg", ["armory", "transporter-room", "bridge", "engineering"]),
    "cube": ("cube", None, ["armory", "transporter-room", "science-lab", "medical-lab"]),
    "six": ("corridor", "corridor-federation",
            ["bridge", "engineering", "science-lab", "medical-lab", "armory", "transporter-room"]),
    "borg-six": ("corridor", "corridor-borg",
                 ["armory", "transporter-room", "bridge", "engineering", "science-lab", "medical-lab"]),
}
SIX_BOARD_PRESETS = ("six", "borg-six")


def preset(pack: Pack, name: str) -> LayoutSpec:
    """A ready-made layout: the preset's boards put in nw, ne, sw, se (then w, e), each best oriented."""
    mode, corridor, boards = PRESETS[name]
    spec = LayoutSpec(mode=mode, corridor=corridor, six=name in SIX_BOARD_PRESETS)
    for board, slot in zip(boards, spec.slots):
        placement = best_placement(pack, spec, board, slot)
        if placement is None:
            raise ValueError(f"preset {name}: {board} cannot go in {slot}")
        spec.placements.append(placement)
    return spec


_FEATURE_LETTERS = {"command": "C", "science": "S", "operations": "O", "medical": "M", "turbolift": "T",
                    "transporter": "X"}


def ascii_map(pack: Pack, geo: Geometry) -> str:
    """The mission area as text (the maps of docs/layouts.md): each cell the board's short
    name and its features; `|` and `----` are walls, `:` and `-::-` doors, blank edges open."""
    width = max(s.x for s in geo.spaces.values()) + 1
    height = max(s.y for s in geo.spaces.values()) + 1
    at = {(s.x, s.y): s for s in geo.spaces.values()}

    def edge(a: Optional[Space], b: Optional[Space]) -> Optional[str]:
        if a is None or b is None:
            return None
        return geo.edges.get((a.id, b.id))

    # column letters on two header lines, odd columns above even ones (A C E ... / B D F ...)
    lines = ["    " + "".join(f"  {string.ascii_uppercase[x] if x % 2 == parity else ' '}  " for x in range(width))
             for parity in (0, 1)]
    for y in range(height):
        row = f"{y + 1:>3} "
        for x in range(width):
            space = at.get((x, y))
            kind = edge(at.get((x - 1, y)), space)
            row += "|" if kind == "wall" else ":" if kind == "door" else " "
            if space is None:
                row += "    "
            else:
                letters = "".join(_FEATURE_LETTERS[f] for f in space.features if f in _FEATURE_LETTERS)
                row += f"{(pack.boards[space.board].short + letters)[:4]:<4}"
        lines.append(row.rstrip() if False else row + " ")
        below = "    "
        for x in range(width):
            kind = edge(at.get((x, y)), at.get((x, y + 1)))
            below += " " + ("----" if kind == "wall" else "-::-" if kind == "door" else "    ")
        lines.append(below + " ")
    return "\n".join(line.rstrip() for line in lines)


if __name__ == "__main__":
    from engine.awaymissions.content import load_pack

    starter = load_pack("content/starter")
    for preset_name in PRESETS:
        print(f"### {preset_name}\n\n```\n{ascii_map(starter, geometry(starter, preset(starter, preset_name)))}\n```\n")
