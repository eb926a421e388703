"""What a counter of a VASL saved game is: a unit (its side and kind) or a marker, read from its
traits.

What the counters are is read from the name VASSAL would show, the image's nationality folder
(``ge/``, ``ru/``...), the broken layer, the concealment and HIP traits, and the "?" counters
stacked on units.  A counter named only by its figures ("4-6-7", "ge 4-6-7") is read by its image
letter or its figures; a unit whose side nothing tells is left out and reported, never guessed.
"""
from __future__ import annotations

import re

from .pieces import Piece

# the nationality folders of VASL's counter images, by side
AXIS = {"ge", "it", "ja", "fi", "hu", "ro", "bu", "sl", "cr", "ax", "ss", "nk"}
ALLIED = {"ru", "am", "br", "fr", "ch", "po", "gr", "du", "be", "yu", "nz", "an", "in", "al",
          "us", "un", "sk", "ff"}



# VASL's markers by the name VASSAL shows (VASL's buildFile: the piece's name as its active
# layer makes it, colour layers "Red +" .. set aside) -> our marker type, with its rule
VASL_MARKERS: dict[str, tuple[str, str]] = {
    "starshell": ("starshell", "E1.92"),
    "ir": ("ir", "E1.93"),
    "gunflash": ("gunflash", "E1.8"),
    "blaze": ("blaze", "E1.9"),
    "1-level blaze": ("blaze", "E1.9"), "2-level blaze": ("blaze", "E1.9"),
    "3-level blaze": ("blaze", "E1.9"), "4-level blaze": ("blaze", "E1.9"),
    "flame": ("flame", "E1.9"),
    "trip flare": ("trip_flare", "rules.md 10"),
    # the fire markers, each a Gunflash location (E1.8): one piece, its layer says which
    "prep fire": ("prep_fire", "E1.8"), "bnd. fire": ("bounding_fire", "E1.8"),
    "opp. fire": ("opportunity_fire", "E1.8"), "adv. fire": ("advancing_fire", "E1.8"),
    "first fire": ("first_fire", "E1.8"), "first fire ifp": ("first_fire", "E1.8"),
    "first fire sw": ("first_fire", "E1.8"), "final fire": ("final_fire", "E1.8"),
    "int. fire": ("intensive_fire", "E1.8"),
    "veh prep fire": ("prep_fire", "E1.8"), "veh first fire": ("first_fire", "E1.8"),
    "veh final fire": ("final_fire", "E1.8"),
    "ffe": ("ffe", "E1.91"),
    "smoke": ("smoke", "A24"),
    # counters in LOS (rules.md 11.4), by VASL's counter metadata names ("Red OBA FFE:1" read
    # without its colour)
    "blazing building": ("blaze", "E1.9"),
    "wreck": ("wreck", "rules.md 11.4"), "burnt out wreck": ("wreck", "rules.md 11.4"),
    "oba ffe:1": ("ffe", "rules.md 11.4"), "oba ffe:2": ("ffe", "rules.md 11.4"),
    "oba ffe:c": ("ffe", "rules.md 11.4"),
    "rubble": ("rubble", "B24"), "stone rubble": ("rubble", "B24"),
    "wood rubble": ("rubble", "B24"),
    "foxhole": ("foxhole", "B27"), "1s foxhole": ("foxhole", "B27"),
    "2s foxhole": ("foxhole", "B27"), "3s foxhole": ("foxhole", "B27"),
    "trench": ("trench", "B27"), "a-t ditch": ("ad_ditch", "B27"),
}
# rubble in VASL's level forms: "Stone Rubble Ground Level", "Wood Rubble Level 2"
_RUBBLE_RE = re.compile(r"^(stone|wood) rubble(?: ground level| level (\d))?$")
# SPEC.md smoke kinds by VASL's counter names (rules.md 11.4)
SMOKE_KIND_OF = {"white +3 smoke": "white+3", "white +2 smoke": "white+2",
                 "gray +2 smoke": "gray+2", "white +2 wp": "wp+2", "white +1 wp": "wp+1",
                 "gray +1 wp": "gray-wp+1", "smoke grenade +2": "smoke-grenade",
                 "wp grenade +1": "wp-grenade"}
