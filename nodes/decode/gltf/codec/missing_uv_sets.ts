/**
 * Materials sampling a UV set a primitive drawing them lacks. Blender (3.x) writes one material per
 * Blender material, so a texture reading the second UV map (`texCoord: 1`, a baked or decal map) reads it
 * on every mesh sharing the material, whether that mesh has a second map or not. glTF calls such a file
 * invalid, and viewers disagree on it: three.js (r161 on, mrdoob/three.js#27608) and Babylon.js enable the
 * attribute the texture asks for, which a primitive without it reads as (0, 0), so the texture draws as
 * one flat colour there; viewers that fall back read the first set instead. The scene is kept as the file
 * has it (the geometry and the material are the author's); the note names what viewers will disagree on,
 * and `export.gltf` later makes those primitives sample `TEXCOORD_0` (or draw untextured, without UVs).
 * A textured material on a primitive with no UV set at all (game rips — Ninja Ripper, 3D Ripper — whose
 * ripper did not find a draw call's UV stream) is named the same way: viewers draw the texture's corner.
 *
 * @module
 */
import type { Document, Material, Primitive } from "@gltf-transform/core";
import { textureSlots, uvSetOf } from "../../../../runtime/scene/texture_slots.ts";

/** A primitive's UV sets, as `TEXCOORD_0, TEXCOORD_2`, or `no UV set`. */
function uvSetsOf(primitive: Primitive): string {
  const sets = primitive.listSemantics().filter((s) => /^TEXCOORD_\d+$/.test(s)).sort();
  return sets.length ? sets.join(", ") : "no UV set";
}

/**
 * A note per material whose texture samples `TEXCOORD_n` that a primitive drawing it lacks (the first set
 * too: a primitive with no UVs at all, as game rips have it),
 * naming the slots, the primitives (mesh and index, with the UV sets they have) and what viewers do.
 * Changes nothing. `label` names a material.
 */
export function missingUvSets(doc: Document, label: (material: Material) => string): string[] {
  const meshes = doc.getRoot().listMeshes();
  // Per material: the primitives drawing it, in the file's order.
  const drawers = new Map<Material, { primitive: Primitive; at: string }[]>();
  meshes.forEach((mesh, m) => {
    const meshName = mesh.getName() ? `'${mesh.getName()}'` : `#${m}`;
    mesh.listPrimitives().forEach((primitive, p) => {
      const material = primitive.getMaterial();
      if (!material) return;
      const list = drawers.get(material) ?? [];
      drawers.set(material, list);
      list.push({ primitive, at: `mesh ${meshName} primitive ${p}` });
    });
  });
  const notes: string[] = [];
  for (const [material, drawn] of drawers) {
    const slots = textureSlots(material).map((slot) => ({ ...slot, set: uvSetOf(slot.info) }));
    for (const set of new Set(slots.map((slot) => slot.set))) {
      const lacking = drawn.filter(({ primitive }) => !primitive.getAttribute(`TEXCOORD_${set}`));
      if (!lacking.length) continue;
      const names = slots.filter((slot) => slot.set === set).map((slot) => slot.name).join(", ");
      const listed = lacking.slice(0, 3).map(({ primitive, at }) => `${at} (${uvSetsOf(primitive)})`);
      const more = lacking.length > 3 ? ` and ${lacking.length - 3} more` : "";
      const which = `${lacking.length > 1 ? `${lacking.length} primitives` : "a primitive"} drawing it lack${
        lacking.length > 1 ? "" : "s"
      }: ${listed.join("; ")}${more}; `;
      notes.push(
        `material ${label(material)} samples TEXCOORD_${set} in ${names}, which ${which}` +
          (set === 0
            // The first set missing: the texture has no coordinates at all there (a game rip's draw call
            // whose UV stream the ripper did not find, an exporter that dropped UVs).
            ? "the texture has no coordinates there (glTF calls this invalid) — three.js and Babylon.js " +
              "read them as (0, 0), drawing the texture's corner texel as one flat colour; kept as the " +
              "file has it (export.gltf gives those primitives UVs of (0, 0), so every client draws that colour)"
            : "viewers disagree there — three.js (r161 on) and Babylon.js read the missing set as (0, 0), " +
              "drawing the texture as one flat colour, others fall back to TEXCOORD_0; kept as the file has it " +
              "(export.gltf makes those primitives sample TEXCOORD_0, or draw untextured where they have no UV set)"),
      );
    }
  }
  return notes;
}
