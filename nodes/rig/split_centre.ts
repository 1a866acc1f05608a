/**
 * One connected V across the centre line — a V-tail or butterfly tail modelled as one mesh, or
 * `Elevons` that touch at the centre — is two surfaces hinged on two lines. It is cut at the plane of
 * symmetry: every triangle straddling it is clipped into its left and right parts (new vertices on
 * the plane, every attribute interpolated, shared by the triangles of both sides so each half keeps
 * its surface), and the node is split into `<name>_L` and `<name>_R` (materials and extras kept),
 * each with its side.
 *
 * The cut is made only when it is honest: the halves must be roughly mirror images (area, centroid
 * and hinge agree across the mirror) and their hinges must not be one line (a one-piece surface
 * through the centre moves as one). Otherwise the piece is warned about and fitted whole — but for a
 * kind that only ever moves as a whole (a centre speed brake, a one-piece elevator or flap), halves on
 * one line are simply what it is, and nothing is warned.
 *
 * @module
 */
import type { Document, Node, Primitive, TypedArray } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import { fitHinge, HINGE_FIT_DEFAULTS, type HingeFit, NonFiniteGeometryError } from "./hinge_fit.ts";
import { KIND_SPECS } from "./kinds.ts";
import { drawsArea } from "./drawn_vertices.ts";
import { emptyHalves, primitiveFromList, splitNodeInTwo, whyNotSplittable } from "./mesh_halves.ts";
import { getPart, setPart } from "./part_extras.ts";
import { cross, dot, length, type Mat4, multiply, sub, type Vec3 } from "./transform.ts";
import type { PanelKind } from "./vocabulary.ts";

/** Halves whose hinges are closer to one line than this (degrees) are one surface, not a V. */
export const V_MIN_DEGREES = 3;
/**
 * Kinds whose left and right halves never move apart: one piece of them across the centre on one hinge
 * line is rigged right as one panel. (Ailerons, elevons, stabilators, spoilers, canards and ruddervators
 * may move differentially, so one piece of them is warned.)
 */
const MOVES_AS_ONE: ReadonlySet<string> = new Set([
  "elevator",
  "flap",
  "leading_edge_flap",
  "slat",
  "air_brake",
  "trim_tab",
]);
/** Mirrored halves whose hinges differ by more than this (degrees) are not symmetric. */
const MIRROR_DEGREES = 5;
/** …or whose hinge lines lie further apart than this share of the chord. */
const MIRROR_OFFSET_CHORD = 0.1;
/** …or whose areas differ by more than this share. */
const MIRROR_AREA = 0.25;
/** …or whose centroids lie further apart, mirrored, than this share of the half-span. */
const MIRROR_CENTROID = 0.1;

/** One primitive cut at the plane: attribute arrays extended with the cut vertices, and each side's triangles. */
interface CutPrimitive {
  readonly primitive: Primitive;
  readonly arrays: Map<string, TypedArray>;
  /** Aircraft-frame positions of every (original and new) vertex. */
  readonly aircraft: Float64Array;
  readonly left: number[];
  readonly right: number[];
}

/** glTF's mode of a plain triangle list: the only one cut. */
const TRIANGLE_LIST = 4;

/** A half's geometry in aircraft coordinates, compacted. */
interface Half {
  readonly positions: Float64Array;
  readonly count: number;
  readonly triangles: Uint32Array;
}

/**
 * Cuts a panel node that is one connected piece across the centre line into a left and a right
 * panel; returns the new right-hand node, or undefined (warned) when it is left whole.
 */