_LEVEL_BLAZE_RE = re.compile(r"^(\d)-level blaze$")
# Tracked or not (E1.14: a moving tracked vehicle counts as in the NVR at twice it, a wheeled one
# at 1.5 times; rules.md 3: a half-track counts as tracked), from the palette list VASL files the
# vehicle's Wreck under (its buildFile: tanks "Ttw", "Taw", "MTw", "LTw", "TKw", assault guns and
# tank destroyers "AGw", "TDw", half-tracks "htw"; armoured and scout cars "ACw", "SCw", trucks
# "trw").  VASL files a few tracked tractors and guns among the cars and trucks: the import's
# note says how each vehicle was read.  Any other list (lend-lease, captured, ...): asked.
TRACKED_LISTS = {"Ttw": "a tank", "Taw": "a tank", "MTw": "a tank", "LTw": "a tank",
                 "TKw": "a tank", "AGw": "an assault gun", "TDw": "a tank destroyer",
                 "htw": "a half-track"}
WHEELED_LISTS = {"ACw": "an armoured car", "SCw": "a scout car", "trw": "a truck"}


def tracked_of(piece: Piece) -> tuple[bool | None, str]:
    """Whether the vehicle is tracked, from VASL's palette list of its Wreck (``TRACKED_LISTS``,
    ``WHEELED_LISTS``), and how that was read; (None, "") when the list does not say."""
    if piece.palette in TRACKED_LISTS:
        return True, f"VASL files it as {TRACKED_LISTS[piece.palette]} ({piece.palette})"
    if piece.palette in WHEELED_LISTS:
        return False, f"VASL files it as {WHEELED_LISTS[piece.palette]} ({piece.palette})"
    return None, ""


_COLOUR_LAYER = re.compile(r"^(red|green|blue|purple|white|yellow) ", re.IGNORECASE)
# smoke's layers name its strength ("White +3 Smoke", "WP grenade +1"): the piece is Smoke
_SMOKE_RE = re.compile(r"\bsmoke\b|\bwp\b", re.IGNORECASE)


def vasl_marker(piece: Piece) -> str | None:
    """The marker type VASL's name for the piece means (``VASL_MARKERS``), or None."""
    # rules.md 11.4: VASL's Map knows smoke by the whole name shown ("White +2 WP"), whatever
    # piece carries it: the colour word is part of that name, not a layer to strip
    if " ".join(piece.name.split()).lower() in SMOKE_KIND_OF:
        return "smoke"
    # the name as shown: a layer that renames the piece ("No Fire") decides, not the piece's own
    key = _COLOUR_LAYER.sub("", " ".join(piece.name.split())).lower()
    if key in VASL_MARKERS:
        return VASL_MARKERS[key][0]
    if piece.base_name.strip().lower() == "smoke" and _SMOKE_RE.search(piece.name):
        return "smoke"
    if _RUBBLE_RE.match(key):
        return "rubble"
    if key.endswith(" wreck"):          # a vehicle's wreck counter ("PzKpfw IVH Wreck")
        return "wreck"
    return None


def marker_keys(piece: Piece, marker_type: str) -> dict:
    """The position file's keys VASL's name for the piece says (SPEC.md turn four, rules.md
    11.4): a smoke's ``kind``, a Blaze's ``levels`` or ``building``, a wreck's ``burnt``,
    rubble's ``material`` and ``level``; {} when it says none."""
    full = " ".join(piece.name.split()).lower()
    if marker_type == "smoke":
        kind = SMOKE_KIND_OF.get(full)
        return {"kind": kind} if kind else {}
    if marker_type == "blaze":
        m = _LEVEL_BLAZE_RE.match(full)
        if m:
            return {"levels": int(m.group(1))}
        return {"building": True} if full == "blazing building" else {}
    if marker_type == "wreck":
        return {"burnt": True} if "burnt" in full else {}
    if marker_type == "rubble":
        m = _RUBBLE_RE.match(full)
        if m is None:
            return {"material": "stone"}
        return {"material": m.group(1)} | ({"level": int(m.group(2))} if m.group(2) else {})
    return {}


_SMC_RE = re.compile(r"^\d{1,2}\\?[-+]\d(?![-\d])")
_MMC_RE = re.compile(r"^\d{1,2}-\d{1,2}-\d{1,2}\b.*?(sq|hs|cr)\b", re.IGNORECASE)

