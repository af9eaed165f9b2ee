"""The report's style sheet: readable on a screen, in a dark or light browser, and on paper."""

from __future__ import annotations

STYLE = """
:root { color-scheme: light; --ink: #1f2328; --muted: #5a6270; --line: #d5d9de; --paper: #ffffff;
  --panel: #f6f7f9; --doubtful: #c9a400; --bad: #e07000; --very-bad: #c62828; --accent: #2f6b45; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1040px; padding: 1.5rem 1.25rem 3rem; color: var(--ink);
  background: var(--paper); font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
h1 { font-size: 1.7rem; margin: 0 0 .25rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .6rem; padding-bottom: .2rem; border-bottom: 2px solid var(--line); }
h3 { font-size: 1.05rem; margin: 0 0 .5rem; }
.subtitle { color: var(--muted); margin: 0 0 .2rem; }
.result { font-size: 1.1rem; font-weight: 600; margin: .4rem 0 0; }
nav ul { list-style: none; padding: 0; margin: 1rem 0 0; display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; }
a { color: var(--accent); }
table { border-collapse: collapse; margin: .3rem 0; }
th, td { padding: .22rem .6rem; text-align: left; vertical-align: top; }
thead th { border-bottom: 2px solid var(--line); }
th::first-letter { text-transform: uppercase; }
tbody tr + tr td, tbody tr + tr th { border-top: 1px solid var(--line); }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
table.figures { min-width: 60%; }
table.figures th[scope="rowgroup"] { background: var(--panel); font-size: .9rem; color: var(--muted); }
table.figures td { text-align: right; font-variant-numeric: tabular-nums; min-width: 9rem; }
.chart { width: 100%; height: auto; max-height: 300px; display: block; }
.chart .trace { fill: none; stroke: var(--accent); stroke-width: 1.6; }
.chart .grid { stroke: var(--line); stroke-width: .6; }
.chart .axis { stroke: #9aa1ab; stroke-width: 1; }
.chart .game-line { stroke: #9aa1ab; stroke-width: .8; stroke-dasharray: 3 3; }
.chart .tick { font-size: 10px; fill: var(--muted); text-anchor: end; }
.chart .game-number { font-size: 10px; fill: var(--muted); text-anchor: middle; }
.chart .mark { stroke: #ffffff; stroke-width: .8; }
.legend { display: flex; flex-wrap: wrap; gap: .3rem 1.2rem; color: var(--muted); font-size: .9rem;
  margin: .3rem 0; }
.legend svg { vertical-align: middle; }
.skill { display: inline-block; padding: 0 .45rem; border-radius: .6rem; color: #ffffff; font-size: .85rem;
  font-weight: 600; white-space: nowrap; }
.skill.doubtful { background: var(--doubtful); color: #1f2328; }
.skill.bad { background: var(--bad); }
.skill.very-bad { background: var(--very-bad); }
.decision { border: 1px solid var(--line); border-left: 6px solid var(--line); border-radius: .4rem;
  padding: .8rem 1rem; margin: 1rem 0; break-inside: avoid; page-break-inside: avoid; }
.decision.doubtful { border-left-color: var(--doubtful); }
.decision.bad { border-left-color: var(--bad); }
.decision.very-bad { border-left-color: var(--very-bad); }
.decision-body { display: flex; flex-wrap: wrap; gap: 1rem 1.5rem; align-items: flex-start; }
.decision figure { margin: 0; flex: 0 0 auto; }
.decision figure svg { display: block; max-width: 100%; height: auto; }
.decision figcaption { color: var(--muted); font-size: .85rem; margin-top: .3rem; max-width: 340px; }
.judgement { flex: 1 1 320px; min-width: 0; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem .8rem; margin: 0 0 .6rem; }
.facts dt { color: var(--muted); }
.facts dt::first-letter { text-transform: uppercase; }
.facts dd { margin: 0; font-weight: 600; }
.swatch { vertical-align: -1px; }
.alternatives tr.played td { font-weight: 600; background: #fff4e0; }
.alternatives tr.best td:first-child::after { content: " \\2605"; color: var(--accent); }
.played-tag { font-size: .8rem; color: var(--muted); font-weight: 400; }
.id { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .85rem; }
.muted { color: var(--muted); }
.lucky { color: #2e7d32; }
.unlucky { color: #b23b3b; }
footer { margin-top: 2.5rem; color: var(--muted); font-size: .85rem; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  nav, .skip { display: none; }
  a { color: inherit; text-decoration: none; }
  h2 { break-after: avoid; page-break-after: avoid; }
  section.figures, section.chart-section { break-inside: avoid; page-break-inside: avoid; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
@page { margin: 1.5cm; }
"""
"""The CSS of :func:`tavola.analysis.html.report_html`, written inline into the page."""
