/**
 * A rigid follower's refitted place written as its node's TRS. A refit by `scale_modes` along axes
 * other than the node's own is a shear no glTF node holds; the nearest turn and scale is written, and
 * how far it moves the follower's geometry decides whether that is said.
 *
 * @module
 */
import type { Node, vec3, vec4 } from "@gltf-transform/core";
import { type mat4, MathUtils } from "@gltf-transform/core";
import { snapToOne } from "./matrix64.ts";

/**
 * Sets `node`'s TRS to `local` (a scale within rounding of 1 written as 1). False when `local` is
 * sheared so much that the TRS written, only the nearest, moves the node's geometry (its meshes' and
 * its children's bounds) by more than {@link SHEAR_OFF} (m) from where `local` puts it. A slight
 * shear — a stretch of a few percent along axes near the node's own — moves it by far less, and is
 * not warned about (before decode.dson v63: any shear over a millionth of the node's size, 190 of
 * 193 such warnings on posed_follower_habits' seeds 21501-21600 for followers within 1 mm).
 */
export function setLocal(node: Node, local: mat4): boolean {
  const t = [0, 0, 0] as vec3, r = [0, 0, 0, 1] as vec4, s = [1, 1, 1] as vec3;
  MathUtils.decompose(local, t, r, s);
  node.setTranslation(t).setRotation(r).setScale(s.map(snapToOne) as vec3);
  const back = MathUtils.compose(t, r, s, new Array(16).fill(0) as unknown as mat4);
  let off = 0;
  for (const p of geometryCorners(node)) {
    const d = [0, 1, 2].map((row) =>
      (local[row] - back[row]) * p[0] + (local[4 + row] - back[4 + row]) * p[1] +
      (local[8 + row] - back[8 + row]) * p[2]
    );
    off = Math.max(off, Math.hypot(...d));
  }
  return off <= SHEAR_OFF;
}

/** How far (m) a follower's nearest turn and scale may move its geometry before it is warned about. */
const SHEAR_OFF = 1e-5;

/** The corners of the bounds of `node`'s meshes and its children's (in `node`'s frame), and its origin. */
function geometryCorners(node: Node): number[][] {
  const corners: number[][] = [[0, 0, 0]];
  const add = (mesh: ReturnType<Node["getMesh"]>, place?: mat4) => {
    for (const primitive of mesh?.listPrimitives() ?? []) {
      const position = primitive.getAttribute("POSITION");
      if (!position || !position.getCount()) continue;
      const lo = position.getMin([]), hi = position.getMax([]);
      for (let k = 0; k < 8; k++) {
        const p = [k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]];
        corners.push(
          place
            ? [0, 1, 2].map((row) =>
              place[row] * p[0] + place[4 + row] * p[1] + place[8 + row] * p[2] + place[12 + row]
            )
            : p,
        );
      }
    }
  };
  add(node.getMesh());
  for (const child of node.listChildren()) {
    const m = child.getMatrix();
    corners.push([m[12], m[13], m[14]]);
    add(child.getMesh(), m);
  }
  return corners;
}
