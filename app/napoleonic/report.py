"""The fire panel's text: the computation of an attack step by step (RULES.md: target, firers,
total fire, defence, odds, modifiers, results) and whether it may be made."""
from __future__ import annotations

import html

from engine import api

nap = api.napoleonic


def attack_html(a, shown, pos, rolled: str | None = None, now=None) -> str:
    """The panel: attack ``a`` (None: no target) on ``pos``, the firers as ``shown`` (every
    candidate); ``rolled``: the roll just made with it, said instead of whether it may be made;
    ``now``: why another attack is refused after it."""
    e = html.escape
    head = (f"<b>{e(pos.title)}</b><br>charts: {e(pos.charts.title)}<br>segment: {e(pos.segment)}"
            f"{', first fire rule on' if pos.first_fire else ''}; attacked this segment: "
            f"{e(', '.join(pos.attacked) or 'none')}")
    if a is None:
        return head + "<p>Click a hex holding units to make it the target.</p>"
    m = pos.map
    out = [head, f"<h3>1. Target {e(a.target)} ({e(m.terrain_name(m.index(a.target)))}, level "
           f"{int(m.level[m.index(a.target)])})</h3>"]
    out.append("<h3>2. Firers</h3><table cellspacing=4>")
    for f in shown.firers:
        mark = "fires" if f.counted else ("cannot combine" if f.can_fire and f.los and not f.combines
                                          else "left out" if f.can_fire and f.los else "cannot")
        colour = "#ffd84a" if f.counted else ("#c0c6d0" if f.can_fire and f.los else "#7d8594")
        value = nap.fmt(f.value) if f.can_fire else "-"
        out.append(f"<tr><td style='color:{colour}'><b>{e(f.id)}</b> {mark}</td><td>{e(value)}</td>"
                   f"<td>{e(f.how)}</td><td>LOS {'yes' if f.los else 'no'}</td></tr>")
        details = f.steps + f.reasons
        lines = "<br>".join(e(s) for s in details)
        out.append(f"<tr><td></td><td colspan=3 style='color:#9aa3b5'>{lines}</td></tr>")
    out.append("</table>")
    out.append(f"<h3>3. Total fire {e(nap.fmt(a.fire))}</h3>")
    if a.defence is not None:
        out.append(f"<h3>4. Defence {e(nap.fmt(a.defence))}</h3><p>{e(a.defence_how)}</p>")
    if a.ratio is not None:
        out.append(f"<h3>5. Odds {e(nap.fmt(a.fire))} : {e(nap.fmt(a.defence))} = "
                   f"{float(a.ratio):.3f} : 1 -> column {e(a.column or 'none')}</h3>")
    if a.column:
        drms = "".join(f"<li>{e(w)}: {d:+d}</li>" for w, d in a.drms) or "<li>none</li>"
        out.append(f"<h3>6. Dice modifiers {a.drm:+d}</h3><ul>{drms}</ul>")
        rows = "".join(f"<li>{e(r or 'no effect')}: {int(p * 36)}/36</li>" for r, p in a.outcomes.items())
        out.append(f"<h3>7. Results</h3><ul>{rows}</ul>")
    reasons = "<br>".join(e(r) for r in a.reasons)
    verdict = ("<p style='color:#9be28a'><b>The attack may be made.</b></p>" if a.allowed else
               f"<p style='color:#ff7a6a'><b>Refused:</b> {reasons}</p>")
    if a.allowed and a.reasons:
        verdict += f"<p>{reasons}</p>"
    if rolled is not None:
        verdict = f"<p style='color:#ffd84a'><b>Rolled:</b> {e(rolled)} (Ctrl+Z takes it back)</p>"
        if now:
            verdict += (f"<p style='color:#ff7a6a'><b>Another attack now refused:</b> "
                        f"{'<br>'.join(e(r) for r in now)}</p>")
    out.append(verdict)
    return "".join(out)
