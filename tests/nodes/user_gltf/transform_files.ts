/**
 * glTF aircraft whose node transforms and animations carry one habit of a real exporter, each with its
 * clean twin (the same file as meant). The model is a coarse low-poly light aircraft (jittered boxes:
 * fuselage, wings with dihedral, ailerons, flaps, gear legs and doors, tailplane, elevator, fin, rudder, a
 * propeller of two to four blades), or a lone propeller assembly, with a `controls` animation (ailerons,
 * elevator, rudder swung about their hinges; gear retracting; the propeller turning) as Blender, 3ds Max
 * exporters and small tools write it: LINEAR or STEP keys, the first at 0 s or later, rest pose among the
 * keys or not, numbers rounded to a few places, translation/rotation/scale all written or only those that
 * are not identity.
 *
 * Habits:
 * - `wxyz-keys`: rotation keys written [w, x, y, z] (every rotation sampler — the file's animation came
 *   from such a tool — or one channel, another tool's), node rotations in glTF's order;
 * - `scale-zero`: one node scaled to 0 on one axis (a door or antenna an exporter flattened, or hidden
 *   by scaling, sometimes brought back by a scale animation);
 * - `mm-subtree`: one subtree (the propeller, a gear leg, a wing) exported in millimetres or centimetres
 *   while the rest is in metres: its translations and vertices 1000× or 100×;
 * - `m-subtree`: the other way: a model in millimetres but for one subtree in metres;
 * - `projective`: a node's transform written as a `matrix` whose last row is not [0, 0, 0, 1]: written
 *   row by row (a row-major engine's), or with a homogeneous or perspective term;
 * - `clean`: no habit;
 * - `cm-part`: one small part (a belly antenna, the spinner, a gear door) from another file in centimetres
 *   merged into the model in metres: its vertices 100×, its place too (most merges) or kept in metres —
 *   less than 30× the size of the model's other parts, so size alone does not show it.
 *
 * @module
 */
import { prng } from "../../support/prng.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;
type Random = () => number;
type Vec3 = [number, number, number];
type Quat = [number, number, number, number];

/** The habits generated, in order. */
export const TRANSFORM_HABITS = [
  "wxyz-keys",
  "scale-zero",
  "mm-subtree",
  "m-subtree",
  "projective",
  "clean",
  "cm-part",
] as const;
/** One of {@link TRANSFORM_HABITS}. */
export type TransformHabit = typeof TRANSFORM_HABITS[number];

/** One generated file, its clean twin and what the habit touched. */
export interface TransformFile {
  readonly habit: TransformHabit;
  readonly name: string;
  readonly bytes: Uint8Array;
  /** The same file without the habit (for `clean`, the file itself). */
  readonly clean: Uint8Array;
  /** Names of the nodes the habit was applied to (for `wxyz-keys`, the nodes whose keys were reordered). */
  readonly habitOn: readonly string[];
  /** Details of the variant (for test selection and reports). */
  readonly variant: string;
}

/** A turn of `degrees` about a unit axis, as [x, y, z, w]. */
export function turn(axis: Vec3, degrees: number): Quat {
  const h = (degrees * Math.PI) / 360;
  return [axis[0] * Math.sin(h), axis[1] * Math.sin(h), axis[2] * Math.sin(h), Math.cos(h)];
}

