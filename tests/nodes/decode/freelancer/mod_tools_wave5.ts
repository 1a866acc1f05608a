/**
 * Freelancer compounds as tools write two things the earlier waves (`mod_tools.ts` … `mod_tools_wave3.ts`)
 * do not: ids past 2³¹−1 and `Cyl` joints in either limit order.
 *
 * - `big_ids`: a ship whose meshes and materials are named as LancerEdit (`<file>-<object>.lod0.<n>.vms`)
 *   or the retail exporter (`data.ships.<family>.<ship>.lod0-<n>.vms`) names them, with the paint and
 *   glass names of a ship family. Half of all FLCRC32 values are above 2³¹−1; the judge
 *   (`mod_tools_judge.ts`) names any integer in the output's extras that a client storing custom
 *   properties as int32 (Blender) cannot hold.
 * - `cyl_order`: `Cyl` joints (a telescoping strut, a turning and sliding gun mount) whose four limits are
 *   written turn first (MAXLancer, the only modelling exporter writing Cyl; its turn typed in whole
 *   degrees), slide first (treewyrm/freelancer's order, from Conquest: Frontier Wars), slide first in a
 *   file whose other Cyl slides farther than a full turn (the file says its order), or by hand in a UTF
 *   editor with nothing in the file telling the order. The truth is the order written; where the file
 *   cannot tell, the joint's range is not judged and a warning must name the part.
 *
 * @module
 */
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import {
  compoundTree,
  type ConstraintSpec,
  encodeVMeshData,
  encodeVMeshRef,
  encodeVWireData,
  materialLibrary,
  oneTriangleRef,
  packVertices,
} from "../../../support/freelancer/encode_model.ts";
import {
  encodeFloats,
  encodeString,
  encodeUtf,
  utfDir,
  utfLeaf,
  type UtfNode,
} from "../../../support/freelancer/encode_utf.ts";
import { prng } from "../../../support/prng.ts";
import type { ModToolFile, ModToolTruth } from "./mod_tools.ts";

/** The habits of this wave. */
export const HABITS5 = ["big_ids", "cyl_order", "lod_levels"] as const;

/** One habit of {@link HABITS5}. */
export type Habit5 = typeof HABITS5[number];

/** How a `cyl_order` file was written, by seed. */
export const CYL_WRITERS = ["maxlancer", "slide_first", "slide_first_told", "by_hand"] as const;

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];
const FAMILIES = ["li", "br", "ku", "rh", "bw", "pi", "co"];
const OBJECTS = ["hull", "wing_port", "wing_star", "engine", "cockpit", "tail", "gear", "strut", "bay_door"];
const MATERIALS = ["paint_01", "paint_02", "glass", "engine_glow", "detail", "decal", "chrome", "lights"];

/** Writes the file of `habit` for `seed`, with its truth. */
export function modToolFile5(habit: Habit5, seed: number): ModToolFile {
  return habit === "big_ids"
    ? bigIdsFile(seed)
    : habit === "cyl_order"
    ? cylOrderFile(seed)
    : lodLevelsFile(seed);
}

function bigIdsFile(seed: number): ModToolFile {
  const random = prng(seed * 7919 + 11);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = <T>(list: readonly T[]) => list[int(0, list.length - 1)];
  const family = pick(FAMILIES);
  const ship = `${family}_${pick(["fighter", "elite", "freighter", "gunboat"])}${int(1, 3)}`;
  const lancerEdit = seed % 2 === 0;
  const objects = [...OBJECTS].sort(() => random() - 0.5).slice(0, int(2, 5));
  const parts = ["Root", ...objects.slice(1)];
  const meshName = (object: string) =>
    lancerEdit
      ? `${ship}-${object}.lod0.${int(100, 999)}.vms`
      : `data.ships.${family}.${ship}.${ship}_${object}.lod0-${int(10, 999)}.vms`;
  const materials = [...MATERIALS].sort(() => random() - 0.5).slice(0, int(2, 4))
    .map((m) => `${family}_${m}`);
  const plans = parts.map((name) => ({
    name,
    mesh: meshName(name.toLowerCase()),
    material: pick(materials),
  }));
  const truth: ModToolTruth = { triangles: {}, hardpoints: {}, limits: {} };
  for (const plan of plans) truth.triangles[plan.name] = 1;
  const tree = compoundTree({
    meshes: plans.map((p) => ({ name: p.mesh, data: triangle(p.material) })),
    extra: [materialLibrary(materials.map((name, i) => ({ name, type: "DcDt", dc: [0.2 * i, 0.5, 0.5] })))],
    parts: plans.map((p) => ({
      name: p.name,
      fileName: `${ship}_${p.name.toLowerCase()}_lod${seed % 10}${int(100000, 999999)}.3db`,
      fragment: { lods: [oneTriangleRef(flCrc32(p.mesh))] },
    })),
    constraints: plans.slice(1).map((p, i) => ({
      kind: "fix",
      parent: "Root",
      child: p.name,
      translation: [i, 0, -i],
      rotation: IDENTITY,
    })),
  });
  return { quirk: "big_ids", habits: [], seed, name: `${ship}.cmp`, bytes: encodeUtf(tree), truth };
}

