"""The fire panel's text: the computation of an attack step by step (docs/rules.md: target, firers,
total fire, defence, odds, modifiers, results) and whether it may be made."""
from __future__ import annotations

import html

from engine import api

nap = api.napoleonic


def attack_html(assessment, shown, pos, rolled: str | None = None, now=None) -> str:
    """The panel: attack ``assessment`` (None: no target) on ``pos``, the firers as ``shown`` (every
    candidate); ``rolled``: the roll just made with it, said instead of whether it may be made;
    ``now``: why another attack is refused after it."""
    e = html.escape
    head = (f"<b>{e(pos.title)}</b><br>charts: {e(pos.charts.title)}<br>segment: {e(pos.segment)}"
            f"{', first fire rule on' if pos.first_fire else ''}; attacked this segment: "
            f"{e(', '.join(pos.attacked) or 'none')}")
    if assessment is None:
        return head + "<p>Click a hex holding units to make it the target.</p>"
    m, target = pos.map, pos.map.index(assessment.target)
    out = [head, f"<h3>1. Target {e(assessment.target)} ({e(pos.terrain_at(target))}, level "
           f"{int(m.level[target])})</h3>"]
    out.append("<h3>2. Firers</h3><table cellspacing=4>")
    for f in shown.firers:
        fires = "fires" if assessment.allowed else "chosen (the attack is refused)"
        mark = fires if f.counted else ("cannot combine" if f.can_fire and f.los and not f.combines
                                          else "left out" if f.can_fire and f.los else "cannot")
        colour = "#ffd84a" if f.counted else ("#c0c6d0" if f.can_fire and f.los else "#7d8594")
        value = nap.fmt(f.value) if f.can_fire else "-"
        out.append(f"<tr><td style='color:{colour}'><b>{e(f.id)}</b> {mark}</td><td>{e(value)}</td>"
                   f"<td>{e(f.how)}</td><td>LOS {'yes' if f.los else 'no'}</td></tr>")
        details = f.steps + f.reasons
        lines = "<br>".join(e(s) for s in details)
        out.append(f"<tr><td></td><td colspan=3 style='color:#9aa3b5'>{lines}</td></tr>")
    out.append("</table>")
    out.append(f"<h3>3. Total fire {e(nap.fmt(assessment.fire))}</h3>")
    if assessment.defence is not None:
        out.append(f"<h3>4. Defence {e(nap.fmt(assessment.defence))}</h3><p>{e(assessment.defence_how)}</p>")
    if assessment.ratio is not None and assessment.allowed:
        out.append(f"<h3>5. Odds {e(nap.fmt(assessment.fire))} : {e(nap.fmt(assessment.defence))} = "
                   f"{float(assessment.ratio):.3f} : 1 -> column {e(assessment.column or 'none')}</h3>")
    if assessment.column:
        drms = "".join(f"<li>{e(w)}: {d:+d}</li>" for w, d in assessment.drms) or "<li>none</li>"
        out.append(f"<h3>6. Dice modifiers {assessment.drm:+d}</h3><ul>{drms}</ul>")
        rows = "".join(f"<li>{e(r or 'no effect')}: {int(p * 36)}/36</li>"
                       for r, p in assessment.outcomes.items())
        out.append(f"<h3>7. Results</h3><ul>{rows}</ul>")
    reasons = "<br>".join(e(r) for r in assessment.reasons)
    verdict = ("<p style='color:#9be28a'><b>The attack may be made.</b></p>" if assessment.allowed else
               f"<p style='color:#ff7a6a'><b>Refused:</b> {reasons}</p>")
    if assessment.allowed and assessment.reasons:
        verdict += f"<p>{reasons}</p>"
    if rolled is not None:
        verdict = f"<p style='color:#ffd84a'><b>Rolled:</b> {e(rolled)} (Ctrl+Z takes it back)</p>"
        if now:
            verdict += (f"<p style='color:#ff7a6a'><b>Another attack now refused:</b> "
                        f"{'<br>'.join(e(r) for r in now)}</p>")
    out.append(verdict)
    return "".join(out)
