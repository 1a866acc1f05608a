/**
 * Texture references whose `KHR_texture_transform` names the UV set they sample (its `texCoord`
 * overrides the reference's own) while the reference's own `texCoord` — the set viewers without the
 * extension read — names one the primitives drawing the material lack. Viewers reading the extension
 * draw the file right; the glTF validator, and viewers without it, see a texture on a set that is not
 * there, so `export.gltf`'s validation refused the whole output. The reference's own set is made the
 * one the extension names, which changes nothing a viewer reading the extension draws and gives every
 * other viewer the same coordinates; named. A fallback set the primitives have is the author's choice
 * and is kept. decode.gltf aligns them in files it reads (v47), export.gltf in scenes a script built (v38).
 *
 * @module
 */
import type { Document, Material, Primitive } from "@gltf-transform/core";
import type { Transform } from "@gltf-transform/extensions";
import { textureSlots } from "./texture_slots.ts";

/**
 * Aligns such references' own set with their transform's; a note per material changed. With `apply`
 * false, changes nothing and returns the notes it would give (export.gltf asks before it copies).
 */
export function alignTransformFallbacks(
  doc: Document,
  label: (material: Material) => string,
  apply = true,
): string[] {
  const drawers = new Map<Material, Primitive[]>();
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      const material = primitive.getMaterial();
      if (material) drawers.set(material, [...drawers.get(material) ?? [], primitive]);
    }
  }
  const notes: string[] = [];
  for (const [material, primitives] of drawers) {
    const changed: string[] = [];
    for (const { name, info } of textureSlots(material)) {
      const wanted = info.getExtension<Transform>("KHR_texture_transform")?.getTexCoord();
      const own = info.getTexCoord();
      if (wanted === null || wanted === undefined || wanted === own) continue;
      const has = (set: number) => (p: Primitive) => p.getAttribute(`TEXCOORD_${set}`) !== null;
      if (!primitives.every(has(wanted)) || primitives.every(has(own))) continue;
      if (apply) info.setTexCoord(wanted);
      changed.push(`${name} (TEXCOORD_${own} -> TEXCOORD_${wanted})`);
    }
    if (!changed.length) continue;
    notes.push(
      `material ${label(material)} samples through KHR_texture_transform a UV set its primitives have, ` +
        `but names for viewers without the extension one they lack: ${changed.join(", ")}; the named set ` +
        "made the extension's (drawn the same where the extension is read; the validator and other viewers " +
        "saw a texture on a missing set)",
    );
  }
  return notes;
}
