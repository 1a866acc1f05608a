/**
 * Capital ships and stations as retail and the tools of its modders write them: many `Part_*` entries
 * each with its own `MultiLevel`/`Switch2`, every level of the whole ship one mesh of a `VMeshLibrary`
 * (a big ship two, split as the exporter's 65,535-vertex limit made it) that hundreds of `VMeshRef`s draw
 * slices of (non-zero `vertexStart`, `groupStart`), a thousand and more hardpoints (lights, turrets,
 * docking points), `Cons` chains more than ten deep (an antenna mast), turrets on `Rev` joints, a radar
 * dish on a `Sphere`, destructible plates on `Loose` joints, and the oddities of real files:
 *
 * - `Fix` matrices as FLModelTool writes them: its rotation rows typed with three decimals (0.866, 0.5),
 *   not quite orthonormal, on every turned part (`rounded` seeds);
 * - a denormal mid-`Switch2` on some parts (four retail capital ships);
 * - `Object name`s a copy-paste left twice (`duplicate` seeds);
 * - an `Animation/Script` driving parts a mod removed (`removed_parts` seeds);
 * - a station's `Sphere` parts with a `.sph`-style name (`station` seeds);
 * - a denormal at the third place of every part's `Switch2` (`junk_switch` seeds): the game then never
 *   draws LOD 1, which one warning for the file must say, not one per part;
 * - the last level's mesh(es) left out of the `VMeshLibrary` (a mod shipped without its lowest LOD:
 *   `missing_lod` seeds), which every part's last level refers to;
 * - meshes with a third UV set where a mod tool stores tangents (FVF 0x312: `tangent_uvs` seeds);
 * - every turret hardpoint's `Min`/`Max` typed in degrees in a UTF editor (`degree_turrets` seeds).
 *
 * The truth is what the game draws: LOD 0 triangles per part and each hardpoint's world position with
 * the stored matrices composed as they are (`W_child = W_parent · T(t) · R`).
 *
 * @module
 */
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import {
  type AnimationMapSpec,
  animationTree,
  compoundTree,
  type ConstraintSpec,
  encodeVMeshData,
  type FragmentSpec,
  type GroupSpec,
  type HardpointSpec,
  materialLibrary,
  packVertices,
  type PartSpec,
  type VMeshRefSpec,
} from "../../../support/freelancer/encode_model.ts";
import { encodeUtf, type UtfNode } from "../../../support/freelancer/encode_utf.ts";
import { prng } from "../../../support/prng.ts";
import type { ModToolFile, ModToolTruth } from "./mod_tools.ts";
import { shipJoints, type ShipOptions } from "./capital_ship_joints.ts";

/** What a generated ship is odd in, by seed. */
export const CAPITAL_ODDITIES = [
  "plain",
  "rounded",
  "duplicate",
  "removed_parts",
  "station",
  "junk_switch",
  "missing_lod",
  "tangent_uvs",
  "degree_turrets",
] as const;

/** One oddity of {@link CAPITAL_ODDITIES}. */
export type CapitalOddity = typeof CAPITAL_ODDITIES[number];

/** A generated file with what it is odd in and how many warnings a user can bear for it. */
export interface CapitalFile extends ModToolFile {
  readonly oddity: CapitalOddity;
  readonly partCount: number;
  readonly hardpointCount: number;
  /** The `Cons` records as written: what LancerEdit should read back as each part's construct. */
  readonly constraints: readonly ConstraintSpec[];
  /** With `joints`: the scripts over its moving parts, as written. */
  readonly scripts?: Readonly<Record<string, readonly AnimationMapSpec[]>>;
}

const FAMILIES = ["rh", "li", "br", "ku", "co"];
const MATERIALS = ["hull_a", "hull_b", "detail", "glass", "lights"];
const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];

interface Plan {
  name: string;
  parent?: string;
  kind: ConstraintSpec["kind"];
  translation: number[];
  rotation: number[];
  /** Triangles per group at LOD 0 (one or two groups). */
  groups: number[];
  hardpoints: HardpointSpec[];
  limits?: { min?: number; max?: number; axis?: number[]; limits?: number[] };
}

/**
 * Writes the capital ship (or station) of `seed`, with its truth; `joints` adds the moving parts and
 * scripts of `capital_ship_joints.ts` (and on some seeds an empty root hub), `oddAxes` its mods' axes.
 */
