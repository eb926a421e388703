"""The turn's segments and the position's settings (rules.md 8 and 10; SPEC.md "Napoleonic fire
position", extended with ``fired_this_segment`` and ``segments``).

Each segment keeps its own record, who fired and which hexes were attacked intentionally:
moving to another segment puts the current record aside and takes up the other's, so a segment
left and come back to has lost nothing (rules.md 8: one intentional attack per hex in the Fire
Segment; a unit's fire goes into one attack per segment).

Our reading of the turn, which the seed does not order: the segments in the order the seed
names the three kinds of fire (combat fire, opportunity fire, the assault segment's fire),
and after the last a new turn, whose record starts empty.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..errors import ScenarioError
from .position import SEGMENTS, FirePosition, position_from_json, position_to_json


def with_segment(pos: FirePosition, segment: str) -> FirePosition:
    """The position in ``segment``, the record of the one left kept (rules.md 8)."""
    if segment not in SEGMENTS:
        raise ScenarioError(f"must be one of {', '.join(SEGMENTS)}, not {segment!r}",
                            place="segment")
    if segment == pos.segment:
        return pos
    kept = {s: (a, f) for s, a, f in pos.other_segments}
    kept[pos.segment] = (pos.attacked, pos.fired_now)
    attacked, fired = kept.pop(segment, ((), ()))
    others = tuple((s, *kept[s]) for s in SEGMENTS if s in kept and any(kept[s]))
    return replace(pos, segment=segment, attacked=attacked, fired_now=fired,
                   other_segments=others)


def new_turn(pos: FirePosition) -> FirePosition:
    """A new turn: the first segment, nobody has fired and no hex has been attacked in any."""
    return replace(pos, segment=SEGMENTS[0], attacked=(), fired_now=(), other_segments=())


def next_segment(pos: FirePosition) -> FirePosition:
    """The segment after this one (our reading of the turn, above); after the last, a new turn."""
    k = SEGMENTS.index(pos.segment)
    return new_turn(pos) if k + 1 == len(SEGMENTS) else with_segment(pos, SEGMENTS[k + 1])


SETTINGS = ("title", "first_fire", "board", "charts")


def with_settings(pos: FirePosition, **changes) -> FirePosition:
    """The position with its ``title``, ``first_fire`` rule (rules.md 8), ``board`` (the first
    map entry's) or chart pack ``charts`` changed, checked as a file's are (a unit on a hex the
    new board lacks, a terrain the new pack does not name: ScenarioError naming the place)."""
    unknown = [k for k in changes if k not in SETTINGS]
    if unknown:
        raise ScenarioError(f"no setting {unknown[0]!r} (settings: {', '.join(SETTINGS)})")
    data = position_to_json(pos)
    for key, value in changes.items():
        if key == "board":
            data["map"][0]["board"] = value
        else:
            data[key] = value
    folder = Path(pos.path).parent if pos.path else None
    after = position_from_json(data, folder=folder)
    return replace(after, path=pos.path)
