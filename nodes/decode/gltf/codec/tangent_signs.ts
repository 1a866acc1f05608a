/**
 * Tangents whose sign (w) is not ±1. glTF's w is the bitangent's handedness, exactly 1 or −1
 * (ACCESSOR_INVALID_SIGN); tools write 0 where they store three-component tangents as VEC4 padded with
 * 0, and w of the right sign but another size (a bitangent's length kept in w, 16-bit rounding). Viewers
 * multiply by w: three.js draws a zero w's normal map flat, a half one half as deep. A w of the right
 * sign becomes that sign; a zero, −0 or NaN one takes the sign the UVs' direction gives at its vertex
 * (Lengyel's, as three.js's `computeTangents` makes it: runtime/scene/uv_tangents.ts, which export.gltf's
 * repair shares for other decoders' scenes), not +1, wrong on every mirrored UV island. A tangent of no
 * direction takes the UVs' too.
 *
 * @module
 */
import type { Document, Mesh } from "@gltf-transform/core";
import { ownAttribute } from "./own_accessor.ts";
import { tangentsOf } from "../../../../runtime/scene/uv_tangents.ts";

/** Sets each tangent's w to ±1 (see the module doc); returns a note per primitive mended. */
export function mendTangentSigns(doc: Document, meshLabel: (mesh: Mesh) => string): string[] {
  const notes: string[] = [];
  for (const mesh of doc.getRoot().listMeshes()) {
    mesh.listPrimitives().forEach((primitive, p) => {
      const tangent = primitive.getAttribute("TANGENT");
      const array = tangent?.getArray();
      if (!tangent || !array || tangent.getElementSize() !== 4 || tangent.getComponentType() !== 5126) return;
      let zero = 0, scaled = 0, directionless = 0;
      for (let i = 0; i < array.length; i += 4) {
        const w = array[i + 3];
        if (w !== 1 && w !== -1) w > 0 || w < 0 ? scaled++ : zero++;
        const length = Math.hypot(array[i], array[i + 1], array[i + 2]);
        if (!Number.isFinite(length) || length < 1e-6) directionless++;
      }
      if (!zero && !scaled) return;
      const set = `TEXCOORD_${primitive.getMaterial()?.getNormalTextureInfo()?.getTexCoord() ?? 0}`;
      // Only a sign of 0 or NaN, or a tangent of no direction, needs the UVs.
      const made = zero || directionless ? tangentsOf(primitive, set) : "";
      const fromUvs = typeof made === "string" ? null : made;
      const out = ownAttribute(primitive, "TANGENT").getArray()!;
      for (let i = 0; i < out.length; i += 4) {
        const length = Math.hypot(out[i], out[i + 1], out[i + 2]);
        if (fromUvs && !(length >= 1e-6)) out.set(fromUvs.subarray(i, i + 3), i);
        const w = out[i + 3];
        if (w === 1 || w === -1) continue;
        out[i + 3] = w > 0 ? 1 : w < 0 ? -1 : fromUvs ? fromUvs[i + 3] : 1;
      }
      const at = `mesh ${meshLabel(mesh)}${mesh.listPrimitives().length > 1 ? ` primitive ${p}` : ""}`;
      const parts = [
        zero &&
        (fromUvs
          ? `${zero} tangent sign(s) (w) of 0 or NaN set from the direction of its ${set}`
          : `${zero} tangent sign(s) (w) of 0 or NaN set to 1, a guess (${made}: no UV direction to take it from)`),
        scaled && `${scaled} tangent sign(s) (w) of the right sign but not ±1 set to that sign`,
      ].filter(Boolean).join("; ");
      notes.push(
        `${at}: ${parts} (glTF's w is the handedness, exactly 1 or -1: viewers multiply the normal map's ` +
          "bend across the surface by it, so it drew flat, too deep or too shallow)",
      );
    });
  }
  return notes;
}
