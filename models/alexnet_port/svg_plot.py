"""A line chart as a self-contained SVG file, with the standard library alone (the demo has
no plotting package): the training alignment's loss curves for the acceptance bundle."""
from xml.sax.saxutils import escape

WIDTH, HEIGHT, MARGIN = 640, 360, 48
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]


def write_loss_plot(path, curves):
    """`curves`: {label: [loss per step]}, one polyline each, a shared scale, a legend."""
    values = [v for losses in curves.values() for v in losses]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    steps = max(len(losses) for losses in curves.values())
    x = lambda step: MARGIN + step * (WIDTH - 2 * MARGIN) / max(steps - 1, 1)
    y = lambda value: HEIGHT - MARGIN - (value - low) * (HEIGHT - 2 * MARGIN) / span
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}">',
             '<rect width="100%" height="100%" fill="white"/>',
             f'<text x="{MARGIN}" y="24" font-family="sans-serif" font-size="14">training loss per step</text>',
             f'<text x="4" y="{y(high) + 4:.1f}" font-family="sans-serif" font-size="11">{high:.3f}</text>',
             f'<text x="4" y="{y(low) + 4:.1f}" font-family="sans-serif" font-size="11">{low:.3f}</text>',
             f'<text x="{WIDTH - MARGIN - 40}" y="{HEIGHT - 16}" font-family="sans-serif" font-size="11">'
             f'step {steps - 1}</text>']
    for index, (label, losses) in enumerate(curves.items()):
        colour = COLOURS[index % len(COLOURS)]
        points = " ".join(f"{x(step):.1f},{y(value):.1f}" for step, value in enumerate(losses))
        dash = ' stroke-dasharray="6 4"' if index else ""
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{points}"/>')
        parts.append(f'<text x="{WIDTH - 200}" y="{40 + 16 * index}" font-family="sans-serif" font-size="12" '
                     f'fill="{colour}">{escape(label)}</text>')
    parts.append("</svg>\n")
    with open(path, "w") as f:
        f.write("\n".join(parts))
