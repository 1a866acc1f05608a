/**
 * Freelancer compounds as UTF editors and converters leave their `Cmpnd` and fragments (the earlier
 * waves are `mod_tools.ts` … `mod_tools_wave5.ts`), from a seed:
 *
 * - `cons_name_case`: `Cons` records naming their parts in another case than `Cmpnd`'s `Object name`
 *   (a part renamed in one place; the game and Librelancer match names ignoring case).
 * - `entry_case`: `Cmpnd` entries and leaves spelt in lower or upper case (`root`, `part_wing`,
 *   `object name`, `FILE NAME`, `cons`, `fix`), as utf-xml round trips and hand edits write them.
 * - `cons_orphans`: a record left for a deleted part, and a part whose record names a parent that
 *   was renamed away: what holds that part cannot be told, so a warning must name it.
 * - `unknown_nodes`: entries no reader knows (a `Comment` leaf, an empty `Animation`, an exporter's
 *   `Bounds` in a `VMeshPart`, a `Scale` in a hardpoint): the model is what it is without them.
 * - `entry_order`: fragments before `Cmpnd`, `Cons` before `Root`, `Hardpoints` before `VMeshPart`.
 * - `degenerate_unused`: meshes with repeated-index triangles and vertices no triangle uses.
 * - `mirrored_part`: a part mirrored by its `Fix` matrix (determinant −1, a wing copied across).
 * - `root_object_name`: the `Root` entry's `Object name` is the ship's name, records name it so.
 * - `hardpoint_scaled`: hardpoint orientations with a scale baked in and revolute axes not unit long.
 * - `duplicate_object_name`: two `Cmpnd` entries with the same `Object name` (a part copied in a UTF
 *   editor and not renamed), each with its own fragment: which one a record holds cannot be told, so
 *   a warning must name it.
 * - `shared_fragment`: two parts whose `File name` is the same fragment (a pod drawn twice).
 * - `name_garbage`: `Object name`/`File name` leaves as fixed 64-byte buffers with heap garbage after
 *   the NUL, as the retail exporter left them.
 * - `fragment_libraries`: each fragment keeps its own `VMeshLibrary` (`.3db` files merged into a
 *   `.cmp` by a tool that copied them whole).
 *
 * A file may be written with several habits at once (`modToolFile6(["entry_case", "entry_order"], seed)`),
 * as a file passed through several tools is.
 *
 * The truth (triangles per part, hardpoint world positions, turret ranges) is worked out from what was
 * written, composing the stored matrices as the game does (`W_child = W_parent·T(t)·R`).
 *
 * @module
 */
import { prng } from "../../../support/prng.ts";
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import {
  compoundTree,
  type ConstraintSpec,
  encodeConstraints,
  encodeVMeshData,
  type HardpointSpec,
  materialLibrary,
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
import type { ModToolFile, ModToolTruth } from "./mod_tools.ts";
import { mulRows, rotationRows } from "./fixtures.ts";

/** The habits of this wave. */
export const HABITS6 = [
  "cons_name_case",
  "entry_case",
  "cons_orphans",
  "unknown_nodes",
  "entry_order",
  "degenerate_unused",
  "mirrored_part",
  "root_object_name",
  "hardpoint_scaled",
  "duplicate_object_name",
  "shared_fragment",
  "name_garbage",
  "fragment_libraries",
] as const;

/** One habit of {@link HABITS6}. */
export type Habit6 = typeof HABITS6[number];

type Dir = { name: string; children: UtfNode[] };
const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];
const NAMES = ["Wing_Port", "Wing_Star", "Engine01", "Turret", "Cockpit", "Tail", "Gear_Bay", "Radar"];

