#!/usr/bin/env python3
"""Renders receipts with known contents as photos, for the scan tests.

Reads a JSON list from standard input, one object per photo:
  {"file": "out/a.jpg", "lines": [["NAME", "PRICE"], ["TEXT"]...], "format": "jpeg|png|tiff|heic",
   "rotate": degrees, "blur": radius, "noise": amplitude, "fade": true, "exif_orientation": 6,
   "pen": [line numbers], "pen_colour": [r, g, b], "pen_width": pixels, "ink": grey level,
   "specks": count, "table": false}
Lines are drawn in DejaVu Sans Mono (Debian's fonts-dejavu-core), a left column and a right-aligned
price column. `fade` lowers the contrast and greys the paper as old thermal print does;
`exif_orientation` 6 stores the pixels turned a quarter left with the tag that turns them back;
`pen` draws a translucent coloured zigzag (a pink highlighter unless `pen_colour`) through the
price of each line listed. `ink` draws the print in that grey (0, black, unless given) and
`specks` puts that many black dots on the paper's edge (a hole punch, a pen's dot), as a faint
scan with a few dark marks is; `table: false` keeps the page alone, as a scanner gives it.
Needs Pillow (and pillow-heif for HEIC). Writes nothing on standard output.
"""
import json
import random
import sys

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"


def render(spec):
    font = ImageFont.truetype(FONT, spec.get("size", 30))
    width = 820
    line_height = int(spec.get("size", 30) * 1.5)
    height = 80 + line_height * len(spec["lines"])
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    for number, line in enumerate(spec["lines"]):
        y = 40 + number * line_height
        ink = spec.get("ink", 0)
        draw.text((40, y), line[0], font=font, fill=ink)
        if len(line) > 1:
            right = line[1]
            draw.text((width - 40 - draw.textlength(right, font=font), y), right, font=font, fill=ink)
    for speck in range(spec.get("specks", 0)):
        x, y = 12 + (speck % 2) * (width - 24), 12 + (speck // 2) * 60
        draw.ellipse((x - 8, y - 8, x + 8, y + 8), fill=0)
    if spec.get("fade"):
        page = page.point(lambda value: 150 + value * 95 // 255)
    if spec.get("noise"):
        generator = random.Random(spec.get("seed", 7))
        amplitude = spec["noise"]
        pixels = page.load()
        for y in range(page.height):
            for x in range(page.width):
                pixels[x, y] = max(0, min(255, pixels[x, y] + generator.randint(-amplitude, amplitude)))
    if spec.get("blur"):
        page = page.filter(ImageFilter.GaussianBlur(spec["blur"]))
    page = page.convert("RGB")
    if spec.get("pen"):
        # A coloured pen's zigzag through the price column of each line listed, the way a
        # reader ticks or scores out a figure on paper.
        # The ink is translucent, as a highlighter's or a felt pen's: the print shows through it.
        ink = Image.new("RGB", page.size, (255, 255, 255))
        draw = ImageDraw.Draw(ink)
        colour = tuple(spec.get("pen_colour", [240, 60, 150]))
        for number in spec["pen"]:
            top = 40 + number * line_height
            points = [(width - 200 + step * 16, top + (6 if step % 2 else line_height - 12)) for step in range(11)]
            draw.line(points, fill=colour, width=spec.get("pen_width", 8))
        page = ImageChops.multiply(page, ink)
    # A photo: the receipt on a darker table, a little turned.
    if spec.get("table", True):
        photo = Image.new("RGB", (width + 160, height + 160), (90, 90, 90))
        photo.paste(page, (80, 80))
    else:
        photo = page
    if spec.get("rotate"):
        photo = photo.rotate(spec["rotate"], resample=Image.BICUBIC, expand=True, fillcolor=(90, 90, 90))
    kind = spec.get("format", "png")
    options = {}
    if spec.get("exif_orientation") == 6:
        # Stored turned a quarter to the left; the tag says: turn it a quarter right to view.
        photo = photo.transpose(Image.Transpose.ROTATE_90)
        exif = Image.Exif()
        exif[0x0112] = 6
        options["exif"] = exif.tobytes()
    if kind == "heic":
        import pillow_heif

        pillow_heif.register_heif_opener()
        photo.save(spec["file"], format="HEIF", quality=90)
    elif kind == "jpeg":
        photo.save(spec["file"], format="JPEG", quality=spec.get("quality", 90), **options)
    elif kind == "tiff":
        photo.save(spec["file"], format="TIFF")
    else:
        photo.save(spec["file"], format="PNG")


def main():
    for spec in json.load(sys.stdin):
        render(spec)


if __name__ == "__main__":
    main()