/** Quaternion product a·b, [x, y, z, w]. */
export function mul(a: Quat, b: Quat): Quat {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

const X: Vec3 = [1, 0, 0];
const Y: Vec3 = [0, 1, 0];
const Z: Vec3 = [0, 0, 1];
const NONE: Quat = [0, 0, 0, 1];

/** A part: name, parent (-1 for a root), place, turn, box half extents, and how it animates. */
interface Part {
  name: string;
  parent: number;
  t: Vec3;
  r: Quat;
  box: Vec3;
  /** Hinge axis and swing (degrees, either way) of a control surface; a gear's retraction; a spinner. */
  motion?: { axis: Vec3; degrees: number; kind: "swing" | "retract" | "spin" };
}

function propeller(parts: Part[], parent: number, t: Vec3, random: Random) {
  const blades = 2 + Math.floor(random() * 3);
  const hub = parts.push({
    name: "prop_hub",
    parent,
    t,
    r: NONE,
    box: [0.08, 0.08, 0.1],
    motion: { axis: Z, degrees: 360, kind: "spin" },
  }) - 1;
  parts.push({ name: "spinner", parent: hub, t: [0, 0, 0.12], r: NONE, box: [0.07, 0.07, 0.1] });
  const pitch = 10 + random() * 20;
  for (let b = 0; b < blades; b++) {
    const r = mul(turn(Z, (360 * b) / blades), turn(Y, pitch));
    parts.push({ name: `blade_${b + 1}`, parent: hub, t: [0, 0, 0], r, box: [0.9, 0.06, 0.01] });
  }
}

/** A light aircraft (forward +Z, up +Y) or a lone propeller, in a plausible pose. */
function model(random: Random): Part[] {
  const parts: Part[] = [];
  if (random() < 0.15) {
    propeller(parts, -1, [0, 0, 0], random);
    return parts;
  }
  const body = parts.push({ name: "fuselage", parent: -1, t: [0, 0, 0], r: NONE, box: [0.6, 0.7, 4] }) - 1;
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
      r: random() < 0.5 ? NONE : turn(X, (random() - 0.5) * 10),
      box: [1.2, 0.04, 0.2],
      motion: { axis: X, degrees: 15 + random() * 15, kind: "swing" },
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
      r: turn(Z, s * (5 + random() * 10)),
      box: [0.05, 0.6, 0.05],
      motion: { axis: [0, 0, s], degrees: 85 + random() * 10, kind: "retract" },
    }) - 1;
    parts.push({
      name: `gear_door_${side}`,
      parent: gear,
      t: [0, -0.1, 0],
      r: turn(Z, s * 90),
      box: [0.3, 0.02, 0.4],
    });
  }
  const stab =
    parts.push({ name: "stabilizer", parent: body, t: [0, 0.3, -3.8], r: NONE, box: [1.8, 0.05, 0.5] }) - 1;
  parts.push({
    name: "elevator",
    parent: stab,
    t: [0, 0, -0.5],
    r: NONE,
    box: [1.8, 0.03, 0.2],
    motion: { axis: X, degrees: 20 + random() * 10, kind: "swing" },
  });
  const fin = parts.push({ name: "fin", parent: body, t: [0, 1, -3.8], r: NONE, box: [0.05, 0.9, 0.6] }) - 1;
  parts.push({
    name: "rudder",
    parent: fin,
    t: [0, 0, -0.6],
    r: NONE,
    box: [0.03, 0.9, 0.2],
    motion: { axis: Y, degrees: 20 + random() * 10, kind: "swing" },
  });
  if (random() < 0.4) {
    parts.push({
      name: "antenna_belly",
      parent: body,
      t: [0, -0.7, 1],
      r: turn(X, 180),
      box: [0.02, 0.2, 0.05],
    });
  }
  propeller(parts, body, [0, 0, 4.1], random);
  return parts;
}

/** Indices of `root` and every part below it. */
function subtree(parts: Part[], root: number): number[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) parts.forEach((p, j) => p.parent === out[i] && out.push(j));
  return out;
}

/** Binary data of one file, each array its own view and accessor. */
class Data {
  chunks: Uint8Array[] = [];
  length = 0;
  constructor(readonly json: Json) {}
  accessor(values: Float32Array | Uint16Array, type: string, extra: Json = {}): number {
    const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    const view =
      this.json.bufferViews.push({ buffer: 0, byteOffset: this.length, byteLength: bytes.length }) - 1;
    this.chunks.push(bytes);
    this.length += bytes.length;
    const pad = (4 - (this.length % 4)) % 4;
    if (pad) {
      this.chunks.push(new Uint8Array(pad));
      this.length += pad;
    }
    const size = { SCALAR: 1, VEC3: 3, VEC4: 4 }[type]!;
    return this.json.accessors.push({
      bufferView: view,
      componentType: values instanceof Float32Array ? 5126 : 5123,
      count: values.length / size,
      type,
      ...extra,
    }) - 1;
  }
  finish() {
    const all = new Uint8Array(this.length);
    let at = 0;
    for (const c of this.chunks) {
      all.set(c, at);
      at += c.length;
    }
    this.json.buffers = [{
      byteLength: all.length,
      uri: `data:application/octet-stream;base64,${all.toBase64()}`,
    }];
  }
}

