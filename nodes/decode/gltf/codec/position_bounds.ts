/**
 * POSITION bounds that do not describe their vertices: left from before a hand edit moved vertices, or
 * written by a tool that never updated them. glTF-Transform reads no bounds (the export writes them
 * from the data, so the output is right), but three.js takes a mesh's bounding box and sphere from
 * them: a box too small culls the mesh while it is still on screen and misses it when picking; one too
 * large frames the camera on empty space.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";

/** The share of the vertices' extent a bound may be off by (exporters round bounds to a few decimals). */
const TOLERANCE = 1e-4;
/** The same for Draco-compressed vertices (no buffer view), which are quantized to as few as 8 bits. */
const DRACO_TOLERANCE = 1 / 128;

/**
 * The POSITION accessors of `json` (the file's JSON, as checked) whose `min` or `max` differ from the
 * decoded vertices of `doc` (read from that JSON, accessors in its order), each as a repair at its
 * accessor's JSON path, or none.
 *
 * @example
 * ```ts
 * for (const repair of stalePositionBounds(jsonDoc.json, doc)) console.warn(repair);
 * ```
 */
export function stalePositionBounds(json: object, doc: Document): string[] {
  const file = json as { accessors?: Record<string, unknown>[]; meshes?: { primitives?: unknown[] }[] };
  const positions = new Set<number>();
  for (const mesh of file.meshes ?? []) {
    for (const primitive of mesh.primitives ?? []) {
      const a = (primitive as { attributes?: { POSITION?: unknown } }).attributes?.POSITION;
      if (typeof a === "number") positions.add(a);
    }
  }
  const accessors = doc.getRoot().listAccessors();
  const repairs: string[] = [];
  for (const a of [...positions].sort((x, y) => x - y)) {
    const declared = file.accessors?.[a];
    const array = accessors[a]?.getArray();
    if (!declared || !array || accessors[a].getElementSize() !== 3 || array.length < 3) continue;
    const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < array.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        const v = array[i + k];
        if (v < min[k]) min[k] = v;
        if (v > max[k]) max[k] = v;
      }
    }
    const extent = Math.max(...max.map((v, k) => v - min[k]), ...max.map(Math.abs), ...min.map(Math.abs));
    if (!Number.isFinite(extent)) continue; // NaN or infinite vertices: said by the stray-vertex check
    const tolerance = declared.bufferView === undefined ? DRACO_TOLERANCE : TOLERANCE;
    const off = (["min", "max"] as const).flatMap((key) =>
      ((declared[key] as number[] | undefined) ?? []).flatMap((bound, k) => {
        const actual = key === "min" ? min[k] : max[k];
        return Math.abs(bound - actual) > tolerance * extent + 1e-6 ? [{ key, k, bound, actual }] : [];
      })
    );
    if (!off.length) continue;
    // Vertices outside the bounds: a min above them, or a max below them.
    const outside = off.some(({ key, bound, actual }) => key === "min" ? bound > actual : bound < actual);
    const named = off.slice(0, 2).map(({ key, k, bound, actual }) =>
      `${key}[${k}] is ${bound}, the vertices' ${Number(actual.toPrecision(7))}`
    );
    const effect = outside
      ? "vertices outside them: the mesh is culled while still on screen, and picking misses it"
      : "larger than the vertices: framing and picking are off";
    repairs.push(
      `/accessors/${a}: POSITION bounds that do not match its vertices (${named.join("; ")}` +
        `${off.length > 2 ? `; ${off.length - 2} more` : ""}); three.js takes the mesh's bounding box and ` +
        `sphere from them (${effect}); the output's bounds are written from the vertices`,
    );
  }
  return repairs;
}