/** Writes the file of `habit` (or of several habits at once) for `seed`, with its truth. */
export function modToolFile6(habits: Habit6 | readonly Habit6[], seed: number): ModToolFile {
  const list = typeof habits === "string" ? [habits] : habits;
  const has = (h: Habit6) => list.includes(h);
  const random = prng(seed * 2654435761 + 6);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const coord = () => int(-40, 40) / 4;
  const f32 = (values: readonly number[]) => values.map(Math.fround);
  const turn = () => f32(rotationRows([coord() || 1, coord(), coord()], int(-170, 170)));
  const rootName = has("root_object_name") ? `li_fighter${seed % 10}` : "Root";
  const parts = [rootName, ...[...NAMES].sort(() => random() - 0.5).slice(0, int(2, 4))];
  // Each part hangs from an earlier one; the first below the root is mirrored on `mirrored_part`.
  const records: ConstraintSpec[] = parts.slice(1).map((child, i) => {
    const parent = parts[i === 0 ? 0 : int(0, i)];
    const rotation = has("mirrored_part") && i === 0
      ? f32(mulRows(turn(), [-1, 0, 0, 0, 1, 0, 0, 0, 1]))
      : turn();
    const translation = f32([coord(), coord(), coord()]);
    return i % 2
      ? { kind: "rev", parent, child, translation, rotation, axis: [0, 1, 0], min: -0.5, max: 0.5 }
      : { kind: "fix", parent, child, translation, rotation };
  });
  const hardpoints = new Map<string, HardpointSpec[]>(parts.map((p, k) => [
    p,
    Array.from({ length: k === 0 ? 1 : int(1, 2) }, (_, h) => {
      const scale = has("hardpoint_scaled") ? [2, 0.5, 100, 0.01][int(0, 3)] : 1;
      const orientation = f32(turn().map((v) => v * scale));
      const position = f32([coord(), coord(), coord()]);
      return h === 1
        ? {
          name: `HpTurret_${p}`,
          kind: "rev" as const,
          position,
          orientation,
          axis: has("hardpoint_scaled") ? [0, 2, 0] : [0, 1, 0],
          min: -int(10, 150) / 100,
          max: int(10, 150) / 100,
        }
        : { name: `HpWeapon_${p}`, kind: "fix" as const, position, orientation };
    }),
  ]));
  const truth: ModToolTruth & { named: string[] } = { triangles: {}, hardpoints: {}, limits: {}, named: [] };
  const world = new Map<string, { t: number[]; m: number[] }>([[rootName, { t: [0, 0, 0], m: IDENTITY }]]);
  for (const r of records) {
    const parent = world.get(r.parent)!;
    world.set(r.child, {
      t: add(parent.t, apply(parent.m, r.translation)),
      m: mulRows(parent.m, r.rotation),
    });
  }
  const degenerate = has("degenerate_unused");
  const meshOf = (p: string) => degenerate ? `${p.toLowerCase()}.vms` : "tri.vms";
  const triangleCount = (p: string) => degenerate ? 2 + (p.length % 3) : 1;
  // The part whose holder cannot be told: its hardpoints are not judged, a warning must name it.
  let unknown: string | undefined;
  if (has("cons_orphans") || has("duplicate_object_name")) unknown = parts[parts.length - 1];
  for (const part of parts) {
    truth.triangles[part] = triangleCount(part);
    if (part === unknown) continue;
    const { t, m } = world.get(part)!;
    for (const hp of hardpoints.get(part)!) {
      truth.hardpoints[hp.name] = add(t, apply(m, hp.position));
      if (hp.kind === "rev") truth.limits[hp.name] = [hp.min!, hp.max!].map(degrees) as [number, number];
    }
  }
  if (unknown) {
    truth.named.push(`\\b${unknown}\\b`);
    delete truth.triangles[unknown];
  }
  const fileNames = new Map(
    parts.map((p) => [p, `${p.toLowerCase()}_lod${seed % 10}${int(100000, 999999)}.3db`]),
  );
  const written = records.map((r) => ({ ...r }));
  if (has("cons_name_case")) {
    for (const r of written) {
      const other = (s: string) => (random() < 0.5 ? s.toLowerCase() : s.toUpperCase());
      r.child = other(r.child);
      if (random() < 0.5) r.parent = other(r.parent);
    }
  }
  if (has("cons_orphans")) {
    written.push({ ...written[0], child: "Deleted_Part", translation: [1, 2, 3] });
    written[written.length - 2].parent = "Renamed_Part";
  }
  const tree = compoundTree({
    meshes: degenerate
      ? parts.map((p) => ({ name: meshOf(p), data: messyMesh(triangleCount(p)) }))
      : [{ name: "tri.vms", data: messyMesh(1, false) }],
    extra: [materialLibrary([{ name: "hull", type: "DcDt", dc: [0.5, 0.5, 0.5] }])],
    parts: parts.map((name) => ({
      name,
      fileName: fileNames.get(name)!,
      fragment: {
        lods: [{
          meshId: flCrc32(meshOf(name)),
          vertexStart: 0,
          vertexCount: degenerate ? 3 * triangleCount(name) + 4 : 3,
          indexStart: 0,
          indexCount: 3 * triangleCount(name),
          groupStart: 0,
          groupCount: 1,
        }],
        hardpoints: hardpoints.get(name),
      },
    })),
    constraints: written,
  }) as Dir;
  const shared = has("shared_fragment") ? parts[1] : undefined;
  if (shared) {
    // A second part drawing the same fragment, fixed beside the root; its hardpoints share their names.
    const twin = `${shared}_Twin`;
    const translation = f32([coord(), coord(), coord()]);
    const entry = tree.children.find((c) => c.name === "Cmpnd") as Dir;
    entry.children.splice(1, 0, {
      name: `Part_${twin}`,
      children: [
        utfLeaf("Object name", encodeString(twin)),
        utfLeaf("Index", new Uint8Array(4)),
        utfLeaf("File name", encodeString(fileNames.get(shared)!)),
      ],
    });
    const cons = entry.children.find((c) => c.name === "Cons") as Dir;
    cons.children.push(utfLeaf(
      "Loose",
      encodeConstraints("loose", [{
        kind: "loose",
        parent: rootName,
        child: twin,
        translation,
        rotation: IDENTITY,
      }]),
    ));
    truth.triangles[twin] = triangleCount(shared);
    // Two nodes carry each of its hardpoints' names: not judged by name.
    for (const hp of hardpoints.get(shared)!) delete truth.hardpoints[hp.name], delete truth.limits[hp.name];
  }
  rewrite(tree, list, random, unknown);
  return { quirk: list.join("+"), habits: [], seed, name: `ship${seed}.cmp`, bytes: encodeUtf(tree), truth };
}

