/**
 * Compounds whose fragments are named as retail's exporter names them — `<ship>_lod1<10 digits>.3db`,
 * nothing like the part's Object name — with the habits warned inside a fragment: a MultiLevel numbered
 * from Level1 (an exporter counting LODs from 1), a level missing from the middle (a LOD deleted in a
 * UTF editor), a `VMeshPart` misspelt `VMeshPrat` in a level; and a mesh whose `VMeshData` leaf was cut
 * to `VMeshDat` (the mesh is then in no library). Before `decode.cmp` v51 a fragment's warnings named the
 * fragment's file name and "the part" alone. Three more habits whose warnings named no part before v52:
 * a `Cmpnd` entry a mod tool names `RootPart` or `PartWingport` (not `Part_<Object name>`); a library
 * folder inside a fragment misspelt `VMeshLibary` (a modder's copy of the part's mesh, never read); and a
 * root `MaterialAnim` entry whose `MACount` a tool wrote as 2 bytes, for an exhaust material some parts
 * draw. Which parts carry the habits is seeded; `clean` writes the same model without them.
 *
 * @module
 */
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import {
  compoundTree,
  encodeVMeshData,
  type GroupSpec,
  materialLibrary,
  type MaterialSpec,
  packVertices,
  type PartSpec,
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
import { concat, ddsHeader } from "../../../support/freelancer/images.ts";
import { prng } from "../../../support/prng.ts";

/** Part and LOD numbers, in the model's part order. */
export type PartLodTruth = Map<string, Set<number>>;

/** A fragment habit: which part's fragment (by its file name) holds it. */
export interface FragmentHabit {
  readonly kind: "levels from 1" | "level gap" | "misspelt VMeshPart";
  readonly part: string;
  readonly fragment: string;
}

/** A generated compound and where its habits are. */
export interface FragmentPartsFile {
  readonly cmp: Uint8Array;
  readonly habits: readonly FragmentHabit[];
  /** The mesh whose `VMeshData` leaf is written `VMeshDat`, and the parts and LODs drawing it. */
  readonly misspeltMesh?: { readonly name: string; readonly users: PartLodTruth };
  /** A `Cmpnd` entry named neither `Root` nor `Part_<name>`, and the Object name of its part. */
  readonly misnamedEntry?: { readonly entry: string; readonly part: string };
  /** The part whose fragment holds a misspelt `VMeshLibary` folder. */
  readonly misspeltLibrary?: { readonly part: string; readonly fragment: string };
  /** The material whose `MaterialAnim` entry is damaged, and the parts and LODs drawing it. */
  readonly damagedAnim?: { readonly material: string; readonly users: PartLodTruth };
}

const PART_NAMES = [
  "wing_port",
  "wing_star",
  "engine",
  "cockpit",
  "antenna",
  "tail",
  "hatch",
  "radar",
  "gun01",
];
const FVF = 0x112;

/**
 * The compound of `seed`: 4–10 parts of 1–4 LODs (each its own mesh), fragments named by digits.
 *
 * @example
 * ```ts
 * const file = fragmentPartsCmp(821);
 * file.habits[0]; // { kind: "levels from 1", part: "engine", fragment: "ship821_lod13071942610.3db" }
 * ```
 */
export function fragmentPartsCmp(seed: number, clean = false): FragmentPartsFile {
  const random = prng(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const ship = `ship${seed}`;
  const names = Array.from(
    { length: int(3, 6) },
    (_, m) => `${ship}_${["hull", "trim", "glass"][m % 3]}${m}`,
  );
  const specs: MaterialSpec[] = names.map((name) => ({
    name,
    type: "DcDt",
    dc: [0.5, 0.5, 0.5],
    dtName: `${name}.dds`,
  }));
  // The exhaust the game scrolls: drawn by the first group of LOD 0 of Root and of every other part
  // (at an even position) that carries no fragment habit, so each LOD drawing it is drawn.
  const exhaust = `${ship}_exhaust`;
  specs.push({ name: exhaust, type: "DcDt", dc: [1, 0.6, 0.2], dtName: `${names[0]}.dds` });
  const exhaustUsers: PartLodTruth = new Map();
  const dds = concat(
    ddsHeader(1, 1, { bits: 32, pfFlags: 0x41, masks: [0xff0000, 0xff00, 0xff, 0xff000000] }),
    [90, 90, 90, 255],
  );
  const partCount = int(4, PART_NAMES.length + 1);
  const partNames = Array.from({ length: partCount }, (_, p) => p === 0 ? "Root" : PART_NAMES[p - 1]);
  // The three fragment habits on three distinct parts (not Root), each with the LODs it needs.
  const order = partNames.slice(1).map((part) => ({ part, key: random() })).sort((a, b) => a.key - b.key);
  const [fromOne, gap, misspelt] = order.map((o) => o.part);
  const lodCount = (part: string) =>
    part === gap ? int(3, 4) : part === fromOne || part === misspelt ? int(2, 4) : int(1, 4);
  const meshes: { name: string; data: Uint8Array }[] = [];
  const drawnBy = new Map<string, PartLodTruth>();
  const parts: PartSpec[] = [];
  const fragments = new Map<string, string>();
  partNames.forEach((part, p) => {
    const lods: VMeshRefSpec[] = [];
    const count = lodCount(part);
    for (let lod = 0; lod < count; lod++) {
      const name = `${ship}_${part}.lod${lod}.vms`;
      const materials = Array.from({ length: int(1, 3) }, () => names[int(0, names.length - 1)]);
      if (lod === 0 && p % 2 === 0 && ![fromOne, gap, misspelt].includes(part)) {
        materials[0] = exhaust;
        exhaustUsers.set(part, new Set([0]));
      }
      const groups: GroupSpec[] = materials.map((material, g) => ({
        materialId: flCrc32(material),
        vertexStart: 4 * g,
        vertexEnd: 4 * g + 3,
        indexCount: 6,
      }));
      const indices = materials.flatMap(() => [0, 1, 2, 0, 2, 3]);
      const n = 4 * materials.length;
      const positions = Array.from({ length: 3 * n }, (_, i) => ((i * 5 + p * 3 + lod) % 9) - 4 + random());
      const normals = Array.from({ length: 3 * n }, (_, i) => (i % 3 === 1 ? 1 : 0));
      const uvs = [Array.from({ length: 2 * n }, () => random())];
      meshes.push({
        name,
        data: encodeVMeshData({
          fvf: FVF,
          groups,
          indices,
          vertices: packVertices(FVF, n, { positions, normals, uvs }),
        }),
      });
      drawnBy.set(name, new Map([[part, new Set([lod])]]));
      lods.push({
        meshId: flCrc32(name),
        vertexStart: 0,
        vertexCount: n,
        indexStart: 0,
        indexCount: indices.length,
        groupStart: 0,
        groupCount: groups.length,
      });
    }
    // Retail's exporter: the model's name, `_lod1`, then digits (a time stamp), for every fragment.
    const fragment = `${ship}_lod1${String(int(1e9, 9_999_999_999))}.3db`;
    fragments.set(part, fragment);
    parts.push({ name: part, fileName: fragment, fragment: { lods } });
  });
  const constraints = parts.slice(1).map((p) => ({
    kind: "fix" as const,
    parent: "Root",
    child: p.name,
    translation: [0, 0, 0],
    rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1],
  }));
  // Drawn last, so the model is the same with or without the habits; a mesh the parts still draw.
  const drawn = meshes.filter((m) =>
    ![gap, misspelt].some((part) => m.name.startsWith(`${ship}_${part}.lod`))
  );
  const cut = drawn[int(0, drawn.length - 1)].name;
  // Drawn after the rest, so the habits above fall where they did: a mod tool's Cmpnd entry name
  // (RootPart for the root, or Part and the Object name without its underscore, capitalised) and a
  // plain part whose fragment holds its mesh again in a misspelt library folder.
  const plain = partNames.filter((part) => ![fromOne, gap, misspelt].includes(part));
  const renamed = plain[int(0, plain.length - 1)];
  const entryName = renamed === "Root"
    ? "RootPart"
    : `Part${renamed[0].toUpperCase()}${renamed.slice(1).replace(/_/g, "")}`;
  const copied = plain[int(0, plain.length - 1)];
  // The mesh cut to VMeshDat is in no library: its groups, and so its materials, are not known.
  const exhaustDrawn: PartLodTruth = new Map(
    [...exhaustUsers].filter(([part]) => clean || cut !== `${ship}_${part}.lod0.vms`),
  );
  const copy = meshes.find((m) => m.name === `${ship}_${copied}.lod0.vms`)!;
  let tree = compoundTree({
    meshes,
    parts,
    constraints,
    extra: [materialLibrary(specs), textureLibrary(names.map((name) => ({ name: `${name}.dds`, dds })))],
  });
  if (!clean) {
    tree = edit(tree, [], (node, path) => {
      const [top, second, third] = path;
      if (
        top === fragments.get(fromOne) && second === "MultiLevel" && /^Level\d+$/.test(node.name) && !third
      ) {
        return { ...node, name: `Level${Number(node.name.slice(5)) + 1}` };
      }
      if (top === fragments.get(gap) && second === "MultiLevel" && node.name === "Level1" && !third) {
        return null;
      }
      if (
        top === fragments.get(misspelt) && second === "MultiLevel" && third === "Level0" &&
        node.name === "VMeshPart"
      ) {
        return { ...node, name: "VMeshPrat" };
      }
      if (top === "VMeshLibrary" && second === cut && node.name === "VMeshData") {
        return { ...node, name: "VMeshDat" };
      }
      if (top === "Cmpnd" && !second && node.name === (renamed === "Root" ? "Root" : `Part_${renamed}`)) {
        return { ...node, name: entryName };
      }
      if (!top && node.name === fragments.get(copied) && "children" in node) {
        const library = utfDir("VMeshLibary", [utfDir(copy.name, [utfLeaf("VMeshData", copy.data)])]);
        return { ...node, children: [...node.children, library] };
      }
      return node;
    });
    // A tool wrote MACount as 2 bytes: the entry's count does not read, its deltas do.
    tree = {
      ...tree,
      children: [
        ...(tree as { readonly children: readonly UtfNode[] }).children,
        utfDir("MaterialAnim", [
          utfDir(exhaust, [
            utfLeaf("MACount", new Uint8Array([1, 0])),
            utfLeaf("MAFlags", new Uint8Array(4)),
            utfLeaf("MADeltas", encodeFloats([2, 0, 0.5, 0, 0])),
          ]),
        ]),
      ],
    };
  }
  const habits: FragmentHabit[] = clean ? [] : [
    { kind: "levels from 1", part: fromOne, fragment: fragments.get(fromOne)! },
    { kind: "level gap", part: gap, fragment: fragments.get(gap)! },
    { kind: "misspelt VMeshPart", part: misspelt, fragment: fragments.get(misspelt)! },
  ];
  return {
    cmp: encodeUtf(tree),
    habits,
    ...(clean ? {} : {
      misspeltMesh: { name: cut, users: drawnBy.get(cut)! },
      misnamedEntry: { entry: entryName, part: renamed },
      misspeltLibrary: { part: copied, fragment: fragments.get(copied)! },
      damagedAnim: { material: exhaust, users: exhaustDrawn },
    }),
  };
}

/**
 * `node` with each descendant replaced by what `change` returns for it (null: left out); `path` is the
 * names from below the root to the node's parent.
 */
function edit(
  node: UtfNode,
  path: readonly string[],
  change: (node: UtfNode, path: readonly string[]) => UtfNode | null,
): UtfNode {
  if (!("children" in node)) return node;
  const children: UtfNode[] = [];
  for (const child of node.children) {
    const changed = change(child, path);
    if (changed) children.push(edit(changed, [...path, child.name], change));
  }
  return { name: node.name, children };
}
