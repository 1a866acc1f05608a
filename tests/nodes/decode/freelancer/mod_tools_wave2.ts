/**
 * More Freelancer files as mod tools and hand edits leave them, from a seed (the first habits are in
 * `mod_tools.ts`): a `.sur` collision file beside the model, ship-family `.mat`/`.txm` libraries shared
 * by several models that define the same entries differently, a `Fix` rotation typed by hand (rounded to
 * two decimals, or with a sign forgotten), a `.3db` whose `MultiLevel` has one level, `Cons`/`Fix`
 * spelt in another case, a `VMeshData` with unused bytes after its vertices, a `Cmpnd` whose `Root`
 * entry is not first, a fragment holding two mesh references (two `VMeshRef` leaves, a `VMeshPart`
 * beside a `MultiLevel`, or two `MultiLevel`s), and `Sphere`/`Cyl` joints mirrored from another with
 * their limits negated but not swapped.
 *
 * Each file comes with its truth, worked out from what was written (not from the decoder), in the
 * shape `mod_tools_judge.ts` judges: triangles per part at LOD 0, hardpoint world positions (the
 * stored Fix matrix applied as the game applies it), joint limits, and the warnings a file whose
 * geometry cannot tell what was meant must give.
 *
 * @module
 */
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import {
  compoundTree,
  type ConstraintSpec,
  encodeVMeshData,
  encodeVMeshRef,
  fragmentChildren,
  type HardpointSpec,
  materialLibrary,
  packVertices,
  textureLibrary,
  type VMeshRefSpec,
} from "../../../support/freelancer/encode_model.ts";
import {
  encodeFloats,
  encodeUtf,
  utfDir,
  utfLeaf,
  type UtfNode,
} from "../../../support/freelancer/encode_utf.ts";
import { prng } from "../../../support/prng.ts";
import { dxt1Dds } from "./fixtures.ts";
import type { ModToolFile, ModToolTruth } from "./mod_tools.ts";

/** The habits of this wave. */
export const HABITS = [
  "sur_beside",
  "shared_conflict",
  "fix_skewed",
  "single_level",
  "cons_case",
  "trailing_vmeshdata",
  "root_not_first",
  "two_refs",
  "mirrored_sphere",
  "mirrored_cyl",
] as const;

/** One habit of {@link HABITS}. */
export type Habit = typeof HABITS[number];

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];
const MATERIALS = ["hull", "glass", "trim"];

interface Plan {
  name: string;
  fileName: string;
  mesh: string;
  groups: number[];
  hardpoints: HardpointSpec[];
  record: ConstraintSpec;
}