/** Applies the layout habits to the written tree. */
function rewrite(tree: Dir, habits: readonly Habit6[], random: () => number, unknown?: string) {
  const has = (h: Habit6) => habits.includes(h);
  const cmpnd = tree.children.find((c) => c.name === "Cmpnd") as Dir;
  const fragments = tree.children.filter((c) => c.name.endsWith(".3db")) as Dir[];
  if (has("duplicate_object_name")) {
    // The copy: same Object name as the last part, its own fragment (one triangle further along Z).
    const last = (cmpnd.children as Dir[]).find((e) => e.name === `Part_${unknown}`)!;
    const file = fragments.find((f) =>
      f.name === new TextDecoder().decode((last.children[2] as { data: Uint8Array }).data).replace(/\0$/, "")
    )!;
    const copyName = file.name.replace(".3db", "_copy.3db");
    cmpnd.children.splice(cmpnd.children.indexOf(last) + 1, 0, {
      name: `Part_${unknown}_copy`,
      children: [
        copy(last.children[0]),
        copy(last.children[1]),
        utfLeaf("File name", encodeString(copyName)),
      ],
    });
    tree.children.push({ name: copyName, children: file.children.map(copy) });
  }
  if (has("fragment_libraries")) {
    // Each fragment with the library of its own meshes (every mesh, when they share one).
    const library = tree.children.find((c) => c.name === "VMeshLibrary") as Dir;
    tree.children.splice(tree.children.indexOf(library), 1);
    for (const fragment of fragments) fragment.children.unshift(copy(library));
  }
  if (has("name_garbage")) {
    for (const entry of cmpnd.children as Dir[]) {
      for (const leaf of entry.children as { name: string; data: Uint8Array }[]) {
        if (!/name$/i.test(leaf.name)) continue;
        const buffer = new Uint8Array(64).map((_, i) => 32 + ((i * 37 + leaf.data.length) % 90));
        buffer.set(leaf.data.subarray(0, 63));
        buffer[Math.min(leaf.data.length, 63)] = 0;
        leaf.data = buffer;
      }
    }
  }
  if (has("entry_case")) {
    const flip = (s: string) => (random() < 0.5 ? s.toLowerCase() : s.toUpperCase());
    for (const entry of cmpnd.children as Dir[]) {
      entry.name = flip(entry.name);
      for (const leaf of entry.children) (leaf as { name: string }).name = flip(leaf.name);
    }
  }
  if (has("unknown_nodes")) {
    tree.children.unshift(utfLeaf("Comment", encodeString("exported by hand")));
    for (const fragment of fragments) {
      fragment.children.push(utfDir("Animation", []), utfLeaf("Exporter Version", encodeString("3ds max")));
      const part = fragment.children.find((c) => c.name === "VMeshPart") as Dir;
      part.children.push(utfLeaf("Bounds", encodeFloats([0, 0, 0, 1, 1, 1])));
      const hps = fragment.children.find((c) => c.name === "Hardpoints") as Dir | undefined;
      for (const kind of (hps?.children ?? []) as Dir[]) {
        for (const hp of kind.children as Dir[]) hp.children.push(utfLeaf("Scale", encodeFloats([1])));
      }
    }
  }
  if (has("entry_order")) {
    const rest = tree.children.filter((c) => !fragments.includes(c as Dir));
    tree.children.splice(0, tree.children.length, ...fragments.reverse(), ...rest.reverse());
    cmpnd.children.reverse();
    for (const fragment of fragments) fragment.children.reverse();
  }
}

