/**
 * glTF as hand-written files and small exporters write it: a plausible light aircraft (fuselage, wings
 * with dihedral, flaps and ailerons deflected, a tail, gear legs and doors turned down, a propeller of two
 * to four blades) or a prop (a propeller assembly alone), its transforms written as such tools write them
 * (every node's translation, rotation and scale given, or only those that are not identity; numbers
 * rounded to a few decimals), with one habit applied to the whole file or to one subtree (the part
 * another tool wrote). Each case also has its clean twin: the same file without the habit.
 *
 * @module
 */
import { prng } from "../../../support/prng.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;
type Random = () => number;
type Quat = [number, number, number, number];

/** What a reader should do with a case: say something, or read it quietly. */
export type Expect = "notice" | "quiet";

/** One generated file and what it holds. */
export interface SmallExport {
  readonly kind: string;
  readonly expect: Expect;
  readonly name: string;
  readonly bytes: Uint8Array;
  /** The same file without the habit (for a clean case, the file itself). */
  readonly clean: Uint8Array;
  /** Nodes whose reading the habit changed (JSON indices). */
  readonly changed: readonly number[];
  /** Whether the model is an aircraft (else a lone propeller). */
  readonly aircraft: boolean;
  /** Whether every node's translation, rotation and scale is written (else only those not identity). */
  readonly allTrs: boolean;
  /** The names of the nodes the habit was applied to. */
  readonly habitOn: readonly string[];
}

/** A turn of `degrees` about a unit axis, as [x, y, z, w]. */
function turn(axis: [number, number, number], degrees: number): Quat {
  const h = (degrees * Math.PI) / 360;
  return [axis[0] * Math.sin(h), axis[1] * Math.sin(h), axis[2] * Math.sin(h), Math.cos(h)];
}

const round = (v: number, places: number) => Number(v.toFixed(places));

/** A box mesh of half extents `e`, its vertices embedded as a data: URI buffer. */
function boxMesh(json: Json, name: string, e: [number, number, number]): number {
  const p: number[] = [];
  for (let i = 0; i < 8; i++) p.push(i & 1 ? e[0] : -e[0], i & 2 ? e[1] : -e[1], i & 4 ? e[2] : -e[2]);
  const idx = [
    0,
    2,
    1,
    1,
    2,
    3,
    4,
    5,
    6,
    5,
    7,
    6,
    0,
    1,
    4,
    1,
    5,
    4,
    2,
    6,
    3,
    3,
    6,
    7,
    0,
    4,
    2,
    2,
    4,
    6,
    1,
    3,
    5,
    3,
    7,
    5,
  ];
  const pos = new Float32Array(p);
  const ind = new Uint16Array(idx);
  const bytes = new Uint8Array(pos.byteLength + ind.byteLength);
  bytes.set(new Uint8Array(pos.buffer));
  bytes.set(new Uint8Array(ind.buffer), pos.byteLength);
  const buffer = json.buffers.push({
    byteLength: bytes.length,
    uri: `data:application/octet-stream;base64,${bytes.toBase64()}`,
  }) - 1;
  const pv = json.bufferViews.push({ buffer, byteLength: pos.byteLength, target: 34962 }) - 1;
  const iv =
    json.bufferViews.push({ buffer, byteOffset: pos.byteLength, byteLength: ind.byteLength, target: 34963 }) -
    1;
  const pa = json.accessors.push({
    bufferView: pv,
    componentType: 5126,
    count: 8,
    type: "VEC3",
    min: e.map((v) => -Math.fround(v)),
    max: e.map((v) => Math.fround(v)),
  }) - 1;
  const ia = json.accessors.push({ bufferView: iv, componentType: 5123, count: 36, type: "SCALAR" }) - 1;
  return json.meshes.push({ name, primitives: [{ attributes: { POSITION: pa }, indices: ia }] }) - 1;
}

/** A part: its name, parent (index into the list, -1 for a root), place, turn and box. */
interface Part {
  name: string;
  parent: number;
  t: [number, number, number];
  r: Quat;
  box: [number, number, number];
}

const X: [number, number, number] = [1, 0, 0];
const Y: [number, number, number] = [0, 1, 0];
const Z: [number, number, number] = [0, 0, 1];

