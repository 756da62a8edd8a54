"""Draw the page's app icons (PNG, 192 and 512 px) from the geometry of static/icons/icon.svg.

Pillow cannot read SVG, so this draws the same shapes (felt square, a red card tilted 8
degrees, a white oval tilted 30 degrees on it): run it again after changing icon.svg.
Usage: python scripts/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

ICONS = Path(__file__).resolve().parents[1] / "src" / "unoarena" / "web" / "static" / "icons"
FELT, RED, WHITE = (15, 81, 50, 255), (215, 38, 61, 255), (255, 255, 255, 255)
SS = 4  # drawn at four times the size, then scaled down: smooth edges


def icon(size: int) -> Image.Image:
    """The icon at ``size`` pixels square (the SVG's 512-unit box scaled)."""
    big = size * SS
    u = big / 512  # one SVG unit
    card = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    ImageDraw.Draw(card).rounded_rectangle(
        (146 * u, 86 * u, 366 * u, 426 * u), radius=30 * u, fill=RED)
    oval = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    ImageDraw.Draw(oval).ellipse((174 * u, 116 * u, 338 * u, 396 * u), fill=WHITE)
    card.alpha_composite(oval.rotate(-30, resample=Image.Resampling.BICUBIC))  # SVG: clockwise
    out = Image.new("RGBA", (big, big), FELT)
    out.alpha_composite(card.rotate(8, resample=Image.Resampling.BICUBIC))
    return out.resize((size, size), Image.Resampling.LANCZOS).convert("RGB")


def main() -> None:
    """Write icon-192.png and icon-512.png beside icon.svg."""
    for size in (192, 512):
        path = ICONS / f"icon-{size}.png"
        icon(size).save(path, optimize=True)
        print(path)


if __name__ == "__main__":
    main()
