/**
 * Scenes of a posed figure with a body shape dialled, as Daz Studio users save them: the shape
 * morph (a store character's or Genesis's FBM/PBM morphs) carries ERC formulas moving the joint
 * centres and end points of some bones with it (`lShin:/data/DAZ%203D/…#lShin?center_point/y`,
 * `push FBMHeavy?value, push 2.4, mult`), so the rig follows the shape. Habits mixed in: the shape
 * dialled in the scene or through a body controller (`CTRLHeavy` driving it), a second shape moving
 * the same centre (the sum), a formula in `mult` stage now and then scaling a centre, and the file
 * paths in the URLs percent-encoded and of another asset (Daz writes the figure's own file).
 *
 * What Daz draws is worked out with DSON's transform rule and the formulas read by hand: each
 * joint's centre is its written one plus its formulas at the dialled values; a bone turns about its
 * centre (`T(c) · O · R · O⁻¹ · T(−c)`, R in the bone's rotation order), children after parents;
 * a vertex goes where its weighted bones take it. The expected joint positions and the skinned
 * vertices (the base mesh, weights as written) are compared.
 *
 * @module
 */
import { generateFigure, type Json } from "./generate.ts";
import { prng } from "../../../support/prng.ts";
import { type M4, mul } from "./instance_habits.ts";

/** One generated scene. */
export interface RigShapeCase {
  readonly seed: number;
  readonly json: Json;
  /** Bone name → where its centre is drawn (cm). */
  readonly joints: ReadonlyMap<string, readonly number[]>;
  /** The base mesh's vertices where the posed skin draws them (cm). */
  readonly vertices: readonly (readonly number[])[];
  /** Each bone's world transform as Daz poses it (cm), by bone index. */
  readonly worlds: readonly M4[];
  readonly habits: readonly string[];
}

const FILE = "/data/DAZ%203D/Genesis%208/Female/Genesis8Female.dsf";

/** Rotation (column-major 4×4) of Euler degrees, the first letter of `order` turning first. */
function euler(d: readonly number[], order: string): M4 {
  let m: M4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  for (const letter of order) {
    const axis = "XYZ".indexOf(letter), a = (d[axis] * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
    const r: M4 = axis === 0
      ? [1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1]
      : axis === 1
      ? [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1]
      : [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    m = mul(r, m);
  }
  return m;
}
const shift = (t: readonly number[]): M4 => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, t[0], t[1], t[2], 1];
const transpose = (m: M4): M4 => [0, 1, 2, 3].flatMap((c) => [0, 1, 2, 3].map((r) => m[r * 4 + c]));
/** `m · p` for a point. */
export const point = (m: M4, p: readonly number[]) =>
  [0, 1, 2].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);

/** Variations of {@link rigShapeCase}; without them a seed's case is as it always was. */
export interface RigShapeOptions {
  /** The dial a shape is set at, from the one drawn (a scene saved at another shape). */
  readonly dialAt?: (shape: string, drawn: number) => number;
  /**
   * Formulas of the forms store shapes also carry, drawn from a second stream: a `spline_linear` or
   * `spline_constant` of the dial (three keys) in place of `× coefficient` now and then, and a few
   * degrees of `orientation` on a bone.
   */
  readonly splines?: boolean;
}

