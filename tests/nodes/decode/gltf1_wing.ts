/**
 * The skinned wing of `tests/support/messy_gltf.ts` written as glTF 1.0 (`tests/support/gltf1.ts`),
 * edited, decoded by `decode.gltf` and exported: what the glTF 1.0 tests look at.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../../support/context.ts";
import { gltf1Of, type Json } from "../../support/gltf1.ts";
import { messyGlb } from "../../support/messy_gltf.ts";
import { validateGltf } from "../../support/validator.ts";

/** The wing as glTF 1.0, decoded after `edit`: the scene, its warnings and its GLB's validator errors. */
export async function decodedWing(
  edit: (json: Json) => void,
): Promise<{ scene: Document; warnings: string[]; errors: string[] }> {
  const doc = await readGltf(await messyGlb(() => {}));
  const bytes = await gltf1Of(doc, { edit });
  const ctx = testContext();
  const scene: Document = (await runNode(decodeGltf, { bytes: { bytes, name: "old.gltf" } }, {}, ctx)).scene;
  const glb = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes;
  return { scene, warnings: ctx.warnings.map((w) => w.message), errors: (await validateGltf(glb)).messages };
}
