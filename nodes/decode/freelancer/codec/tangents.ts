/**
 * Authored tangents in UV sets. LancerEdit's tangent generator (`Tangents.cs`) writes a MikkTSpace
 * tangent (x, y, z, w = ±1) as two extra UV sets after the mesh's own: FVF TEX3 is uv0 + tangent
 * (sets 1–2), TEX4 uv0 + uv1 + tangent (sets 2–3). Librelancer reads them there when a material has
 * a normal map (`BasicMaterial.GetShader`; `Basic_PositionNormalTexture.glsl`,
 * `Basic_PositionNormalTextureTwo.glsl`: bitangent = cross(N, T) · w), which is glTF's `TANGENT`.
 *
 * @module
 */
import type { ArrayArena } from "../../../../runtime/scene/accessors.ts";
import type { MaterialDef } from "./material.ts";

/**
 * Whether a primitive's last two UV sets hold tangents to use: the material has a normal map
 * (`Nm_name`) and the vertices have normals and 3 or 4 UV sets.
 */
export function wantsTangents(
  uvCount: number,
  hasNormals: boolean,
  material: MaterialDef | undefined,
): boolean {
  return hasNormals && (uvCount === 3 || uvCount === 4) && material?.normalTexture !== undefined &&
    material.damage === undefined;
}

/**
 * glTF `TANGENT` data (VEC4: unit xyz, w ±1) from two UV sets `(x, y)` and `(z, w)`, or why they
 * are not tangents: a vertex whose xyz is zero or not finite, or whose w is not exactly ±1 (as
 * MikkTSpace writes it; UTFEditor's tangent + binormal layout puts a binormal component there).
 */
export function packTangents(
  xy: Float32Array,
  zw: Float32Array,
  arena: ArrayArena,
): Float32Array<ArrayBuffer> | string {
  const count = xy.length >> 1;
  for (let v = 0; v < count; v++) {
    const x = xy[2 * v], y = xy[2 * v + 1], z = zw[2 * v], w = zw[2 * v + 1];
    const length = Math.hypot(x, y, z);
    if (!Number.isFinite(length) || length === 0) {
      return `vertex ${v} has tangent (${x}, ${y}, ${z}), not a direction`;
    }
    if (w !== 1 && w !== -1) return `vertex ${v} has tangent sign ${w}, not ±1`;
  }
  const out = arena.float32(4 * count);
  for (let v = 0; v < count; v++) {
    const x = xy[2 * v], y = xy[2 * v + 1], z = zw[2 * v];
    const length = Math.hypot(x, y, z);
    out[4 * v] = x / length;
    out[4 * v + 1] = y / length;
    out[4 * v + 2] = z / length;
    out[4 * v + 3] = zw[2 * v + 1];
  }
  return out;
}
