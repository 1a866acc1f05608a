/**
 * A V-flipped UV set that is a mesh's only one, which no second set shows (uv_flips.ts compares two).
 * An unwrap keeps each face's orientation: seen from its front, a triangle's UV corners turn the way
 * its vertices do, V running down as glTF's does; nearly every triangle of a mesh faces one way, unless
 * its islands are mirrored (a symmetric part's halves sharing texture space). A set written v where glTF
 * wants 1 − v turns every island over. Which way a file's unwraps face is the file's own (its exporter's
 * convention), so a mesh is judged against the file's other meshes: one whose islands nearly all face the
 * other way from most meshes' — with no mirror twin among them (a right part made by mirroring the left,
 * its islands turned with it) — is named. Whether its textures were painted so (a mirrored copy's unwrap)
 * or drawn upside down, neither the set nor the image says: kept as written.
 *
 * @module
 */
import type { Document, Mesh } from "@gltf-transform/core";

/** Share of a mesh's triangles (with UV area) facing one way for the mesh to count as facing it. */
const ONE_WAY = 0.9;
/** Fewest such triangles to judge by. */
const FEWEST = 8;
/** How many times the meshes facing the other way the file's majority must count to set its way. */
const MAJORITY = 2;
/** How near (share of the model's size) a mirror twin's box must be to the mesh's reflected box. */
const TWIN_TOLERANCE = 0.02;

interface Facing {
  mesh: Mesh;
  /** +1 most triangles' UV corners turn against glTF's V-down reading of the winding, −1 with it. */
  side: number;
  share: number;
  judged: number;
  triangles: number;
  single: boolean;
}

/** How `mesh`'s TEXCOORD_0 islands face over its triangles, or undefined where it cannot be told. */
function facing(mesh: Mesh): Facing | undefined {
  let positive = 0, judged = 0, triangles = 0, single = true;
  const a: number[] = [], b: number[] = [], c: number[] = [];
  for (const primitive of mesh.listPrimitives()) {
    const uv = primitive.getAttribute("TEXCOORD_0");
    if (primitive.getAttribute("TEXCOORD_1")) single = false;
    if (!uv || primitive.getMode() !== 4 || uv.getElementSize() !== 2) continue;
    const indices = primitive.getIndices()?.getArray();
    const count = indices ? indices.length : uv.getCount();
    // Floats read straight from the array (most files); integers through getElement, which scales them.
    const floats = uv.getComponentType() === 5126 ? uv.getArray() : null;
    const read = (i: number, into: number[]) => {
      if (floats) into[0] = floats[2 * i], into[1] = floats[2 * i + 1];
      else uv.getElement(i, into);
    };
    for (let f = 0; f + 2 < count; f += 3) {
      triangles++;
      read(indices ? indices[f] : f, a);
      read(indices ? indices[f + 1] : f + 1, b);
      read(indices ? indices[f + 2] : f + 2, c);
      const area = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
      if (!(Math.abs(area) > 1e-10)) continue;
      judged++;
      if (area > 0) positive++;
    }
  }
  if (judged < FEWEST) return undefined;
  const share = Math.max(positive, judged - positive) / judged;
  if (share < ONE_WAY) return undefined;
  return { mesh, side: positive * 2 > judged ? 1 : -1, share, judged, triangles, single };
}

interface Box {
  min: number[];
  max: number[];
}

/** Names meshes whose only UV set faces the other way from the file's other meshes' (see the module doc). */
export function loneFlippedUvs(doc: Document, meshLabel: (mesh: Mesh) => string): string[] {
  const facings = doc.getRoot().listMeshes().map(facing).filter((f): f is Facing => f !== undefined);
  const ways = [1, -1].map((side) => facings.filter((f) => f.side === side));
  const [most, fewer] = ways[0].length >= ways[1].length ? ways : [ways[1], ways[0]];
  // Too few to say which way the file's unwraps face, or no clear majority.
  if (most.length < 3 || fewer.length * MAJORITY > most.length) return [];
  const suspects = fewer.filter((f) => f.single);
  if (!suspects.length) return [];
  // World boxes, for mirror twins: the file's nodes listed only now (a listing reads the graph once per node).
  const boxes = new Map<Mesh, Box[]>();
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const m = node.getWorldMatrix();
    const box: Box = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
    for (const primitive of mesh.listPrimitives()) {
      const position = primitive.getAttribute("POSITION");
      if (!position || !position.getCount()) continue;
      const lo = position.getMin([]), hi = position.getMax([]);
      for (let k = 0; k < 8; k++) {
        const p = [k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]];
        for (let r = 0; r < 3; r++) {
          const v = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
          box.min[r] = Math.min(box.min[r], v);
          box.max[r] = Math.max(box.max[r], v);
        }
      }
    }
    if (box.min.every(Number.isFinite)) boxes.set(mesh, [...(boxes.get(mesh) ?? []), box]);
  }
  const all = [...boxes.values()].flat();
  if (!all.length) return [];
  const model = [0, 1, 2].map((
    r,
  ) => [Math.min(...all.map((b) => b.min[r])), Math.max(...all.map((b) => b.max[r]))]);
  const size = Math.hypot(...model.map(([lo, hi]) => hi - lo));
  const centre = model.map(([lo, hi]) => (lo + hi) / 2);
  const near = (x: number, y: number) => Math.abs(x - y) <= TWIN_TOLERANCE * size;
  // `a` reflected about the model's centre plane across `axis` lands on `b`.
  const mirrors = (a: Box, b: Box) =>
    [0, 1, 2].some((axis) =>
      [0, 1, 2].every((r) =>
        r === axis
          ? near(2 * centre[r] - a.max[r], b.min[r]) && near(2 * centre[r] - a.min[r], b.max[r])
          : near(a.min[r], b.min[r]) && near(a.max[r], b.max[r])
      )
    );
  const notes: string[] = [];
  for (const s of suspects) {
    const own = boxes.get(s.mesh) ?? [];
    const twin = most.some((f) =>
      f.triangles === s.triangles && (boxes.get(f.mesh) ?? []).some((b) => own.some((a) => mirrors(a, b)))
    );
    if (twin) continue;
    notes.push(
      `TEXCOORD_0 of mesh ${meshLabel(s.mesh)} (its only UV set) faces the other way from the file's other ` +
        `meshes' on ${Math.round(s.share * s.judged)} of ${s.judged} triangles (${most.length} meshes face ` +
        "one way, this one the other, with no mirror twin among them): written V-flipped (v where glTF's is " +
        "1 − v)? With no second set to compare, whether its textures were painted so or draw upside down " +
        "cannot be told: kept as written",
    );
  }
  return notes;
}