function cylOrderFile(seed: number): ModToolFile {
  const random = prng(seed * 104729 + 5);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const writer = CYL_WRITERS[seed % CYL_WRITERS.length];
  const f32 = (v: number) => Math.fround(v);
  const radians = (degrees: number) => degrees * Math.PI / 180;
  // A turn typed in whole degrees in a modelling tool (stored as radians), or in radians by hand.
  const turnOf = (hand: boolean) =>
    hand ? [-int(1, 9) / 10, int(1, 12) / 10] : [radians(-int(5, 120)), radians(int(5, 120))];
  const slideOf = (long: boolean) => long ? [0, int(8, 20)] : [0, int(1, 24) / 4];
  const parts = ["Root", "Strut", ...(writer === "slide_first_told" || seed % 3 === 0 ? ["Mount"] : [])];
  const truth: ModToolTruth & { named: string[]; joints: Record<string, [number, number]> } = {
    triangles: {},
    hardpoints: {},
    limits: {},
    named: [],
    joints: {},
  };
  const records: ConstraintSpec[] = parts.slice(1).map((child, i) => {
    const turn = turnOf(writer === "by_hand" || writer === "slide_first_told");
    // The told file's first Cyl slides farther than a full turn: its order can only be slide first.
    const slide = slideOf(writer === "slide_first_told" && i === 0);
    const slideFirst = writer === "slide_first" || writer === "slide_first_told" ||
      (writer === "by_hand" && (seed >> 2) % 2 === 1);
    const limits = slideFirst ? [...slide, ...turn] : [...turn, ...slide];
    const [t0, t1] = turn.map((v) => f32(v) * 180 / Math.PI);
    if (writer === "by_hand") {
      // Nothing tells the order: the range is not judged, the part must be named.
      truth.named.push(`Cyl constraint of part '${child}'.*order`);
    } else {
      truth.joints[`${child}_joint`] = [t0, t1];
      truth.joints[`${child}_slide`] = [slide[0], slide[1]];
    }
    return {
      kind: "cyl",
      parent: "Root",
      child,
      translation: [int(-4, 4), int(-2, 2), int(-4, 4)],
      rotation: IDENTITY,
      offset: [0, 0, 0],
      axis: [0, 1, 0],
      limits,
    };
  });
  for (const part of parts) truth.triangles[part] = 1;
  const ref = oneTriangleRef(flCrc32("tri.vms"));
  const tree = compoundTree({
    meshes: [{ name: "tri.vms", data: triangle("hull") }],
    extra: [materialLibrary([{ name: "hull", type: "DcDt", dc: [0.5, 0.5, 0.5] }])],
    parts: parts.map((name) => ({ name, fileName: `${name.toLowerCase()}.3db`, fragment: { lods: [ref] } })),
    constraints: records,
  });
  return {
    quirk: `cyl_order`,
    habits: [],
    seed,
    name: `gear${seed}_${writer}.cmp`,
    bytes: encodeUtf(tree),
    truth,
  };
}

/** How a `lod_levels` file's `MultiLevel` is odd, by seed. */
export const LOD_ODDITIES = [
  "crowded_level0",
  "two_parts_level0",
  "crowded_later",
  "unsorted",
  "empty_first",
  "short",
  "no_switch",
] as const;