/** The case of `seed`. */
export function rigShapeCase(seed: number, options: RigShapeOptions = {}): RigShapeCase {
  const r = prng(seed);
  const extra = prng(seed * 7919 + 13);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const habits = new Set<string>();
  const bones = 3 + Math.floor(r() * 3);
  const figureId = "Genesis8Female";
  const json = generateFigure({ side: 6, bones, spacing: 10, figureId, influences: 2 });
  const library = json.node_library as Json[];
  const boneNodes = library.filter((n) => n.type === "bone");
  const geometry = (json.geometry_library as Json[])[0];
  const vertexCount = (geometry.vertices as { count: number }).count;
  const channel = (id: string): Json => ({ id: "value", type: "float", name: id, value: 0, min: 0, max: 1 });
  const morph = (id: string, formulas: Json[]): Json => ({
    id,
    name: id,
    parent: `#${figureId}_geo`,
    channel: channel(id),
    morph: {
      vertex_count: vertexCount,
      deltas: { count: 1, values: [[vertexCount - 1, round(r() * 4), 0, 0]] },
    },
    formulas,
  });
  // Each shape's formulas: a few bones' centre or end point axes, `value × coefficient`.
  const centres = boneNodes.map((n) => (n.center_point as { value: number }[]).map((c) => c.value));
  const ends = boneNodes.map((n) => (n.end_point as { value: number }[]).map((c) => c.value));
  const orientations = boneNodes.map((n) => (n.orientation as { value: number }[]).map((c) => c.value));
  const shapes = r() < 0.4 ? ["FBMHeavy", "PBMBodybuilder"] : ["FBMHeavy"];
  if (shapes.length > 1) habits.add("two shapes");
  const dials = new Map<string, number>();
  const modifiers: Json[] = [];
  const moves: {
    bone: number;
    kind: "center_point" | "end_point" | "orientation";
    axis: number;
    /** The formula's result at the shape's dial. */
    of: (dial: number) => number;
    stage: string;
    shape: string;
  }[] = [];
  for (const shape of shapes) {
    const drawn = round(0.2 + r() * 0.8);
    dials.set(shape, options.dialAt ? options.dialAt(shape, drawn) : drawn);
    const formulas: Json[] = [];
    const input = {
      op: "push",
      url: `${figureId}:/data/DAZ%203D/Genesis%208/Female/Morphs/DAZ%203D/Base/${shape}.dsf#${shape}?value`,
    };
    for (let b = 1; b < bones; b++) {
      for (const kind of ["center_point", "end_point"] as const) {
        if (r() < 0.35) continue;
        const axis = Math.floor(r() * 3);
        const mult = kind === "center_point" && r() < 0.1;
        if (mult) habits.add("mult stage");
        const coefficient = mult ? round(0.9 + r() * 0.2) : round(r() * 6 - 3);
        const bone = boneNodes[b].id as string;
        const spline = options.splines && !mult && extra() < 0.3
          ? (extra() < 0.5 ? "spline_linear" : "spline_constant")
          : undefined;
        const knee = [round(0.2 + extra() * 0.6), round(coefficient * (0.2 + extra()))];
        formulas.push({
          output: `${bone}:${FILE}#${bone}?${kind}/${"xyz"[axis]}`,
          ...(mult ? { stage: "mult" } : {}),
          operations: spline
            ? [
              input,
              { op: "push", val: [0, 0] },
              { op: "push", val: knee },
              {
                op: "push",
                val: [1, coefficient],
              },
              { op: "push", val: 3 },
              { op: spline },
            ]
            : [input, { op: "push", val: coefficient }, { op: "mult" }],
        });
        if (spline) habits.add(spline);
        const of = spline === "spline_linear"
          ? (d: number) =>
            d <= 0
              ? 0
              : d >= 1
              ? coefficient
              : d < knee[0]
              ? d / knee[0] * knee[1]
              : knee[1] + (d - knee[0]) / (1 - knee[0]) * (coefficient - knee[1])
          : spline === "spline_constant"
          ? (d: number) => d < knee[0] ? 0 : d < 1 ? knee[1] : coefficient
          : (d: number) => d * coefficient;
        moves.push({ bone: b, kind, axis, of, stage: mult ? "mult" : "sum", shape });
      }
      if (options.splines && extra() < 0.25) {
        // A few degrees of the bone's rest orientation with the shape.
        habits.add("orientation");
        const axis = Math.floor(extra() * 3), coefficient = round(extra() * 16 - 8);
        const bone = boneNodes[b].id as string;
        formulas.push({
          output: `${bone}:${FILE}#${bone}?orientation/${"xyz"[axis]}`,
          operations: [input, { op: "push", val: coefficient }, { op: "mult" }],
        });
        moves.push({ bone: b, kind: "orientation", axis, of: (d) => d * coefficient, stage: "sum", shape });
      }
    }
    modifiers.push(morph(shape, formulas));
  }
  const sceneModifiers = (json.scene as { modifiers: Json[] }).modifiers;
  const parent = `#${figureId}_geo-1`;
  for (const [shape, value] of dials) {
    if (shape === "FBMHeavy" && r() < 0.4) {
      habits.add("shape through a controller");
      modifiers.push({
        id: "CTRLHeavy",
        name: "CTRLHeavy",
        parent: `#${figureId}_geo`,
        channel: channel("CTRLHeavy"),
        formulas: [{
          output: `${figureId}:#${shape}?value`,
          operations: [{ op: "push", url: `${figureId}:#CTRLHeavy?value` }, { op: "push", val: 1 }, {
            op: "mult",
          }],
        }],
      });
      sceneModifiers.push({
        id: "CTRLHeavy-1",
        url: "#CTRLHeavy",
        parent,
        channel: { id: "value", current_value: value },
      });
      sceneModifiers.push({ id: `${shape}-1`, url: `#${shape}`, parent });
    } else {
      sceneModifiers.push({
        id: `${shape}-1`,
        url: `#${shape}`,
        parent,
        channel: { id: "value", current_value: value },
      });
    }
  }
  (json.modifier_library as Json[]).push(...modifiers);
  // Centres and end points as Daz works them out: own + Σ sums, × Π mults.
  for (const list of [centres, ends, orientations]) {
    for (let b = 0; b < bones; b++) {
      for (let axis = 0; axis < 3; axis++) {
        const kind = list === centres ? "center_point" : list === ends ? "end_point" : "orientation";
        const these = moves.filter((m) => m.bone === b && m.kind === kind && m.axis === axis);
        const sum = these.filter((m) => m.stage === "sum").reduce(
          (s, m) => s + m.of(dials.get(m.shape)!),
          0,
        );
        const product = these.filter((m) => m.stage === "mult").reduce(
          (p, m) => p * m.of(dials.get(m.shape)!),
          1,
        );
        list[b][axis] = (list[b][axis] + sum) * product;
      }
    }
  }
  // The pose: each bone turned a little (Daz writes the current values on the scene's figure).
  const turns = boneNodes.map(() => [round(r() * 40 - 20), round(r() * 40 - 20), round(r() * 60 - 30)]);
  boneNodes.forEach((n, b) => {
    n.rotation = ["x", "y", "z"].map((id, k) => ({
      id,
      type: "float",
      value: 0,
      current_value: turns[b][k],
    }));
  });
  const worlds: M4[] = [];
  const joints = new Map<string, number[]>();
  boneNodes.forEach((n, b) => {
    const o = euler(orientations[b], "XYZ");
    const c = centres[b];
    const local = mul(
      shift(c),
      mul(o, mul(euler(turns[b], n.rotation_order as string), mul(transpose(o), shift(c.map((v) => -v))))),
    );
    worlds.push(b === 0 ? local : mul(worlds[b - 1], local));
    joints.set(n.id as string, point(b === 0 ? shift([0, 0, 0]) : worlds[b - 1], c));
  });
  // Skinned base vertices: Σ weight · world(bone) · v.
  const skin = (json.modifier_library as Json[])[0].skin as {
    joints: { node_weights: { values: number[][] } }[];
  };
  const base = (geometry.vertices as { values: number[][] }).values;
  const vertices = base.map((v, i) => {
    const out = [0, 0, 0];
    skin.joints.forEach((joint, b) => {
      const w = joint.node_weights.values.find(([k]) => k === i)?.[1] ?? 0;
      if (!w) return;
      point(worlds[b], v).forEach((x, a) => out[a] += w * x);
    });
    return out;
  });
  return { seed, json, joints, vertices, worlds, habits: [...habits] };
}

