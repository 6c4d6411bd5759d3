"""Win shares as an SVG bar chart, written by hand: no plotting library is needed.

`win_share_chart` draws a `SimulationSummary`: one horizontal bar per agent,
its share of the decided deals, and the 95% Wilson interval around it as a
whisker. `share_chart` draws any list of (label, successes, trials), which is
what the ladder of `benchmarks/ladder.py` uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape as _html_escape

from .summary import SimulationSummary, wilson_interval

__all__ = ["share_chart", "win_share_chart"]

_WIDTH = 640
_LEFT = 190  # room for the labels
_RIGHT = 70  # room for the figures
_ROW = 30
_TOP = 52
_BOTTOM = 36
_COLOURS = ("#3b6ea8", "#c0504d", "#6a9a3a", "#8064a2", "#d08a2c", "#4aacc5")


def escape(text: str) -> str:
    """Text for SVG content: ``&``, ``<`` and ``>`` as entities, quotes kept."""
    return _html_escape(text, quote=False)


def _attr(text: str) -> str:
    return escape(text).replace('"', "&quot;")


def share_chart(
    rows: Sequence[tuple[str, int, int]],
    *,
    title: str,
    subtitle: str = "",
    reference: float | None = None,
) -> str:
    """An SVG chart of shares: one bar per (label, successes, trials), with its 95% interval.

    `reference`, if given, is drawn as a dashed line (a fair share, say).
    Each bar is a ``rect`` of class ``bar`` whose ``data-share`` is the share.

    >>> svg = share_chart([("a", 6, 10), ("b", 4, 10)], title="Two", reference=0.5)
    >>> svg.startswith("<svg") and svg.count('class="bar"')
    2
    """
    plot = _WIDTH - _LEFT - _RIGHT
    height = _TOP + _ROW * len(rows) + _BOTTOM
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{height}" '
        f'viewBox="0 0 {_WIDTH} {height}" font-family="sans-serif" font-size="13">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{_WIDTH}" height="{height}" fill="#ffffff"/>',
        f'<text x="{_WIDTH // 2}" y="20" text-anchor="middle" font-size="15" '
        f'font-weight="bold">{escape(title)}</text>',
    ]
    if subtitle:
        out.append(
            f'<text x="{_WIDTH // 2}" y="38" text-anchor="middle" fill="#555555">'
            f"{escape(subtitle)}</text>"
        )
    bottom = _TOP + _ROW * len(rows)
    for tick in range(0, 101, 25):
        x = _LEFT + plot * tick / 100
        out.append(
            f'<line x1="{x:.1f}" y1="{_TOP - 4}" x2="{x:.1f}" y2="{bottom}" '
            'stroke="#dddddd" stroke-width="1"/>'
        )
        out.append(
            f'<text x="{x:.1f}" y="{bottom + 16}" text-anchor="middle" '
            f'fill="#555555">{tick}%</text>'
        )
    for k, (label, successes, trials) in enumerate(rows):
        share = successes / trials if trials else 0.0
        low, high = wilson_interval(successes, trials)
        y = _TOP + _ROW * k
        mid = y + _ROW / 2
        colour = _COLOURS[k % len(_COLOURS)]
        out.append(
            f'<text x="{_LEFT - 8}" y="{mid + 4:.1f}" text-anchor="end">{escape(label)}</text>'
        )
        out.append(
            f'<rect class="bar" data-label="{_attr(label)}" data-share="{share:.4f}" '
            f'data-low="{low:.4f}" data-high="{high:.4f}" x="{_LEFT}" y="{y + 6}" '
            f'width="{plot * share:.1f}" height="{_ROW - 12}" fill="{colour}">'
            f"<title>{escape(label)}: {successes} of {trials} ({share:.1%}, 95% interval "
            f"{low:.1%} to {high:.1%})</title></rect>"
        )
        x0, x1 = _LEFT + plot * low, _LEFT + plot * high
        out.append(
            f'<path d="M{x0:.1f} {mid:.1f}H{x1:.1f}M{x0:.1f} {mid - 6:.1f}V{mid + 6:.1f}'
            f'M{x1:.1f} {mid - 6:.1f}V{mid + 6:.1f}" stroke="#222222" stroke-width="1.5" '
            'fill="none"/>'
        )
        out.append(
            f'<text x="{_WIDTH - _RIGHT + 6}" y="{mid + 4:.1f}">{share:.1%}</text>'
            if trials
            else f'<text x="{_WIDTH - _RIGHT + 6}" y="{mid + 4:.1f}">none</text>'
        )
    if reference is not None:
        x = _LEFT + plot * reference
        out.append(
            f'<line x1="{x:.1f}" y1="{_TOP - 4}" x2="{x:.1f}" y2="{bottom}" '
            'stroke="#888888" stroke-width="1.5" stroke-dasharray="5 4"/>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def win_share_chart(summary: SimulationSummary, *, title: str | None = None) -> str:
    """An SVG bar chart of each agent's share of the decided deals, with 95% intervals.

    One bar per agent, in the summary's order; a dashed line marks the fair
    share (one in as many as there are players). Deals that nobody won
    (tableaus, abandoned deals) are left out of the shares and counted in
    the subtitle. The text is a whole SVG document: write it to a ``.svg``
    file or show it in a notebook.

    >>> s = simulate(["heuristic", "random"], ConquianRules(), games=6, seed=1)
    >>> svg = win_share_chart(s)
    >>> svg.count('class="bar"')
    2
    """
    n = len(summary.agents)
    nobody = summary.tableaus + summary.abandoned
    subtitle = (
        f"share of the {summary.decided} decided deals of {summary.games} "
        f"(seed {summary.seed}); {nobody} not decided; whiskers: 95% intervals"
    )
    rows = [
        (f"{name} ({i + 1})" if summary.agents.count(name) > 1 else name, summary.wins[i])
        for i, name in enumerate(summary.agents)
    ]
    return share_chart(
        [(label, wins, summary.decided) for label, wins in rows],
        title=title or f"Win shares, {summary.game}",
        subtitle=subtitle,
        reference=1 / n if n else None,
    )
