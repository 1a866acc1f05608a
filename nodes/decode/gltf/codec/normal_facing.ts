/**
 * Normals that face against their triangles' winding across a whole mesh, and normals with no direction.
 *
 * glTF draws a triangle's front where its corners run counter-clockwise and lights it by its normals, so
 * the two must agree. Two export habits break that on every face of a mesh: normals flipped in the
 * source while the winding stayed (the mesh lit from behind: dark where the light falls), and a mirror
 * applied into the vertices (a negative scale baked on export) without reversing the triangles (normals
 * out, winding in: viewers cull the outside and draw the inside). Where the mesh is closed, its winding's
 * enclosed volume says which is wrong with certainty — outward volume: the normals are turned; inward:
 * the triangles are reversed. An open mesh (a sheet) says nothing about which side is out: it is named,
 * kept as written. Normals NaN or of zero length (a division by a zero length in the source) take the
 * direction of their sound copies or of their triangles (runtime/scene/directionless_normals.ts, the rule
 * export.gltf's repair shares), not +Z.
 *
 * @module
 */
import type { Accessor, Document, Mesh, Primitive } from "@gltf-transform/core";
import { ownAttribute, ownIndices } from "./own_accessor.ts";
import { tangentsOf } from "../../../../runtime/scene/uv_tangents.ts";
import { againstShare, mendDirectionless } from "../../../../runtime/scene/directionless_normals.ts";

/** Share of a primitive's triangle area whose normals face against the winding for it to count as turned. */
const AGAINST_SHARE = 0.9;
const TRIANGLES = 4;

/** A mesh's triangle primitives with float positions and normals, read once. */
interface Drawn {
  readonly primitive: Primitive;
  readonly index: number;
  readonly positions: ArrayLike<number>;
  readonly normals: ArrayLike<number>;
  readonly triangles: ArrayLike<number>;
}

/**
 * Turns each mesh's normals or winding where they disagree everywhere on a closed mesh, names an open
 * one, and gives normals without a direction their triangles' one. Returns a note per mesh; `meshLabel`
 * names a mesh.
 */
export function faceNormalsWithWinding(doc: Document, meshLabel: (mesh: Mesh) => string): string[] {
  const notes: string[] = [];
  for (const mesh of doc.getRoot().listMeshes()) {
    const drawn = drawnPrimitives(mesh);
    if (!drawn.length) continue;
    const turned = drawn.filter((d) => againstShare(d.positions, d.normals, d.triangles) >= AGAINST_SHARE);
    // Primitives kept facing against their winding: a normal mended there faces as the others do.
    let kept: Drawn[] = [];
    if (turned.length) {
      const volume = closedVolume(drawn);
      const at = `mesh ${meshLabel(mesh)}${primitivesNamed(turned, drawn.length)}`;
      if (turned.length === drawn.length && volume > 0) {
        for (const d of turned) turnNormals(d.primitive);
        notes.push(
          `${at}: normals pointed into the closed mesh, against its triangles' winding on nearly every ` +
            "face (normals flipped in the source?): turned out, as the winding faces (viewers lit it from behind)",
        );
      } else if (turned.length === drawn.length && volume < 0) {
        for (const d of turned) reverseWinding(doc, d.primitive);
        notes.push(
          `${at}: triangles were wound inward while the normals point out of the closed mesh (a mirror ` +
            "applied to the vertices without reversing the triangles?): reversed, as the normals face " +
            "(viewers culled its outside and drew its inside)",
        );
      } else {
        // Open, or only some of its primitives turned: which of normals and winding is wrong is a guess.
        const whole = turned.length === drawn.length;
        kept = turned;
        notes.push(
          `${at}: normals face against the triangles' winding on nearly ${
            whole
              ? "every face, and the mesh is not closed"
              : "every face, and the mesh's other primitives do not"
          }, so which is wrong cannot be told: either the normals are flipped (lit from behind) or the ` +
            "winding is (its front culled unless double-sided); kept as written",
        );
      }
    }
    const mended = mendNormals(drawnPrimitives(mesh), new Set(kept.map((d) => d.primitive)));
    if (mended) {
      notes.push(
        `mesh ${
          meshLabel(mesh)
        }: ${mended} normal(s) NaN or of zero length given their copies' or triangles' direction ` +
          "(else an export would make them +Z)",
      );
    }
  }
  return notes;
}