const BOX_FACES = [
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

/** Choices made once per case, so the file and its twin share them. */
interface Style {
  places: number;
  allTrs: boolean;
  /** Per part, its box's vertex jitter (coarse modelling), fixed per case. */
  jitter: number[][];
  start: number;
  restAmongKeys: boolean;
  step: boolean;
  keys: number;
}

/** Per part, how the file writes it: unit factor of its translation and vertices, matrix, scale. */
interface Written {
  unit: number[];
  /** A node's own translation's factor, where it is not its parent's unit. */
  place: (number | undefined)[];
  matrix: (number[] | undefined)[];
  scale: (Vec3 | undefined)[];
  scaleKeys: (Vec3[] | undefined)[];
  wxyzKeys: Set<number>;
}

const round = (v: number, places: number) => Number(v.toFixed(places));

/** The file's JSON and binary data. */
function build(parts: Part[], style: Style, w: Written): Json {
  const json: Json = {
    asset: { version: "2.0", generator: "transform habits" },
    scene: 0,
    scenes: [{ nodes: [] }],
    nodes: [],
    meshes: [],
    accessors: [],
    bufferViews: [],
    buffers: [],
  };
  const data = new Data(json);
  const r = (v: number) => round(v, style.places);
  parts.forEach((part, i) => {
    const u = w.unit[i];
    const p = new Float32Array(24);
    for (let k = 0; k < 8; k++) {
      const corner = [k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1];
      for (let a = 0; a < 3; a++) {
        p[k * 3 + a] = r(corner[a] * part.box[a] * (1 + style.jitter[i][k * 3 + a]) * u);
      }
    }
    const min = [0, 1, 2].map((a) => Math.min(...[0, 1, 2, 3, 4, 5, 6, 7].map((k) => p[k * 3 + a])));
    const max = [0, 1, 2].map((a) => Math.max(...[0, 1, 2, 3, 4, 5, 6, 7].map((k) => p[k * 3 + a])));
    const position = data.accessor(p, "VEC3", { min, max });
    const indices = data.accessor(new Uint16Array(BOX_FACES), "SCALAR");
    const mesh =
      json.meshes.push({ name: part.name, primitives: [{ attributes: { POSITION: position }, indices }] }) -
      1;
    const node: Json = { name: part.name, mesh };
    // A child of a part in other units is placed in its parent's units.
    const tu = w.place[i] ?? (part.parent < 0 ? u : w.unit[part.parent]);
    const t = part.t.map((v) => r(v * tu));
    if (w.matrix[i]) node.matrix = w.matrix[i];
    else {
      if (style.allTrs || t.some((v) => v !== 0)) node.translation = t;
      if (style.allTrs || part.r[3] < 1 - 1e-12) node.rotation = part.r.map(r);
      const scale = w.scale[i] ?? [1, 1, 1];
      if (style.allTrs || scale.some((v) => v !== 1)) node.scale = scale;
    }
    json.nodes.push(node);
    if (part.parent < 0) json.scenes[0].nodes.push(i);
    else (json.nodes[part.parent].children ??= []).push(i);
  });
  // The controls animation: keys at even steps from `start`.
  const samplers: Json[] = [], channels: Json[] = [];
  const times = new Float32Array(style.keys).map((_, k) => r(style.start + k / 24 * 6));
  const input = data.accessor(times, "SCALAR", { min: [times[0]], max: [times[times.length - 1]] });
  parts.forEach((part, i) => {
    const m = part.motion;
    if (m) {
      const keys: Quat[] = [];
      for (let k = 0; k < style.keys; k++) {
        const f = k / (style.keys - 1);
        // A swing goes up, through rest and down; without rest among the keys it is sampled off zero.
        const phase = style.restAmongKeys ? f : f + 0.5 / (style.keys - 1);
        const degrees = m.kind === "swing"
          ? m.degrees * Math.sin(2 * Math.PI * phase)
          : m.kind === "retract"
          ? m.degrees * (style.restAmongKeys ? f : 0.1 + 0.9 * f)
          : (360 * f) / 2;
        keys.push(mul(part.r, turn(m.axis, degrees)));
      }
      const written = keys.flatMap((q) => {
        const v = q.map(r);
        return w.wxyzKeys.has(i) ? [v[3], v[0], v[1], v[2]] : v;
      });
      const output = data.accessor(new Float32Array(written), "VEC4");
      const s = samplers.push({ input, output, interpolation: style.step ? "STEP" : "LINEAR" }) - 1;
      channels.push({ sampler: s, target: { node: i, path: "rotation" } });
    }
    const sk = w.scaleKeys[i];
    if (sk) {
      const output = data.accessor(new Float32Array(sk.flat().map(r)), "VEC3");
      const at = new Float32Array([times[0], times[times.length - 1]]);
      const shownAt = data.accessor(at, "SCALAR", { min: [at[0]], max: [at[1]] });
      const s = samplers.push({ input: shownAt, output, interpolation: "STEP" }) - 1;
      channels.push({ sampler: s, target: { node: i, path: "scale" } });
    }
  });
  if (channels.length) json.animations = [{ name: "controls", samplers, channels }];
  data.finish();
  return json;
}

/** A column-major TRS matrix of a part (unit factor applied to its translation). */
function trsMatrix(t: Vec3, q: Quat): number[] {
  const [x, y, z, w] = q;
  return [
    1 - 2 * (y * y + z * z),
    2 * (x * y + z * w),
    2 * (x * z - y * w),
    0,
    2 * (x * y - z * w),
    1 - 2 * (x * x + z * z),
    2 * (y * z + x * w),
    0,
    2 * (x * z + y * w),
    2 * (y * z - x * w),
    1 - 2 * (x * x + y * y),
    0,
    t[0],
    t[1],
    t[2],
    1,
  ];
}

/** Case `seed` of `habit`. */
export function transformFile(habit: TransformHabit, seed: number): TransformFile {
  const random = prng(Math.imul(seed, 0x9e3779b1) + TRANSFORM_HABITS.indexOf(habit) * 7919);
  const parts = model(random);
  const style: Style = {
    places: 4 + Math.floor(random() * 3),
    allTrs: random() < 0.5,
    jitter: parts.map(() => Array.from({ length: 24 }, () => (random() - 0.5) * 0.06)),
    start: random() < 0.7 ? 0 : Math.floor(random() * 24) / 24,
    restAmongKeys: random() < 0.7,
    step: random() < 0.2,
    keys: 5 + Math.floor(random() * 20),
  };
  const plain = (): Written => ({
    unit: parts.map(() => 1),
    place: parts.map(() => undefined),
    matrix: parts.map(() => undefined),
    scale: parts.map(() => undefined),
    scaleKeys: parts.map(() => undefined),
    wxyzKeys: new Set(),
  });
  const meant = plain(), written = plain();
  const pick = (names: string[]) => {
    const found = names.map((n) => parts.findIndex((p) => p.name === n)).filter((i) => i >= 0);
    return found[Math.floor(random() * found.length)];
  };
  let on: number[] = [], variant = "";
  if (habit === "wxyz-keys") {
    const animated = parts.flatMap((p, i) => p.motion ? [i] : []);
    on = random() < 0.6 ? animated : [animated[Math.floor(random() * animated.length)]];
    variant = on.length > 1 ? "every sampler" : "one channel";
    for (const i of on) written.wxyzKeys.add(i);
  } else if (habit === "scale-zero") {
    const i = pick(["gear_door_L", "gear_door_R", "antenna_belly", "spinner", "flap_L", "blade_1"]);
    const axis = Math.floor(random() * 3);
    const scale = [1, 1, 1].map((v, a) => (a === axis ? 0 : v)) as Vec3;
    written.scale[i] = scale;
    // Hidden by scaling, shown by a scale key later (a door that appears as the gear comes down).
    if (random() < 0.4) {
      written.scaleKeys[i] = [scale, [1, 1, 1]];
      meant.scaleKeys[i] = [[1, 1, 1], [1, 1, 1]];
      variant = `hidden until keyed, ${"XYZ"[axis]}`;
    } else variant = `flattened ${"XYZ"[axis]}`;
    on = [i];
  } else if (habit === "mm-subtree" || habit === "m-subtree") {
    // Not the model's root: that is the whole file in other units, not a subtree.
    const i = pick(
      ["prop_hub", "gear_L", "gear_R", "wing_L", "wing_R", "stabilizer", "fin"].filter((n) =>
        parts.some((p) => p.name === n && p.parent >= 0)
      ).concat(parts[0].name === "prop_hub" ? ["spinner"] : []),
    );
    const factor = habit === "m-subtree" ? 1000 : random() < 0.7 ? 1000 : 100;
    on = subtree(parts, i);
    if (habit === "mm-subtree") {
      for (const j of on) written.unit[j] = factor;
      // Most such exports scale the subtree's own place too (1000× away); some keep it in the parent's.
      if (random() < 0.75) written.place[i] = factor;
      variant = `${parts[i].name} ×${factor}${written.place[i] ? "" : ", placed in metres"}`;
    } else {
      // Millimetres throughout but for the subtree, placed in millimetres by its parent: the file's twin
      // is the model all in millimetres.
      for (let j = 0; j < parts.length; j++) {
        meant.unit[j] = factor;
        written.unit[j] = on.includes(j) ? 1 : factor;
      }
      variant = `${parts[i].name} ×1/${factor}`;
    }
    on = [i];
  } else if (habit === "cm-part") {
    const i = pick(["antenna_belly", "spinner", "gear_door_L", "gear_door_R"]);
    on = subtree(parts, i);
    for (const j of on) written.unit[j] = 100;
    if (random() < 0.75) written.place[i] = 100;
    variant = `${parts[i].name} ×100${written.place[i] ? "" : ", placed in metres"}`;
    on = [i];
  } else if (habit === "projective") {
    const candidates = parts.flatMap((p, i) => p.parent >= 0 && !p.motion ? [i] : []);
    const count = random() < 0.5 ? 1 : candidates.length;
    const form = Math.floor(random() * 3);
    variant = `${["row by row", "homogeneous w", "perspective term"][form]}, ${
      count > 1 ? "every node" : "one node"
    }`;
    for (let k = 0; k < count; k++) {
      const i = count === 1 ? candidates[Math.floor(random() * candidates.length)] : candidates[k];
      const m = trsMatrix(parts[i].t, parts[i].r).map((v) => round(v, style.places));
      meant.matrix[i] = m;
      if (form === 0) written.matrix[i] = m.map((_, j) => m[(j % 4) * 4 + Math.floor(j / 4)]);
      else if (form === 1) {
        const wv = [2, 0.5, 10, 0.01][Math.floor(random() * 4)];
        written.matrix[i] = m.map((v) => round(v * wv, style.places + 2));
      } else {
        // A perspective term a camera-minded tool left in: small values in the bottom row.
        written.matrix[i] = m.map((v, j) => (j === 11 ? round(-0.001 * (1 + random()), 6) : v));
      }
      on.push(i);
    }
  }
  const encode = (json: Json) => new TextEncoder().encode(JSON.stringify(json, null, random() < 0.5 ? 2 : 0));
  const cleanJson = build(parts, style, meant);
  const json = habit === "clean" ? cleanJson : build(parts, style, written);
  const bytes = encode(json);
  return {
    habit,
    name: `transform-${habit}-${seed}.gltf`,
    bytes,
    clean: habit === "clean" ? bytes : encode(cleanJson),
    habitOn: on.map((i) => parts[i].name),
    variant,
  };
}
