/**
 * Props whose `polylist` holds entries of two corners — lines — beside their faces, as some
 * exporters and community tools write them: hair guide strands (a chain of segments `[a, b]`,
 * `[b, c]`, … rising from a scalp of quads), an edge-only cage or wire (a lamp's cord, a fence's
 * rail) and, now and then, a geometry of guides alone. Daz Studio's own figures hold triangles and
 * quads only; the readers that meet such entries skip them. Lines come first, last or between the
 * faces; faces carry random surfaces and, some of them, a UV seam override on one corner (the
 * override names the file's polygon index, which the lines before it count).
 *
 * What a correct decode gives is worked out here: each face's area and normal (a flat quad or
 * triangle laid in a random plane), its surface and its override's UV; no triangle of a line; one
 * warning per geometry naming its lines.
 *
 * @module
 */
import { type Json, propFile } from "./generate.ts";
import { prng } from "../../../support/prng.ts";

/** One face as written, and what drawing it must give. */
export interface LineFace {
  readonly corners: readonly number[];
  readonly surface: number;
  /** Its area in cm². */
  readonly area: number;
  readonly normal: readonly [number, number, number];
  readonly seam?: { readonly vertex: number; readonly uv: readonly [number, number] };
}

/** One generated prop file. */
export interface LineCase {
  readonly seed: number;
  readonly json: Json;
  /** The faces, keyed by their index in the file's `polylist`. */
  readonly faces: ReadonlyMap<number, LineFace>;
  /** The file's vertices (cm), for the test's own areas. */
  readonly vertices: readonly (readonly number[])[];
  /** Entries of two corners (lines) a correct decode names, and drops. */
  readonly lines: number;
  /** Every vertex a line uses. */
  readonly lineVertices: ReadonlySet<number>;
  /** The case has no face at all (guides alone). */
  readonly guidesOnly: boolean;
}

/** The case of `seed`: a scalp or a cage of 3–12 faces and 1–5 strands or wires of 1–8 segments. */
export function lineCase(seed: number): LineCase {
  const r = prng(seed);
  const vertices: number[][] = [], uvs: number[][] = [], overrides: number[][] = [];
  const entries: { corners: number[]; surface: number; group: number; face?: Omit<LineFace, "seam"> }[] = [];
  const guidesOnly = r() < 0.15;
  const faceCount = guidesOnly ? 0 : 3 + Math.floor(r() * 10);
  for (let f = 0; f < faceCount; f++) {
    const [u, v, n] = frame(r);
    const s = 3 + r() * 20;
    const flat: [number, number][] = r() < 0.6
      ? [[0, 0], [s, 0], [s, s * 0.8], [0, s]]
      : [[0, 0], [s, 0], [0, s]];
    const origin = [f * 60, r() * 10, r() * 10];
    const first = vertices.length;
    for (const [x, y] of flat) {
      vertices.push([0, 1, 2].map((c) => origin[c] + x * u[c] + y * v[c]));
      uvs.push([x / 50, y / 50]);
    }
    const area = flat.length === 4 ? s * s * 0.8 + (s * s * 0.2) / 2 : (s * s) / 2;
    const surface = Math.floor(r() * 2);
    entries.push({
      corners: flat.map((_, k) => first + k),
      surface,
      group: Math.floor(r() * 2),
      face: { corners: flat.map((_, k) => first + k), surface, area, normal: n },
    });
  }
  // Strands: a root (sometimes a scalp face's corner), then segments up and outwards.
  const strands = 1 + Math.floor(r() * 5);
  const lineVertices = new Set<number>();
  const lineEntries: typeof entries = [];
  for (let s = 0; s < strands; s++) {
    let previous: number;
    if (faceCount && r() < 0.5) previous = entries[Math.floor(r() * faceCount)].corners[0];
    else {
      previous = vertices.length;
      vertices.push([r() * 100, 150 + r() * 20, r() * 10]);
      uvs.push([0, 0]);
    }
    const segments = 1 + Math.floor(r() * 8);
    for (let k = 0; k < segments; k++) {
      const at = vertices[previous];
      const next = vertices.length;
      vertices.push([at[0] + r() - 0.5, at[1] + 1 + r(), at[2] + r() - 0.5]);
      uvs.push([0, 0]);
      lineVertices.add(previous).add(next);
      lineEntries.push({ corners: [previous, next], surface: Math.floor(r() * 2), group: 0 });
      previous = next;
    }
  }
  // Where the lines go: all first (a hair tool), all last (an exporter appending guides), or mixed.
  const where = r();
  let ordered: typeof entries;
  if (where < 0.3) ordered = [...lineEntries, ...entries];
  else if (where < 0.6) ordered = [...entries, ...lineEntries];
  else {
    ordered = [...entries];
    for (const line of lineEntries) ordered.splice(Math.floor(r() * (ordered.length + 1)), 0, line);
  }
  const faces = new Map<number, LineFace>();
  ordered.forEach((entry, p) => {
    if (!entry.face) return;
    let seam: LineFace["seam"];
    if (r() < 0.5) {
      const vertex = entry.corners[Math.floor(r() * entry.corners.length)];
      const uv: [number, number] = [0.5 + r() / 4, 0.5 + r() / 4];
      overrides.push([p, vertex, uvs.length]);
      uvs.push(uv);
      seam = { vertex, uv };
    }
    faces.set(p, { ...entry.face, seam });
  });
  const polys = ordered.map((e) => [e.group, e.surface, ...e.corners]);
  const json = propFile({
    assetId: "/data/Community/Hair/Prop.dsf",
    name: "Prop",
    vertices,
    polys,
    groups: ["scalp", "guides"],
    surfaces: ["Scalp", "Hair"],
    uvs: { values: uvs, overrides },
  });
  return { seed, json, faces, vertices, lines: lineEntries.length, lineVertices, guidesOnly };
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