export function capitalShipFile(seed: number, options: ShipOptions = {}): CapitalFile {
  const random = prng(seed * 104729 + 7);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const oddity = CAPITAL_ODDITIES[seed % CAPITAL_ODDITIES.length];
  const family = FAMILIES[int(0, FAMILIES.length - 1)];
  const ship = oddity === "station" ? `${family}_station_${int(1, 9)}` : `${family}_battleship`;
  const levels = int(3, 4);
  // FLModelTool's rows, typed with three decimals; elsewhere float32 of the exact rotation.
  const round = oddity === "rounded" ? (v: number) => Math.round(v * 1000) / 1000 : (v: number) => v;
  const turn = (degrees: number, axis: 0 | 1 | 2) => {
    const c = Math.cos(degrees * Math.PI / 180), s = Math.sin(degrees * Math.PI / 180);
    const m = axis === 0 ? [1, 0, 0, 0, c, -s, 0, s, c] : axis === 1 ? [c, 0, s, 0, 1, 0, -s, 0, c] : [
      c,
      -s,
      0,
      s,
      c,
      0,
      0,
      0,
      1,
    ];
    return m.map(round);
  };
  const plans: Plan[] = [];
  let hpCount = 0;
  const hardpoints = (part: string, count: number, turrets = 0): HardpointSpec[] => {
    const out: HardpointSpec[] = [];
    for (let i = 0; i < count; i++) {
      const kind = ["HpRunningLight", "HpDockLight", "HpFire", "HpHeadLight", "HpEngineGlow"][i % 5];
      out.push({
        name: `${kind}${String(++hpCount).padStart(2, "0")}`,
        kind: "fix",
        position: [int(-400, 400) / 10, int(-200, 200) / 10, int(-400, 400) / 10],
        orientation: i % 3 ? IDENTITY : turn(int(-90, 90), 1),
      });
    }
    for (let i = 0; i < turrets; i++) {
      out.push({
        name: `HpTurret_${part}_${String(i + 1).padStart(2, "0")}`,
        kind: "rev",
        position: [int(-50, 50) / 10, int(0, 30) / 10, int(-50, 50) / 10],
        orientation: IDENTITY,
        axis: [0, 1, 0],
        // A hardpoint editor showing raw floats: the turrets' limits typed in degrees.
        min: oddity === "degree_turrets" ? -90 : -Math.PI / 2,
        max: oddity === "degree_turrets" ? 90 : Math.PI / 2,
      });
    }
    return out;
  };
  const tris = () => [int(2, 12), ...(random() < 0.5 ? [int(1, 6)] : [])];
  plans.push({
    name: "Root",
    kind: "fix",
    translation: [0, 0, 0],
    rotation: IDENTITY,
    groups: tris(),
    hardpoints: hardpoints("Root", int(150, 400)),
  });
  const sections = int(12, 30);
  for (let i = 1; i <= sections; i++) {
    plans.push({
      name: `Section${String(i).padStart(2, "0")}`,
      parent: "Root",
      kind: "fix",
      translation: [int(-60, 60), int(-20, 20), int(-150, 150)],
      rotation: i % 2 ? IDENTITY : turn(int(-60, 60), ([0, 1, 2] as const)[i % 3]),
      groups: tris(),
      hardpoints: hardpoints(`Section${i}`, int(15, 60), int(0, 2)),
    });
  }
  // An antenna mast: a Fix chain ten and more deep, each segment turned a little.
  const depth = int(10, 14);
  for (let i = 1; i <= depth; i++) {
    plans.push({
      name: `Antenna${String(i).padStart(2, "0")}`,
      parent: i === 1 ? "Section01" : `Antenna${String(i - 1).padStart(2, "0")}`,
      kind: "fix",
      translation: [0, 3, 0],
      rotation: turn(int(-8, 8), 0),
      groups: [int(1, 3)],
      hardpoints: i === depth ? hardpoints(`Antenna${i}`, 2) : [],
    });
  }
  const turrets = int(6, 16);
  for (let i = 1; i <= turrets; i++) {
    const section = `Section${String(int(1, sections)).padStart(2, "0")}`;
    plans.push({
      name: `Turret${String(i).padStart(2, "0")}`,
      parent: section,
      kind: "rev",
      translation: [int(-10, 10), 4, int(-10, 10)],
      rotation: IDENTITY,
      groups: tris(),
      hardpoints: hardpoints(`Turret${i}`, 2),
      limits: { axis: [0, 1, 0], min: -Math.PI, max: Math.PI },
    });
  }
  plans.push({
    name: oddity === "station" ? "Dish_sph" : "RadarDish",
    parent: "Section01",
    kind: "sphere",
    translation: [0, 6, 0],
    rotation: IDENTITY,
    groups: tris(),
    hardpoints: [],
    limits: { limits: [-0.5, 0.5, -Math.PI, Math.PI, 0, 0] },
  });
  for (let i = 1; i <= int(3, 8); i++) {
    plans.push({
      name: `Plate${String(i).padStart(2, "0")}`,
      parent: `Section${String(int(1, sections)).padStart(2, "0")}`,
      kind: "loose",
      translation: [int(-5, 5), int(-5, 5), int(-5, 5)],
      rotation: IDENTITY,
      groups: [int(1, 4)],
      hardpoints: [],
    });
  }

  const joints = options.joints
    ? shipJoints(int, sections, turn, oddity === "station" ? "Dish_sph" : "RadarDish", options)
    : undefined;
  for (const part of joints?.parts ?? []) plans.push({ ...part, groups: tris(), hardpoints: [] });
  if (joints?.emptyRoot) plans[0].groups = [];

  // Each level of the ship is one mesh (two when the ship is big), every part a slice of it.
  const split = plans.length > 40 ? 2 : 1;
  const meshes: { name: string; data: Uint8Array }[] = [];
  const refs = new Map<string, VMeshRefSpec[]>();
  for (let level = 0; level < levels; level++) {
    for (let half = 0; half < split; half++) {
      const name = `data.ships.${family}.${ship}.${ship}_lod${level}${split > 1 ? "abc"[half] : ""}-${
        int(100, 999)
      }.vms`;
      const groups: GroupSpec[] = [];
      const indices: number[] = [];
      const positions: number[] = [];
      let vertices = 0;
      plans.forEach((plan, p) => {
        if (p % split !== half || !plan.groups.length) return;
        const refStart = vertices;
        const groupStart = groups.length;
        const indexStart = indices.length;
        let local = 0;
        for (const [g, full] of plan.groups.entries()) {
          const count = Math.max(1, full >> level);
          groups.push({
            materialId: flCrc32(MATERIALS[(p + g) % MATERIALS.length]),
            vertexStart: local,
            vertexEnd: local + 3 * count - 1,
            indexCount: 3 * count,
          });
          for (let i = 0; i < 3 * count; i++) indices.push(i);
          for (let t = 0; t < count; t++) positions.push(0, 0, t, 1, 0, t, 0, 1, t);
          local += 3 * count;
        }
        vertices += local;
        const list = refs.get(plan.name) ?? [];
        list.push({
          meshId: flCrc32(name),
          vertexStart: refStart,
          vertexCount: local,
          indexStart,
          indexCount: indices.length - indexStart,
          groupStart,
          groupCount: groups.length - groupStart,
        });
        refs.set(plan.name, list);
      });
      const fvf = oddity === "tangent_uvs" ? 0x312 : 0x112;
      const uv = Array.from({ length: vertices }, () => [0, 0]).flat();
      const data = encodeVMeshData({
        fvf,
        groups,
        indices,
        vertices: packVertices(fvf, vertices, {
          positions,
          normals: Array.from({ length: vertices }, () => [0, 0, 1]).flat(),
          uvs: fvf === 0x312 ? [uv, uv, uv] : [uv],
        }),
      });
      if (oddity !== "missing_lod" || level < levels - 1) meshes.push({ name, data });
    }
  }

  const truth: ModToolTruth & { named: string[] } = {
    triangles: {},
    hardpoints: {},
    limits: {},
    // The judge's default tolerance (1e-4): FLModelTool's rows read as rotations moved hardpoints by up
    // to 0.02, and before near_defaults.ts a mast segment turned within 1e-5 was written unturned (2e-4).
    named: [],
  };
  const parts: PartSpec[] = plans.map((plan, p) => {
    const lods = refs.get(plan.name) ?? [];
    const step = int(150, 600);
    const switchDistances = [...lods.map((_, i) => i * step), 1e6];
    if (p % 7 === 3 && lods.length > 2) switchDistances[1] = 1e-44; // retail's denormal junk
    // Junk further in, on every part: the level before it has no range, and the game never draws it.
    if (oddity === "junk_switch" && lods.length > 2) switchDistances[2] = 1e-44;
    const fragment: FragmentSpec = { lods, switchDistances, hardpoints: plan.hardpoints };
    return {
      name: plan.name,
      fileName: `${plan.name.toLowerCase()}_lod1${int(100000, 999999)}.3db`,
      fragment,
    };
  });
  const constraints: ConstraintSpec[] = plans.filter((p) => p.parent).map((p) => ({
    kind: p.kind,
    parent: p.parent!,
    child: p.name,
    translation: p.translation,
    rotation: p.rotation,
    ...p.limits,
  }));

  // The truth: the game composes the stored (float32) matrices as they are.
  const world = new Map<string, number[]>(); // 3×4 row-major
  const f = Math.fround;
  const worldOf = (plan: Plan): number[] => {
    const known = world.get(plan.name);
    if (known) return known;
    const local = [0, 1, 2].flatMap((
      r,
    ) => [...[0, 1, 2].map((c) => f(plan.rotation[3 * r + c])), f(plan.translation[r])]);
    const parent = plan.parent ? worldOf(plans.find((q) => q.name === plan.parent)!) : undefined;
    const w = parent ? compose(parent, local) : local;
    world.set(plan.name, w);
    return w;
  };
  for (const plan of plans) {
    truth.triangles[plan.name] = plan.groups.reduce((a, b) => a + b, 0);
    const w = worldOf(plan);
    for (const hp of plan.hardpoints) {
      const p = hp.position.map(f);
      truth.hardpoints[hp.name] = [0, 1, 2].map((r) =>
        w[4 * r] * p[0] + w[4 * r + 1] * p[1] + w[4 * r + 2] * p[2] + w[4 * r + 3]
      );
    }
  }

  const extra: UtfNode[] = [
    materialLibrary(MATERIALS.map((name) => ({ name, type: "DcDt", dc: [0.6, 0.6, 0.6] }))),
  ];
  if (oddity === "junk_switch") truth.named.push("no camera distance draws LOD 1");
  if (oddity === "missing_lod") truth.named.push("in no loaded library");
  if (oddity === "tangent_uvs") truth.named.push("3 UV sets");
  if (oddity === "degree_turrets") {
    truth.named.push("HpTurret_.*typed in degrees|typed in degrees: 'HpTurret_");
  }
  if (oddity === "duplicate") {
    // A section entry copied and its Object name not changed: the copy's fragment is not drawn.
    const copied = plans[int(1, sections)];
    const copy = `${copied.name.toLowerCase()}_copy.3db`;
    parts.push({ name: copied.name, fileName: copy, fragment: { lods: refs.get(copied.name)!.slice(0, 1) } });
    truth.named.push(`duplicate part name '${copied.name}'`);
  }
  const scripts: Record<string, AnimationMapSpec[]> = { ...joints?.scripts };
  if (oddity === "removed_parts") {
    // The bay doors' animation is kept after a mod removed the doors.
    const door = (child: string): AnimationMapSpec => ({
      parent: "Root",
      child,
      type: 0x1,
      interval: -1,
      keys: [{ time: 0, angle: 0 }, { time: 2, angle: 1.2 }],
    });
    const doors = Array.from({ length: int(4, 10) }, (_, i) => `BayDoor${String(i + 1).padStart(2, "0")}`);
    for (const name of ["Sc_open_bay", "Sc_close_bay"]) {
      scripts[name] = [...scripts[name] ?? [], ...doors.map(door)];
    }
    truth.named.push("Sc_open_bay.*BayDoor01", "Sc_close_bay.*BayDoor01");
  }
  if (Object.keys(scripts).length) extra.push(animationTree(scripts));
  const tree = compoundTree({ meshes, extra, parts, constraints });
  return {
    quirk: `capital_${oddity}`,
    habits: [],
    seed,
    oddity,
    name: `${ship}${seed}.cmp`,
    bytes: encodeUtf(tree),
    truth,
    partCount: plans.length,
    constraints,
    ...(joints ? { scripts } : {}),
    hardpointCount: hpCount +
      plans.reduce((n, p) => n + p.hardpoints.filter((h) => h.kind === "rev").length, 0),
  };
}

/** `a · b` for 3×4 row-major affine matrices. */
function compose(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 4; c++) {
      let v = c === 3 ? a[4 * r + 3] : 0;
      for (let k = 0; k < 3; k++) v += a[4 * r + k] * b[4 * k + c];
      out.push(v);
    }
  }
  return out;
}