function lodLevelsFile(seed: number): ModToolFile {
  const random = prng(seed * 7727 + 3);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const oddity = LOD_ODDITIES[seed % LOD_ODDITIES.length];
  // Two or three parts, each with three to four levels of fewer triangles as they go (8, 4, 2, 1 …).
  const parts = ["Root", "Wing", ...(seed % 2 ? ["Tail"] : [])];
  const odd = parts[int(0, parts.length - 1)];
  const truth: ModToolTruth & { named: string[] } = { triangles: {}, hardpoints: {}, limits: {}, named: [] };
  const meshes: { name: string; data: Uint8Array }[] = [];
  const fragments = new Map<string, UtfNode[]>();
  for (const name of parts) {
    const levels = int(3, 4);
    const triangles = Array.from({ length: levels }, (_, i) => Math.max(1, (8 >> i) + int(0, 2)));
    const names = triangles.map((_, i) => `${name.toLowerCase()}_lod${i}-${int(100, 999)}.vms`);
    names.forEach((mesh, i) => meshes.push({ name: mesh, data: triangleMesh(triangles[i]) }));
    const part = (i: number) =>
      utfDir("VMeshPart", [utfLeaf("VMeshRef", encodeVMeshRef(refAll(names[i], triangles[i])))]);
    const step = int(80, 400);
    let distances: number[] | undefined = [...Array.from({ length: levels }, (_, i) => i * step), 1e6];
    const children: UtfNode[][] = triangles.map((_, i) => [part(i)]);
    if (name === odd) {
      if (oddity === "crowded_level0" || oddity === "crowded_later") {
        const at = oddity === "crowded_level0" ? 0 : int(1, levels - 1);
        const extra = seed % 2
          ? utfDir("VMeshWire", [utfLeaf("VWireData", encodeVWireData(flCrc32(names[at]), 0, [0, 1, 1, 2]))])
          : utfLeaf("Exporter Version", encodeString("FLModelTool 1.1"));
        children[at] = seed % 4 < 2 ? [...children[at], extra] : [extra, ...children[at]];
        truth.named.push(`Level${at} holds 2 entries`);
      } else if (oddity === "two_parts_level0") {
        // A hand edit pasted the next level's VMeshPart in after Level0's own: the game reads the first.
        children[0] = [part(0), part(1)];
        truth.named.push(`Level0 holds 2 entries`);
      } else if (oddity === "unsorted") {
        distances = [0, 2 * step, step, ...distances.slice(3)];
        truth.named.push(`part '${odd}'.*no camera distance draws LOD 1`);
      } else if (oddity === "empty_first") {
        distances = [0, 0, ...distances.slice(2)];
        truth.named.push(`part '${odd}'.*LOD 1 nearest`);
      } else if (oddity === "short") {
        distances = distances.slice(0, 2);
        truth.named.push(`part '${odd}'.*no camera distance draws LOD 1`);
      } else distances = undefined;
    }
    // The part draws LOD 0 whatever Switch2 says, as LancerEdit shows and exports it (the game's nearest
    // level, when another, is named and kept as near_lod).
    truth.triangles[name] = triangles[0];
    fragments.set(`${name.toLowerCase()}.3db`, [
      utfDir("MultiLevel", [
        ...children.map((kids, i) => utfDir(`Level${i}`, kids)),
        ...(distances ? [utfLeaf("Switch2", encodeFloats(distances))] : []),
      ]),
    ]);
  }
  const tree = compoundTree({
    meshes,
    extra: [materialLibrary([{ name: "hull", type: "DcDt", dc: [0.5, 0.5, 0.5] }])],
    parts: parts.map((name) => ({ name, fileName: `${name.toLowerCase()}.3db`, fragment: { lods: [] } })),
    constraints: parts.slice(1).map((child, i) => ({
      kind: "fix",
      parent: "Root",
      child,
      translation: [i + 1, 0, 0],
      rotation: IDENTITY,
    })),
  }) as { name: string; children: UtfNode[] };
  const root = utfDir(
    tree.name,
    tree.children.map((c) => fragments.has(c.name) ? utfDir(c.name, fragments.get(c.name)!) : c),
  );
  return {
    quirk: "lod_levels",
    habits: [],
    seed,
    name: `lods${seed}_${oddity}.cmp`,
    bytes: encodeUtf(root),
    truth,
  };
}

/** A mesh of `count` triangles, all material `hull`, one group. */
function triangleMesh(count: number): Uint8Array {
  return encodeVMeshData({
    fvf: 0x112,
    groups: [{
      materialId: flCrc32("hull"),
      vertexStart: 0,
      vertexEnd: 3 * count - 1,
      indexCount: 3 * count,
    }],
    indices: Array.from({ length: 3 * count }, (_, i) => i),
    vertices: packVertices(0x112, 3 * count, {
      positions: Array.from({ length: count }, (_, t) => [0, 0, t, 1, 0, t, 0, 1, t]).flat(),
      normals: Array.from({ length: 3 * count }, () => [0, 0, 1]).flat(),
      uvs: [Array.from({ length: count }, () => [0, 0, 1, 0, 0, 1]).flat()],
    }),
  });
}

/** A reference drawing all of a `count`-triangle mesh. */
function refAll(mesh: string, count: number) {
  return {
    meshId: flCrc32(mesh),
    vertexStart: 0,
    vertexCount: 3 * count,
    indexStart: 0,
    indexCount: 3 * count,
    groupStart: 0,
    groupCount: 1,
  };
}

/** One triangle drawn with `material`. */
function triangle(material: string): Uint8Array {
  return encodeVMeshData({
    fvf: 0x112,
    groups: [{ materialId: flCrc32(material), vertexStart: 0, vertexEnd: 2, indexCount: 3 }],
    indices: [0, 1, 2],
    vertices: packVertices(0x112, 3, {
      positions: [0, 0, 0, 1, 0, 0, 0, 1, 0],
      normals: [0, 0, 1, 0, 0, 1, 0, 0, 1],
      uvs: [[0, 0, 1, 0, 0, 1]],
    }),
  });
}
