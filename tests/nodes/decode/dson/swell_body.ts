/**
 * A code-made body for auto-follow projection tests: an open cylinder (Genesis 9's file and ids)
 * whose auto_follow FBMHeavy swells it radially by a known amount, tubes to fit to it, and how far
 * a decoded item's drawn vertices are from where a known delta puts them.
 */
import assert from "node:assert/strict";
import type { Document } from "@gltf-transform/core";
import { generateFigure, type Json } from "./generate.ts";
import { SMOOTH_RATIO } from "../../../../nodes/decode/dson/codec/nearest_surface.ts";

export const BODY = "Genesis9";
export const BODY_FILE = "/data/DAZ 3D/Genesis 9/Base/Genesis9.dsf";
export const MORPH = "FBMHeavy";
const METRES_PER_CM = 0.01;
/** The body cylinder: radius and height (cm), segments around and rows of vertices. */
export const R = 10, H = 40, SEGMENTS = 96, ROWS = 41;
/** The swell's largest radial push (cm), at mid-height. */
export const SWELL = 2;

/** FBMHeavy's delta (cm) at angle `a` and height `y` of the body's surface. */
export const swell = (a: number, y: number) => {
  const s = SWELL * Math.sin((Math.PI * y) / H);
  return [s * Math.cos(a), 0, s * Math.sin(a)];
};

/**
 * How far (cm) the faceted body's projection may be from the ideal cylinder's, for an item `offset`
 * cm out following `follow` of the swell at `weight`: the nearest point on a flat facet (96 around,
 * half-angle π/96) lies up to offset·π/96 along it from the radial one, where the swell's direction
 * turns by 1/R per cm; a facet's corners' blend falls short of the unit direction by up to
 * 1 - cos(π/96) ≈ (π/96)²/2; the sine's linear blend between rows errs by up to step²/8 times its
 * curvature (π/H)²; the fade (5 → 10 cm) sees the facet up to R(1 - cos(π/96)) nearer; plus float32.
 * The projection's smoothing averages the swell over body points up to ρ = offset·√((1 + k)² − 1)
 * from the nearest (k: SMOOTH_RATIO, the band beyond the nearest distance), where it differs from the
 * nearest's by at most ρ²/2 times its curvature: (π/H)² along the height, 1/R² as its direction turns.
 */
export function facetTolerance(offset: number, follow: number, weight: number): number {
  const half = Math.PI / SEGMENTS, step = H / (ROWS - 1);
  const rho = offset * Math.sqrt((1 + SMOOTH_RATIO) ** 2 - 1);
  const smoothError = (rho * rho / 2) * ((Math.PI / H) ** 2 + 1 / (R * R));
  const swellError = (offset * half) / R + half * half / 2 + (step * step / 8) * (Math.PI / H) ** 2 +
    smoothError;
  const fadeError = follow < 1 ? (R * (1 - Math.cos(half))) / 5 : 0;
  return weight * SWELL * (follow * swellError + fadeError) + 1e-4;
}

/** A tube's vertices (cm): `segments` around at radius `r` from `phase`, rows at `ys`, centred on `cx`. */
export function tube(r: number, segments: number, ys: readonly number[], phase = 0, cx = 0) {
  const vertices: number[][] = [], angles: number[] = [], heights: number[] = [];
  for (const y of ys) {
    for (let s = 0; s < segments; s++) {
      const a = phase + (2 * Math.PI * s) / segments;
      vertices.push([cx + r * Math.cos(a), y, r * Math.sin(a)]);
      angles.push(a), heights.push(y);
    }
  }
  const polys: number[][] = [];
  for (let j = 0; j + 1 < ys.length; j++) {
    for (let s = 0; s < segments; s++) {
      const [a, b] = [j * segments + s, j * segments + ((s + 1) % segments)];
      polys.push([0, 0, a, b, b + segments, a + segments]);
    }
  }
  return { vertices, polys, angles, heights };
}

export const fileOf = (figure: string) => (figure === BODY ? BODY_FILE : `/data/Items/${figure}.dsf`);

