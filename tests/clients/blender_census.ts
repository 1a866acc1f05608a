/**
 * What Blender 3.4's importer makes of a GLB, against what the file declares: each written thing a user
 * would look for — a named node as an object or bone, a mesh's shape keys, custom attributes and UV
 * sets, an image with pixels, a clip as an action — that does not come in as written is a loss, and any
 * object, mesh, material or action Blender renamed on import (`.001`) is one too. Used by the odd-output
 * sweep (`blender_odd_test.ts`) to count what comes in renamed, lost or refused, and which of those
 * `export.gltf`'s warnings named.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { blenderImports } from "./blender.ts";

const SCRIPT = fileURLToPath(new URL("../../scripts/blender_census.py", import.meta.url));
const RESULT = "PARTGRAPH_CENSUS ";

/** One Blender object as the census lists it. */
export interface CensusObject {
  readonly name: string;
  readonly type: string;
  readonly data: string | null;
  readonly shape_keys?: string[];
  /** Each shape key's value as imported: the node's morph weights (or its mesh's). */
  readonly shape_values?: number[];
  readonly attributes?: string[];
  readonly uv?: string[];
}

/** What came into Blender from one file, or the importer's error. */
export type Census = { readonly error: string } | {
  readonly objects: CensusObject[];
  readonly bones: string[];
  readonly images: { name: string; size: [number, number] }[];
  readonly empty_textures: string[];
  readonly materials: string[];
  readonly actions: string[];
};

/** Imports each GLB in one Blender process; a skip reason when Blender cannot run. */
export async function blenderCensus(glbs: readonly Uint8Array[]): Promise<{ skip: string } | Census[]> {
  const output = await blenderImports(SCRIPT, glbs, RESULT);
  if ("skip" in output) return output;
  if (output.reports.length !== glbs.length) {
    throw new Error(
      `Blender reported ${output.reports.length} of ${glbs.length} files:\n${output.stderrTail}`,
    );
  }
  return output.reports;
}