function drawnPrimitives(mesh: Mesh): Drawn[] {
  const out: Drawn[] = [];
  mesh.listPrimitives().forEach((primitive, index) => {
    const position = primitive.getAttribute("POSITION"), normal = primitive.getAttribute("NORMAL");
    if (primitive.getMode() !== TRIANGLES || !position || !normal) return;
    if (!isFloat3(position) || !isFloat3(normal)) return;
    const positions = position.getArray()!, normals = normal.getArray()!;
    const indices = primitive.getIndices()?.getArray();
    const count = indices ? indices.length : position.getCount();
    const triangles = indices ?? Uint32Array.from({ length: count - (count % 3) }, (_, i) => i);
    out.push({ primitive, index, positions, normals, triangles });
  });
  return out;
}

const isFloat3 = (accessor: Accessor) =>
  accessor.getComponentType() === 5126 && accessor.getElementSize() === 3 && accessor.getArray() !== null;

const primitivesNamed = (list: Drawn[], of: number) =>
  of === 1
    ? ""
    : list.length === 1
    ? ` primitive ${list[0].index}`
    : ` primitives ${list.map((d) => d.index).join(", ")}`;

/**
 * Six times the volume the mesh's triangles enclose, when they close it (every edge, its corners
 * welded by position, run as often one way as the other); 0 for an open mesh.
 */
function closedVolume(drawn: Drawn[]): number {
  // Welded within a millionth of the mesh's size: split copies of a corner written through another
  // transform differ in the last bits.
  let size = 0;
  for (const { positions } of drawn) {
    for (let i = 0; i < positions.length; i++) {
      if (Number.isFinite(positions[i])) size = Math.max(size, Math.abs(positions[i]));
    }
  }
  const step = size * 1e-6 || 1;
  // A weld id per vertex (not per corner), found through a hash of its rounded coordinates.
  const buckets = new Map<number, number[]>(), cells: number[] = [];
  const welded = drawn.map(({ positions: p }) => {
    const out = new Float64Array(p.length / 3);
    for (let v = 0; v < out.length; v++) {
      const x = Math.round(p[3 * v] / step),
        y = Math.round(p[3 * v + 1] / step),
        z = Math.round(p[3 * v + 2] / step);
      const hash = Math.imul(x | 0, 73856093) ^ Math.imul(y | 0, 19349663) ^ Math.imul(z | 0, 83492791);
      const bucket = buckets.get(hash) ?? [];
      if (!bucket.length) buckets.set(hash, bucket);
      let id = bucket.find((c) => cells[3 * c] === x && cells[3 * c + 1] === y && cells[3 * c + 2] === z);
      if (id === undefined) bucket.push(id = cells.length / 3), cells.push(x, y, z);
      out[v] = id;
    }
    return out;
  });
  const n = cells.length / 3;
  let edges = 0;
  for (const { triangles } of drawn) edges += triangles.length - (triangles.length % 3);
  // Each directed edge a→b as a·n + b, and its reverse: closed when the two lists hold the same keys.
  const forward = new Float64Array(edges), reverse = new Float64Array(edges);
  let e = 0, volume = 0;
  drawn.forEach(({ positions: p, triangles: t }, d) => {
    const id = welded[d];
    for (let f = 0; f + 2 < t.length; f += 3) {
      const a = t[f], b = t[f + 1], c = t[f + 2];
      const ka = id[a], kb = id[b], kc = id[c];
      if (ka === kb || kb === kc || kc === ka) continue;
      forward[e] = ka * n + kb, reverse[e++] = kb * n + ka;
      forward[e] = kb * n + kc, reverse[e++] = kc * n + kb;
      forward[e] = kc * n + ka, reverse[e++] = ka * n + kc;
      volume += p[3 * a] * (p[3 * b + 1] * p[3 * c + 2] - p[3 * b + 2] * p[3 * c + 1]) -
        p[3 * a + 1] * (p[3 * b] * p[3 * c + 2] - p[3 * b + 2] * p[3 * c]) +
        p[3 * a + 2] * (p[3 * b] * p[3 * c + 1] - p[3 * b + 1] * p[3 * c]);
    }
  });
  const ahead = forward.subarray(0, e).sort(), back = reverse.subarray(0, e).sort();
  for (let i = 0; i < e; i++) if (ahead[i] !== back[i]) return 0;
  return Number.isFinite(volume) ? volume : 0;
}

