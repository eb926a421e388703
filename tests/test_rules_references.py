"""The program and its pages cite the project's own rules page: every "rules.md n" in the code,
the README, the messages and the docs names a section docs/rules.md carries (its table and a
heading say the number), and nothing names a file the repository lacks (the rules digest of the
project's shared folder)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CITED = re.compile(r"rules\.md\s+(\d+(?:\.\d+)?)")
RULES_PAGE = ROOT / "docs" / "rules.md"


def sources() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for folder in ("app", "engine", "tools", "bench", "assets"):
        files += sorted(p for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".md"))
    return files


def test_every_rule_cited_is_a_section_of_the_rules_page():
    page = RULES_PAGE.read_text(encoding="utf-8")
    carried = set(re.findall(r"^\| rules\.md (\d+(?:\.\d+)?) \|", page, re.MULTILINE))
    headings = " ".join(line for line in page.splitlines() if line.startswith("#"))
    for number in carried:                          # each number has its section's heading
        assert re.search(rf"rules\.md [\d., ]*\b{re.escape(number)}\b", headings), number
    cited = {}
    for path in sources():
        for number in CITED.findall(path.read_text(encoding="utf-8")):
            cited.setdefault(number.rstrip("."), path.relative_to(ROOT))
    assert len(cited) > 10
    missing = {n: str(p) for n, p in cited.items() if n not in carried}
    assert not missing, missing


def test_no_file_names_the_rules_digest_outside_the_repository():
    named = [str(p.relative_to(ROOT)) for p in sources()
             if "RULES.md" in p.read_text(encoding="utf-8")
             or "shared/RULES" in p.read_text(encoding="utf-8")]
    assert named == []
