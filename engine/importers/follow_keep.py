"""Following a VASL game keeps what the player set that the save does not say: a new reading of
the save merged with the position shown.

- NVR: the player's when the save's scenario record gives none (rules.md 11.5), or gives the
  one it gave at the last reading; else the save's.
- The starshell state (E1.92): the later of the player's and the save's (a starshell or IR on
  the map: fired this player turn at least); once fired, a new player turn makes it "earlier".
- Phase and attacker: the save's when VASL's turn marker says them, else the player's.
- Units the player moved or changed by hand since the last reading (found by their counter,
  VASSAL's piece id) stay as the player left them when the save did not touch them; when the
  save moved or changed them too, they are ``conflicts``: the caller asks the player, and
  ``Merge.scenario(keep=True)`` keeps the player's, ``keep=False`` takes the save's.  Units
  added by hand stay (and leave the margin's waiting list); units deleted by hand stay gone
  while the save leaves them as they were.  Markers placed by hand (a starshell fired here)
  stay while the save has none such; those taken away stay away while the save has them still.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..night.checks import check
from ..night.scenario import Scenario, Unit
from .follow import counter_key, marker_words, unit_words
from .waiting import WAITING_KEY

STARSHELL_ORDER = ("never", "this_turn", "earlier")      # SPEC.md starshells_used, in time


@dataclass
class Merge:
    """A reading merged with the position shown: ``base`` the reading with every setting and
    hand change kept that the save does not contradict; ``conflicts``: (the save's unit, the
    player's) for counters both changed; ``said``: what was kept, in words."""
    base: Scenario
    conflicts: list[tuple[Unit, Unit]] = field(default_factory=list)
    said: list[str] = field(default_factory=list)

    def conflict_words(self) -> list[str]:
        """Each conflict in words: "4-6-7 (ge1): you set 2K6, the save 2K7"."""
        return [f"{unit_words(mine)}: you left it {_state_words(mine)}, the save has it "
                f"{_state_words(theirs)}" for theirs, mine in self.conflicts]

    def scenario(self, keep: bool = False) -> Scenario:
        """The position to show: the player's version of each conflicting counter (``keep``),
        else the save's."""
        if not keep or not self.conflicts:
            return self.base
        mine = {counter_key(theirs): m.replace(id=theirs.id) for theirs, m in self.conflicts
                if self.base.map.has(m.hex)}        # a hex the save's map still has
        units = tuple(mine.get(counter_key(u), u) for u in self.base.units)
        return check(self.base.replace(units=units))


def _state_words(unit: Unit) -> str:
    flags = [w for w, on in (("broken", unit.broken), ("concealed", unit.concealed),
                             ("BU", unit.bu and unit.is_vehicle)) if on]
    return f"in {unit.hex}" + (f" ({', '.join(flags)})" if flags else "")


def _same(a: Unit, b: Unit) -> bool:
    """The same counter in the same state (the numbering of a reading aside)."""
    return a.replace(id=b.id) == b


def merge_reading(shown: Scenario, last_read: Scenario | None, new: Scenario,
                  summary: dict) -> Merge:
    """``new`` (a reading, with its import ``summary``: ``nvr_from``, ``turn_from``) merged with
    ``shown`` (the position the player sees), ``last_read`` being the reading ``shown`` was
    made from (None: the first)."""
    said: list[str] = []
    changes: dict = {}
    if summary.get("nvr_from") != "save" and shown.nvr != new.nvr:
        changes["nvr"] = shown.nvr                  # rules.md 11.5: the save gives no NVR
    elif last_read is not None and shown.nvr != last_read.nvr == new.nvr:
        # E1.1, rules.md 11.5: the player set the NVR and the save still gives the one it gave
        changes["nvr"] = shown.nvr
        said.append(f"NVR {shown.nvr} kept as you set it (the save still says {new.nvr})")
    if summary.get("night") is None and shown.night != new.night:
        changes["night"] = shown.night              # rules.md 11.5: the save does not say
    turn_said = summary.get("turn_from") == "save"
    if not turn_said:
        changes["phase"], changes["attacker"] = shown.phase, shown.attacker
    used = max(shown.starshells_used, new.starshells_used, key=_order)
    if (turn_said and shown.attacker != new.attacker and used != "never"
            and last_read is not None):
        used = "earlier"        # E1.92: the first was fired in an earlier player turn
    if used != new.starshells_used:
        changes["starshells_used"] = used
    merged = new.replace(**changes) if changes else new
    if last_read is None:
        return Merge(merged, [], said)
    units, conflicts, extra = _keep_hand_changes(shown, last_read, merged, said)
    markers = _keep_hand_markers(shown, last_read, merged, said)
    if units is not None or markers is not None:
        merged = check(merged.replace(units=merged.units if units is None else units,
                                      markers=merged.markers if markers is None else markers,
                                      extra=extra))
    return Merge(merged, conflicts, said)


def _keep_hand_markers(shown: Scenario, last_read: Scenario, new: Scenario, said: list[str]):
    """The new reading's markers with those the player placed by hand (a starshell fired here,
    a Gunflash) kept while the save has none such, and those the player took away left out
    while the save still has them as they were (None: nothing to keep)."""
    placed = Counter(shown.markers) - Counter(last_read.markers)
    removed = Counter(last_read.markers) - Counter(shown.markers)
    if not placed and not removed:
        return None
    have = Counter(new.markers)
    out = list(new.markers)
    for marker, n in removed.items():
        for _ in range(min(n, have[marker])):
            out.remove(marker)
    for marker, n in placed.items():
        more = n - have[marker]
        if more > 0 and new.map.has(marker.hex):
            out += [marker] * more
            said.append(f"{marker_words(marker)} kept where you placed it")
    return tuple(out)


def _order(used: str) -> int:
    return STARSHELL_ORDER.index(used) if used in STARSHELL_ORDER else 0


def _keep_hand_changes(shown: Scenario, last_read: Scenario, new: Scenario, said: list[str]):
    """The new reading's units with the player's hand changes kept where the save left those
    counters alone; the conflicts; the position's extra without the counters placed by hand
    (None, [], extra: nothing to keep)."""
    before = {counter_key(u): u for u in last_read.units}
    mine = {counter_key(u): u for u in shown.units}
    units = {counter_key(u): u for u in new.units}
    order = [counter_key(u) for u in new.units]
    conflicts: list[tuple[Unit, Unit]] = []
    placed: set[str] = set()
    touched = False
    for key, unit in mine.items():
        old = before.get(key)
        if old is not None and _same(old, unit):
            continue                                # not changed by hand
        theirs = units.get(key)
        if theirs is None:
            if old is not None or not new.map.has(unit.hex):
                continue                            # the save took it away / not on this map
            unit = _free_id(unit, units.values())
            units[key], touched = unit, True        # placed by hand: stays
            order.append(key)
            placed.update(v for v in (unit.id, str(unit.extra.get("vasl_id") or "")) if v)
            said.append(f"{unit_words(unit)} kept where you placed it ({unit.hex})")
        elif old is not None and _same(old, theirs) and new.map.has(unit.hex):
            units[key], touched = unit.replace(id=theirs.id), True   # the save left it alone
        elif not _same(theirs, unit.replace(id=theirs.id)):
            conflicts.append((theirs, unit))        # both changed it: the player says
    for key, old in before.items():                 # deleted by hand, untouched by the save
        if key not in mine and key in units and _same(old, units[key]):
            del units[key]
            touched = True
    if not touched:
        return None, conflicts, new.extra
    waiting = [w for w in new.extra.get(WAITING_KEY, []) or []
               if not (isinstance(w, dict) and {str(w.get("id")), str(w.get("vasl_id"))} & placed)]
    extra = {k: v for k, v in new.extra.items() if k != WAITING_KEY}
    if waiting:
        extra[WAITING_KEY] = waiting
    return tuple(units[k] for k in order if k in units), conflicts, extra


def _free_id(unit: Unit, others) -> Unit:
    """``unit`` under an id no other unit of the reading has (a reading numbers its own)."""
    taken = {u.id for u in others}
    if unit.id not in taken:
        return unit
    k = 2
    while f"{unit.id}.{k}" in taken:
        k += 1
    return unit.replace(id=f"{unit.id}.{k}")