/** A propeller assembly under `parent` at `t`: hub, spinner and `blades` blades turned about the axis (+Z). */
function propeller(
  parts: Part[],
  parent: number,
  t: [number, number, number],
  blades: number,
  random: Random,
) {
  const hub = parts.push({ name: "prop_hub", parent, t, r: turn(Z, 0), box: [0.08, 0.08, 0.1] }) - 1;
  parts.push({ name: "spinner", parent: hub, t: [0, 0, 0.12], r: turn(Z, 0), box: [0.07, 0.07, 0.1] });
  const pitch = 10 + random() * 20;
  for (let b = 0; b < blades; b++) {
    const q = mul(turn(Z, (360 * b) / blades), turn(Y, pitch));
    parts.push({ name: `blade_${b + 1}`, parent: hub, t: [0, 0, 0], r: q, box: [0.9, 0.06, 0.01] });
  }
}

/** Quaternion product a·b, [x, y, z, w]. */
function mul(a: Quat, b: Quat): Quat {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

/** A light aircraft (forward +Z, up +Y) or a lone propeller, its parts in a random plausible pose. */
function model(random: Random): Part[] {
  const parts: Part[] = [];
  if (random() < 0.25) {
    propeller(parts, -1, [0, 0, 0], 2 + Math.floor(random() * 3), random);
    return parts;
  }
  const body = parts.push({ name: "fuselage", parent: -1, t: [0, 0, 0], r: turn(X, 0), box: [0.6, 0.7, 4] }) -
    1;
  const dihedral = 2 + random() * 5;
  for (const [side, s] of [["L", 1], ["R", -1]] as const) {
    const wing = parts.push({
      name: `wing_${side}`,
      parent: body,
      t: [s * 0.6, 0.3, 0.5],
      r: turn(Z, s * dihedral),
      box: [5, 0.1, 0.8],
    }) - 1;
    parts.push({
      name: `aileron_${side}`,
      parent: wing,
      t: [s * 3.5, 0, -0.8],
      r: turn(X, (random() - 0.5) * 30),
      box: [1.2, 0.04, 0.2],
    });
    parts.push({
      name: `flap_${side}`,
      parent: wing,
      t: [s * 1.5, 0, -0.8],
      r: turn(X, random() * 30),
      box: [1.5, 0.04, 0.25],
    });
    const gear = parts.push({
      name: `gear_${side}`,
      parent: body,
      t: [s * 1.2, -0.6, 0.8],
      r: turn(Z, s * random() * 90),
      box: [0.05, 0.6, 0.05],
    }) - 1;
    parts.push({
      name: `gear_door_${side}`,
      parent: gear,
      t: [0, -0.1, 0],
      r: turn(Z, s * 90),
      box: [0.3, 0.02, 0.4],
    });
  }
  const stab = parts.push({
    name: "stabilizer",
    parent: body,
    t: [0, 0.3, -3.8],
    r: turn(X, 0),
    box: [1.8, 0.05, 0.5],
  }) - 1;
  parts.push({
    name: "elevator",
    parent: stab,
    t: [0, 0, -0.5],
    r: turn(X, (random() - 0.5) * 40),
    box: [1.8, 0.03, 0.2],
  });
  const fin =
    parts.push({ name: "fin", parent: body, t: [0, 1, -3.8], r: turn(X, 0), box: [0.05, 0.9, 0.6] }) - 1;
  parts.push({
    name: "rudder",
    parent: fin,
    t: [0, 0, -0.6],
    r: turn(Y, (random() - 0.5) * 40),
    box: [0.03, 0.9, 0.2],
  });
  if (random() < 0.3) {
    // A part genuinely upside down (a belly antenna modelled top up): a half turn about X, as meant.
    parts.push({
      name: "antenna_belly",
      parent: body,
      t: [0, -0.7, 1],
      r: turn(X, 180),
      box: [0.02, 0.2, 0.05],
    });
  }
  propeller(parts, body, [0, 0, 4.1], 2 + Math.floor(random() * 3), random);
  return parts;
}

/** Indices of `root` and every part below it. */
function subtree(parts: Part[], root: number): number[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) parts.forEach((p, j) => p.parent === out[i] && out.push(j));
  return out;
}

