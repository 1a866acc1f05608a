/**
 * Primitives whose index (or, without indices, vertex) count does not fit their mode: TRIANGLES not
 * a multiple of 3, LINES odd, a strip, fan or loop too short to draw anything. glTF requires the fit;
 * exporters that cut index lists short (or append one stray index) write such files anyway, and the
 * Khronos validator only warns (`MESH_PRIMITIVE_INCOMPATIBLE_MODE`).
 *
 * What viewers draw is the whole primitives in the list: WebGL's `drawElements`/`drawArrays` (three.js,
 * Babylon.js, every browser viewer) ignore the trailing indices, and so does the GPU in native ones.
 * So the leftover is dropped, with a warning naming the primitive and the counts: the scene then
 * holds what was drawn, the rig's triangle walks (hinge fitting reads faces in threes) never read a
 * face made of the next primitive's garbage, and the output is valid glTF without the warning. A
 * primitive with nothing left to draw is only named: an empty accessor is not valid glTF.
 *
 * @module
 */
import type { Accessor, Document, Primitive } from "@gltf-transform/core";

/** The mode names glTF numbers (`primitive.mode`). */
const MODES = ["POINTS", "LINES", "LINE_LOOP", "LINE_STRIP", "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN"];
/** Elements one more drawn item takes, per mode: 3 per triangle, 2 per line, 1 per point. */
const STEP = [1, 2, 1, 1, 3, 1, 1];
/** Fewest elements that draw anything, per mode. */
const LEAST = [1, 2, 2, 2, 3, 3, 3];

/**
 * Trims each primitive of `doc` (decoded, its index values checked) to whole triangles or lines, in
 * place, and returns a repair (`<path>: <what>`, the path `/meshes/m/primitives/p`) per primitive
 * whose count does not fit its mode. An accessor other primitives share is copied before trimming.
 *
 * @example
 * ```ts
 * trimPrimitiveCounts(doc); // ["/meshes/0/primitives/0: 13 indices in mode TRIANGLES, …"]
 * ```
 */
export function trimPrimitiveCounts(doc: Document): string[] {
  const repairs: string[] = [];
  doc.getRoot().listMeshes().forEach((mesh, m) => {
    mesh.listPrimitives().forEach((primitive, p) => {
      const repair = trim(primitive);
      if (repair) repairs.push(`/meshes/${m}/primitives/${p}: ${repair}`);
    });
  });
  return repairs;
}

function trim(primitive: Primitive): string | undefined {
  const mode = primitive.getMode();
  const indices = primitive.getIndices();
  const attributes = primitive.listAttributes();
  if (MODES[mode] === undefined || (!indices && !attributes.length)) return undefined;
  const count = indices ? indices.getCount() : attributes[0].getCount();
  const counted = indices
    ? `${count} ${count === 1 ? "index" : "indices"}`
    : `${count} ${count === 1 ? "vertex" : "vertices"} (no indices)`;
  if (count < LEAST[mode]) {
    return `${counted} in mode ${MODES[mode]}, which draws nothing with fewer than ${LEAST[mode]}; ` +
      "kept as it is";
  }
  const left = count % STEP[mode];
  if (left === 0) return undefined;
  const kept = count - left;
  if (indices) primitive.setIndices(trimmed(indices, primitive, kept));
  else {
    // Every attribute, and every morph target's, is read per vertex: all lose the same last ones.
    for (const semantic of primitive.listSemantics()) {
      primitive.setAttribute(semantic, trimmed(primitive.getAttribute(semantic)!, primitive, kept));
    }
    for (const target of primitive.listTargets()) {
      for (const semantic of target.listSemantics()) {
        target.setAttribute(semantic, trimmed(target.getAttribute(semantic)!, target, kept));
      }
    }
  }
  const what = indices ? `ind${left === 1 ? "ex" : "ices"}` : `vert${left === 1 ? "ex" : "ices"}`;
  return `${counted} in mode ${MODES[mode]}, not a multiple of ${STEP[mode]}: ` +
    `the last ${left} ${what} (which viewers do not draw) left out`;
}

/** `accessor`'s first `kept` elements: in place, or in a copy when anything but `owner` uses it too. */
function trimmed(accessor: Accessor, owner: object, kept: number): Accessor {
  const array = accessor.getArray();
  if (!array) return accessor;
  const shared = accessor.listParents().some((parent) => parent !== owner && parent.propertyType !== "Root");
  const target = shared ? accessor.clone() : accessor;
  return target.setArray(array.slice(0, kept * accessor.getElementSize()));
}
