/**
 * Texture coordinates written V-flipped. glTF's V runs down the image (1 − v of OpenGL's); two writer
 * habits get it wrong:
 *
 * - V written as −v instead of 1 − v (DirectX-convention writers): the whole set lies in [−1, 0]. A
 *   repeating sampler draws it right (−v repeats as 1 − v), so it is left alone; one that clamps V draws
 *   the image's top row over the whole part and a mirroring one draws it upside down. There the set is
 *   moved up by 1, which is what the repeating samplers draw, with a warning. Under a texture transform
 *   the move would not be a whole turn of the image: named, kept.
 * - one set flipped against another (an exporter that wrote 1 − v on its first UV map only): the two
 *   sets' islands face opposite ways on nearly every triangle, where sets of one unwrap (an occlusion or
 *   lightmap atlas of the same islands) face one way. Which set is wrong is a guess: named, kept.
 *
 * @module
 */
import type { Accessor, Document, Material, Mesh, Primitive } from "@gltf-transform/core";
import type { Transform } from "@gltf-transform/extensions";
import { textureSlots, uvSetOf } from "../../../../runtime/scene/texture_slots.ts";
import { ownAttribute } from "./own_accessor.ts";

const REPEAT = 10497;
/** Share of the triangles (of those with area in both sets) whose islands face opposite ways. */
const OPPOSITE_SHARE = 0.9;
/** Fewest such triangles to judge by: a quad or two says nothing. */
const FEWEST = 8;

/** Moves −v sets up under non-repeating samplers and names sets flipped against each other. */
export function mendFlippedUvs(
  doc: Document,
  meshLabel: (mesh: Mesh) => string,
  materialLabel: (material: Material) => string,
): string[] {
  const notes: string[] = [];
  for (const mesh of doc.getRoot().listMeshes()) {
    const many = mesh.listPrimitives().length > 1;
    // Per pair of sets (the first and another), over the mesh's primitives: a mesh Blender split by
    // material into primitives of a few islands each is judged whole.
    const pairs = new Map<string, { opposite: number; judged: number }>();
    mesh.listPrimitives().forEach((primitive, p) => {
      const at = `mesh ${meshLabel(mesh)}${many ? ` primitive ${p}` : ""}`;
      const sets = primitive.listSemantics().filter((s) => /^TEXCOORD_\d+$/.test(s)).sort();
      for (const set of sets) {
        const note = negativeV(primitive, set, at, materialLabel);
        if (note) notes.push(note);
      }
      for (const [other, counts] of opposedSets(primitive, sets)) {
        const sum = pairs.get(other) ?? { opposite: 0, judged: 0 };
        pairs.set(other, { opposite: sum.opposite + counts.opposite, judged: sum.judged + counts.judged });
      }
    });
    for (const [pair, { opposite, judged }] of pairs) {
      if (judged < FEWEST || opposite < OPPOSITE_SHARE * judged) continue;
      const [first, other] = pair.split(" ");
      notes.push(
        `${other} of mesh ${meshLabel(mesh)} is mirrored against ${first} on ${opposite} of ${judged} ` +
          "triangles (one set V-flipped: an exporter that wrote 1 − v on one UV map only?): the textures " +
          "of one of them draw upside down; kept as written",
      );
    }
  }
  return notes;
}

const floatPairs = (accessor: Accessor | null) =>
  accessor && accessor.getComponentType() === 5126 && accessor.getElementSize() === 2 && accessor.getArray()
    ? accessor.getArray()!
    : null;

/** The −v habit on `set` (see the module doc): mended where a sampler clamps or mirrors V. */
function negativeV(
  primitive: Primitive,
  set: string,
  at: string,
  materialLabel: (material: Material) => string,
): string | null {
  const uv = floatPairs(primitive.getAttribute(set));
  const material = primitive.getMaterial();
  if (!uv || !material || uv.length < 2) return null;
  let low = Infinity, high = -Infinity;
  for (let i = 1; i < uv.length; i += 2) low = Math.min(low, uv[i]), high = Math.max(high, uv[i]);
  // NaN fails both; a set reaching below −1 or above 0 is a tiling, not the habit.
  if (!(low >= -1 - 1e-5 && high <= 1e-5 && low < -1e-3)) return null;
  const n = Number(set.slice("TEXCOORD_".length));
  const slots = textureSlots(material).filter((slot) => uvSetOf(slot.info) === n);
  const unrepeated = slots.filter((slot) => slot.info.getWrapT() !== REPEAT);
  if (!unrepeated.length) return null;
  const names = unrepeated.map((slot) => slot.name).join(", ");
  const wrap = unrepeated[0].info.getWrapT() === 33648
    ? "mirrors V (drawn upside down)"
    : "clamps V (drawn as its edge row)";
  const transformed = slots.some((slot) => slot.info.getExtension<Transform>("KHR_texture_transform"));
  const found =
    `${set} of ${at} has V in [${+low.toFixed(3)}, ${+high.toFixed(3)}] (written as −v, DirectX's ` +
    `convention, where glTF's is 1 − v), and material ${materialLabel(material)}'s ${names} ${wrap}`;
  if (transformed) {
    return `${found}; under its texture transform a move of 1 is no whole image: kept as written`;
  }
  const out = ownAttribute(primitive, set).getArray()!;
  for (let i = 1; i < out.length; i += 2) out[i] = Math.fround(out[i] + 1);
  return `${found}: moved up by 1, as repeating samplers draw it`;
}

/**
 * Per set after the first, keyed `<first> <other>`: how many triangles (with area in both) face opposite
 * ways in the two sets, of how many.
 */
function opposedSets(
  primitive: Primitive,
  sets: string[],
): Map<string, { opposite: number; judged: number }> {
  const out = new Map<string, { opposite: number; judged: number }>();
  if (sets.length < 2 || primitive.getMode() !== 4) return out;
  const indices = primitive.getIndices()?.getArray();
  const count = indices ? indices.length : primitive.getAttribute("POSITION")?.getCount() ?? 0;
  const corner = (i: number) => (indices ? indices[i] : i);
  const first = floatPairs(primitive.getAttribute(sets[0]));
  if (!first) return out;
  for (const other of sets.slice(1)) {
    const second = floatPairs(primitive.getAttribute(other));
    if (!second) continue;
    let opposite = 0, judged = 0;
    for (let f = 0; f + 2 < count; f += 3) {
      const a = uvArea(first, corner(f), corner(f + 1), corner(f + 2));
      const b = uvArea(second, corner(f), corner(f + 1), corner(f + 2));
      if (!(Math.abs(a) > 1e-10 && Math.abs(b) > 1e-10)) continue;
      judged++;
      if ((a < 0) !== (b < 0)) opposite++;
    }
    out.set(`${sets[0]} ${other}`, { opposite, judged });
  }
  return out;
}

/** Twice the signed area of a triangle in a UV set. */
function uvArea(uv: ArrayLike<number>, a: number, b: number, c: number): number {
  return (uv[2 * b] - uv[2 * a]) * (uv[2 * c + 1] - uv[2 * a + 1]) -
    (uv[2 * c] - uv[2 * a]) * (uv[2 * b + 1] - uv[2 * a + 1]);
}
