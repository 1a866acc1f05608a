/**
 * Freelancer compounds whose parent parts carry a `Cons` matrix that is no rotation, as mod tools and
 * hand edits leave them (the first waves are `mod_tools.ts` and `mod_tools_wave2.ts`): a part scaled
 * unevenly in a modelling tool and exported with its scale baked into the record (`stretched_parent`),
 * or one whose matrix a hand edit sheared (a sine typed with the wrong sign, a column pasted from
 * another record: `sheared_parent`), on a `Fix`, `Rev`, `Pris`, `Sphere` or `Loose` joint, with parts
 * of their own attached below it (a turret on a sheared wing); and turn limits typed in degrees where
 * the format stores radians (`degree_limits`: a turret hardpoint's `Min`/`Max`, a `Rev` or `Sphere`
 * record's limits, as a UTF editor showing raw floats invites), which the game reads as radians.
 *
 * The game draws the nine floats as a matrix as stored (`W_child = W_parent·T(t)·R`), so everything
 * below such a part is placed by that matrix: the truth here (every hardpoint's world position) is
 * worked out from the stored f32 values that way, not from the decoder. A sheared matrix cannot be a
 * glTF node's; a warning must name the part.
 *
 * @module
 */
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import type { JointKind } from "../../../../nodes/decode/freelancer/codec/constraints.ts";
import {
  compoundTree,
  type ConstraintSpec,
  encodeVMeshData,
  type HardpointSpec,
  materialLibrary,
  oneTriangleRef,
  packVertices,
} from "../../../support/freelancer/encode_model.ts";
import { encodeUtf } from "../../../support/freelancer/encode_utf.ts";
import { prng } from "../../../support/prng.ts";
import { mulRows, rotationRows } from "./fixtures.ts";
import type { ModToolFile, ModToolTruth } from "./mod_tools.ts";

/** The habits of this wave. */
export const HABITS3 = ["stretched_parent", "sheared_parent", "degree_limits"] as const;

/** One habit of {@link HABITS3}. */
export type Habit3 = typeof HABITS3[number];

const PARENT_KINDS: readonly JointKind[] = ["fix", "rev", "pris", "sphere", "loose"];
const f32 = (values: readonly number[]) => Array.from(new Float32Array(values));

/** Writes the file of `habit` for `seed`, with its truth. */
export function modToolFile3(habit: Habit3, seed: number): ModToolFile {
  if (habit === "degree_limits") return degreeLimitsFile(seed);
  const random = prng(seed * 15485863 + HABITS3.indexOf(habit) * 977);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const coord = () => Math.round((random() * 8 - 4) * 64) / 64;
  const point = () => [coord(), coord(), coord()];
  const turn = () => rotationRows([coord() || 1, coord(), coord()], int(-170, 170));
  // The odd part's matrix: a turn, then an uneven scale (an exporter baking the node's scale in) or a
  // shear (one column leaning towards another, as a wrong-signed sine or a pasted column leaves it).
  const scale = [int(5, 20) / 10, int(5, 20) / 10, int(5, 20) / 10];
  const odd = habit === "stretched_parent"
    ? mulRows(turn(), [scale[0], 0, 0, 0, scale[1], 0, 0, 0, scale[2]])
    : mulRows(turn(), shear(int(0, 2), int(0, 1), int(10, 40) * (seed % 2 ? 1 : -1)));
  const parentKind = PARENT_KINDS[seed % PARENT_KINDS.length];
  const wing: ConstraintSpec = record(parentKind, "Root", "Wing", point(), f32(odd));
  // Below the odd part: one to three parts of its own on proper rotations (a turret on the wing, a
  // barrel on the turret), each with a hardpoint or two.
  const below = Array.from({ length: int(1, 3) }, (_, i) => `Sub${i}${["Turret", "Gun", "Flap"][i]}`);
  const records: ConstraintSpec[] = [wing];
  below.forEach((name, i) =>
    records.push(record(i % 2 ? "fix" : "rev", i === 2 ? below[1] : "Wing", name, point(), f32(turn())))
  );
  const parts = ["Root", "Wing", ...below];
  const hardpoints = new Map<string, HardpointSpec[]>(parts.map((p) => [
    p,
    Array.from({ length: p === "Root" ? 0 : int(1, 2) }, (_, h) => ({
      name: `Hp${p}${h}`,
      kind: "fix" as const,
      position: point(),
      orientation: f32(turn()),
    })),
  ]));
  // Truth: the stored matrices composed as the game composes them, from the root down.
  const world = new Map<string, { t: number[]; m: number[] }>([["Root", { t: [0, 0, 0], m: IDENTITY }]]);
  const place = (name: string) => {
    const r = records.find((c) => c.child === name)!;
    const parent = world.get(r.parent)!;
    const t = add(parent.t, apply(parent.m, f32(r.translation)));
    world.set(name, { t, m: mulRows(parent.m, f32(r.rotation)) });
  };
  ["Wing", ...below].forEach(place);
  const truth: ModToolTruth & { named: string[] } = { triangles: {}, hardpoints: {}, limits: {}, named: [] };
  for (const part of parts) {
    truth.triangles[part] = 1;
    const { t, m } = world.get(part)!;
    for (const hp of hardpoints.get(part)!) truth.hardpoints[hp.name] = add(t, apply(m, f32(hp.position)));
  }
  if (habit === "sheared_parent") truth.named.push(`part 'Wing'.*shear`);
  const tree = compoundTree({
    meshes: [{ name: "tri.vms", data: triangle() }],
    extra: [materialLibrary([{ name: "hull", type: "DcDt", dc: [0.5, 0.5, 0.5] }])],
    parts: parts.map((name) => ({
      name,
      fileName: `${name.toLowerCase()}_lod${seed % 10}.3db`,
      fragment: {
        lods: [oneTriangleRef(flCrc32("tri.vms"))],
        hardpoints: hardpoints.get(name),
      },
    })),
    constraints: records,
  });
  return { quirk: habit, habits: [], seed, name: `ship${seed}.cmp`, bytes: encodeUtf(tree), truth };
}

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** Column `to` leaning `degrees` towards column `from` (rows of the matrix). */
function shear(to: number, by: number, degrees: number): number[] {
  const from = (to + 1 + by) % 3;
  const m = [...IDENTITY];
  m[3 * from + to] = Math.tan(degrees * Math.PI / 180);
  return m;
}

