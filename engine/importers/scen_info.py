"""The night a VASL save says (rules.md 11.5): VASL's scenario record, the ``INFO`` command
(its ``ScenInfo``), tab-separated, in one of three layouts told apart by the tenth field.

Every layout starts with nine fields: moves first, player, turn, Axis ELR, Axis SAN, Allied ELR,
Allied SAN, Axis booby traps, Allied booby traps.  The older saves stop there (then notes).  The
weather layout goes on with weather (one of ``WEATHERS``), EC, wind, wind direction, night
(``No`` / ``Yes``) and NVR (0-6).  The shader layout goes on with six flags (``true`` /
``false``: night, dust, fog, heat haze, low visibility, sun blindness) and six levels: it says
night but no NVR.  Night and NVR are read only where the tenth field says which layout it is;
anything else there (notes) is an older save.
"""
from __future__ import annotations

from dataclasses import dataclass

from .vassal import commands, split_escaped

COMMAND = "INFO\t"
FIRST_FIELDS = 9            # moves first .. Allied booby traps (rules.md 11.5)
WEATHERS = ("Clear", "Clear & Gusty", "Overcast", "Fog & Mist", "Mud", "Mun & Overcast", "Snow",
            "Heavy Rain", "Mud & Heavy Rain")       # VASL's spelling, "Mun" included
FLAGS = ("true", "false")
MAX_NVR = 6                 # VASL's NVR choices: 0..6
WEATHER_FIELDS = FIRST_FIELDS + 6       # ... weather, EC, wind, wind direction, night, NVR
SHADER_FIELDS = FIRST_FIELDS + 12       # ... six shader flags, six shader levels


@dataclass(frozen=True)
class ScenInfo:
    """What a save's scenario record says of the night: ``layout`` "older", "weather" or
    "shader" ("none": the save has no record); ``night`` True / False (None: not said); ``nvr``
    0-6 (None: not said); ``problems``: what could not be read, each naming its place."""
    layout: str = "none"
    night: bool | None = None
    nvr: int | None = None
    weather: str | None = None
    problems: tuple[str, ...] = ()


def parse_scen_info(command: str, place: str = "") -> ScenInfo:
    """One ``INFO`` command read (``place``: where it is, for the problems' words)."""
    fields = split_escaped(command[len(COMMAND):], "\t")
    if len(fields) <= FIRST_FIELDS:
        return ScenInfo("older")
    tenth = fields[FIRST_FIELDS].strip()
    at = f"{place}, VASL's scenario record" if place else "VASL's scenario record"
    if tenth in WEATHERS and len(fields) >= WEATHER_FIELDS:   # weather, EC, wind, its
        # direction, night, NVR (an older save's notes that read "Clear" stop sooner)
        night_text = _field(fields, FIRST_FIELDS + 4)
        nvr_text = _field(fields, FIRST_FIELDS + 5)
        problems = []
        night = {"Yes": True, "No": False, "": False}.get(night_text)   # VASL: "" is "No"
        if night is None:
            problems.append(f"{at}: night {night_text[:20]!r} is neither Yes nor No")
        nvr = int(nvr_text) if nvr_text.isdigit() and int(nvr_text) <= MAX_NVR else None
        if nvr is None and nvr_text:
            problems.append(f"{at}: NVR {nvr_text[:20]!r} is not a whole number from 0 to "
                            f"{MAX_NVR}")
        return ScenInfo("weather", night, nvr, tenth, tuple(problems))
    flags = [f.strip() for f in fields[FIRST_FIELDS:FIRST_FIELDS + 6]]
    if len(fields) >= SHADER_FIELDS and all(f in FLAGS for f in flags):
        return ScenInfo("shader", tenth == "true")   # six flags (night first), six levels
    return ScenInfo("older")        # the tenth field is the notes of an older save


def _field(fields: list[str], index: int) -> str:
    return fields[index].strip() if index < len(fields) else ""


def read_scen_info(text: str) -> ScenInfo:
    """The last scenario record of a saved game's command text (VASL writes it once; a record
    logged later wins), or ``ScenInfo()`` when there is none."""
    found = ScenInfo()
    for k, cmd in enumerate(commands(text)):
        if cmd.startswith(COMMAND):
            found = parse_scen_info(cmd, f"command {k + 1}")
    return found


DEFAULT_NVR = 3             # SPEC.md: a position's NVR when nothing says another
LIGHTS_FIRED = ("starshell", "ir")


@dataclass(frozen=True)
class NightSettings:
    """The position's night as a save gives it: ``nvr`` and where it came from (``nvr_from``:
    "save" or "default"), ``night`` (None: the save does not say), ``starshells_used``, and
    the sentences that say so."""
    nvr: int
    nvr_from: str
    night: bool | None
    starshells_used: str
    notes: tuple[str, ...]


def night_settings(info: ScenInfo, marker_types) -> NightSettings:
    """NVR and night from the scenario record (rules.md 11.5), the starshell state from the
    markers on the map (E1.92: a starshell or IR counter stays only for the player turn it was
    fired in, so one on the map means starshells have been fired, at least this player turn)."""
    notes = list(info.problems)
    if info.night is not False and info.nvr is not None:
        nvr, nvr_from = info.nvr, "save"
        notes.append(f"NVR {nvr} from the save (VASL's scenario record: night, NVR {nvr})")
    else:
        nvr, nvr_from = DEFAULT_NVR, "default"
        notes.append(f"NVR {DEFAULT_NVR} by default: " + _why_no_nvr(info))
    if info.night is False:         # rules.md 11.5: VASL's Night: No
        notes.insert(0, "a day game (VASL's scenario record says Night: No): opened as a day "
                        "position, the night rules off (E1 applies to night scenarios only)")
    types = set(marker_types)
    fired = [t for t in LIGHTS_FIRED if t in types]
    used = "this_turn" if fired else "never"
    if fired:
        what = " and ".join("a Starshell" if t == "starshell" else "an IR" for t in fired)
        notes.append(f"{what} on the map: starshells fired this player turn at least (E1.92); "
                     "if the first was fired in an earlier player turn, say so in the "
                     "Position panel (Starshells)")
    return NightSettings(nvr, nvr_from, info.night, used, tuple(notes))


def _why_no_nvr(info: ScenInfo) -> str:
    if info.layout == "none":
        return "the save has no scenario record (VASL's Info)"
    if info.layout == "older":
        return "the save's scenario record is of an older VASL, which gives no night or NVR"
    if info.layout == "shader":
        return ("the save's scenario record says " + ("night" if info.night else "no night")
                + " (VASL's night shader) but gives no NVR")
    if info.night is False:
        return "the save's scenario record says it is no night game (VASL's Night: No)"
    return "the save's scenario record gives no NVR that can be read"
