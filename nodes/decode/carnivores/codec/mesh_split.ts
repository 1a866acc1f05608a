/**
 * Faces → glTF primitives. Carnivores stores UVs per face corner and render state per face; glTF
 * wants them per vertex and per primitive. Faces are grouped by alpha class (opaque | mask | blend)
 * × double-sided, in the engine's draw order (`CorrectModel`: opaque, then opacity, then
 * transparent), and each group gets its own vertices: one per distinct (point, texel) pair.
 *
 * @module
 */
import { FaceFlag, type FaceTable, TEXTURE_WIDTH } from "./model.ts";

/** How a face group blends: the engine's plain, colour-keyed (sfOpacity) and translucent faces. */
export type AlphaClass = "opaque" | "mask" | "blend";

/** Alpha classes in draw order. */
export const ALPHA_CLASSES: readonly AlphaClass[] = ["opaque", "mask", "blend"];

/** The alpha class of a face's flags: sfTransparent wins over sfOpacity (the face is drawn last). */
export function alphaClassOf(flags: number): AlphaClass {
  if (flags & FaceFlag.transparent) return "blend";
  if (flags & FaceFlag.opacity) return "mask";
  return "opaque";
}

/**
 * True when the game draws both sides of a face. The engine culls a back-facing face when
 * `Flags & (sfDarkBack | sfNeedVC)` (`BuildTree*` in every renderer of C1, C2 and Ice Age), and its
 * loader adds sfNeedVC only to faces without sfDoubleSide — it never clears a stored one. So
 * sfDoubleSide counts only without sfDarkBack (0x2) and without a stored sfNeedVC (0x80): a face with
 * flags 0x3 or 0x81 is culled in the game.
 *
 * @example
 * ```ts
 * drawsBothSides(0x1); // true
 * drawsBothSides(0x3); // false: sfDarkBack culls it
 * ```
 */
export function drawsBothSides(flags: number): boolean {
  return (flags & FaceFlag.doubleSide) !== 0 && (flags & (FaceFlag.darkBack | FaceFlag.needVC)) === 0;
}

/** One primitive's worth of faces, with glTF vertices made from face corners. */
export interface FaceGroup {
  /** How the group's faces blend. */
  readonly alpha: AlphaClass;
  /** True when the game draws both sides of the faces (see {@link drawsBothSides}). */
  readonly doubleSided: boolean;
  /** Source face index of each triangle. */
  readonly faces: Int32Array;
  /** Source point index of each output vertex. */
  readonly points: Int32Array;
  /** Clamped texel `(u, v)` of each output vertex; undefined when the model has no texture. */
  readonly texels?: Int32Array;
  /** Three output vertex indices per triangle, winding reversed (file `v1,v2,v3` → `v1,v3,v2`). */
  readonly indices: Uint32Array<ArrayBuffer>;
}

/** Result of {@link groupFaces}. */
export interface FaceGrouping {
  /** Non-empty groups in draw order. */
  readonly groups: FaceGroup[];
  /** Face corners whose texel lay outside `[0, 256] × [0, H]` and was clamped to that edge. */
  readonly clampedCorners: number;
}

/**
 * Groups faces into primitives and builds their vertices. `textureHeight` of 0 means no texture:
 * texels are ignored and vertices are one per point. U texels are clamped to `[0, textureWidth]`.
 *
 * @example
 * ```ts
 * const { groups } = groupFaces(model.faces, model.texture?.height ?? 0);
 * for (const g of groups) console.log(g.alpha, g.doubleSided, g.faces.length);
 * ```
 */
export function groupFaces(
  faces: FaceTable,
  textureHeight: number,
  textureWidth: number = TEXTURE_WIDTH,
): FaceGrouping {
  // Bucket = alpha class × double-sided, in draw order; order inside a bucket is file order.
  const bucketOf = new Uint8Array(faces.count);
  const bucketSizes = new Int32Array(ALPHA_CLASSES.length * 2);
  for (let f = 0; f < faces.count; f++) {
    // A face naming no point is not drawn (see readFaces).
    if (faces.broken?.[f]) {
      bucketOf[f] = 255;
      continue;
    }
    const flags = faces.flags[f];
    const bucket = ALPHA_CLASSES.indexOf(alphaClassOf(flags)) * 2 + (drawsBothSides(flags) ? 1 : 0);
    bucketOf[f] = bucket;
    bucketSizes[bucket]++;
  }
  const groups: FaceGroup[] = [];
  let clampedCorners = 0;
  for (let bucket = 0; bucket < bucketSizes.length; bucket++) {
    const count = bucketSizes[bucket];
    if (!count) continue;
    const groupFaces = new Int32Array(count);
    for (let f = 0, n = 0; f < faces.count; f++) if (bucketOf[f] === bucket) groupFaces[n++] = f;
    const built = buildVertices(faces, groupFaces, textureHeight, textureWidth);
    clampedCorners += built.clampedCorners;
    groups.push({
      alpha: ALPHA_CLASSES[bucket >> 1],
      doubleSided: (bucket & 1) === 1,
      faces: groupFaces,
      points: built.points,
      texels: built.texels,
      indices: built.indices,
    });
  }
  return { groups, clampedCorners };
}

function buildVertices(
  faces: FaceTable,
  groupFaces: Int32Array,
  textureHeight: number,
  textureWidth: number,
) {
  const textured = textureHeight > 0;
  const cornerCount = groupFaces.length * 3;
  const indices = new Uint32Array(cornerCount);
  // At most one vertex per corner; trimmed below.
  const points = new Int32Array(cornerCount);
  const texels = textured ? new Int32Array(cornerCount * 2) : undefined;
  const vertexOf = new Map<number, number>();
  let vertexCount = 0;
  let clampedCorners = 0;
  for (let t = 0; t < groupFaces.length; t++) {
    const f = groupFaces[t];
    for (let k = 0; k < 3; k++) {
      const point = faces.indices[f * 3 + k];
      let u = 0;
      let v = 0;
      if (textured) {
        const rawU = faces.texels[f * 6 + k * 2];
        const rawV = faces.texels[f * 6 + k * 2 + 1];
        // Texel coordinates are corners (the engine's D3D path divides by 256 with no half-texel
        // offset), so 256 and H are the right and bottom edges of the image: retail files use them.
        u = Math.min(Math.max(rawU, 0), textureWidth);
        v = Math.min(Math.max(rawV, 0), textureHeight);
        if (u !== rawU || v !== rawV) clampedCorners++;
      }
      // Exact in a double: point < 2^27 (file size / 16), u ≤ 2^8, v ≤ height ≤ file size / 512.
      const key = (point * (textureWidth + 1) + u) * (textureHeight + 1) + v;
      let vertex = vertexOf.get(key);
      if (vertex === undefined) {
        vertex = vertexCount++;
        vertexOf.set(key, vertex);
        points[vertex] = point;
        if (texels) {
          texels[vertex * 2] = u;
          texels[vertex * 2 + 1] = v;
        }
      }
      // Mirroring z flips handedness; swapping corners 2 and 3 keeps the faces' front side.
      indices[t * 3 + (k === 0 ? 0 : 3 - k)] = vertex;
    }
  }
  return {
    points: points.slice(0, vertexCount),
    texels: texels?.slice(0, vertexCount * 2),
    indices,
    clampedCorners,
  };
}
