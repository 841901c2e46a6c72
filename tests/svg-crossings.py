#!/usr/bin/env python3
"""svg-crossings.py - edge crossings of a diagram as graphviz laid it out.

Usage: svg-crossings.py SVG...

Reads each SVG `ibtopo render -o x.svg` wrote (graphviz's own drawing:
an edge is a <g class="edge"> whose <title> is "TAIL->HEAD" and whose
<path d="M x,y C ..."> is the spline drawn) and prints one line per file:

    NAME crossings N edges E width W height H

N counts the pairs of drawn edges with no end in common whose curves
cross (each cubic Bezier piece sampled at 16 points; two edges sharing a
node always meet there and are not counted). W and H are the SVG's size
in points. Invisible edges (no path) are not drawn and not counted.
"""
import re
import sys
import xml.etree.ElementTree as ET

S = "{http://www.w3.org/2000/svg}"
STEPS = 16


def bezier_points(d):
    """The polyline of an SVG path made of M and C commands."""
    nums = [float(x) for x in re.findall(r"-?[0-9.]+(?:e-?[0-9]+)?", d)]
    pts = list(zip(nums[0::2], nums[1::2]))
    if not pts:
        return []
    out = [pts[0]]
    for i in range(1, len(pts) - 2, 3):
        p0, p1, p2, p3 = pts[i - 1], pts[i], pts[i + 1], pts[i + 2]
        for k in range(1, STEPS + 1):
            t = k / STEPS
            u = 1 - t
            out.append(tuple(u * u * u * a + 3 * u * u * t * b +
                             3 * u * t * t * c + t * t * t * e
                             for a, b, c, e in zip(p0, p1, p2, p3)))
    return out


def cross(p, q, r, s):
    """Do segments pq and rs cross (touching ends not counted)?"""
    def orient(a, b, c):
        v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return (v > 1e-9) - (v < -1e-9)
    return (orient(p, q, r) * orient(p, q, s) < 0 and
            orient(r, s, p) * orient(r, s, q) < 0)


def bbox(pts):
    xs = [x for x, _ in pts]
    ys = [y for _, y in pts]
    return min(xs), min(ys), max(xs), max(ys)


def curves_cross(a, b):
    ba, bb = a[1], b[1]
    if ba[2] < bb[0] or bb[2] < ba[0] or ba[3] < bb[1] or bb[3] < ba[1]:
        return False
    pa, pb = a[0], b[0]
    for i in range(len(pa) - 1):
        seg = bbox(pa[i:i + 2])
        if seg[2] < bb[0] or bb[2] < seg[0] or seg[3] < bb[1] or bb[3] < seg[1]:
            continue
        for k in range(len(pb) - 1):
            if cross(pa[i], pa[i + 1], pb[k], pb[k + 1]):
                return True
    return False


def count(path):
    root = ET.parse(path).getroot()
    edges = []
    for g in root.iter(S + "g"):
        if g.get("class") != "edge":
            continue
        p = next(g.iter(S + "path"), None)
        if p is None or p.get("stroke") in ("transparent", "none"):
            continue
        ends = tuple(x.split(":")[0]
                     for x in g.find(S + "title").text.split("->"))
        pts = bezier_points(p.get("d"))
        if len(pts) > 1 and ends[0] != ends[1]:
            edges.append((pts, bbox(pts), set(ends), ends))
    near = {}
    for _, _, _, (a, b) in edges:
        near.setdefault(a, set()).add(b)
        near.setdefault(b, set()).add(a)
    n = avoidable = 0
    for i in range(len(edges)):
        for k in range(i + 1, len(edges)):
            if edges[i][2] & edges[k][2] or not curves_cross(edges[i], edges[k]):
                continue
            n += 1
            a, b = edges[i][3]
            c, d = edges[k][3]
            # two edges of a 4-cycle a-b-c-d-a (a K2,2: both upper ends
            # linked to both lower ends): one of its pairs must cross
            if not ((d in near[a] and b in near[c]) or
                    (c in near[a] and b in near[d])):
                avoidable += 1
    w = re.sub(r"[a-z]+$", "", root.get("width", "0"))
    h = re.sub(r"[a-z]+$", "", root.get("height", "0"))
    return n, avoidable, len(edges), w, h


for f in sys.argv[1:]:
    print("%s crossings %d avoidable %d edges %d width %s height %s" %
          ((f.rsplit("/", 1)[-1],) + count(f)))