# nationality words a piece's name may carry before or after its figures ("ge 4-6-7",
# "4-6-7 (ru)", "German 9-2"): VASL's folder codes and these words
NATION_WORDS = {
    "german": "ge", "ger": "ge", "russian": "ru", "rus": "ru", "soviet": "ru", "sov": "ru",
    "american": "am", "amer": "am", "british": "br", "brit": "br", "italian": "it",
    "ita": "it", "japanese": "ja", "jap": "ja", "finnish": "fi", "fin": "fi", "french": "fr",
    "fre": "fr", "hungarian": "hu", "hun": "hu", "romanian": "ro", "rom": "ro",
    "bulgarian": "bu", "slovak": "sl", "croatian": "cr", "polish": "po", "pol": "po",
    "greek": "gr", "dutch": "du", "belgian": "be", "yugoslav": "yu", "chinese": "ch",
    "axis": "ax", "allied": "al",
}
_NATION = r"[A-Za-z]{2,9}"
_WRAP = (r"^(?:[(\[]?(?P<pre>{n})[)\]]?[\s:_-]*)?{core}(?:[\s:_-]*[(\[]?(?P<post>{n})[)\]]?)?$")
# an MMC named only by its strength figures: firepower-range-morale (A1.2)
_FIGURES_RE = re.compile(_WRAP.format(
    n=_NATION, core=r"(?P<fp>\d{1,2})-(?P<rng>\d{1,2})-(?P<mor>\d{1,2})"))
# an SMC named by its morale and leadership modifier ("9-2", "10-3", "6+1"), A10.7
_RATING_RE = re.compile(_WRAP.format(n=_NATION, core=r"(?P<rating>\d{1,2}\\?[-+]\d)"))
# VASL's MMC images: nationality, the figures, S(quad) / H(alf squad) / C(rew): ge/ge467S
_MMC_IMAGE_RE = re.compile(r"(?:^|/)(?P<nat>[a-z]{2})(?P<digits>\d{3,6})(?P<kind>[SHC])[^/]*$")
MMC_KINDS = {"S": "squad", "H": "half_squad", "C": "crew"}
KIND_WORDS = {"squad": "a squad", "half_squad": "a half-squad", "crew": "a crew",
              "leader": "a leader"}


def side_of(nation: str) -> str | None:
    if nation in AXIS:
        return "axis"
    if nation in ALLIED:
        return "allied"
    return None


def _nation_word(word: str | None) -> str | None:
    """The nationality code a name's prefix or suffix stands for (None: not a nationality)."""
    if not word:
        return None
    w = word.lower()
    code = NATION_WORDS.get(w, w)
    return code if side_of(code) else None


def named_figures(name: str) -> tuple[re.Match | None, str | None]:
    """(match, nationality) when the name is only figures, with at most a nationality word
    before or after: an MMC's ``4-6-7`` or an SMC's ``9-2``.  A word that is not a nationality
    makes it no such name."""
    bare = name.strip()
    if bare.lower().startswith("broken "):
        bare = bare[7:].strip()
    for rx in (_FIGURES_RE, _RATING_RE):
        m = rx.match(bare)
        if m is None:
            continue
        words = [w for w in (m.group("pre"), m.group("post")) if w]
        codes = [_nation_word(w) for w in words]
        if any(c is None for c in codes) or len(set(codes)) > 1:
            return None, None
        return m, (codes[0] if codes else None)
    return None, None


def figures_kind(match: re.Match, image: str) -> tuple[str, str]:
    """What an MMC named only by its figures is, and how that was read: VASL's image letter
    when its figures agree (ge467S: a squad), else the figures.  A1.2-A1.3: a half squad has
    about half its squad's firepower: firepower 3 or less reads as a half squad, 4 or more as
    a squad; 2-2-8 is the crew (A21.1)."""
    digits = match.group("fp") + match.group("rng") + match.group("mor")
    im = _MMC_IMAGE_RE.search(image or "")
    if im and im.group("digits") == digits:
        return MMC_KINDS[im.group("kind")], f"its image {image.rsplit('/', 1)[-1]!r}"
    fp = int(match.group("fp"))
    if digits == "228":
        return "crew", "its figures 2-2-8 (a crew)"
    if fp <= 3:
        return "half_squad", f"its figures (firepower {fp}: a half squad)"
    return "squad", f"its figures (firepower {fp}: a squad)"


def nation_of(piece: Piece) -> str:
    """The piece's nationality: its traits or image folder, else a nationality word of its
    name (``ge 4-6-7``), else the nationality of a VASL MMC image without a folder
    (``ge467S.png``); "" when nothing says."""
    if side_of(piece.nation):
        return piece.nation
    _, word = named_figures(piece.name)
    if word:
        return word
    im = _MMC_IMAGE_RE.search(piece.image or "")
    if im and side_of(im.group("nat")):
        return im.group("nat")
    return piece.nation


