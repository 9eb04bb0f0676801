"""What opponent_bench.py --completion counts in a Renegades game: whether the mission was
completed, and how often a computer-flown figure walked back to a square it left in the same
activation while nothing else had changed (the mission parameter where it was, every piece
of the other sides on its square)."""
from engine.renegades.contents.state import GameState


def completed(state: GameState) -> bool:
    """Whether the game ended with the mission completed (won, lost to the other side or
    tied), not unfinished when the world deck ran out."""
    return (state.result or {}).get("outcome", "unfinished") != "unfinished"


class WalkBacks:
    """Counts walk-backs of the moves it is shown (`before`, then `after` each command)."""

    def __init__(self):
        self.count = 0
        self._activation = None
        self._left = {}  # piece -> {square it left: what stood around when it left}
        self._moving = None

    def before(self, state: GameState, command: str) -> None:
        words = command.split()
        self._moving = None
        if words[0] != "move" or len(words) < 3:
            return
        piece = state.crew.get(words[1]) or state.ships.get(words[1])
        if piece is None or piece.cell is None:
            return
        activation = (state.round, state.phase, state.current.ship if state.current else None)
        if activation != self._activation:
            self._activation, self._left = activation, {}
        self._moving = (words[1], piece.cell, _surroundings(state, piece.faction))

    def after(self, state: GameState) -> None:
        if self._moving is None:
            return
        code, start, around = self._moving
        piece = state.crew.get(code) or state.ships.get(code)
        if piece.cell is None or piece.cell == start:
            return
        if self._left.get(code, {}).get(piece.cell) == around:
            self.count += 1
        self._left.setdefault(code, {})[start] = around


def _surroundings(state: GameState, side: str) -> tuple:
    """The mission parameter's whereabouts and the squares of every piece of another side."""
    obj = state.objective
    where = (obj.sealed, obj.cell, obj.holder, obj.ship) if obj is not None else None
    others = sorted((c.id, c.cell) for c in state.crew.values() if c.faction != side and c.cell)
    others += sorted((f.id, f.cell) for f in state.figures.values())
    others += sorted((s.id, s.cell) for s in state.ships.values() if s.faction != side and s.cell)
    return where, tuple(others)
