"""The threshold-sweep plot (PNG): matplotlib when installed (`plot` extra), else a tiny built-in writer.

The fallback draws axes, a light grid at 0.2 steps, the curves and a marker at the chosen threshold
with numpy and zlib only (no text: the table printed by `archehr train logistic --sweep` carries the numbers),
so `--sweep` never needs a plotting library.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from archehr.atomic import write_bytes

COLORS = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40)]


def png_bytes(rgb: np.ndarray) -> bytes:
    """Encode an (h, w, 3) uint8 array as a PNG (8-bit RGB, no filter)."""
    h, w, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def _line(img: np.ndarray, x0: float, y0: float, x1: float, y1: float, color: tuple[int, int, int],
          width: int = 2) -> None:
    n = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
    for t in np.linspace(0.0, 1.0, n + 1):
        x, y = int(round(x0 + t * (x1 - x0))), int(round(y0 + t * (y1 - y0)))
        img[max(0, y - width // 2):y + (width + 1) // 2, max(0, x - width // 2):x + (width + 1) // 2] = color


def simple_plot(xs: Sequence[float], series: dict[str, Sequence[float]], mark_x: float | None = None,
                size: tuple[int, int] = (640, 400)) -> bytes:
    """Curves with x and y in [0, 1] on a white canvas, returned as PNG bytes."""
    w, h = size
    m = 40
    img = np.full((h, w, 3), 255, dtype=np.uint8)

    def px(x: float, y: float) -> tuple[float, float]:
        return m + x * (w - 2 * m), h - m - y * (h - 2 * m)

    for g in np.arange(0.0, 1.01, 0.2):  # grid
        _line(img, *px(0, g), *px(1, g), (225, 225, 225), 1)
        _line(img, *px(g, 0), *px(g, 1), (225, 225, 225), 1)
    _line(img, *px(0, 0), *px(1, 0), (0, 0, 0), 2)
    _line(img, *px(0, 0), *px(0, 1), (0, 0, 0), 2)
    if mark_x is not None:
        _line(img, *px(mark_x, 0), *px(mark_x, 1), (120, 120, 120), 1)
    for i, ys in enumerate(series.values()):
        pts = [px(float(x), float(np.clip(y, 0, 1))) for x, y in zip(xs, ys, strict=True)]
        for a, b in zip(pts, pts[1:], strict=False):
            _line(img, *a, *b, COLORS[i % len(COLORS)], 2)
    return png_bytes(img)


def save_sweep_plot(path: str | Path, curve: Sequence[Sequence[float]], chosen: float, title: str = "") -> str:
    """Plot F1 / precision / recall against the threshold; returns which renderer was used."""
    xs = [c[0] for c in curve]
    series = {"strict micro F1": [c[1] for c in curve], "precision": [c[2] for c in curve],
              "recall": [c[3] for c in curve]}
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        write_bytes(path, simple_plot(xs, series, chosen))
        return "built-in"
    import io

    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    for name, ys in series.items():
        ax.plot(xs, ys, label=name)
    ax.axvline(chosen, color="grey", linestyle="--", label=f"chosen threshold {chosen:.2f}")
    ax.set_xlabel("threshold on P(target)")
    ax.set_ylabel("leave-one-case-out score")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left")
    if title:
        ax.set_title(title)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    write_bytes(path, buf.getvalue())
    return "matplotlib"
