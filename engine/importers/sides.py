"""The two sides of a VASL game: which nationalities play on each.

A save says each counter's nationality (``piece_kinds.nation_of``), not the side it plays on.  By
default a nationality plays on its usual side (``piece_kinds.AXIS`` / ``ALLIED``: Germans and
Finns Axis, Russians Allied...); a save holding more than two nationalities asks the player,
who may split them otherwise (Finns against Germans, 1944) or leave one out.  Written
``ge+fi,ru``: the nationality codes of each side joined by "+", the two sides by a comma
(``import-vsav --sides``).  Sides that agree with the usual ones are named "axis" and
"allied", others by their nationalities ("fi", "ge+ss").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import ScenarioError
from .piece_kinds import classify, nation_of, side_of
from .pieces import SavedGame, parse_saved_game
from .vassal import read_saved_game

_CODE_RE = re.compile(r"^[a-z]{2,4}$")
MAX_NATIONS = 40


@dataclass(frozen=True)
class Sides:
    """Two groups of nationality codes, each a side of the game."""
    first: tuple[str, ...]
    second: tuple[str, ...]

    @property
    def names(self) -> tuple[str, str]:
        """ "axis", "allied" when the groups keep to the usual sides, else their codes."""
        usual = [{side_of(n) for n in g} for g in (self.first, self.second)]
        if usual == [{"axis"}, {"allied"}]:
            return "axis", "allied"
        if usual == [{"allied"}, {"axis"}]:
            return "allied", "axis"
        return "+".join(self.first), "+".join(self.second)

    def side_of(self, nation: str) -> str | None:
        """The side ``nation`` plays on (None: on neither)."""
        if nation in self.first:
            return self.names[0]
        if nation in self.second:
            return self.names[1]
        return None

    def said(self) -> str:
        """ "ge+fi (axis) against ru (allied)", "fi against ge"."""
        out = []
        for group, name in zip((self.first, self.second), self.names):
            codes = "+".join(group)
            out.append(codes if codes == name else f"{codes} ({name})")
        return " against ".join(out)

    def text(self) -> str:
        return f"{'+'.join(self.first)},{'+'.join(self.second)}"


def game_nations(game: SavedGame) -> list[str]:
    """The nationalities of the save's units (on the boards or waiting), most counters first."""
    counts: dict[str, int] = {}
    for p in game.pieces:
        kind, _, _ = classify(p)
        nation = nation_of(p)
        if kind == "unit" and nation and _CODE_RE.match(nation):
            counts[nation] = counts.get(nation, 0) + 1
    return sorted(counts, key=lambda n: (-counts[n], n))


def save_nations(path: str | Path) -> list[str]:
    """``game_nations`` of a .vsav file (its boards are not read).  ScenarioError naming it."""
    text = read_saved_game(Path(path))
    try:
        return game_nations(parse_saved_game(text))
    except ScenarioError as e:
        raise e.at(file=str(path)) from None


def default_sides(nations: list[str]) -> Sides:
    """Each nationality on its usual side; one with none is left out."""
    return Sides(tuple(n for n in nations if side_of(n) == "axis"),
                 tuple(n for n in nations if side_of(n) == "allied"))


def parse_sides(text: str, place: str = "--sides") -> Sides:
    """``ge+fi,ru`` -> Sides(("ge", "fi"), ("ru",)); ScenarioError naming what is wrong."""
    parts = text.split(",")
    if len(parts) != 2:
        raise ScenarioError(f"{text[:80]!r}: two sides, each nationality codes joined by '+', "
                            "the sides by a comma (ge+fi,ru)", place=place)
    groups = []
    for part in parts:
        codes = [c.strip().lower() for c in part.split("+") if c.strip()]
        if not codes:
            raise ScenarioError(f"{text[:80]!r}: a side without a nationality", place=place)
        bad = [c for c in codes if not _CODE_RE.match(c)]
        if bad:
            raise ScenarioError(f"{bad[0][:20]!r} is not a nationality code (VASL's: ge, ru, "
                                "fi, am...)", place=place)
        groups.append(tuple(dict.fromkeys(codes)))
    both = set(groups[0]) & set(groups[1])
    if both:
        raise ScenarioError(f"nationality {sorted(both)[0]!r} is on both sides", place=place)
    if len(groups[0]) + len(groups[1]) > MAX_NATIONS:
        raise ScenarioError(f"more than {MAX_NATIONS} nationalities", place=place)
    return Sides(groups[0], groups[1])
