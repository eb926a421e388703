"""``python -m engine shoot TABLE --shooter ID [--turn SIDE] --json`` (SPEC.md "Command line,
added")."""
from __future__ import annotations

from .rolls import shoot
from .table import load_table


def cmd_shoot(args) -> dict:
    table = load_table(args.table)
    return shoot(table, args.shooter, args.turn)


def add_commands(add) -> None:
    sp = add("shoot", cmd_shoot, "tabletop (DBA 3.0): whom an element may and must shoot")
    sp.add_argument("table", metavar="TABLE")
    sp.add_argument("--shooter", required=True, metavar="ID")
    sp.add_argument("--turn", metavar="SIDE", help="whose turn it is (default: the table's "
                    "\"turn\", else the shooter's side)")
