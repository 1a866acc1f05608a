/**
 * Props whose `polylist` has polygons of more than four corners and degenerate ones, as community
 * tools, converters and hand edits write them (Daz Studio itself writes triangles and quads only):
 * a cylinder's cap as one 8–24-gon, a table top as an octagon, an L-shaped panel as a hexagon, a
 * star and a U-shaped bracket (non-convex), a quad with an extra vertex on an edge (a converter's
 * T-junction fix), beside plain quads and triangles; a triangle or quad whose corners repeat a
 * vertex (`[a, a, b]`, `[a, b, b, c]`: a collapsed edge a tool left behind). Each polygon is laid in
 * a plane of its own, at random, and has its own vertices, so the test tells its triangles apart by
 * vertex. Surfaces and face groups are drawn at random; some polygons, n-gons and those after them,
 * carry a UV seam override on one corner (the override names the file's polygon index, which the
 * cut polygons before it shift).
 *
 * What a correct decode gives is worked out here: each polygon's area (the shoelace sum of its
 * outline in its own frame), its normal, its surface, and each override's UV.
 *
 * @module
 */
import { type Json, propFile } from "./generate.ts";
import { prng } from "../../../support/prng.ts";

/** One authored polygon, and what drawing it must give. */
export interface NgonPolygon {
  /** The corners as written (vertex indices). */
  readonly corners: readonly number[];
  readonly surface: number;
  /** Its area in cm² (0: degenerate, must not be drawn). */
  readonly area: number;
  /** Its unit normal (by its winding). */
  readonly normal: readonly [number, number, number];
  /** A seam override: its vertex and the UV it must get, when one is written. */
  readonly seam?: { readonly vertex: number; readonly uv: readonly [number, number] };
  readonly kind: string;
}

/** One generated prop file. */
export interface NgonCase {
  readonly seed: number;
  readonly json: Json;
  readonly polygons: readonly NgonPolygon[];
  readonly vertexCount: number;
  /** The vertices as written, cm. */
  readonly vertices: readonly (readonly number[])[];
  /** Polygons of more than 4 corners, and degenerate ones, a correct decode names in its warnings. */
  readonly ngons: number;
  readonly degenerate: number;
}

type V2 = [number, number];

/** The outlines drawn from, in their own 2D frame (counter-clockwise), in cm. */
function outline(kind: string, r: () => number): V2[] {
  const s = 5 + r() * 20;
  if (kind === "cap" || kind === "octagon") {
    const n = kind === "octagon" ? 8 : 8 + Math.floor(r() * 17);
    return Array.from(
      { length: n },
      (_, k) => [s * Math.cos((2 * Math.PI * k) / n), s * Math.sin((2 * Math.PI * k) / n)],
    );
  }
  if (kind === "L") return [[0, 0], [2 * s, 0], [2 * s, s], [s, s], [s, 2 * s], [0, 2 * s]];
  if (kind === "U") {
    return [[0, 0], [3 * s, 0], [3 * s, 2 * s], [2 * s, 2 * s], [2 * s, s], [s, s], [s, 2 * s], [0, 2 * s]];
  }
  if (kind === "star") {
    return Array.from({ length: 10 }, (_, k) => {
      const radius = k % 2 ? s * 0.4 : s;
      const angle = (Math.PI * k) / 5;
      return [radius * Math.cos(angle), radius * Math.sin(angle)] as V2;
    });
  }
  if (kind === "T-junction") return [[0, 0], [s / 2, 0], [s, 0], [s, s], [0, s]];
  if (kind === "quad") return [[0, 0], [s, 0], [s, s * 0.7], [0, s]];
  return [[0, 0], [s, 0], [0, s]]; // triangle, and the degenerate ones' source
}

const KINDS = ["cap", "octagon", "L", "U", "star", "T-junction", "quad", "triangle", "collapsed", "sliver"];

/** The case of `seed`: 6–16 polygons of the kinds above. */
export function ngonCase(seed: number): NgonCase {
  const r = prng(seed);
  const vertices: number[][] = [];
  const uvs: number[][] = [];
  const polys: number[][] = [];
  const polygons: NgonPolygon[] = [];
  const overrides: number[][] = [];
  let ngons = 0, degenerate = 0;
  const count = 6 + Math.floor(r() * 11);
  for (let p = 0; p < count; p++) {
    const kind = KINDS[Math.floor(r() * KINDS.length)];
    const flat = outline(kind === "collapsed" || kind === "sliver" ? "triangle" : kind, r);
    // A random frame: unit u, v across a random normal; placed 100 cm apart.
    const [u, v, n] = frame(r);
    const origin = [p * 100, r() * 10, r() * 10];
    const first = vertices.length;
    for (const [x, y] of flat) {
      vertices.push([0, 1, 2].map((c) => origin[c] + x * u[c] + y * v[c]));
      uvs.push([x / 50, y / 50]);
    }
    let corners = flat.map((_, k) => first + k);
    let area = Math.abs(shoelace(flat));
    if (kind === "collapsed") {
      // A quad whose third corner repeats the second: the triangle it draws is the file's meaning.
      corners = [corners[0], corners[1], corners[1], corners[2]];
    } else if (kind === "sliver") {
      // Two distinct vertices: nothing to draw.
      corners = [corners[0], corners[0], corners[1]];
      area = 0;
      degenerate++;
    }
    if (corners.length > 4) ngons++;
    const surface = Math.floor(r() * 2);
    const group = Math.floor(r() * 2);
    polys.push([group, surface, ...corners]);
    let seam: NgonPolygon["seam"];
    if (area > 0 && r() < 0.5) {
      const vertex = corners[Math.floor(r() * corners.length)];
      const uv: [number, number] = [0.5 + r() / 4, 0.5 + r() / 4];
      overrides.push([p, vertex, uvs.length]);
      uvs.push(uv);
      seam = { vertex, uv };
    }
    polygons.push({ corners, surface, area, normal: n, seam, kind });
  }
  const json = propFile({
    assetId: "/data/Community/Converted/Prop.dsf",
    name: "Prop",
    vertices,
    polys,
    groups: ["top", "side"],
    surfaces: ["Wood", "Metal"],
    uvs: { values: uvs, overrides },
  });
  return { seed, json, polygons, vertexCount: vertices.length, vertices, ngons, degenerate };
}

/** Twice the signed area of a 2D outline, halved. */
function shoelace(points: readonly V2[]): number {
  let sum = 0;
  for (let k = 0; k < points.length; k++) {
    const [x0, y0] = points[k], [x1, y1] = points[(k + 1) % points.length];
    sum += x0 * y1 - x1 * y0;
  }
  return sum / 2;
}

/** A random right-handed orthonormal frame `[u, v, n]`. */
function frame(r: () => number): [number[], number[], [number, number, number]] {
  const theta = r() * Math.PI * 2, z = r() * 2 - 1, s = Math.sqrt(1 - z * z);
  const n: [number, number, number] = [s * Math.cos(theta), s * Math.sin(theta), z];
  const a = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const cross = (p: number[], q: number[]) => [
    p[1] * q[2] - p[2] * q[1],
    p[2] * q[0] - p[0] * q[2],
    p[0] * q[1] - p[1] * q[0],
  ];
  const u0 = cross(a, n), length = Math.hypot(...u0);
  const u = u0.map((x) => x / length);
  return [u, cross(n, u), n];
}
