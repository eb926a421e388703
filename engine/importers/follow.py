"""Following a VASL game: what changed between two readings of the same save, in the player's
words ("3 units moved, Starshell in 2Y4"), and which unit of the new reading is the counter a
unit of the old one was (VASSAL's piece id, ``vasl_id``, is the same counter in every save)."""
from __future__ import annotations

from collections import Counter

from ..night.kinds import MARKER_KINDS
from ..night.scenario import Scenario


def _key(unit) -> str:
    return str(unit.extra.get("vasl_id") or unit.id)


def same_unit(before: Scenario, after: Scenario, unit_id: str | None) -> str | None:
    """The id in ``after`` of the counter that was unit ``unit_id`` in ``before`` (None: gone)."""
    if unit_id is None:
        return None
    old = next((u for u in before.units if u.id == unit_id), None)
    if old is None:
        return None
    return next((u.id for u in after.units if _key(u) == _key(old)), None)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def game_changes(before: Scenario, after: Scenario, limit: int = 4) -> str:
    """What changed, shortest first: units moved, placed, gone, changed; markers new and gone
    ("Starshell in 2Y4"); "nothing changed" when nothing did."""
    old = {_key(u): u for u in before.units}
    new = {_key(u): u for u in after.units}
    moved = sum(1 for k, u in new.items() if k in old and old[k].hex != u.hex)
    changed = sum(1 for k, u in new.items() if k in old and old[k].hex == u.hex
                  and old[k].replace(id=u.id) != u)       # a new number is no new state
    parts = []
    if moved:
        parts.append(f"{_plural(moved, 'unit')} moved")
    if len(new.keys() - old.keys()):
        parts.append(f"{_plural(len(new.keys() - old.keys()), 'unit')} placed")
    if len(old.keys() - new.keys()):
        parts.append(f"{_plural(len(old.keys() - new.keys()), 'unit')} gone")
    if changed:
        parts.append(f"{_plural(changed, 'unit')} changed state")
    was = Counter((m.type, m.hex) for m in before.markers)
    now = Counter((m.type, m.hex) for m in after.markers)
    label = {t: k.label[:1].upper() + k.label[1:] for t, k in MARKER_KINDS.items()}
    added = sorted((now - was).elements(), key=lambda m: m[1])
    parts += [f"{label.get(t, t)} in {h}" for t, h in added[:limit]]
    if len(added) > limit:
        parts.append(f"{len(added) - limit} more marker(s)")
    gone = sorted((was - now).elements(), key=lambda m: m[1])
    parts += [f"{label.get(t, t)} gone from {h}" for t, h in gone[:limit]]
    if (before.phase, before.attacker) != (after.phase, after.attacker):
        parts.append(f"now {after.phase}, {after.attacker} attacking")
    return ", ".join(parts) if parts else "nothing changed"
