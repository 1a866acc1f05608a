/**
 * Small code-made Freelancer models for material and texture tests: one triangle per material in a
 * `.vms`, drawn by one `.3db` with its material and texture libraries, decoded through `decode.cmp`.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Document, Material } from "@gltf-transform/core";
import { flCrc32 } from "../../../../nodes/decode/freelancer/codec/crc.ts";
import { decodeCmp } from "../../../../nodes/decode/freelancer/decode_cmp.ts";
import { constraintsResolve } from "../../../../nodes/constraints/resolve.ts";
import { writeGlb } from "../../../../runtime/scene/gltf_io.ts";
import { GENERATOR } from "../../../../runtime/version.ts";
import {
  encodeVMeshData,
  fragmentChildren,
  materialLibrary,
  type MaterialSpec,
  meshLibrary,
  packVertices,
  type VMeshRefSpec,
} from "../../../support/freelancer/encode_model.ts";
import { encodeUtf, utfDir, utfLeaf, type UtfNode } from "../../../support/freelancer/encode_utf.ts";
import { concat, ddsHeader } from "../../../support/freelancer/images.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { validateGltf } from "../../../support/validator.ts";

const TRIANGLE = [0, 0, 0, 1, 0, 0, 0, 1, 0];

/** Per material, its three vertices' UV sets (the default: (0,0), (1,0), (0,1) in every set). */
export type TriangleUvs = (materialIndex: number, set: number) => readonly number[];

/**
 * A mesh with one triangle per material (normals +Z, each triangle one unit further along Z), in
 * the vertex format `fvf` (default 0x112: position, normal, one UV set).
 */
export function triangleMesh(
  materials: readonly string[],
  fvf = 0x112,
  uvs: TriangleUvs = () => [0, 0, 1, 0, 0, 1],
): Uint8Array {
  return encodeVMeshData({
    fvf,
    groups: materials.map((m, i) => ({
      materialId: flCrc32(m),
      vertexStart: 3 * i,
      vertexEnd: 3 * i + 2,
      indexCount: 3,
    })),
    indices: materials.flatMap(() => [0, 1, 2]),
    vertices: packVertices(fvf, 3 * materials.length, {
      positions: materials.flatMap((_, i) => TRIANGLE.map((v, k) => (k % 3 === 2 ? v + i : v))),
      normals: materials.flatMap(() => [0, 0, 1, 0, 0, 1, 0, 0, 1]),
      uvs: Array.from(
        { length: (fvf >> 8) & 0xf },
        (_, set) => materials.flatMap((_, i) => [...uvs(i, set)]),
      ),
    }),
  });
}

/** A reference drawing the first `groups` groups (three vertices and indices each) of `mesh`. */
export const refTo = (mesh: string, groups: number, extra: Partial<VMeshRefSpec> = {}): VMeshRefSpec => ({
  meshId: flCrc32(mesh),
  vertexStart: 0,
  vertexCount: 3 * groups,
  indexStart: 0,
  indexCount: 3 * groups,
  groupStart: 0,
  groupCount: groups,
  ...extra,
});

/**
 * A `.3db` drawing one triangle per name of `meshMaterials` (default: the materials' names), with
 * the material library of `materials` and a texture library of `textures`.
 */
export function triangleModel(
  materials: readonly MaterialSpec[],
  options: {
    textures?: readonly UtfNode[];
    meshMaterials?: readonly string[];
    fvf?: number;
    uvs?: TriangleUvs;
  } = {},
): UtfNode {
  const names = options.meshMaterials ?? materials.map((m) => m.name);
  return utfDir("\\", [
    meshLibrary([{ name: "m.vms", data: triangleMesh(names, options.fvf, options.uvs) }]),
    materialLibrary(materials),
    utfDir("Texture library", options.textures ?? []),
    ...fragmentChildren({ lods: [refTo("m.vms", materials.length)] }),
  ]);
}

/** Encodes `root` and decodes it with `decode.cmp` (then `constraints.resolve` when asked). */
export async function decodeTree(root: UtfNode, name: string, resolve = false) {
  const ctx = testContext();
  let { scene } = await runNode(decodeCmp, { bytes: { bytes: encodeUtf(root), name } }, {}, ctx);
  if (resolve) ({ scene } = await runNode(constraintsResolve, { scene }, {}, ctx));
  return { scene: scene as Document, warnings: ctx.warnings.map((w) => w.message) };
}

/** Writes `scene` as GLB and requires the Khronos validator to find no error in it. */
export async function assertValid(scene: Document): Promise<void> {
  const report = await validateGltf(await writeGlb(scene, { generator: GENERATOR }));
  assert.equal(report.errors, 0, JSON.stringify(report.messages));
}

/** The scene's material named `name` (asserted to exist). */
export function materialNamed(scene: Document, name: string): Material {
  const found = scene.getRoot().listMaterials().find((m) => m.getName() === name);
  assert.ok(found, `material '${name}'`);
  return found;
}

/** A material's `extras.partgraph.freelancer`. */
export const freelancerExtras = (m: Material) =>
  (m.getExtras().partgraph as { freelancer: Record<string, unknown> }).freelancer;

/** Texels by row, each `[r, g, b, a]`. */
export type Texels = readonly (readonly (readonly number[])[])[];

/** An uncompressed 32-bit DDS of `rows`. */
export const texelDds = (rows: Texels): Uint8Array =>
  concat(
    ddsHeader(rows[0].length, rows.length, {
      bits: 32,
      pfFlags: 0x41,
      masks: [0xff0000, 0xff00, 0xff, 0xff000000],
    }),
    rows.flat().flatMap(([r, g, b, a]) => [b, g, r, a]),
  );

/** A texture entry `name` whose `MIPS` is {@link texelDds} of `rows`. */
export const texelTexture = (name: string, rows: Texels): UtfNode =>
  utfDir(name, [utfLeaf("MIPS", texelDds(rows))]);
