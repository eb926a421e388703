"""One board with its scenario's terrain SSRs applied, on the drawn terrain and the hex model
alike (rules.md 11.2), kept per (board content, rules) so that a field is not slowed.

VASL's order: the SSRs on the pixel grids (``pixels``), then overlays (``overlays``: a hook,
a function (board, raster) -> (board, raster) run after the SSRs), then the board turned (done
by ``maps`` when it places the board); the hex model follows the same rules (``hexmodel``)."""
from __future__ import annotations

import functools
from dataclasses import dataclass

from ..boards import Board, board_raster, with_raster
from . import table as T
from .hexmodel import apply_to_hexes, has_hex_effect
from .pixels import apply_to_raster

MAX_BOARDS_KEPT = 12         # boards kept with their rules applied (a map of 8, and some)


@dataclass(frozen=True)
class Applied:
    board: Board
    outcome: T.Outcome


class BoardKey:
    """A board as an ``lru_cache`` key: equal when the contents are (engine.cache)."""
    __slots__ = ("board", "key")

    def __init__(self, board: Board):
        self.board, self.key = board, board.content_key

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other) -> bool:
        return isinstance(other, BoardKey) and other.key == self.key


def board_with_rules(board: Board, names, overlays=None) -> Applied:
    """``board`` with the rules ``names`` applied in order; the outcome names every rule not
    applied (unknown to Starshell or unreadable) and those with no LOS effect."""
    names = tuple(T.unique(names))[:T.MAX_RULES]
    if not names and overlays is None:
        return Applied(board, T.Outcome())
    if overlays is not None:
        out = _apply(board, names, overlays)
    else:
        out = _cached(BoardKey(board), names)
    out.board.__dict__[_BASE] = board       # (itself when the rules change nothing)
    return out


_BASE = "_board_without_rules"      # kept on the board made (not a field: never saved)


def without_rules(board: Board) -> Board | None:
    """The board ``board`` was made from by ``board_with_rules`` (the rules belong to the
    position, not to the board file: rules.md 11.2), or None when it was not made so, or was
    edited since (an edit makes another Board)."""
    return board.__dict__.get(_BASE)


@functools.lru_cache(maxsize=MAX_BOARDS_KEPT)
def _cached(key: BoardKey, names: tuple[str, ...]) -> Applied:
    return _apply(key.board, names, None)


def _apply(board: Board, names: tuple[str, ...], overlays) -> Applied:
    raster = board_raster(board)
    outcome, woods = T.Outcome(), []
    if raster is not None:
        res = apply_to_raster(raster, names)
        raster, outcome, woods = res.raster, res.outcome, res.woods_hexes
    else:                   # the hex model alone: what it can show of each rule
        unread = set(T.not_known(names))
        for n in names:
            rule = T.rules().get(n)
            (outcome.not_applied if n in unread else outcome.applied
             if has_hex_effect(rule) else outcome.no_effect).append(n)
    new = apply_to_hexes(board, names, woods)
    if overlays is not None:
        new, raster = overlays(new, raster)
    if raster is not None:
        new = with_raster(new, raster)
    return Applied(new, outcome)