/**
 * Normals (and morph targets' normal deltas) negated. A tangent's w is the handedness across the normal:
 * whether the tangents were made across the flipped normals (MikkTSpace, run on what the tool exports) or
 * the normals were flipped after, w is taken again from the normal map's UVs across the turned normals.
 */
function turnNormals(primitive: Primitive): void {
  const normal = ownAttribute(primitive, "NORMAL").getArray()!;
  for (let i = 0; i < normal.length; i++) normal[i] = -normal[i];
  for (const target of primitive.listTargets()) {
    const delta = target.getAttribute("NORMAL");
    if (!delta?.getArray()) continue;
    const own = delta.listParents().some((p) => p !== target && p.propertyType !== "Root")
      ? delta.clone()
      : delta;
    if (own !== delta) target.setAttribute("NORMAL", own);
    const array = own.getArray()!;
    for (let i = 0; i < array.length; i++) array[i] = -array[i];
  }
  if (primitive.getAttribute("TANGENT")?.getElementSize() !== 4) return;
  const tangent = ownAttribute(primitive, "TANGENT").getArray()!;
  const set = `TEXCOORD_${primitive.getMaterial()?.getNormalTextureInfo()?.getTexCoord() ?? 0}`;
  const fromUvs = tangentsOf(primitive, set);
  for (let i = 3; i < tangent.length; i += 4) {
    tangent[i] = typeof fromUvs === "string" ? -tangent[i] : fromUvs[i];
  }
}

/** Each triangle's second and third corners swapped (indices made for an unindexed primitive). */
function reverseWinding(doc: Document, primitive: Primitive): void {
  let indices = ownIndices(primitive);
  if (!indices) {
    const position = primitive.getAttribute("POSITION")!, count = position.getCount();
    const list = count > 65535 ? new Uint32Array(count) : new Uint16Array(count);
    for (let i = 0; i < count; i++) list[i] = i;
    indices = doc.createAccessor().setType("SCALAR").setArray(list).setBuffer(position.getBuffer());
    primitive.setIndices(indices);
  }
  const array = indices.getArray()!;
  for (let f = 0; f + 2 < array.length; f += 3) [array[f + 1], array[f + 2]] = [array[f + 2], array[f + 1]];
}

/**
 * Normals NaN or of zero length given their copies' or triangles' direction (`directionless_normals.ts`,
 * which export.gltf's repair shares), against the winding in the primitives `against`, whose other
 * normals face so. Returns how many.
 */
function mendNormals(drawn: Drawn[], against: Set<Primitive>): number {
  let mended = 0;
  for (const d of drawn) {
    const orientation = against.has(d.primitive) ? -1 : 1;
    mended += mendDirectionless(
      d.positions,
      d.normals,
      d.triangles,
      orientation,
      () => ownAttribute(d.primitive, "NORMAL").getArray()! as Float32Array,
    );
  }
  return mended;
}