const isIdentity = (q: Quat) => Math.abs(q[3]) > 1 - 1e-9;

/** The JSON of `parts`, rotations written by `write` (undefined: left out). */
function toJson(
  parts: Part[],
  places: number,
  allTrs: boolean,
  write: (q: Quat, i: number) => number[] | undefined,
) {
  const json: Json = {
    asset: { version: "2.0", generator: "small exporter" },
    scene: 0,
    scenes: [{ nodes: [] }],
    nodes: [],
    meshes: [],
    accessors: [],
    bufferViews: [],
    buffers: [],
  };
  parts.forEach((part, i) => {
    const node: Json = { name: part.name, mesh: boxMesh(json, part.name, part.box) };
    if (allTrs || part.t.some((v) => v !== 0)) node.translation = part.t.map((v) => round(v, places));
    const q = part.r.map((v) => round(v, places)) as Quat;
    const rotation = allTrs || !isIdentity(part.r) ? write(q, i) : undefined;
    if (rotation) node.rotation = rotation;
    if (allTrs) node.scale = [1, 1, 1];
    json.nodes.push(node);
    if (part.parent < 0) json.scenes[0].nodes.push(i);
    else (json.nodes[part.parent].children ??= []).push(i);
  });
  return json;
}

/** The habits, by kind: which nodes are written [w, x, y, z] (none: a clean file). */
export const SMALL_EXPORT_HABITS: Readonly<
  Record<string, { expect: Expect; nodes(parts: Part[], random: Random): number[] }>
> = {
  /** Every rotation written [w, x, y, z]. */
  "wxyz-file": { expect: "notice", nodes: (parts) => parts.map((_, i) => i) },
  /** One subtree (the propeller another tool wrote, or one gear leg) written [w, x, y, z]. */
  "wxyz-subtree": {
    expect: "notice",
    nodes(parts, random) {
      const hub = parts.findIndex((p) => p.name === "prop_hub");
      const gear = parts.findIndex((p) => p.name.startsWith("gear_"));
      return subtree(parts, random() < 0.7 || gear < 0 ? hub : gear);
    },
  },
  /** No habit: the file as meant (sometimes with a part meant upside down). */
  clean: { expect: "quiet", nodes: () => [] },
};

/** Case `seed` of habit `kind`. */
export function smallExport(kind: string, seed: number): SmallExport {
  const habit = SMALL_EXPORT_HABITS[kind];
  const random = prng(seed * 104729 + kind.length);
  const parts = model(random);
  const places = 4 + Math.floor(random() * 3); // 3 places trips the existing unit-length note
  const allTrs = random() < 0.6;
  const wxyz = new Set(habit.nodes(parts, random));
  const encode = (json: Json) => new TextEncoder().encode(JSON.stringify(json, null, random() < 0.5 ? 2 : 0));
  const cleanJson = toJson(parts, places, allTrs, (q) => q);
  const json = toJson(parts, places, allTrs, (q, i) => wxyz.has(i) ? [q[3], q[0], q[1], q[2]] : q);
  // The habit changes a node's reading when its written turn differs from the meant one.
  const changed = json.nodes.flatMap((node: Json, i: number) => {
    const a = (node.rotation ?? [0, 0, 0, 1]) as number[];
    const b = (cleanJson.nodes[i].rotation ?? [0, 0, 0, 1]) as number[];
    // Readers make a rounded rotation unit length: compare the turns, not the numbers.
    const dot = Math.abs(a.reduce((s, v, k) => s + v * b[k], 0)) / (Math.hypot(...a) * Math.hypot(...b));
    return dot < 1 - 1e-6 ? [i] : [];
  });
  const bytes = encode(json);
  return {
    kind,
    expect: habit.expect,
    name: `small-${kind}-${seed}.gltf`,
    bytes,
    clean: kind === "clean" ? bytes : encode(cleanJson),
    changed,
    aircraft: parts[0].name === "fuselage",
    allTrs,
    habitOn: [...wxyz].map((i) => parts[i].name),
  };
}