/** A figure file (no scene, skin or UVs) whose geometry is `mesh`, with `modifiers`. */
export function figureFile(
  figure: string,
  mesh: { vertices: number[][]; polys: number[][] },
  modifiers: Json[],
): Json {
  const json = generateFigure({ side: 2, bones: 1, figureId: figure, assetId: fileOf(figure) });
  delete json.scene;
  delete json.uv_set_library;
  const geometry = (json.geometry_library as Json[])[0];
  delete geometry.default_uv_set;
  geometry.vertices = { count: mesh.vertices.length, values: mesh.vertices };
  geometry.polylist = { count: mesh.polys.length, values: mesh.polys };
  json.modifier_library = modifiers;
  return json;
}

/** The body tube as `body()` draws it. */
export const bodyTube = tube(R, SEGMENTS, Array.from({ length: ROWS }, (_, j) => (j * H) / (ROWS - 1)));

/**
 * The figure file `Patch`: a geograft replacing the n × n body quads at (row, segment) with a patch
 * bulging 1 cm, its border vertices welded to the body's and its inner ones over body vertices only the
 * hidden quads use; `damage` may edit its record's lists before they are written.
 */
export function graftPatch(
  row: number,
  segment: number,
  n: number,
  damage?: (graft: { pairs: number[][]; hidden: number[] }) => void,
): { file: Json; vertices: number } {
  const local = new Map<number, number>(), vertices: number[][] = [], pairs: number[][] = [];
  for (let r = row; r <= row + n; r++) {
    for (let s = segment; s <= segment + n; s++) {
      const v = r * SEGMENTS + s, [x, y, z] = bodyTube.vertices[v];
      const border = r === row || r === row + n || s === segment || s === segment + n;
      if (border) pairs.push([vertices.length, v]);
      local.set(v, vertices.length);
      vertices.push(border ? [x, y, z] : [x * (R + 1) / R, y, z * (R + 1) / R]);
    }
  }
  const polys: number[][] = [], hidden: number[] = [];
  for (let r = row; r < row + n; r++) {
    for (let s = segment; s < segment + n; s++) {
      const a = r * SEGMENTS + s;
      polys.push([0, 0, ...[a, a + 1, a + 1 + SEGMENTS, a + SEGMENTS].map((v) => local.get(v)!)]);
      hidden.push(a);
    }
  }
  damage?.({ pairs, hidden });
  const file = figureFile("Patch", { vertices, polys }, []);
  (file.geometry_library as Json[])[0].graft = {
    vertex_count: bodyTube.vertices.length,
    poly_count: bodyTube.polys.length,
    vertex_pairs: { count: pairs.length, values: pairs },
    hidden_polys: { count: hidden.length, values: hidden },
  };
  return { file, vertices: vertices.length };
}

/** The body tube with FBMHeavy (auto_follow) swelling every vertex, and `extra` modifiers. */
export function body(extra: readonly Json[] = []): Json {
  const t = tube(R, SEGMENTS, Array.from({ length: ROWS }, (_, j) => (j * H) / (ROWS - 1)));
  const deltas = t.vertices.map((_, v) => [v, ...swell(t.angles[v], t.heights[v])]);
  return figureFile(BODY, t, [{
    id: MORPH,
    name: MORPH,
    parent: `#${BODY}_geo`,
    channel: { id: "value", type: "float", value: 0, min: 0, max: 1, clamped: true, auto_follow: true },
    morph: { vertex_count: t.vertices.length, deltas: { count: deltas.length, values: deltas } },
  }, ...extra]);
}

export function instance(figure: string, target?: string): Json {
  const url = encodeURI(fileOf(figure));
  return {
    id: `${figure}-1`,
    url: `${url}#${figure}`,
    ...(target ? { parent: `#${BODY}-1`, conform_target: `#${target}-1` } : {}),
    geometries: [{ id: `${figure}_geo-1`, url: `${url}#${figure}_geo` }],
  };
}