/**
 * `c`'s figure dressed in a shirt fitted to it (its own scene, `c.json` changed): the shirt's bones
 * named as the body's (so they follow them), its follower shape `FBMHeavy_Shirt` dialled to 0.8 and
 * moving its own bones' centres, as a store shirt's file has them. Each shirt vertex is weighted to
 * one bone, the body bone of the same index.
 */
export function dressInShirt(c: RigShapeCase): { json: Json; geometry: Json; skin: Json } {
  const json = c.json as Record<string, Json[]> & { scene: { nodes: Json[]; modifiers: Json[] } };
  const shirt = generateFigure({
    side: 4,
    bones: c.joints.size,
    spacing: 15,
    figureId: "Shirt",
    influences: 1,
  });
  const bones = (shirt.node_library as Json[]).filter((n) => n.type === "bone");
  // Named as the body's bones (so they follow them), ids its own, as a shirt's file has them.
  bones.forEach((b, k) => b.name = `Genesis8Female_bone${k}`);
  const geometry = (shirt.geometry_library as Json[])[0];
  geometry.default_uv_set = "#shirt_uvs";
  (shirt.uv_set_library as Json[])[0].id = "shirt_uvs";
  const skin = (shirt.modifier_library as Json[])[0];
  skin.id = skin.name = "ShirtSkin";
  const vertexCount = (geometry.vertices as { count: number }).count;
  const follower = {
    id: "FBMHeavy_Shirt",
    name: "FBMHeavy_Shirt",
    parent: "#Shirt_geo",
    channel: { id: "value", type: "float", value: 0, min: 0, max: 1 },
    morph: { vertex_count: vertexCount, deltas: { count: 1, values: [[0, 0.5, 0, 0]] } },
    formulas: bones.slice(1).map((b) => ({
      output: `${b.id}:/data/Vendor/Shirt/Shirt.dsf#${b.id}?center_point/y`,
      operations: [{ op: "push", url: "Shirt:#FBMHeavy_Shirt?value" }, { op: "push", val: 2 }, {
        op: "mult",
      }],
    })),
  };
  json.geometry_library.push(geometry);
  json.uv_set_library.push(...shirt.uv_set_library as Json[]);
  json.node_library.push(...shirt.node_library as Json[]);
  json.modifier_library.push(skin, follower);
  json.scene.nodes.push({
    id: "Shirt-1",
    url: "#Shirt",
    name: "Shirt",
    conform_target: "#Genesis8Female-1",
    geometries: [{ id: "Shirt_geo-1", url: "#Shirt_geo" }],
  });
  json.scene.modifiers.push(
    { id: "ShirtSkin-1", url: "#ShirtSkin", parent: "#Shirt_geo-1" },
    {
      id: "FBMHeavy_Shirt-1",
      url: "#FBMHeavy_Shirt",
      parent: "#Shirt_geo-1",
      channel: { id: "value", current_value: 0.8 },
    },
  );
  return { json, geometry, skin };
}
