/**
 * Aircraft as exporters write them with what a game engine needs beside the drawn model — collision and
 * shadow proxies — and with the node names assimp makes up, each with the true hinges of its control
 * surfaces (`gltf_converter_model.ts`'s aircraft, FBX2glTF's `RootNode` layout):
 *
 * - `collision-group`: a group (`Collision`, `Colliders`, `COL`, `Collision_Meshes`, `UCX_Collision`)
 *   holding a box per object named as the object it stands for, as game rips and Unity scenes carry
 *   their colliders (Unreal's importer reads `UCX_` by prefix; a group of same-named boxes is what a
 *   rip or a scene exported whole leaves);
 * - `godot-colonly`: the same under a node with Godot's import hint `-colonly` (`Collision-colonly`);
 * - `shadow-flat`: a `Shadow`/`Shadows`/`shadow_lod` group holding each object flattened onto the
 *   ground below, named as the object (projected shadow meshes of older flight sims and games);
 * - `shadow-hull`: the same group holding a low-poly box per object in place (shadow volume casters);
 * - `unreal-ucx`: a `UCX_<object>_00` box beside every object (Unreal's convention, read by name);
 * - `collada-autoname`: assimp's import of a COLLADA file whose nodes carry neither id nor sid: every
 *   node `$ColladaAutoName$_<n>` (a counter), the object's name kept on its mesh only, transforms as
 *   matrices.
 *
 * @module
 */
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { prng } from "../../support/prng.ts";
import { Writer } from "../decode/gltf_exporter_parts.ts";
import { converterModel, type ModelObject } from "../decode/gltf_converter_model.ts";
import { centreOf, fbx2gltf, pbr, primitive, shifted } from "../decode/gltf_converter_writers.ts";
import type { ConverterFile } from "../decode/gltf_converters.ts";

/** The habits imitated. */
export const PROXY_KINDS = [
  "collision-group",
  "godot-colonly",
  "shadow-flat",
  "shadow-hull",
  "unreal-ucx",
  "collada-autoname",
] as const;
export type ProxyKind = typeof PROXY_KINDS[number];

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)];

/** One file of `kind` for `seed`: its bytes and its control surfaces' true hinges. */
export async function proxyFile(kind: ProxyKind, seed: number): Promise<ConverterFile> {
  await loadPngEncoder();
  const next = prng(seed);
  const model = converterModel(next);
  const objects = model.objects;
  let w: Writer;
  if (kind === "collada-autoname") w = autoNamed(objects, next);
  else {
    // The drawn model first or after its proxies: exporters follow the outliner's order.
    const proxiesFirst = next() < 0.5;
    w = proxiesFirst ? new Writer() : fbx2gltf(objects, false).w;
    const proxies = proxyObjects(kind, objects, next);
    if (kind === "unreal-ucx") { for (const p of proxies) addObject(w, p); }
    else {
      const group = w.node({ name: groupName(kind, next) });
      for (const p of proxies) addObject(w, p, group);
    }
    if (proxiesFirst) {
      const root = w.node({ name: "RootNode" });
      for (const o of objects) addObject(w, o, root);
    }
  }
  const bytes = w.glb(
    kind === "collada-autoname" ? "Open Asset Import Library (assimp v5.2.5)" : "FBX2glTF v0.9.7",
  );
  return { tool: kind, name: `${kind}_${seed}.glb`, bytes, parts: [], panels: model.panels };
}

function groupName(kind: ProxyKind, next: () => number): string {
  if (kind === "godot-colonly") return pick(next, ["Collision-colonly", "Plane-colonly", "hull-colonly"]);
  if (kind.startsWith("shadow")) return pick(next, ["Shadow", "Shadows", "shadow_lod", "SHADOW"]);
  return pick(next, ["Collision", "Colliders", "COL", "Collision_Meshes", "UCX_Collision"]);
}

/** The proxies of `kind`, one per object. */
function proxyObjects(kind: ProxyKind, objects: readonly ModelObject[], next: () => number): ModelObject[] {
  const pad = 0.03 * next();
  const ground = -1.5 - next();
  return objects.map((o) => {
    if (kind === "shadow-flat") {
      // Flattened onto the ground: the outline of the object seen from above.
      const positions = o.positions.map((v, i) => i % 3 === 1 ? ground + 0.001 * v : v);
      return { ...o, positions, factor: [0, 0, 0, 0.5], texture: undefined };
    }
    const name = kind === "unreal-ucx" ? `UCX_${o.name}_00` : o.name;
    return { ...boxAround(o.positions, pad), name };
  });
}

/** A closed box around `positions`, `pad` larger on every side. */
function boxAround(positions: Float32Array, pad: number): Omit<ModelObject, "name"> {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], positions[i] - pad), hi[i % 3] = Math.max(hi[i % 3], positions[i] + pad);
  }
  const corners: number[] = [];
  for (let k = 0; k < 8; k++) {
    corners.push(k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]);
  }
  const faces = [
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
  return {
    positions: new Float32Array(corners),
    triangles: new Uint32Array(faces),
    factor: [0.5, 0.5, 0.5, 1],
  };
}

/** An object as FBX2glTF writes one: a TRS node at its centre over its mesh. */
function addObject(w: Writer, o: ModelObject, parent?: number): void {
  const centre = centreOf(o.positions);
  const material = pbr(w, o, `${o.name}_mtl`);
  const prim = primitive(w, shifted(o.positions, centre), o.triangles, material, { uvs: true });
  const mesh = w.json.meshes.push({ name: o.name, primitives: [prim] }) - 1;
  w.node({ name: o.name, mesh, translation: centre }, parent);
}

/**
 * assimp from a COLLADA file whose nodes have no id or sid: `$ColladaAutoName$_<n>` for each, counted
 * from the root (the scene node `RootNode` keeps its name), matrices, the object's name on its mesh.
 */
function autoNamed(objects: readonly ModelObject[], next: () => number): Writer {
  const w = new Writer();
  let counter = Math.floor(next() * 3);
  const root = w.node({ name: "RootNode", matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] });
  // SketchUp groups its objects in one unnamed group more often than not.
  const holder = next() < 0.5 ? w.node({ name: `$ColladaAutoName$_${counter++}` }, root) : root;
  for (const o of objects) {
    const centre = centreOf(o.positions);
    const material = pbr(w, o, `material_${counter}`);
    const prim = primitive(w, shifted(o.positions, centre), o.triangles, material, { uvs: true });
    const mesh = w.json.meshes.push({ name: o.name, primitives: [prim] }) - 1;
    const matrix = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, ...centre, 1];
    w.node({ name: `$ColladaAutoName$_${counter++}`, mesh, matrix }, holder);
  }
  return w;
}
