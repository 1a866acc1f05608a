/**
 * Aircraft whose surfaces declare themselves as parts (`ctrl_type` extras) with limits written as text,
 * as they come from 3ds Max through Blender: Max's user-defined properties (`min = -20` in the object's
 * properties) travel in the FBX as one string, Blender's FBX importer makes each a string custom
 * property (`"-20"`), and Blender's glTF exporter writes custom properties as extras as they are. Some
 * values keep their spaces or a `+`, some files were touched up by hand and hold numbers beside text.
 * Each file's truth is every part's limits as numbers. With `typed`, `ctrl_type` too is as users type
 * it into the properties (`Rotation`, ` rotation`, `ROTATION`).
 *
 * @module
 */
import { loadPngEncoder } from "../../../runtime/scene/png.ts";
import { prng } from "../../support/prng.ts";
import { converterModel } from "../decode/gltf_converter_model.ts";
import { fbx2gltf } from "../decode/gltf_converter_writers.ts";

/** `ctrl_type` as typed into 3ds Max's user-defined properties or Blender's custom properties. */
const TYPED = ["Rotation", " rotation", "ROTATION", "rotation ", "Rotation\r"];

/** One file: its bytes and each declared part's limits. */
export interface TextLimitFile {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly limits: ReadonlyMap<string, { min: number; max: number }>;
}

/** One file for `seed`. */
export async function textLimitFile(seed: number, options: { typed?: boolean } = {}): Promise<TextLimitFile> {
  await loadPngEncoder();
  const next = prng(seed);
  const model = converterModel(next);
  const { w } = fbx2gltf(model.objects, false);
  const limits = new Map<string, { min: number; max: number }>();
  const written = (v: number) => {
    const r = next();
    if (r < 0.15) return v; // touched up by hand: a number
    const text = String(v);
    return r < 0.3 ? ` ${text} ` : r < 0.45 && v > 0 ? `+${text}` : text;
  };
  for (const panel of model.panels) {
    const node = w.json.nodes.find((n: { name?: string }) => n.name === panel.name);
    const min = -Math.round(5 + 30 * next()) / (next() < 0.3 ? 2 : 1);
    const max = Math.round(5 + 30 * next()) / (next() < 0.3 ? 2 : 1);
    limits.set(panel.name, { min, max });
    node.extras = {
      ctrl_type: options.typed ? TYPED[Math.floor(next() * TYPED.length)] : "rotation",
      min: written(min),
      max: written(max),
      MaxHandle: String(100 + limits.size),
    };
  }
  return { name: `text_limits_${seed}.glb`, bytes: w.glb("Khronos glTF Blender I/O v3.6.27"), limits };
}