def classify(piece: Piece) -> tuple[str, str, dict] | tuple[None, str, dict]:
    """("unit", type, flags) / ("marker", type, {}) / (None, why, {})."""
    low = piece.name.lower().strip()
    base_low = piece.base_name.lower()
    mtype = vasl_marker(piece)
    if mtype is not None:
        return "marker", mtype, {}
    if piece.counter_type == "global" or piece.image.startswith(("tables/", "DO/")):
        return None, "a label, track or game marker", {}
    if low == "?" or base_low == "?":
        return None, "a concealment counter (the units under it are marked concealed)", {}
    names = " ".join([piece.name] + piece.layer_names)
    bare = low.removeprefix("broken ").strip()
    vehicle = "/veh/" in piece.image or bool(re.search(r"\bvca\d", names))
    if vehicle:
        # the vehicle's BU/CE layer: its shown level says which (D5.2, E1.14)
        armoured = bool(re.search(r"(^|[\s+])(BU|CE)\b", names))
        hatch = {w.strip("+ ").upper() for w in piece.shown_layers} & {"BU", "CE"}
        if not hatch:
            hatch = set(re.findall(r"\s(BU|CE)\b", piece.name))
        flags = {"tracked": tracked_of(piece)[0]}
        if armoured:
            flags["bu"] = "BU" in hatch
            flags["ce"] = "CE" in hatch
        else:
            flags["ce"] = ("CE" in hatch) or None
        return "unit", "afv" if armoured else "vehicle", flags
    if re.search(r"\bmtr\b|mortar", low):
        return "unit", "mortar", {}
    if "/ord/" in piece.image or re.search(r"\bca\d\b", low):
        return None, "a Gun (not a unit of the night rules)", {}
    if base_low in ("radio", "field phone", "phone") or re.search(r"\bradio\b|field phone", low):
        return "unit", "observer", {}
    if re.search(r"\bhero\b", low) or "hero" in base_low:
        return "unit", "hero", {}
    if re.search(r"\bal$", bare) or re.search(r"/..al\d", piece.image.lower()):
        return "unit", "armor_leader", {}
    m = _MMC_RE.match(bare)
    if m:
        return "unit", {"sq": "squad", "hs": "half_squad", "cr": "crew"}[m.group(1).lower()], {}
    if base_low.endswith(("ldr", "com")) or _SMC_RE.match(bare):
        return "unit", "leader", {}
    fig, _ = named_figures(piece.name)
    if fig is not None:
        # a counter named only by its figures ("4-6-7", "ge 4-6-7", "9-2 ru"), A1.2 / A10.7
        if "rating" in fig.groupdict():
            return "unit", "leader", {}
        return "unit", figures_kind(fig, piece.image)[0], {}
    if piece.counter_type == "common":
        return None, "a support weapon or fortification (not a unit of the night rules)", {}
    return None, "not a unit or marker of the night rules", {}


_FIGURES_IN_NAME = re.compile(r"\b(\d{1,2}-\d{1,2}-\d{1,2})\b")
_RATING_IN_NAME = re.compile(r"^(?:broken )?(\d{1,2}[-+]\d)\b")
# a vehicle's layer words: its name ends before the first (matched one word at a time: no
# expression runs over a run of spaces, so reading a save takes time linear in its names)
_VEHICLE_LAYER_WORD = re.compile(r"(?:[vt]ca\d|BU|CE|Wreck|Motion|Moved)\b")


def vehicle_name(text: str) -> str:
    """A vehicle's own name: its words up to the first layer word after the first."""
    words = text.split()
    for at in range(1, len(words)):
        if _VEHICLE_LAYER_WORD.match(words[at]):
            return " ".join(words[:at])
    return " ".join(words)


def counter_name(piece: Piece, what: str) -> str:
    """The counter's own name as the player knows it: an MMC's figures ("4-6-7"), a leader's
    rating ("9-2"), a vehicle's name ("PzKw IVH"), else the name VASSAL shows."""
    name = " ".join(piece.name.split())
    if what in ("afv", "vehicle"):
        return vehicle_name(piece.base_name) or name
    if what in ("leader", "armor_leader"):
        m = _RATING_IN_NAME.match(name.lower())
        return m.group(1) if m else name
    m = _FIGURES_IN_NAME.search(name)
    if what in ("squad", "half_squad", "crew") and m:
        return m.group(1)
    return name.removeprefix("broken ")