export function splitAtCentrePlane(
  doc: Document,
  node: Node,
  toAircraft: Mat4,
  ctx: RunContext,
): Node | undefined {
  const part = getPart(node)!;
  const name = node.getName();
  const leaveWhole = (why: string) => {
    ctx.warn(
      `panel '${name}' (${part.kind}) is one connected piece spanning both sides of the centre line: rigged ` +
        `as one centre panel on one hinge line, not cut at the plane of symmetry because ${why}; if its ` +
        "halves move apart (a V planform, left and right surfaces), split it into a left and a right object",
      { panel: name },
    );
    return undefined;
  };
  const awkward = whyNotSplittable(node, { guides: true });
  if (awkward) return leaveWhole(awkward);
  const matrix = multiply(toAircraft, node.getWorldMatrix());
  // Lines or points beside the triangles (a modeller's guide edges) are cut no more than read: they
  // stay whole with the left half.
  const primitives = node.getMesh()!.listPrimitives();
  const guides = primitives.filter((p) => p.getMode() !== TRIANGLE_LIST);
  const cuts = primitives.filter((p) => p.getMode() === TRIANGLE_LIST).map((p) => cutPrimitive(p, matrix));
  const left = gatherHalf(cuts, "left"), right = gatherHalf(cuts, "right");
  const edge = KIND_SPECS[part.kind as PanelKind].edge;
  const verdict = judgeHalves(left, right, edge);
  if (typeof verdict !== "number") {
    return verdict.oneLine && MOVES_AS_ONE.has(part.kind) ? undefined : leaveWhole(verdict.why);
  }

  const halves = emptyHalves(doc, node.getMesh()!);
  for (const guide of guides) halves.left.addPrimitive(guide.clone());
  for (const cut of cuts) {
    for (const side of ["left", "right"] as const) {
      if (cut[side].length) {
        halves[side].addPrimitive(primitiveFromList(doc, cut.primitive, cut.arrays, cut[side]));
      }
    }
  }
  const rightNode = splitNodeInTwo(doc, node, halves);
  setPart(node, { ...part, side: "left" });
  setPart(rightNode, { ...part, side: "right" });
  ctx.warn(
    `panel '${name}' (${part.kind}) was one V-shaped piece across the centre line (its halves' hinges are ` +
      `${verdict.toFixed(1)}° apart): cut at the plane of symmetry into '${node.getName()}' and ` +
      `'${rightNode.getName()}'`,
    { panel: name },
  );
  return rightNode;
}

/** Why a piece is left whole; `oneLine` when it is mirror-image halves on one hinge line. */
interface LeftWhole {
  readonly why: string;
  readonly oneLine?: boolean;
}

/**
 * Why the halves cannot honestly be two mirror-image surfaces, or the angle between their hinges
 * (degrees) when they are.
 */
function judgeHalves(left: Half, right: Half, edge: "forward" | "aft" | "quarter"): LeftWhole | number {
  const whole = (why: string): LeftWhole => ({ why });
  if (left.triangles.length === 0 || right.triangles.length === 0) return whole("one side holds no surface");
  const [a, b] = [left, right].map(surfaceMoments);
  if (Math.abs(a.area - b.area) > MIRROR_AREA * Math.max(a.area, b.area)) {
    return whole(
      `its halves are not mirror images (areas ${a.area.toPrecision(3)} and ${b.area.toPrecision(3)})`,
    );
  }
  const halfSpan = Math.max(a.reach, b.reach);
  if (length(sub(a.centroid, mirror(b.centroid))) > MIRROR_CENTROID * halfSpan) {
    return whole("its halves are not mirror images (their centroids do not mirror onto each other)");
  }
  let fits: HingeFit[];
  try {
    fits = [left, right].map((h) =>
      fitHinge(h.positions, h.count, { ...HINGE_FIT_DEFAULTS, edge }, h.triangles)
    );
  } catch (error) {
    if (!(error instanceof NonFiniteGeometryError)) throw error;
    return whole("a half has non-finite vertex positions");
  }
  const [fl, fr] = fits;
  if (fl.collinear || fr.collinear) return whole("a half has no area");
  const mirroredAxis = mirror(fr.axis);
  const mirrorDegrees = lineAngle(fl.axis, mirroredAxis);
  const offset = length(cross(sub(mirror(fr.origin), fl.origin), fl.axis));
  if (mirrorDegrees > MIRROR_DEGREES || offset > MIRROR_OFFSET_CHORD * Math.max(fl.chord, fr.chord)) {
    return whole(`its halves' hinges do not mirror onto each other (${mirrorDegrees.toFixed(1)}° apart)`);
  }
  const apart = lineAngle(fl.axis, fr.axis);
  if (apart < V_MIN_DEGREES) {
    return { why: `its halves lie on one hinge line (${apart.toFixed(1)}° apart)`, oneLine: true };
  }
  return apart;
}