/** A `Cons` record of `kind` at rest: Rev/Pris about +Y within ±30° (±1), Sphere within ±30°. */
function record(
  kind: JointKind,
  parent: string,
  child: string,
  translation: number[],
  rotation: number[],
): ConstraintSpec {
  const common = { kind, parent, child, translation, rotation };
  if (kind === "rev" || kind === "pris") return { ...common, axis: [0, 1, 0], min: -0.5, max: 0.5 };
  if (kind === "sphere") return { ...common, limits: [-0.5, 0.5, -0.5, 0.5, -0.5, 0.5] };
  return common;
}

function apply(rows: readonly number[], p: readonly number[]): number[] {
  return [0, 1, 2].map((i) => rows[3 * i] * p[0] + rows[3 * i + 1] * p[1] + rows[3 * i + 2] * p[2]);
}

function add(a: readonly number[], b: readonly number[]): number[] {
  return a.map((v, i) => v + b[i]);
}

/** One triangle with material `hull`. */
function triangle(): Uint8Array {
  return encodeVMeshData({
    fvf: 0x112,
    groups: [{ materialId: flCrc32("hull"), vertexStart: 0, vertexEnd: 2, indexCount: 3 }],
    indices: [0, 1, 2],
    vertices: packVertices(0x112, 3, {
      positions: [0, 0, 0, 1, 0, 0, 0, 1, 0],
      normals: [0, 0, 1, 0, 0, 1, 0, 0, 1],
      uvs: [[0, 0, 1, 0, 0, 1]],
    }),
  });
}

/**
 * A compound whose turret hardpoint, and a `Rev` or `Sphere` joint (by seed), hold limits typed in
 * degrees: some within a full turn (−5 reads as −5 rad either way), at least one beyond. The truth is
 * what the game reads (radians as stored, in degrees here) and a warning naming each.
 */
function degreeLimitsFile(seed: number): ModToolFile {
  const random = prng(seed * 15485863 + 3 * 977);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const deg = (r: number) => Math.fround(r) * 180 / Math.PI;
  const [hpMin, hpMax] = [-int(10, 90), int(10, 180)];
  const kind: JointKind = seed % 2 ? "rev" : "sphere";
  const limits = kind === "rev"
    ? [-int(15, 60), int(15, 60)]
    : [-int(10, 45), int(10, 45), -int(10, 45), int(10, 45), -5, 5];
  const door: ConstraintSpec = {
    kind,
    parent: "Root",
    child: "Door",
    translation: [1, 2, 3],
    rotation: IDENTITY,
    ...(kind === "rev" ? { axis: [0, 0, 1], min: limits[0], max: limits[1] } : { limits }),
  };
  const turret: HardpointSpec = {
    name: "HpTurret01",
    kind: "rev",
    position: [0, 1, 0],
    orientation: IDENTITY,
    axis: [0, 1, 0],
    min: hpMin,
    max: hpMax,
  };
  const joints: Record<string, [number, number]> = kind === "rev"
    ? { Door_joint: [deg(limits[0]), deg(limits[1])] }
    : Object.fromEntries(
      ["x", "y", "z"].map((a, k) => [`Door_joint_${a}`, [deg(limits[2 * k]), deg(limits[2 * k + 1])]]),
    );
  const truth: ModToolTruth = {
    triangles: { Root: 1, Door: 1 },
    hardpoints: { HpTurret01: [0, 1, 0] },
    limits: { HpTurret01: [deg(hpMin), deg(hpMax)] },
    joints,
    named: [`hardpoint 'HpTurret01'.*typed in degrees`, `constraint of part 'Door'.*typed in degrees`],
  };
  const ref = oneTriangleRef(flCrc32("tri.vms"));
  const tree = compoundTree({
    meshes: [{ name: "tri.vms", data: triangle() }],
    extra: [materialLibrary([{ name: "hull", type: "DcDt", dc: [0.5, 0.5, 0.5] }])],
    parts: [
      { name: "Root", fileName: "root.3db", fragment: { lods: [ref], hardpoints: [turret] } },
      { name: "Door", fileName: "door.3db", fragment: { lods: [ref] } },
    ],
    constraints: [door],
  });
  return { quirk: "degree_limits", habits: [], seed, name: `ship${seed}.cmp`, bytes: encodeUtf(tree), truth };
}
