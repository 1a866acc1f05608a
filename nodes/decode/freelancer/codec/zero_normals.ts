/**
 * VMesh normals of zero length or not finite, as modding tools leave them (a patch a converter rebuilt
 * without normals, a division by a zero length): given the direction of their sound copies at the same
 * place, else of the smoothed triangles there, by the rule decode.gltf and export.gltf's repair share
 * (`runtime/scene/directionless_normals.ts`). Before, each became +Y: lit as a face looking up,
 * whatever its side of the hull. A normal no triangle draws keeps +Y.
 *
 * @module
 */
import { againstShare, mendDirectionless } from "../../../../runtime/scene/directionless_normals.ts";
import type { SelectedPrimitive } from "./vmesh_select.ts";

/** Share of the triangles' area whose normals face against the winding for it to count as turned. */
const AGAINST_SHARE = 0.9;

/**
 * Mends, in place, the normals the gather wrote (0, 0, 0) in `prims` (those it flagged `directionless`);
 * `warn` hears how many, once, when any were.
 *
 * @example
 * ```ts
 * withMendedNormals(prims, (what) => console.warn(`mesh 'hull.vms': ${what}`));
 * ```
 */
export function withMendedNormals(prims: readonly SelectedPrimitive[], warn: (what: string) => void): void {
  let mended = 0, up = 0;
  for (const prim of prims) {
    const { normals, positions, indices } = prim;
    if (!prim.directionless || !normals) continue;
    // Faced as the primitive's other normals face its winding.
    const orientation = againstShare(positions, normals, indices) >= AGAINST_SHARE ? -1 : 1;
    mended += mendDirectionless(positions, normals, indices, orientation, () => normals);
    for (let i = 0; i + 2 < normals.length; i += 3) {
      if (normals[i] === 0 && normals[i + 1] === 0 && normals[i + 2] === 0) normals[i + 1] = 1, up++;
    }
  }
  if (!mended && !up) return;
  warn(
    [
      mended && `${mended} normal(s) of zero length or not finite given the direction of their copies at ` +
        "the same place or of their triangles (shaded as their neighbours)",
      up && `${up} such normal(s) of no triangle made +Y`,
    ].filter(Boolean).join("; "),
  );
}