/** One thing a file declares that Blender did not bring in as written, and the name to look for. */
export interface Loss {
  readonly kind:
    | "refused"
    | "renamed"
    | "node"
    | "shape keys"
    | "weights"
    | "attribute"
    | "uv sets"
    | "image"
    | "clip";
  /** The written name (a node, mesh, attribute, image or clip; the importer's error when refused). */
  readonly name: string;
  readonly detail: string;
}

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** The losses of `json` (a written file's JSON) in `census` (what Blender made of it). */
export function losses(json: Json, census: Census): Loss[] {
  if ("error" in census) {
    // The importer names a required extension it does not know; the loss is named after it.
    const extension = /Extension (\S+) is not available/.exec(census.error)?.[1];
    return [{ kind: "refused", name: extension ?? census.error, detail: census.error }];
  }
  const out: Loss[] = [];
  const objects = new Map(census.objects.map((o) => [o.name, o]));
  const bones = new Set(census.bones);
  const nodes: Json[] = json.nodes ?? [];
  const written = new Set<string>([
    ...nodes.map((n) => n.name),
    ...(json.meshes ?? []).map((m: Json) => m.name),
    ...(json.materials ?? []).map((m: Json) => m.name),
    ...(json.cameras ?? []).map((m: Json) => m.name),
    ...(json.extensions?.KHR_lights_punctual?.lights ?? []).map((m: Json) => m.name),
  ].filter((name) => typeof name === "string"));
  for (const node of nodes) {
    if (!node.name) continue;
    if (!objects.has(node.name) && !bones.has(node.name)) {
      out.push({ kind: "node", name: node.name, detail: "no object or bone of its name" });
    }
  }
  // An unnamed node's object Blender names after its mesh (`Cube.001` for the second; `Mesh_<index>` for
  // an unnamed mesh): the file gave it no name to keep, so no loss (three.js names it after the mesh too).
  const unnamed = new Set(
    nodes.filter((n) => !n.name && n.mesh !== undefined).map((n) =>
      json.meshes[n.mesh].name || `Mesh_${n.mesh}`
    ),
  );
  const renamed = [
    ...census.objects.flatMap((o) =>
      o.type === "MESH" && unnamed.has(o.data?.replace(/\.\d{3}$/, "")) ? [] : [o.name, o.data ?? ""]
    ),
    ...census.materials,
  ];
  for (const name of new Set(renamed)) {
    if (/\.\d{3}$/.test(name) && !written.has(name)) {
      out.push({ kind: "renamed", name: name.replace(/\.\d{3}$/, ""), detail: `came in as '${name}'` });
    }
  }
  const meshObjects = census.objects.filter((o) => o.type === "MESH");
  for (const mesh of json.meshes ?? []) {
    const primitive = mesh.primitives?.[0] ?? {};
    const mine = meshObjects.filter((o) =>
      o.data === mesh.name || o.data?.replace(/\.\d{3}$/, "") === mesh.name
    );
    if (!nodes.some((n) => n.mesh !== undefined && json.meshes[n.mesh] === mesh) || mine.length === 0) {
      continue;
    }
    const targets: string[] = mesh.extras?.targetNames ?? [];
    if (targets.length && !mine.some((o) => same(o.shape_keys ?? [], targets))) {
      out.push({ kind: "shape keys", name: mesh.name, detail: `${mine[0].shape_keys} for ${targets}` });
    }
    for (const attribute of Object.keys(primitive.attributes ?? {}).filter((a) => a.startsWith("_"))) {
      if (!mine.some((o) => o.attributes?.includes(attribute))) {
        out.push({ kind: "attribute", name: attribute, detail: `of mesh '${mesh.name}' dropped` });
      }
    }
    const uvs = Object.keys(primitive.attributes ?? {}).filter((a) => a.startsWith("TEXCOORD_")).length;
    const most = Math.max(...mine.map((o) => o.uv?.length ?? 0));
    if (most < uvs) out.push({ kind: "uv sets", name: mesh.name, detail: `${most} of ${uvs} UV sets` });
  }
  weightLosses(json, census, out);
  const images = new Map(census.images.map((i) => [i.name, i]));
  // An image a texture names only in an extension (WebP, KTX2, AVIF) beside a core `source` is not
  // Blender's to read: it shows the fallback, whose pixels are checked as any image's.
  const core = new Set((json.textures ?? []).map((t: Json) => t.source));
  const fallenBack = new Set(
    (json.textures ?? []).filter((t: Json) => t.source !== undefined).flatMap((t: Json) =>
      Object.values(t.extensions ?? {}).map((e) => (e as Json).source)
    ),
  );
  (json.images ?? []).forEach((image: Json, i: number) => {
    if (fallenBack.has(i) && !core.has(i)) return;
    const name = image.name || `Image_${i}`;
    const got = images.get(name);
    if (!got || got.size[0] === 0) {
      out.push({ kind: "image", name, detail: got ? "an image without pixels" : "no image of its name" });
    }
  });
  for (const animation of json.animations ?? []) {
    if (animation.name && !census.actions.some((action) => action.includes(animation.name))) {
      out.push({ kind: "clip", name: animation.name, detail: "no action of its name" });
    }
  }
  return out;
}

/**
 * A named node drawing a morphed mesh whose object's shape key values are not the node's weights (or,
 * without them, its mesh's): a crowd's faces all at one expression. Nodes a clip keys are left out (the
 * clip sets their values).
 */
function weightLosses(json: Json, census: Census & { objects: CensusObject[] }, out: Loss[]): void {
  const keyed = new Set(
    (json.animations ?? []).flatMap((a: Json) =>
      (a.channels ?? []).filter((c: Json) => c.target?.path === "weights").map((c: Json) => c.target.node)
    ),
  );
  (json.nodes ?? []).forEach((node: Json, i: number) => {
    const mesh = json.meshes?.[node.mesh];
    const targets = mesh?.primitives?.[0]?.targets?.length ?? 0;
    if (!node.name || !targets || keyed.has(i)) return;
    const object = census.objects.find((o) => o.name === node.name && o.type === "MESH");
    if (!object?.shape_values?.length) return;
    const expected: number[] = node.weights ?? mesh.weights ?? new Array(targets).fill(0);
    if (expected.some((w, k) => Math.abs(w - (object.shape_values![k] ?? NaN)) > 1e-3)) {
      out.push({
        kind: "weights",
        name: node.name,
        detail: `shape key values ${object.shape_values} for weights ${expected}`,
      });
    }
  });
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
