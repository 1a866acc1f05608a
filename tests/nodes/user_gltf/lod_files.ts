/**
 * Aircraft with their levels of detail as game exporters leave them in one file, each level drawn at
 * the same place, the lower ones coarse — down to a box per object, as a game's last level is — with
 * the true hinges of the first level's control surfaces (`gltf_converter_model.ts`'s aircraft):
 *
 * - `unity-lod`: Unity's LOD Group exported whole (UnityGLTF, GLTFUtility): `<prefab>` holding
 *   `<prefab>_LOD0`, `<prefab>_LOD1`, `<prefab>_LOD2`, each level's objects named alike;
 * - `unreal-lod`: Unreal's and Max's per-object marks at the root: `SM_<object>_LOD0`, `SM_<object>_LOD1`, …;
 * - `sketchfab-lod`: the levels as `LOD0`, `LOD1`, `LOD2` groups under Sketchfab's `RootNode`, each
 *   object `<object>_LOD<n>_0` (its mesh node named for its material index).
 *
 * A level below the first is the object's box (level 2), or its box flattened to the object's middle
 * (level 1: a plate, as decimation leaves a thin surface).
 *
 * @module
 */
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { prng } from "../../support/prng.ts";
import { Writer } from "../decode/gltf_exporter_parts.ts";
import { converterModel, type ModelObject, type ModelPanel } from "../decode/gltf_converter_model.ts";
import { centreOf, pbr, primitive, shifted } from "../decode/gltf_converter_writers.ts";

/** The habits imitated. */
export const LOD_KINDS = ["unity-lod", "unreal-lod", "sketchfab-lod"] as const;
export type LodKind = typeof LOD_KINDS[number];

/** One file: its bytes, its panels' true hinges, and how many levels each panel is drawn in. */
export interface LodFile {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly panels: readonly ModelPanel[];
  readonly levels: number;
  /** A part's panel name as the truth names it (`SM_Aileron_L_LOD1` → `Aileron_L`). */
  readonly truthName: (panel: string) => string;
}

/** One file of `kind` for `seed`. */
export async function lodFile(kind: LodKind, seed: number): Promise<LodFile> {
  await loadPngEncoder();
  const next = prng(seed);
  const model = converterModel(next);
  const levels = next() < 0.5 ? 2 : 3;
  const w = new Writer();
  const levelObjects = (level: number) => model.objects.map((o) => level === 0 ? o : coarse(o, level));
  if (kind === "unity-lod") {
    const prefab = ["Cessna", "Plane", "Aircraft_Prefab"][Math.floor(next() * 3)];
    const root = w.node({ name: prefab });
    for (let level = 0; level < levels; level++) {
      const group = w.node({ name: `${prefab}_LOD${level}` }, root);
      for (const o of levelObjects(level)) addObject(w, o, o.name, group);
    }
  } else if (kind === "unreal-lod") {
    for (let level = 0; level < levels; level++) {
      for (const o of levelObjects(level)) addObject(w, o, `SM_${o.name}_LOD${level}`);
    }
  } else {
    const root = w.node({ name: "RootNode" });
    for (let level = 0; level < levels; level++) {
      const group = w.node({ name: `LOD${level}` }, root);
      for (const o of levelObjects(level)) addObject(w, o, `${o.name}_LOD${level}_0`, group);
    }
  }
  const truthName = (panel: string) => panel.replace(/^SM_/, "").replace(/_LOD\d+(_0)?$/, "");
  return { name: `${kind}_${seed}.glb`, bytes: w.glb("UnityGLTF"), panels: model.panels, levels, truthName };
}

/** The object at a coarse level: its box (level 2 and below), or that box flattened (level 1). */
function coarse(o: ModelObject, level: number): ModelObject {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < o.positions.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], o.positions[i]), hi[i % 3] = Math.max(hi[i % 3], o.positions[i]);
  }
  if (level === 1) lo[1] = hi[1] = (lo[1] + hi[1]) / 2;
  const corners: number[] = [];
  for (let k = 0; k < 8; k++) {
    corners.push(k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]);
  }
  const faces = level === 1 ? [0, 4, 1, 1, 4, 5] : [
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
  return { ...o, positions: new Float32Array(corners), triangles: new Uint32Array(faces) };
}

function addObject(w: Writer, o: ModelObject, name: string, parent?: number): void {
  const centre = centreOf(o.positions);
  const material = pbr(w, o, `${o.name}_mtl`);
  const prim = primitive(w, shifted(o.positions, centre), o.triangles, material, { uvs: true });
  const mesh = w.json.meshes.push({ name, primitives: [prim] }) - 1;
  w.node({ name, mesh, translation: centre }, parent);
}
