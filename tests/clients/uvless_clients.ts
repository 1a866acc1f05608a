/**
 * Whether clients draw a game rip's UV-less meshes (`uvless_rips.ts`) in the colour viewers drew the
 * source in (each texture sampled at UV (0,0)), after `export.gltf`: the written file as read back,
 * three.js's loader, and Blender 3.4's round trip (import, export). A miss is a mesh a client draws
 * another colour; a silent one is a miss no warning named the mesh of.
 *
 * @module
 */
import type { Document, Primitive } from "@gltf-transform/core";
import type * as THREE from "three";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { readGltf } from "../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../support/context.ts";
import { load } from "../support/threejs_client.ts";
import { looksDiffer, sourceLook, uvlessRipScene } from "../nodes/export/uvless_rips.ts";
import { throughBlender } from "./blender.ts";

/** Per client: UV-less meshes, misses, silent misses; `blender` absent when Blender is. */
export type UvlessCounts = Record<string, { meshes: number; misses: number; silent: number }>;

/** True when every value of a UV attribute (or its absence) samples UV (0,0). */
const atCorner = (values: ArrayLike<number> | undefined) =>
  !values || Array.from(values).every((v) => v === 0);

/** Whether a written primitive draws its base colour texture at UV (0,0), as the source's viewers did. */
function samplesCorner(primitive: Primitive | undefined): boolean | undefined {
  if (!primitive) return undefined;
  const textured = primitive.getMaterial()?.getBaseColorTexture() != null;
  if (!textured) return false;
  // A texture sampled anywhere else is neither look: undefined.
  return atCorner(primitive.getAttribute("TEXCOORD_0")?.getArray() ?? undefined) ? true : undefined;
}

/** A three.js mesh's UVs, read through the attribute (its array may be a whole interleaved buffer). */
function threeUvs(object: THREE.Mesh): number[] | undefined {
  const uv = object.geometry.getAttribute("uv");
  if (!uv) return undefined;
  return Array.from({ length: uv.count }, (_, i) => [uv.getX(i), uv.getY(i)]).flat();
}

const primitiveOf = (doc: Document, mesh: string) =>
  doc.getRoot().listNodes().find((n) => n.getName() === mesh)?.getMesh()?.listPrimitives()[0];

/** Exports each seed's rip and counts, per client, the UV-less meshes drawn another colour. */
export async function uvlessMisses(seeds: readonly number[]): Promise<UvlessCounts> {
  const counts: UvlessCounts = {};
  const add = (client: string, miss: boolean, warned: boolean) => {
    const c = counts[client] ??= { meshes: 0, misses: 0, silent: 0 };
    c.meshes++;
    if (miss) c.misses++;
    if (miss && !warned) c.silent++;
  };
  const jobs: { source: Document; glb: Uint8Array; warnings: string[] }[] = [];
  for (const seed of seeds) {
    const source = await uvlessRipScene(seed);
    const ctx = testContext();
    const glb = (await runNode(exportGltf, { scene: source }, {}, ctx)).bytes.bytes;
    jobs.push({ source, glb, warnings: ctx.warnings.map((w) => w.message) });
  }
  const trip = await throughBlender(jobs.map(({ glb }) => ({ glb, extras: false })));
  for (const [j, { source, glb, warnings }] of jobs.entries()) {
    const written = await readGltf(glb);
    const three = await load(glb);
    const blender = "skip" in trip ? undefined : trip.outputs[j];
    if (blender && "error" in blender) throw new Error(blender.error);
    const back = blender ? await readGltf(blender.glb) : undefined;
    for (const node of source.getRoot().listNodes()) {
      const primitive = node.getMesh()!.listPrimitives()[0];
      if (primitive.getAttribute("TEXCOORD_0")) continue;
      const name = node.getName();
      const expected = sourceLook(primitive.getMaterial()!);
      const warned = warnings.some((w) => /no UV set/.test(w) && w.includes(`'${name}'`));
      const judge = (client: string, sampled: boolean | undefined) =>
        add(
          client,
          sampled === undefined || looksDiffer(sourceLook(primitive.getMaterial()!, sampled), expected),
          warned,
        );
      judge("written file", samplesCorner(primitiveOf(written, name)));
      const object = three.byName.get(name) as THREE.Mesh | undefined;
      const material = object?.material as THREE.MeshStandardMaterial | undefined;
      judge(
        "three.js",
        !material ? undefined : !material.map ? false : atCorner(threeUvs(object!)) ? true : undefined,
      );
      if (back) judge("blender", samplesCorner(primitiveOf(back, name)));
    }
  }
  return counts;
}
