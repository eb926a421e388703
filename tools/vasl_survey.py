"""Import every VASL board archive of a folder, each in its own bounded process, and print a table.

    python tools/vasl_survey.py FOLDER [--seconds 30] [--megabytes 1024] [--json]

Each regular file of FOLDER (not its subfolders; hidden files and files with a ``.txt``,
``.md``, ``.xml`` or ``.json`` suffix left out) is imported with the program's own importer
(``engine.api.vasl.import_board``, as ``import-vasl`` imports it, nothing written) in a child
process whose address space is limited to ``--megabytes`` (RLIMIT_AS) and its processor time
to ``--seconds`` (RLIMIT_CPU: a busy machine does not make an archive slow), ended too after ten
times that of wall time.  Printed: one line per archive (imported with its size in hexes, or
refused with the importer's message), then the totals: imported, refused by cause (the message
with its numbers and names taken out: one cause per kind of refusal), over the time limit, over
the memory limit, and the slowest time and largest memory of the imports.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import resource
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

SKIPPED_SUFFIXES = {".txt", ".md", ".xml", ".json"}
KINDS = {(33, 10): "geomorphic boards (33 x 10 hexes)", (17, 20): "half boards (17 x 20)",
         (15, 5): "Deluxe boards (15 x 5)"}             # rules.md 11.6
WALL_FACTOR = 10                # wall time allowed: ten times the processor time


def _child(path: str) -> None:
    """Import one archive and print one JSON line (run inside the bounded process)."""
    started = time.perf_counter()
    out: dict = {"file": Path(path).name}
    try:
        from engine.errors import ScenarioError
        from engine.importers.vasl import import_board
        try:
            board, report = import_board(path)
        except ScenarioError as e:
            out |= {"status": "refused", "message": str(e.problem), "place": e.place or ""}
        else:
            out |= {"status": "imported", "size": list(board.size), "hexes": len(board.hexes),
                    "notes": len(report)}
    except MemoryError:
        out |= {"status": "memory", "message": "out of memory"}
    out["seconds"] = round(time.perf_counter() - started, 3)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out["cpu_seconds"] = round(usage.ru_utime + usage.ru_stime, 3)
    out["megabytes"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    print(json.dumps(out), flush=True)


def _limit(seconds: float, megabytes: int):
    def apply() -> None:
        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        cpu = max(1, math.ceil(seconds))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    return apply


def survey_one(path: Path, seconds: float, megabytes: int) -> dict:
    """One archive imported in a bounded child process: its JSON line, or what stopped it."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
               NUMBA_NUM_THREADS="1", MALLOC_ARENA_MAX="2")
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    started = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "tools.vasl_survey", "--one", str(path)],
                              capture_output=True, text=True, timeout=WALL_FACTOR * seconds,
                              env=env, cwd=root, preexec_fn=_limit(seconds, megabytes))
    except subprocess.TimeoutExpired:
        return {"file": path.name, "status": "time", "seconds": round(WALL_FACTOR * seconds, 3),
                "message": f"over {WALL_FACTOR * seconds:g} s of wall time"}
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if lines:
        return json.loads(lines[-1])
    if done.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return {"file": path.name, "status": "time", "message": f"over {seconds:g} s",
                "seconds": round(time.perf_counter() - started, 3)}
    tail = (done.stderr.strip().splitlines() or ["no output"])[-1][:200]
    status = "memory" if "MemoryError" in done.stderr or "Cannot allocate" in done.stderr \
        else "crashed"
    return {"file": path.name, "status": status, "message": tail,
            "seconds": round(time.perf_counter() - started, 3)}


def cause(message: str) -> str:
    """A refusal's kind: its message with numbers, quoted values and file names taken out."""
    text = re.sub(r"\"[^\"]*\"", '"..."', message)
    text = re.sub(r"\b[\w.-]+\.(gif|png|jpg|jpeg|GIF|PNG|JPG|JPEG)\b", "PICTURE", text)
    text = re.sub(r"-?\d+(\.\d+)?", "N", text)
    text = re.sub(r"\([^)]*\)", "", text)
    return re.sub(r"\s+", " ", text).strip()[:110]


def archives(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir()
                  if p.is_file() and not p.name.startswith(".")
                  and p.suffix.lower() not in SKIPPED_SUFFIXES)


def table(results: list[dict]) -> str:
    """The lines the survey prints: one per archive, then the totals."""
    lines = []
    for r in results:
        what = (f"imported {r['size'][0]} x {r['size'][1]}" if r["status"] == "imported"
                else f"{r['status']}: {r.get('message', '')}")
        lines.append(f"{r['file']:<24} {r.get('cpu_seconds', r.get('seconds', 0)):7.2f} s "
                     f"{r.get('megabytes', 0):7.1f} MB  {what}"[:200])
    count = Counter(r["status"] for r in results)
    lines += ["", f"archives: {len(results)}", f"imported: {count['imported']}"]
    sizes = Counter(tuple(r["size"]) for r in results if r["status"] == "imported")
    for size, words in KINDS.items():
        lines.append(f"  {sizes.pop(size, 0):4d}  {words}")
    lines.append(f"  {sum(sizes.values()):4d}  maps of other sizes ({len(sizes)} sizes)")
    lines.append(f"refused: {count['refused']}")
    causes = Counter(cause(r["message"]) for r in results if r["status"] == "refused")
    for text, n in causes.most_common():
        lines.append(f"  {n:4d}  {text}")
    for status, words in (("time", "over the time limit"), ("memory", "over the memory limit"),
                          ("crashed", "crashed")):
        lines.append(f"{words}: {count[status]}")
    done = [r for r in results if r["status"] in ("imported", "refused")]
    if done:
        slow = max(done, key=lambda r: r.get("cpu_seconds", 0))
        big = max(done, key=lambda r: r.get("megabytes", 0))
        lines.append(f"slowest: {slow['file']} {slow.get('cpu_seconds', 0):.2f} s of processor "
                     f"time; largest: {big['file']} {big['megabytes']:.0f} MB")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--megabytes", type=int, default=1024)
    parser.add_argument("--json", action="store_true", help="one JSON line per archive")
    args = parser.parse_args(argv)
    if args.one:
        _child(args.one)
        return 0
    if not args.folder or not Path(args.folder).is_dir():
        parser.error("FOLDER must be a folder of VASL board archives")
    results = []
    for path in archives(Path(args.folder)):
        results.append(survey_one(path, args.seconds, args.megabytes))
        if args.json:
            print(json.dumps(results[-1]), flush=True)
    if not args.json:
        print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
