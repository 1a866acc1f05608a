/**
 * Judges `decode.gltf` on a jointless-skin case (`jointless_skins.ts`): whether it said so at the node's
 * skin, whether what `export.gltf` writes from the scene still has a skinned node with a primitive
 * lacking JOINTS_0 or WEIGHTS_0 (glTF refuses it; the Khronos validator sees only a mesh with none), and
 * whether three.js draws the output's vertices where it draws the input's.
 *
 * @module
 */
import { decodeGltf } from "../../../../nodes/decode/gltf/decode_gltf.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { exportBytes } from "../../../support/output_check.ts";
import { validateGltf } from "../../../support/validator.ts";
import { glbOf } from "../../../support/shapes.ts";
import { load, worldVertices } from "../../../support/threejs_client.ts";
import type { JointlessCase } from "./jointless_skins.ts";

/** What decoding a case and exporting the scene gave. */
export interface JointlessVerdict {
  /** A warning at `/nodes/<i>/skin`. */
  readonly said: boolean;
  readonly warnings: string[];
  /** The output's skinned nodes with a missing mesh or a primitive without JOINTS_0 and WEIGHTS_0. */
  readonly invalidSkins: number;
  readonly khronosErrors: number;
  /** three.js draws the output's vertices (as a set, rounded to 1e-4) where it draws the input's. */
  readonly drawnAlike: boolean;
}

type Json = Record<string, unknown>;

/** The JSON of GLB bytes. */
function jsonOf(glb: Uint8Array): Json {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

/** Skinned nodes glTF refuses: no mesh, or a primitive without both JOINTS_0 and WEIGHTS_0. */
export function invalidSkins(json: Json): number {
  const meshes = (json.meshes ?? []) as { primitives: { attributes: Json }[] }[];
  return ((json.nodes ?? []) as { skin?: number; mesh?: number }[]).filter((node) =>
    node.skin !== undefined &&
    (node.mesh === undefined ||
      meshes[node.mesh].primitives.some((p) => !("JOINTS_0" in p.attributes && "WEIGHTS_0" in p.attributes)))
  ).length;
}

/** Every vertex three.js draws, rounded, sorted. */
async function drawn(glb: Uint8Array): Promise<string[]> {
  const warn = console.warn;
  console.warn = () => {}; // three.js warns "Skinning disabled." on the input: expected here.
  try {
    const { scene } = await load(glb);
    const out: string[] = [];
    for (const values of worldVertices(scene).values()) {
      for (let i = 0; i < values.length; i += 3) {
        out.push(
          [...values.subarray(i, i + 3)].map((x) => (Math.round(x * 1e4) / 1e4 || 0).toFixed(4)).join(","),
        );
      }
    }
    return out.sort();
  } finally {
    console.warn = warn;
  }
}

/** Decodes `edit`, exports the scene, and judges both (see the module doc). */
export async function judgeJointless(edit: JointlessCase): Promise<JointlessVerdict> {
  const ctx = testContext();
  const { scene } = await runNode(decodeGltf, { bytes: { bytes: edit.bytes, name: edit.name } }, {}, ctx);
  const warnings = ctx.warnings.map((w) => w.message);
  const output = await exportBytes(scene);
  // The three.js client parses GLB: a .gltf case is put in one as written (its JSON and buffer unchanged).
  const input = edit.name.endsWith(".glb") ? edit.bytes : glbOfText(edit.bytes);
  return {
    said: warnings.some((w) => /at \/nodes\/\d+\/skin: /.test(w)),
    warnings,
    invalidSkins: invalidSkins(jsonOf(output)),
    khronosErrors: (await validateGltf(output)).errors,
    drawnAlike: JSON.stringify(await drawn(input)) === JSON.stringify(await drawn(output)),
  };
}

/** A .gltf with one embedded buffer as GLB, its bytes unchanged, for three.js's `parse` on a GLB. */
function glbOfText(text: Uint8Array): Uint8Array {
  const json = JSON.parse(new TextDecoder().decode(text));
  const uri: string = json.buffers[0].uri;
  const bin = Uint8Array.fromBase64(uri.slice(uri.indexOf(",") + 1));
  delete json.buffers[0].uri;
  return glbOf(json, bin);
}
