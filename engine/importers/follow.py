"""Following a VASL game: what changed between two readings of the same save, in the player's
words ("4-6-7 (ge1) moved to 2K7, Starshell in 2Y4, NVR 2 from the save"), and which unit of the
new reading is the counter a unit of the old one was (VASSAL's piece id, ``vasl_id``, is the
same counter in every save)."""
from __future__ import annotations

from collections import Counter

from ..night.kinds import MARKER_KINDS
from ..night.scenario import Scenario, Unit

STARSHELL_WORDS = {"never": "none fired yet", "this_turn": "first fired this player turn",
                   "earlier": "first fired in an earlier player turn"}


def counter_key(unit: Unit) -> str:
    """The counter a unit is, the same in every reading: VASSAL's piece id, else the unit id."""
    return str(unit.extra.get("vasl_id") or unit.id)


def unit_words(unit: Unit) -> str:
    """A unit as the player knows it: its counter's name and its id ("4-6-7 (ge1)")."""
    name = str(unit.extra.get("name") or unit.type.replace("_", " "))
    return f"{name} ({unit.id})"


def marker_words(marker) -> str:
    """A marker as the player knows it: "Starshell in 2T6"."""
    kind = MARKER_KINDS.get(marker.type)
    label = kind.label[:1].upper() + kind.label[1:] if kind else marker.type
    return f"{label} in {marker.hex}"


def same_unit(before: Scenario, after: Scenario, unit_id: str | None) -> str | None:
    """The id in ``after`` of the counter that was unit ``unit_id`` in ``before`` (None: gone)."""
    if unit_id is None:
        return None
    old = next((u for u in before.units if u.id == unit_id), None)
    if old is None:
        return None
    return next((u.id for u in after.units if counter_key(u) == counter_key(old)), None)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def game_changes(before: Scenario, after: Scenario, limit: int = 4) -> str:
    """What changed, shortest first: units moved (named, up to ``limit``), placed, gone,
    changed; markers new and gone ("Starshell in 2Y4"); the turn, the NVR and the starshell
    state; "nothing changed" when nothing did."""
    old = {counter_key(u): u for u in before.units}
    new = {counter_key(u): u for u in after.units}
    moved = [u for k, u in new.items() if k in old and old[k].hex != u.hex]
    changed = sum(1 for k, u in new.items() if k in old and old[k].hex == u.hex
                  and old[k].replace(id=u.id) != u)       # a new number is no new state
    parts = []
    if len(moved) > limit:
        parts.append(f"{_plural(len(moved), 'unit')} moved")
    else:
        parts += [f"{unit_words(u)} moved to {u.hex}" for u in moved]
    if len(new.keys() - old.keys()):
        parts.append(f"{_plural(len(new.keys() - old.keys()), 'unit')} placed")
    if len(old.keys() - new.keys()):
        parts.append(f"{_plural(len(old.keys() - new.keys()), 'unit')} gone")
    if changed:
        parts.append(f"{_plural(changed, 'unit')} changed state")
    parts += _marker_changes(before, after, limit)
    if (before.phase, before.attacker) != (after.phase, after.attacker):
        parts.append(f"now {after.phase}, {after.attacker} attacking")
    if before.nvr != after.nvr:     # the save's own NVR (follow_keep keeps the player's else)
        parts.append(f"NVR {after.nvr} from the save")
    if before.starshells_used != after.starshells_used:
        parts.append("starshells: " + STARSHELL_WORDS.get(after.starshells_used,
                                                          after.starshells_used) + " (E1.92)")
    return ", ".join(parts) if parts else "nothing changed"


def _marker_changes(before: Scenario, after: Scenario, limit: int) -> list[str]:
    was = Counter((m.type, m.hex) for m in before.markers)
    now = Counter((m.type, m.hex) for m in after.markers)
    label = {t: k.label[:1].upper() + k.label[1:] for t, k in MARKER_KINDS.items()}
    added = sorted((now - was).elements(), key=lambda m: m[1])
    parts = [f"{label.get(t, t)} in {h}" for t, h in added[:limit]]
    if len(added) > limit:
        parts.append(f"{len(added) - limit} more marker(s)")
    gone = sorted((was - now).elements(), key=lambda m: m[1])
    return parts + [f"{label.get(t, t)} gone from {h}" for t, h in gone[:limit]]