/** The mesh-space positions the viewer draws for `figure` (metres): base and each drawn base with its morphed one. */
export function drawn(scene: Document, figure: string): { base: number[]; moved: number[] }[] {
  const mesh = scene.getRoot().listMeshes().find((m) => m.getName().startsWith(figure));
  assert.ok(mesh, `a mesh of ${figure}`);
  const weights = mesh.getWeights();
  return mesh.listPrimitives().flatMap((primitive) => {
    const position = primitive.getAttribute("POSITION")!;
    return Array.from({ length: position.getCount() }, (_, i) => {
      const base = position.getElement(i, [] as number[]);
      const moved = [...base];
      primitive.listTargets().forEach((target, t) => {
        const d = target.getAttribute("POSITION")!.getElement(i, [] as number[]);
        for (let c = 0; c < 3; c++) moved[c] += weights[t] * d[c];
      });
      return { base, moved };
    });
  });
}

/**
 * The largest distance (cm) between where `figure`'s vertices are drawn and where `expected` (each
 * of its vertices' rest position and delta, cm) puts them at `weight`; each drawn vertex is matched
 * to its rest position. `once`: each is drawn once (false: a vertex two primitives share, a graft's
 * welded one, is drawn in each).
 */
export function worstError(
  scene: Document,
  figure: string,
  expected: { rest: number[]; delta: number[] }[],
  weight: number,
  once = true,
) {
  let worst = 0;
  const got = drawn(scene, figure);
  if (once) assert.equal(got.length, expected.length, `${figure} draws each vertex once`);
  const near = restCells(expected);
  for (const { base, moved } of got) {
    const gap = (e: { rest: number[] }) =>
      Math.max(...e.rest.map((c, k) => Math.abs(c - base[k] / METRES_PER_CM)));
    const e = nearestRest(near, expected, base, gap) ?? expected.reduce((a, b) => (gap(b) < gap(a) ? b : a));
    assert.ok(gap(e) < 1e-4, `${figure}: a drawn vertex ${base} is one of its rest vertices`);
    for (let c = 0; c < 3; c++) {
      worst = Math.max(worst, Math.abs(moved[c] / METRES_PER_CM - (e.rest[c] + weight * e.delta[c])));
    }
  }
  return worst;
}

/** The grid (cm) {@link restCells} buckets rest positions by: wider than twice the 1e-4 cm match. */
const CELL = 1e-3;
const cellOf = (p: readonly number[]) => p.map((c) => Math.floor(c / CELL));

/**
 * Each expected vertex's index by the grid cell of its rest position; undefined when a rest position
 * is not finite (then {@link worstError} scans every vertex, as it always did).
 */
function restCells(expected: { rest: number[] }[]): Map<string, number[]> | undefined {
  const cells = new Map<string, number[]>();
  for (const [i, e] of expected.entries()) {
    if (e.rest.length !== 3 || !e.rest.every(Number.isFinite)) return undefined;
    const key = cellOf(e.rest).join();
    cells.get(key)?.push(i) ?? cells.set(key, [i]);
  }
  return cells;
}

/**
 * What the full scan (`expected.reduce`, the first vertex of least gap) picks for a drawn vertex at
 * `base` (m) when that gap is under 1e-4 cm, found among the rest positions in the 27 grid cells
 * round it — every vertex that close lies in them — so a test matches thousands of vertices without
 * scanning all of them for each; undefined when none is that close (the caller then scans, failing
 * as before). The same vertex either way: candidates are tried in the list's order, ties kept.
 */
function nearestRest<E extends { rest: number[] }>(
  cells: Map<string, number[]> | undefined,
  expected: E[],
  base: number[],
  gap: (e: E) => number,
): E | undefined {
  if (!cells) return undefined;
  const [x, y, z] = cellOf(base.map((c) => c / METRES_PER_CM));
  const candidates: number[] = [];
  for (let dx = -1; dx <= 1; dx++) {
    for (let dy = -1; dy <= 1; dy++) {
      for (let dz = -1; dz <= 1; dz++) candidates.push(...(cells.get([x + dx, y + dy, z + dz].join()) ?? []));
    }
  }
  let best: E | undefined;
  for (const i of candidates.sort((a, b) => a - b)) {
    if (!best || gap(expected[i]) < gap(best)) best = expected[i];
  }
  return best && gap(best) < 1e-4 ? best : undefined;
}