/** Writes the file of `habit` for `seed`, with its truth. */
export function modToolFile2(habit: Habit, seed: number): ModToolFile {
  const random = prng(seed * 104729 + HABITS.indexOf(habit) * 613);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const coord = () => Math.round((random() * 20 - 10) * 64) / 64;
  const single = habit === "single_level";
  const mirrored = habit === "mirrored_sphere" || habit === "mirrored_cyl";
  const count = single ? 1 : mirrored ? 3 : habit === "fix_skewed" ? int(2, 4) : int(1, 4);
  const plans: Plan[] = [];
  for (let p = 0; p < count; p++) {
    const name = p === 0 ? "Root" : `Part${p}${["Wing", "Turret", "Hatch", "Gear"][int(0, 3)]}`;
    plans.push({
      name,
      fileName: `${name.toLowerCase()}_lod${seed % 10}${p}.3db`,
      mesh: `${name.toLowerCase()}.lod0.${seed}.vms`,
      groups: Array.from({ length: int(1, 3) }, () => int(1, 5)),
      hardpoints: Array.from({ length: int(p === 0 ? 0 : 1, 2) }, (_, h) => ({
        name: `Hp${name}${h}`,
        kind: "fix" as const,
        position: [coord(), coord(), coord()],
        orientation: IDENTITY,
      })),
      record: {
        kind: "fix",
        parent: "Root",
        child: name,
        translation: p === 0 ? [0, 0, 0] : [coord(), coord(), coord()],
        rotation: IDENTITY,
      },
    });
  }
  const truth: ModToolTruth & {
    named: string[];
    joints: Record<string, [number, number]>;
    textured?: Record<string, boolean>;
  } = {
    triangles: {},
    hardpoints: {},
    limits: {},
    named: [],
    joints: {},
  };
  if (habit === "fix_skewed") {
    // A turn about Y typed by hand: the cosine and sine to two decimals, or with the sine's sign
    // forgotten on one side (the game draws the matrix as stored, hardpoints and all).
    const part = plans[1];
    const angle = (int(1, 11) * 30) * Math.PI / 180;
    const [c, s] = [Math.round(Math.cos(angle) * 100) / 100, Math.round(Math.sin(angle) * 100) / 100];
    part.record = {
      ...part.record,
      rotation: seed % 2 ? [c, 0, s, 0, 1, 0, -s, 0, c] : [c, 0, s, 0, 1, 0, s, 0, c],
    };
    // The forgotten sign shears the matrix (unless the sine is 0): the part must be named.
    if (seed % 2 === 0 && s !== 0) truth.named.push(`'${part.name}'`);
  }
  if (mirrored) {
    // The third part is the second mirrored across the model's YZ plane: its translation's x negated;
    // a Sphere's turns about Y and Z (and a Cyl's turn) negated and not swapped, as a mirror tool leaves them.
    const [, a, b] = plans;
    const deg = () => int(5, 80) * Math.PI / 180;
    if (habit === "mirrored_sphere") {
      const limits = [-deg(), deg(), -deg(), deg(), -deg(), deg()];
      a.record = { ...a.record, kind: "sphere", limits };
      b.record = {
        ...b.record,
        kind: "sphere",
        translation: [-a.record.translation[0], a.record.translation[1], a.record.translation[2]],
        limits: [limits[0], limits[1], -limits[2], -limits[3], -limits[4], -limits[5]],
      };
      for (const [plan, stored] of [[a, a.record.limits!], [b, b.record.limits!]] as const) {
        ["x", "y", "z"].forEach((axis, k) => {
          const [lo, hi] = [stored[2 * k], stored[2 * k + 1]].map((v) => v * 180 / Math.PI);
          truth.joints[`${plan.name}_joint_${axis}`] = [Math.min(lo, hi), Math.max(lo, hi)];
        });
      }
    } else {
      const turn = [-deg(), deg()], slide = [0, int(1, 8) / 4];
      a.record = { ...a.record, kind: "cyl", axis: [0, 0, 1], limits: [...turn, ...slide] };
      b.record = {
        ...b.record,
        kind: "cyl",
        axis: [0, 0, 1],
        translation: [-a.record.translation[0], a.record.translation[1], a.record.translation[2]],
        limits: [-turn[0], -turn[1], ...slide],
      };
      for (const plan of [a, b]) {
        const [r0, r1] = plan.record.limits!.slice(0, 2).map((v) => v * 180 / Math.PI);
        truth.joints[`${plan.name}_joint`] = [Math.min(r0, r1), Math.max(r0, r1)];
        truth.joints[`${plan.name}_slide`] = [slide[0], slide[1]];
      }
    }
  }

  const meshes: { name: string; data: Uint8Array }[] = [];
  const fragments = new Map<string, UtfNode[]>();
  for (const plan of plans) {
    const data = meshData(plan.groups);
    const trailing = habit === "trailing_vmeshdata"
      ? [2, 4, 8, 32, 3][seed % 5] // padding to 4 or 8, a whole unused vertex, an odd byte count
      : 0;
    const padded = new Uint8Array(data.length + trailing).fill(seed % 2 ? 0xcc : 0);
    padded.set(data);
    meshes.push({ name: plan.mesh, data: padded });
    const triangles = plan.groups.reduce((a, b) => a + b, 0);
    const ref: VMeshRefSpec = {
      meshId: flCrc32(plan.mesh),
      vertexStart: 0,
      vertexCount: 3 * triangles,
      indexStart: 0,
      indexCount: 3 * triangles,
      groupStart: 0,
      groupCount: plan.groups.length,
    };
    truth.triangles[plan.name] = triangles;
    let children = fragmentChildren({ lods: single ? [ref, ref] : [ref], hardpoints: plan.hardpoints });
    if (single) {
      // One level, and a Switch2 of two distances, as the exporter writes a model without LODs.
      children = children.map((c) =>
        c.name === "MultiLevel" && "children" in c
          ? utfDir("MultiLevel", [c.children[0], utfLeaf("Switch2", encodeFloats([0, 1000 + seed]))])
          : c
      );
    }
    if (habit === "two_refs" && plan === plans[plans.length - 1]) {
      // A hand edit that pasted a new mesh reference beside the old one (one more triangle, in a mesh
      // of its own), as a second VMeshRef leaf, a VMeshPart beside a MultiLevel, or a second MultiLevel.
      const newer = `${plan.mesh.replace(".vms", "")}_new.vms`;
      meshes.push({ name: newer, data: meshData([...plan.groups, 1]) });
      const other = encodeVMeshRef({
        ...ref,
        meshId: flCrc32(newer),
        vertexCount: ref.vertexCount + 3,
        indexCount: ref.indexCount + 3,
        groupCount: ref.groupCount + 1,
      });
      const old = encodeVMeshRef(ref);
      const variant = seed % 3;
      const rest = children.filter((c) => c.name !== "VMeshPart");
      const part = (ref: Uint8Array) => utfDir("VMeshPart", [utfLeaf("VMeshRef", ref)]);
      const multi = (ref: Uint8Array) => utfDir("MultiLevel", [utfDir("Level0", [part(ref)])]);
      children = variant === 0
        ? [utfDir("VMeshPart", [utfLeaf("VMeshRef", old), utfLeaf("VMeshRef", other)]), ...rest]
        : variant === 1
        ? [part(old), multi(other), ...rest]
        : [multi(old), multi(other), ...rest];
      // Treewyrm's reader and a lookup by name take the first; Librelancer refuses the part. The file
      // cannot tell which the author meant: its triangles are not judged, a warning must name the part.
      delete truth.triangles[plan.name];
      truth.named.push(`'${plan.name}'`);
    }
    fragments.set(plan.fileName, children);
  }
  for (const plan of plans) {
    const t = plan.record.translation, r = plan.record.rotation;
    for (const hp of plan.hardpoints) {
      const p = hp.position;
      truth.hardpoints[hp.name] = [0, 1, 2].map((i) =>
        t[i] + r[3 * i] * p[0] + r[3 * i + 1] * p[1] + r[3 * i + 2] * p[2]
      );
    }
  }

  const materialSpecs = (suffix: string) =>
    MATERIALS.map((name) => ({ name, type: "DcDt", dc: [0.5, 0.5, 0.5], dtName: `${name}${suffix}.dds` }));
  const texturesOf = (suffix: string, colour: number) =>
    textureLibrary(MATERIALS.map((name) => ({ name: `${name}${suffix}.dds`, dds: dxt1Dds(colour) })));
  const libraryFile = (node: UtfNode) => encodeUtf(utfDir("\\", [node]));
  let extra: UtfNode[] = [materialLibrary(materialSpecs("")), texturesOf("", 0xf800)];
  let siblings: ModToolFile["siblings"];
  const name = single ? "turret.3db" : `ship${seed}.cmp`;
  if (habit === "sur_beside") {
    // The collision hulls beside the model (not a UTF file: a `vers` tagged stream), and the materials
    // in the ship family's .mat beside it, so the library search looks through that folder.
    const sur = new Uint8Array(64 + 4 * int(0, 16));
    sur.set([0x76, 0x65, 0x72, 0x73]);
    new DataView(sur.buffer).setFloat32(4, 2, true);
    for (let i = 8; i < sur.length; i++) sur[i] = int(0, 255);
    extra = [];
    siblings = [
      { name: name.replace(/\.(cmp|3db)$/, ".sur"), bytes: sur },
      { name: "family.mat", bytes: libraryFile(materialLibrary(materialSpecs(""))) },
      { name: "family.txm", bytes: libraryFile(texturesOf("", 0xf800)) },
    ];
    // A glTF material exists only for a material some group draws.
    const drawn = new Set(plans.flatMap((p) => p.groups.map((_, g) => MATERIALS[g % MATERIALS.length])));
    truth.textured = Object.fromEntries([...drawn].map((m) => [m, true]));
  }
  if (habit === "shared_conflict") {
    // Two ship families' libraries beside the model, each shared by several ships and defining the
    // same material and texture names differently: which the game takes depends on the load order.
    extra = [];
    siblings = [
      { name: "alpha_family.mat", bytes: libraryFile(materialLibrary(materialSpecs(""))) },
      { name: "beta_family.mat", bytes: libraryFile(materialLibrary(materialSpecs("_b"))) },
      { name: "alpha.txm", bytes: libraryFile(texturesOf("", 0xf800)) },
      { name: "beta.txm", bytes: libraryFile(textureLibrary([{ name: "hull.dds", dds: dxt1Dds(0x001f) }])) },
    ];
    truth.named.push(
      "material '(hull|glass|trim)'.* defined by alpha_family\\.mat and beta_family\\.mat",
      "texture 'hull\\.dds' defined by alpha\\.txm and beta\\.txm",
    );
  }
  let root: UtfNode;
  if (single) {
    root = utfDir("\\", [
      utfDir("VMeshLibrary", meshes.map((m) => utfDir(m.name, [utfLeaf("VMeshData", m.data)]))),
      ...extra,
      ...fragments.get(plans[0].fileName)!,
    ]);
  } else {
    const tree = compoundTree({
      meshes,
      extra,
      parts: plans.map((p) => ({ name: p.name, fileName: p.fileName, fragment: { lods: [] } })),
      constraints: plans.slice(1).map((p) => p.record),
    }) as { name: string; children: UtfNode[] };
    root = utfDir(
      "\\",
      tree.children.map((child) => {
        if (fragments.has(child.name)) return utfDir(child.name, fragments.get(child.name)!);
        if (child.name !== "Cmpnd" || !("children" in child)) return child;
        let entries = [...child.children];
        if (habit === "cons_case") {
          const spell = (s: string) => [s.toLowerCase(), s.toUpperCase(), s][seed % 3];
          entries = entries.map((e) =>
            e.name === "Cons" && "children" in e
              ? utfDir(spell("Cons"), e.children.map((leaf) => ({ ...leaf, name: spell(leaf.name) })))
              : e
          );
        }
        if (habit === "root_not_first") {
          // A tool that appends the root after the parts it wrote (and, half the time, after Cons).
          const rootEntry = entries.find((e) => e.name === "Root")!;
          entries = entries.filter((e) => e !== rootEntry);
          entries.splice(seed % 2 ? entries.length : Math.max(0, entries.length - 1), 0, rootEntry);
        }
        return utfDir("Cmpnd", entries);
      }),
    );
  }
  return {
    quirk: habit,
    habits: [],
    seed,
    name,
    bytes: encodeUtf(root),
    truth,
    siblings,
  };
}

/** A mesh of one group per entry of `groups`, each that many triangles with vertices of its own. */
function meshData(groups: readonly number[]): Uint8Array {
  const vertexCount = 3 * groups.reduce((a, b) => a + b, 0);
  const positions: number[] = [], normals: number[] = [], uvs: number[] = [];
  for (let v = 0; v < vertexCount; v++) {
    const t = Math.floor(v / 3), k = v % 3;
    positions.push(k === 1 ? 1 : 0, k === 2 ? 1 : 0, t);
    normals.push(0, 0, 1);
    uvs.push(k === 1 ? 1 : 0, k === 2 ? 1 : 0);
  }
  let start = 0;
  const indices: number[] = [];
  const specs = groups.map((count, g) => {
    for (let i = 0; i < 3 * count; i++) indices.push(i);
    const spec = {
      materialId: flCrc32(MATERIALS[g % MATERIALS.length]),
      vertexStart: start,
      vertexEnd: start + 3 * count - 1,
      indexCount: 3 * count,
    };
    start += 3 * count;
    return spec;
  });
  return encodeVMeshData({
    fvf: 0x112,
    groups: specs,
    indices,
    vertices: packVertices(0x112, vertexCount, { positions, normals, uvs: [uvs] }),
  });
}
