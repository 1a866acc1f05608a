/**
 * Quantized attributes (`KHR_mesh_quantization`) whose dequantizing step a tool lost, once read. A
 * quantizer (gltfpack, glTF-Transform's `quantize`) writes positions as integers and scales them back
 * with the node (its scale and translation), and texture coordinates as integers scaled back by the
 * `normalized` flag or a `KHR_texture_transform`. Merged, re-parented or re-exported by a tool that knew
 * nothing of it, the integers stay and the step goes:
 *
 * - texture coordinates in unsigned integers without `normalized` and no texture transform, using the
 *   type's top bit (past 32767 in shorts, 127 in bytes): the flag lost — read normalized (the type's
 *   whole range is [0, 1]), with a warning. Below it, the scale was a texture transform's (gltfpack's
 *   12 bits: 4095) that cannot be told: named, kept.
 * - integer positions no node using the mesh scales back (world scale of 1/2 or more) spanning 1024 or
 *   more units: named (a part 16,383 units across among metres), kept.
 *
 * @module
 */
import type { Accessor, Document, Material, Mesh, Node } from "@gltf-transform/core";
import type { Transform } from "@gltf-transform/extensions";
import { textureSlots, uvSetOf } from "../../../../runtime/scene/texture_slots.ts";

const TYPE_NAMES: Record<number, string> = {
  5120: "signed bytes",
  5121: "unsigned bytes",
  5122: "signed shorts",
  5123: "unsigned shorts",
};
/** Integer positions spanning this many units or more, drawn unscaled, are a lost dequantization. */
const POSITION_SPAN = 1024;

/** The largest length of a matrix's three axes. */
const integer = (a: Accessor | null) =>
  a && !a.getNormalized() && TYPE_NAMES[a.getComponentType()] ? a : null;

function scaleOf(m: ArrayLike<number>): number {
  return Math.max(
    Math.hypot(m[0], m[1], m[2]),
    Math.hypot(m[4], m[5], m[6]),
    Math.hypot(m[8], m[9], m[10]),
  );
}

/**
 * Names meshes whose integer positions no node scales back (see the module doc); returns the notes and
 * those meshes, which size and place judgments (unit_subtrees.ts) leave out: drawn so, they are no unit slip.
 */
export function unscaledPositions(
  doc: Document,
  meshLabel: (mesh: Mesh) => string,
): { notes: string[]; meshes: Set<Mesh> } {
  const notes: string[] = [], meshes = new Set<Mesh>();
  let users: Map<Mesh, Node[]> | undefined;
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      const position = integer(primitive.getAttribute("POSITION"));
      if (!position || !position.getCount()) continue;
      const min = position.getMin([]), max = position.getMax([]);
      const span = Math.max(...max.map((v, i) => v - min[i]));
      if (span < POSITION_SPAN) continue;
      // Listed only for a file with such positions: a listing reads the graph once per node.
      if (!users) {
        users = new Map();
        for (const node of doc.getRoot().listNodes()) {
          const m = node.getMesh();
          if (m) users.set(m, [...(users.get(m) ?? []), node]);
        }
      }
      const nodes = users.get(mesh) ?? [];
      if (!nodes.length || !nodes.every((n) => scaleOf(n.getWorldMatrix()) >= 0.5)) continue;
      meshes.add(mesh);
      notes.push(
        `POSITION of mesh ${meshLabel(mesh)} is in ${
          TYPE_NAMES[position.getComponentType()]
        } spanning ${span} ` +
          "units, and no node using it scales them back (KHR_mesh_quantization's dequantizing node scale " +
          "and offset lost when the file was merged or re-exported?): drawn that large, not judged for units; " +
          "read as written",
      );
      break;
    }
  }
  return { notes, meshes };
}

/** Mends and names integer texture coordinates without their scale (see the module doc); a note each. */
export function lostUvScales(
  doc: Document,
  meshLabel: (mesh: Mesh) => string,
  materialLabel: (material: Material) => string,
): string[] {
  const notes: string[] = [];
  const mended = new Set<Accessor>();
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      const material = primitive.getMaterial();
      for (const semantic of primitive.listSemantics().filter((s) => /^TEXCOORD_\d+$/.test(s))) {
        const uv = integer(primitive.getAttribute(semantic));
        if (!uv || mended.has(uv) || uv.getComponentType() === 5120 || uv.getComponentType() === 5122) {
          continue;
        }
        const set = Number(semantic.slice("TEXCOORD_".length));
        const slots = material ? textureSlots(material).filter((slot) => uvSetOf(slot.info) === set) : [];
        if (!slots.length) continue;
        if (slots.some((slot) => slot.info.getExtension<Transform>("KHR_texture_transform"))) continue;
        const top = uv.getComponentType() === 5123 ? 65535 : 255;
        const high = Math.max(...uv.getMax([]));
        if (high <= 1) continue;
        const what =
          `${semantic} of mesh ${meshLabel(mesh)} is in ${TYPE_NAMES[uv.getComponentType()]} up to ${high} ` +
          `without normalized, and no texture transform of material ${
            materialLabel(material!)
          } scales them back`;
        if (high > top / 2) {
          uv.setNormalized(true);
          mended.add(uv);
          notes.push(
            `${what}: the type's whole range, a quantizer's normalized flag lost: read normalized (${top} is 1)`,
          );
        } else {
          notes.push(
            `${what} (KHR_texture_transform's dequantizing scale lost? ${
              Math.ceil(Math.log2(high + 1))
            } bits would be ${2 ** Math.ceil(Math.log2(high + 1)) - 1}): the texture is drawn repeated ` +
              `${high} times; read as written`,
          );
        }
      }
    }
  }
  return notes;
}