/** Angle in degrees between two lines' directions, sign ignored. */
function lineAngle(a: Vec3, b: Vec3): number {
  return (Math.acos(Math.min(1, Math.abs(dot(a, b)) / (length(a) * length(b)))) * 180) / Math.PI;
}

/** Mirror image across the plane of symmetry (aircraft coordinates: left is the third axis). */
function mirror(v: Vec3): Vec3 {
  return [v[0], v[1], -v[2]];
}

/** Area, area-weighted centroid and lateral reach of a half's triangles. */
function surfaceMoments(half: Half): { area: number; centroid: Vec3; reach: number } {
  const p = half.positions, t = half.triangles;
  let area = 0, reach = 0;
  const centroid: Vec3 = [0, 0, 0];
  for (let i = 0; i < t.length; i += 3) {
    const [a, b, c] = [t[i] * 3, t[i + 1] * 3, t[i + 2] * 3];
    const ab: Vec3 = [p[b] - p[a], p[b + 1] - p[a + 1], p[b + 2] - p[a + 2]];
    const ac: Vec3 = [p[c] - p[a], p[c + 1] - p[a + 1], p[c + 2] - p[a + 2]];
    const da = length(cross(ab, ac)) / 2;
    area += da;
    for (let k = 0; k < 3; k++) centroid[k] += (da * (p[a + k] + p[b + k] + p[c + k])) / 3;
  }
  for (let i = 2; i < p.length; i += 3) reach = Math.max(reach, Math.abs(p[i]));
  return {
    area,
    centroid: area > 0 ? [centroid[0] / area, centroid[1] / area, centroid[2] / area] : centroid,
    reach,
  };
}

/** One side's triangles over every cut primitive, with only the vertices they use, in aircraft coordinates. */
function gatherHalf(cuts: readonly CutPrimitive[], side: "left" | "right"): Half {
  const positions: number[] = [], triangles: number[] = [];
  for (const cut of cuts) {
    const renumber = new Map<number, number>();
    for (const v of cut[side]) {
      let index = renumber.get(v);
      if (index === undefined) {
        index = positions.length / 3;
        renumber.set(v, index);
        positions.push(cut.aircraft[v * 3], cut.aircraft[v * 3 + 1], cut.aircraft[v * 3 + 2]);
      }
      triangles.push(index);
    }
  }
  return {
    positions: Float64Array.from(positions),
    count: positions.length / 3,
    triangles: Uint32Array.from(triangles),
  };
}

/**
 * Clips every triangle of a primitive (a plain triangle list) against the plane aircraft-left = 0
 * (`matrix`: node-local → aircraft). Vertices on the plane belong to both sides; a crossing edge gets
 * one new vertex, shared by the triangles on both sides of it.
 */
