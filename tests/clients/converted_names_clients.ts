/**
 * How many written names a client does not keep, for files named as converters name them
 * (`converted_names.ts`): Blender 3.4 (import, then export with default settings) must give back every
 * node, mesh, material and image name as written (multiset per kind; what Blender drops as unused —
 * materials no mesh draws and their images — is not counted), and rename no object `.001`; three.js's
 * loader must name each node's object and each material and clip as written (a node's name as
 * `PropertyBinding.sanitizeNodeName` spells it). A blank written name counts as a miss: nothing can
 * point at it.
 *
 * @module
 */
import * as THREE from "three";
import { throughBlender } from "./blender.ts";
import { load } from "../support/threejs_client.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** Misses and totals per client and kind (`blender nodes`, `three materials`…), or why Blender could not run. */
export type NameMisses = { skip: string } | {
  misses: Record<string, number>;
  totals: Record<string, number>;
};

/** The JSON chunk of a GLB. */
export function glbJson(glb: Uint8Array): Json {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

const blank = (name: unknown) => typeof name !== "string" || name.trim() === "";

/** The materials a mesh draws and the images their base colour samples (Blender exports only these). */
function used(json: Json): { materials: Set<number>; images: Set<number> } {
  const materials = new Set<number>(
    (json.meshes ?? []).flatMap((m: Json) => m.primitives.map((p: Json) => p.material)).filter(
      (m: unknown) => m !== undefined,
    ),
  );
  const images = new Set<number>();
  for (const m of materials) {
    const texture = json.materials[m]?.pbrMetallicRoughness?.baseColorTexture?.index;
    if (texture !== undefined) images.add(json.textures[texture].source);
  }
  return { materials, images };
}

/** Counts the names Blender and three.js do not keep of each GLB (see the module). */
export async function nameMisses(glbs: readonly Uint8Array[]): Promise<NameMisses> {
  const misses: Record<string, number> = {};
  const totals: Record<string, number> = {};
  const add = (key: string, total: number, missed: number) => {
    totals[key] = (totals[key] ?? 0) + total;
    misses[key] = (misses[key] ?? 0) + missed;
  };
  const trip = await throughBlender(glbs.map((glb) => ({ glb, extras: false })));
  if ("skip" in trip) return trip;
  for (const [i, out] of trip.outputs.entries()) {
    if ("error" in out) throw new Error(`Blender failed on file ${i}: ${out.error}`);
    const json = glbJson(glbs[i]);
    const back = glbJson(out.glb);
    const { materials, images } = used(json);
    for (const kind of ["nodes", "meshes", "materials", "images"]) {
      const mine = (json[kind] ?? []).filter((_: Json, k: number) =>
        (kind !== "materials" || materials.has(k)) && (kind !== "images" || images.has(k))
      ).map((p: Json) => p.name);
      const theirs: unknown[] = (back[kind] ?? []).map((p: Json) => p.name);
      let missed = 0;
      for (const name of mine) {
        const at = theirs.indexOf(name);
        if (blank(name) || at < 0) missed++;
        else theirs.splice(at, 1);
      }
      add(`blender ${kind}`, mine.length, missed);
    }
    const written = new Set(json.nodes.map((n: Json) => n.name));
    add(
      "blender objects renamed .00n",
      out.objects.length,
      out.objects.filter((n) => /\.\d{3}$/.test(n) && !written.has(n)).length,
    );
  }
  for (const glb of glbs) {
    const json = glbJson(glb);
    const loaded = await load(glb);
    const objects = new Map<number, string>();
    loaded.scene.traverse((o) => {
      const index = loaded.parser.associations.get(o)?.nodes;
      if (index !== undefined && !objects.has(index)) objects.set(index, o.name);
    });
    const sanitised = (name: string) => THREE.PropertyBinding.sanitizeNodeName(name);
    add(
      "three nodes",
      json.nodes.length,
      json.nodes.filter((n: Json, k: number) => blank(n.name) || objects.get(k) !== sanitised(n.name)).length,
    );
    const drawn: string[] = [];
    loaded.scene.traverse((o) => {
      const material = (o as THREE.Mesh).material;
      if (material && !Array.isArray(material)) drawn.push(material.name);
    });
    const { materials } = used(json);
    const names = [...materials].map((m) => json.materials[m].name);
    add("three materials", names.length, names.filter((n) => blank(n) || !drawn.includes(n)).length);
    const clips = (json.animations ?? []).map((a: Json) => a.name);
    add(
      "three clips",
      clips.length,
      clips.filter((n: unknown) => blank(n) || !loaded.animations.some((c) => c.name === n)).length,
    );
  }
  return { misses, totals };
}
