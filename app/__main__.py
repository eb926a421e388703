"""``python -m app [SCENARIO] [--screenshot OUT.png [--select UNIT] [--size WxH]]``, and
``python -m app GAME.vsav [--boards DIR]`` for a VASL saved game, ``python -m app --follow
GAME.vsav|DIR [--boards DIR]`` to follow one as VASL writes it.

Without ``--screenshot``: the window, on SCENARIO or on the bundled default scenario.  With it:
the same map view rendered headless to OUT.png and exit.  Bad input: a line on stderr starting
with ``error:``, exit status 2.
"""
from __future__ import annotations

import argparse
import os
import re
import sys

MAX_SIDE = 16384


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)


def _size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not m or not (0 < int(m.group(1)) <= MAX_SIDE and 0 < int(m.group(2)) <= MAX_SIDE):
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 1600x900 "
                                         f"(1..{MAX_SIDE} pixels a side)")
    return int(m.group(1)), int(m.group(2))


def parse_args(argv=None) -> argparse.Namespace:
    p = _Parser(prog="starshell", description="Starshell: night visibility for ASL")
    p.add_argument("scenario", nargs="?", help="a scenario file (default: the bundled one)")
    p.add_argument("--screenshot", metavar="OUT.png", help="render the map to a PNG and exit")
    p.add_argument("--select", metavar="UNIT", help="the unit whose night field is shown")
    p.add_argument("--size", metavar="WxH", type=_size, default=(1600, 900),
                   help="screenshot size in pixels (default 1600x900)")
    p.add_argument("--follow", metavar="GAME.vsav|DIR",
                   help="follow a VASL game: reload the save (or a folder's newest save) "
                        "whenever VASL writes it")
    p.add_argument("--boards", metavar="DIR",
                   help="a VASL saved game's boards: the folder of your VASL boards "
                        "(default: the one Starshell remembers)")
    return p.parse_args(argv)


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")    # headless: no window shown
    from PySide6.QtWidgets import QApplication

    from engine import api

    from . import rooms, style
    from .file_kinds import is_vsav

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("Starshell")
    app.setApplicationName("Starshell")
    style.apply_theme(app)
    path = args.scenario                      # None: the bundled default position
    options = {}
    if args.boards is not None and args.follow is None:   # a VASL saved game's boards
        if path is None or not is_vsav(path):
            return _fail("--boards is for a VASL saved game (GAME.vsav)")
        if not os.path.isdir(args.boards):
            return _fail(f"{args.boards}: not a folder (--boards)")
        options["boards"] = args.boards
    if args.follow is not None:
        if not (os.path.isdir(args.follow) or (is_vsav(args.follow) and os.path.isfile(args.follow))):
            return _fail(f"{args.follow}: not a VASL saved game (.vsav) or a folder (--follow)")
        if args.screenshot or path is not None:
            return _fail("--follow opens its own game: no SCENARIO or --screenshot with it")
        from .night.vasl.follow import start_following
        window = rooms.open_window(None, recover=False)
        start_following(window, args.follow, args.boards)
        window.show()
        return app.exec()
    try:
        if args.screenshot:
            width, height = args.size
            rooms.save_screenshot(path, args.screenshot, width, height, args.select, **options)
            return 0
        # unsaved work a crash left behind comes first, if the player wants it back
        window = rooms.open_window(path, select=args.select, recover=True, **options)
    except api.ScenarioError as e:
        return _fail(str(e) if e.file else f"{path or rooms.default_path()}: {e}")
    except OSError as e:
        return _fail(str(e))
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
