#!/usr/bin/env python3
"""Renders the surface panel's labels of a plumometer plot with rsvg-convert and reports, as one JSON object on
stdout, how many of the rendered label pixels fall outside every label's box (for the picture tests).

    label_ink.py SVG PNG
        Writes PNG: the labels of SVG alone (its `text class="padlabel"` elements, same attributes and fonts, on
        white, the same size), drawn by rsvg-convert. Then reads the PNG back (8-bit RGB or RGBA, any PNG filter)
        and counts the inked pixels (any channel below 160) and those outside every `rect class="padlabel-box"`
        (half a pixel of anti-aliasing allowed): {"labels": N, "inked": N, "outside": N, "examples": [[x, y], ...]}.

Boxes that do not overlap (the SVG test checks that) and ink that stays inside its boxes mean the rendered labels
cannot overlap each other either, whatever font the renderer found."""

import json
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib

SVG_NS = "{http://www.w3.org/2000/svg}"


def labels_only(svg_path):
    root = ET.parse(svg_path).getroot()
    texts = [e for e in root.iter(SVG_NS + "text") if e.get("class") == "padlabel"]
    boxes = [
        tuple(float(e.get(k)) for k in ("x", "y", "width", "height"))
        for e in root.iter(SVG_NS + "rect")
        if e.get("class") == "padlabel-box"
    ]
    keep = {k: root.get(k) for k in ("width", "height", "viewBox", "font-family", "font-size") if root.get(k)}
    out = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "version": "1.1", **keep})
    ET.SubElement(out, "rect", {"width": "100%", "height": "100%", "fill": "#ffffff"})
    for text in texts:
        element = ET.SubElement(out, "text", {k: v for k, v in text.attrib.items()})
        element.text = text.text
    return ET.tostring(out, encoding="unicode"), boxes, len(texts)


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position = 8
    idat = b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position : position + 8])
        body = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    assert depth == 8 and colour in (2, 6), f"unexpected PNG depth {depth} colour type {colour}"
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows = []
    previous = bytearray(stride)
    offset = 0
    for _ in range(height):
        kind = raw[offset]
        line = bytearray(raw[offset + 1 : offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + predictor) & 0xFF
        rows.append(line)
        previous = line
    return width, height, channels, rows


def main():
    svg_path, png_path = sys.argv[1], sys.argv[2]
    text, boxes, count = labels_only(svg_path)
    source = png_path + ".labels.svg"
    with open(source, "w", encoding="utf-8") as handle:
        handle.write(text)
    subprocess.run(["rsvg-convert", "-o", png_path, source], check=True)
    width, height, channels, rows = read_png(png_path)
    inked = 0
    outside = []
    for y in range(height):
        row = rows[y]
        for x in range(width):
            pixel = row[x * channels : x * channels + 3]
            if min(pixel) >= 160:
                continue
            inked += 1
            centre_x, centre_y = x + 0.5, y + 0.5
            if not any(
                bx - 0.5 <= centre_x <= bx + bw + 0.5 and by - 0.5 <= centre_y <= by + bh + 0.5
                for bx, by, bw, bh in boxes
            ):
                outside.append([x, y])
    print(json.dumps({"labels": count, "inked": inked, "outside": len(outside), "examples": outside[:10]}))


if __name__ == "__main__":
    main()