/** A fresh copy of `node` (the writer lays out each node object once). */
function copy(node: UtfNode): UtfNode {
  return "data" in node ? utfLeaf(node.name, node.data.slice()) : utfDir(node.name, node.children.map(copy));
}

/**
 * A mesh of `count` triangles with material `hull`; with `messy`, the last triangle repeats an index
 * (no area) and four vertices after the triangles are used by none.
 */
function messyMesh(count: number, messy = true): Uint8Array {
  const used = 3 * count, total = messy ? used + 4 : used;
  const indices = Array.from({ length: used }, (_, i) => i);
  if (messy) indices[used - 1] = used - 2;
  return encodeVMeshData({
    fvf: 0x112,
    groups: [{ materialId: flCrc32("hull"), vertexStart: 0, vertexEnd: total - 1, indexCount: used }],
    indices,
    vertices: packVertices(0x112, total, {
      positions: Array.from(
        { length: total },
        (_, v) => [v % 3 === 1 ? 1 : 0, v % 3 === 2 ? 1 : 0, v / 3 | 0],
      )
        .flat(),
      normals: Array.from({ length: total }, () => [0, 0, 1]).flat(),
      uvs: [Array.from({ length: total }, () => [0, 0]).flat()],
    }),
  });
}

function degrees(radians: number) {
  return Math.fround(radians) * 180 / Math.PI;
}

function apply(rows: readonly number[], p: readonly number[]): number[] {
  return [0, 1, 2].map((i) => rows[3 * i] * p[0] + rows[3 * i + 1] * p[1] + rows[3 * i + 2] * p[2]);
}

function add(a: readonly number[], b: readonly number[]): number[] {
  return a.map((v, i) => v + b[i]);
}