function cutPrimitive(primitive: Primitive, matrix: Mat4): CutPrimitive {
  const position = primitive.getAttribute("POSITION")!;
  const count = position.getCount();
  const aircraftOf = (p: ArrayLike<number>): Vec3 =>
    [0, 1, 2].map((k) =>
      matrix[k] * p[0] + matrix[4 + k] * p[1] + matrix[8 + k] * p[2] + matrix[12 + k]
    ) as Vec3;
  const element = [0, 0, 0];
  const aircraft: number[] = [];
  for (let i = 0; i < count; i++) aircraft.push(...aircraftOf(position.getElement(i, element)));
  let reach = 0;
  for (let i = 2; i < aircraft.length; i += 3) reach = Math.max(reach, Math.abs(aircraft[i]));
  const onPlane = 1e-9 * reach;
  const sideOf = (v: number) => aircraft[v * 3 + 2] > onPlane ? 1 : aircraft[v * 3 + 2] < -onPlane ? -1 : 0;

  // New vertices where an edge crosses the plane: (a, b, t) with the vertex at a + t·(b − a).
  const crossings: { a: number; b: number; t: number }[] = [];
  const crossingOf = new Map<string, number>();
  const crossingVertex = (a: number, b: number): number => {
    const key = a < b ? `${a},${b}` : `${b},${a}`;
    let v = crossingOf.get(key);
    if (v === undefined) {
      const la = aircraft[a * 3 + 2], lb = aircraft[b * 3 + 2];
      v = count + crossings.length;
      crossings.push({ a, b, t: la / (la - lb) });
      crossingOf.set(key, v);
    }
    return v;
  };
  const left: number[] = [], right: number[] = [];
  const indices = primitive.getIndices()?.getArray();
  const n = indices ? indices.length : count;
  for (let t = 0; t + 2 < n; t += 3) {
    const corners = [0, 1, 2].map((k) => indices ? indices[t + k] : t + k);
    // A triangle with no area (collapsed onto the origin by an exporter) draws nothing: on neither side,
    // its corners no part of either half's fit.
    if (!drawsArea(aircraft, corners[0], corners[1], corners[2])) continue;
    const sides = corners.map(sideOf);
    if (!sides.includes(-1)) left.push(...corners);
    else if (!sides.includes(1)) right.push(...corners);
    else {
      for (const [keep, list] of [[1, left], [-1, right]] as const) {
        fan(clip(corners, sides, keep, crossingVertex), list);
      }
    }
  }
  const arrays = extendedArrays(primitive, crossings);
  for (const { a, b, t } of crossings) {
    for (let k = 0; k < 3; k++) {
      aircraft.push(aircraft[a * 3 + k] + t * (aircraft[b * 3 + k] - aircraft[a * 3 + k]));
    }
  }
  return { primitive, arrays, aircraft: Float64Array.from(aircraft), left, right };
}

/** The part of a triangle on side `keep` (its vertices there or on the plane, and the crossings), in order. */
function clip(
  corners: readonly number[],
  sides: readonly number[],
  keep: 1 | -1,
  crossing: (a: number, b: number) => number,
): number[] {
  const polygon: number[] = [];
  for (let i = 0; i < 3; i++) {
    const j = (i + 1) % 3;
    if (sides[i] !== -keep) polygon.push(corners[i]);
    if (sides[i] * sides[j] < 0) polygon.push(crossing(corners[i], corners[j]));
  }
  return polygon;
}

/** Triangulates a convex polygon as a fan (winding kept) onto `list`. */
function fan(polygon: readonly number[], list: number[]): void {
  for (let k = 1; k + 1 < polygon.length; k++) list.push(polygon[0], polygon[k], polygon[k + 1]);
}

/**
 * Every attribute of a primitive with the crossing vertices appended, interpolated along their
 * edges: rounded for integer storage, normals and tangents made unit again.
 */
function extendedArrays(primitive: Primitive, crossings: readonly { a: number; b: number; t: number }[]) {
  const arrays = new Map<string, TypedArray>();
  for (const semantic of primitive.listSemantics()) {
    const accessor = primitive.getAttribute(semantic)!;
    const source = accessor.getArray()!;
    const size = accessor.getElementSize(), count = accessor.getCount();
    const out = new (source.constructor as new (n: number) => TypedArray)((count + crossings.length) * size);
    out.set(source.subarray(0, count * size));
    const integer = !(source instanceof Float32Array || source instanceof Float64Array);
    // Stored as integers (quantized), a direction is in storage units: rounding is all it needs.
    const unit = !integer && (semantic === "NORMAL" || semantic === "TANGENT");
    crossings.forEach(({ a, b, t }, i) => {
      const values = Array.from(
        { length: size },
        (_, k) => source[a * size + k] + t * (source[b * size + k] - source[a * size + k]),
      );
      if (unit) {
        const norm = Math.hypot(values[0], values[1], values[2]) || 1;
        for (let k = 0; k < 3; k++) values[k] /= norm;
        if (size === 4) values[3] = source[a * size + 3];
      }
      out.set(integer ? values.map(Math.round) : values, (count + i) * size);
    });
    arrays.set(semantic, out);
  }
  return arrays;
}
