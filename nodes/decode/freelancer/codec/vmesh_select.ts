/**
 * Selection of a VMesh reference's triangles (`VMeshRef`) or lines (`VWireData`) as compact,
 * glTF-ready typed arrays. Vertex data stays in typed arrays from file to output: no per-vertex
 * objects.
 *
 * @module
 */
import { ArrayArena } from "../../../../runtime/scene/accessors.ts";
import type { VMeshData, VMeshRef, VWireData } from "./vmesh.ts";

/** One glTF-ready primitive: compact vertex arrays and indices into them. */
export interface SelectedPrimitive {
  /** FLCRC32 material id of the group (0 for wireframes). */
  readonly materialId: number;
  readonly positions: Float32Array<ArrayBuffer>;
  readonly normals?: Float32Array<ArrayBuffer>;
  /** Linear RGBA, from the D3DCOLOR's B,G,R,A bytes. */
  readonly colors?: Float32Array<ArrayBuffer>;
  /** One array per UV set, in order. */
  readonly uvs: readonly Float32Array<ArrayBuffer>[];
  readonly indices: Uint16Array<ArrayBuffer>;
  /** Set when a position or UV value is not finite (NaN, ±infinity); see `finite_vertices.ts`. */
  readonly nonFinite?: true;
  /** Set when a normal was zero or not finite: written (0, 0, 0) for `zero_normals.ts` to mend. */
  readonly directionless?: true;
}

const SRGB_TO_LINEAR = (() => {
  const table = new Float32Array(256);
  for (let i = 0; i < 256; i++) {
    const c = i / 255;
    table[i] = c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  }
  return table;
})();

/** Reusable aligned scratch for unaligned vertex buffers, so decoding never copies the whole file. */
let scratch = new Uint8Array(0);
/** The mesh whose vertices the scratch holds (its groups are gathered one after another); weak, so
 * the scratch does not keep a decoded file alive. */
let scratchMesh: WeakRef<VMeshData> | undefined;

/** A float view of a mesh's vertices: the leaf itself when 4-byte aligned, else a scratch copy. */
function floatView(mesh: VMeshData): Float32Array {
  const v = mesh.vertices;
  if ((v.byteOffset & 3) === 0) return new Float32Array(v.buffer, v.byteOffset, v.byteLength >> 2);
  if (scratchMesh?.deref() !== mesh) {
    if (scratch.byteLength < v.byteLength) {
      scratch = new Uint8Array(Math.max(v.byteLength, scratch.byteLength * 2));
    }
    scratch.set(v);
    scratchMesh = new WeakRef(mesh);
  }
  return new Float32Array(scratch.buffer, 0, v.byteLength >> 2);
}

/**
 * Vertex → output index of the primitive being gathered, valid where {@link stampOf} holds the
 * current {@link stamp}. Vertex counts are u16, so one table serves every mesh; a new stamp per
 * primitive forgets the last one's entries at no cost (they were reset one by one before: a loop
 * after the hot one, see {@link remapIndices}).
 */
const remap = new Int32Array(0x10000);
/** The {@link stamp} of the primitive that set each {@link remap} entry; 0 for none yet. */
const stampOf = new Int32Array(0x10000);
/** The primitive being gathered's stamp; the table is cleared when it would pass 2³¹ − 1. */
let stamp = 0;
/** Mesh vertex of each output vertex, in first-use order (index counts are u16 too). */
const order = new Uint32Array(0x10000);

/**
 * Rebases an index list onto the vertices it uses, in first-use order: the rebased indices, with
 * {@link order} holding the mesh vertex of each output vertex and {@link usedVertices} their count.
 * `base + index` is the mesh vertex of an index; one at or past `limit` calls `outOfRange` (which
 * throws): the range check rides on the rebasing pass instead of a pass of its own over the indices.
 *
 * Why nothing follows the loop, and lines and triangles are functions of their own: V8 compiles a
 * hot function while its long loop runs (on-stack replacement), before the code after the loop has
 * run; in Deno 2.9's V8 such code kept being thrown away where it met an operation without type
 * feedback after the loop (the table's reset loop, the branch between lines and triangles) — 179
 * deoptimisations in 7 passes of the bench's 16 compounds, each followed by interpreted runs and a
 * compile again.
 */
function remapIndices(
  indexList: Uint16Array,
  base: number,
  limit: number,
  arena: ArrayArena,
  outOfRange: () => never,
): Uint16Array<ArrayBuffer> {
  if (stamp === 0x7fffffff) {
    stampOf.fill(0);
    stamp = 0;
  }
  const current = ++stamp;
  let used = 0;
  // At most 65,535 distinct vertices, so rebased indices stay below the u16 restart value.
  const out = arena.uint16(indexList.length);
  for (let i = 0; i < indexList.length; i++) {
    const v = base + indexList[i];
    if (v >= limit) outOfRange();
    if (stampOf[v] === current) {
      out[i] = remap[v];
    } else {
      stampOf[v] = current;
      out[i] = remap[v] = used;
      order[used++] = v;
    }
  }
  usedVertices = used;
  return out;
}

/** The count of vertices the last {@link remapIndices} put in {@link order}. */
let usedVertices = 0;

/** The triangles of an index list: its vertices' attributes copied into compact glTF arrays. */
function gatherTriangles(
  mesh: VMeshData,
  floats: Float32Array,
  indexList: Uint16Array,
  base: number,
  materialId: number,
  arena: ArrayArena,
  outOfRange: () => never,
): SelectedPrimitive {
  const indices = remapIndices(indexList, base, mesh.vertexCount, arena, outOfRange);
  const used = usedVertices;
  const { layout } = mesh;
  const strideF = layout.stride >> 2;
  // One loop per attribute: each reads one stretch of every vertex and writes one array in order.
  zeroNormals = false;
  const positions = copyFloats(floats, strideF, 0, 3, used, arena);
  let nonFinite = lastProbe !== 0;
  const normals = layout.normal >= 0
    ? unitNormals(floats, strideF, layout.normal >> 2, used, arena)
    : undefined;
  const colors = layout.diffuse >= 0
    ? linearColors(mesh.vertices, layout.stride, layout.diffuse, used, arena)
    : undefined;
  const uvs: Float32Array<ArrayBuffer>[] = [];
  for (let u = 0; u < layout.uvCount; u++) {
    uvs.push(copyFloats(floats, strideF, (layout.uv >> 2) + 2 * u, 2, used, arena));
    if (lastProbe !== 0) nonFinite = true;
  }
  const prim: SelectedPrimitive = { materialId, positions, normals, colors, uvs, indices };
  return nonFinite || zeroNormals ? flagged(prim, nonFinite, zeroNormals) : prim;
}

/** `prim` with the flags of a copy that met a value glTF forbids (rare: a damaged or odd file). */
function flagged(prim: SelectedPrimitive, nonFinite: boolean, directionless: boolean): SelectedPrimitive {
  let out = prim;
  if (nonFinite) out = { ...out, nonFinite: true };
  return directionless ? { ...out, directionless: true } : out;
}

/** The lines of an index list: positions only. */
function gatherLines(
  mesh: VMeshData,
  floats: Float32Array,
  indexList: Uint16Array,
  base: number,
  arena: ArrayArena,
  outOfRange: () => never,
): SelectedPrimitive {
  const indices = remapIndices(indexList, base, mesh.vertexCount, arena, outOfRange);
  const positions = copyFloats(floats, mesh.layout.stride >> 2, 0, 3, usedVertices, arena);
  const lines: SelectedPrimitive = { materialId: 0, positions, uvs: [], indices };
  return lastProbe !== 0 ? flagged(lines, true, false) : lines;
}

/** `width` floats at `offset` of each of the first `used` vertices in {@link order}. */
function copyFloats(
  floats: Float32Array,
  strideF: number,
  offset: number,
  width: 2 | 3,
  used: number,
  arena: ArrayArena,
): Float32Array<ArrayBuffer> {
  const out = arena.float32(used * width);
  // x·0 is 0 for every finite x and NaN for NaN and ±infinity: one sum, no branch, tells whether the
  // copy holds a value glTF forbids (finite_vertices.ts then finds which).
  let probe = 0;
  if (width === 3) {
    for (let k = 0, o = 0; k < used; k++, o += 3) {
      const src = order[k] * strideF + offset;
      const x = out[o] = floats[src], y = out[o + 1] = floats[src + 1], z = out[o + 2] = floats[src + 2];
      probe += x * 0 + y * 0 + z * 0;
    }
  } else {
    for (let k = 0, o = 0; k < used; k++, o += 2) {
      const src = order[k] * strideF + offset;
      const u = out[o] = floats[src], v = out[o + 1] = floats[src + 1];
      probe += u * 0 + v * 0;
    }
  }
  // Stored, not compared: a test after the loop is code V8 may compile without feedback (see
  // remapIndices); the caller, which has no long loop, reads it.
  lastProbe = probe;
  return out;
}

/**
 * The sum of `x · 0` over what the last {@link copyFloats} copied: 0 when every value was finite,
 * NaN when one was not.
 */
let lastProbe = 0;
/** Set by {@link unitNormals} when a normal had no direction; {@link gatherTriangles} resets and reads it. */
let zeroNormals = false;

/**
 * The normals of the first `used` vertices in {@link order}, each made a unit vector; one zero or not
 * finite is written (0, 0, 0), for `zero_normals.ts` to give its neighbours' direction.
 */
function unitNormals(
  floats: Float32Array,
  strideF: number,
  offset: number,
  used: number,
  arena: ArrayArena,
): Float32Array<ArrayBuffer> {
  const out = arena.float32(used * 3);
  for (let k = 0, o = 0; k < used; k++, o += 3) {
    const src = order[k] * strideF + offset;
    let x = floats[src], y = floats[src + 1], z = floats[src + 2];
    const squared = x * x + y * y + z * z;
    // glTF requires unit normals; exporters sometimes leave them unnormalised or zero.
    if (!(Math.abs(squared - 1) < 1e-4)) {
      const length = Math.sqrt(squared);
      if (length > 1e-12 && Number.isFinite(length)) {
        x /= length, y /= length, z /= length;
      } else {
        x = 0, y = 0, z = 0;
        zeroNormals = true;
      }
    }
    out[o] = x;
    out[o + 1] = y;
    out[o + 2] = z;
  }
  return out;
}

/** The D3DCOLORs of the first `used` vertices in {@link order} as linear RGBA. */
function linearColors(
  bytes: Uint8Array,
  stride: number,
  offset: number,
  used: number,
  arena: ArrayArena,
): Float32Array<ArrayBuffer> {
  const out = arena.float32(used * 4);
  for (let k = 0, o = 0; k < used; k++, o += 4) {
    // D3DCOLOR is 0xAARRGGBB, i.e. bytes B, G, R, A in memory.
    const at = order[k] * stride + offset;
    out[o] = SRGB_TO_LINEAR[bytes[at + 2]];
    out[o + 1] = SRGB_TO_LINEAR[bytes[at + 1]];
    out[o + 2] = SRGB_TO_LINEAR[bytes[at]];
    out[o + 3] = bytes[at + 3] / 255;
  }
  return out;
}

/**
 * The triangles a `VMeshRef` selects, one primitive per non-empty group. The absolute vertex of an index is
 * `ref.vertexStart + group.vertexStart + index`; every one is checked against the mesh.
 *
 * @example
 * ```ts
 * for (const prim of selectRef(mesh, ref)) console.log(prim.materialId, prim.indices.length / 3);
 * ```
 */
export function selectRef(
  mesh: VMeshData,
  ref: VMeshRef,
  arena: ArrayArena = new ArrayArena(0),
): SelectedPrimitive[] {
  const { source } = mesh;
  if (ref.groupStart + ref.groupCount > mesh.groups.length) {
    source.fail(
      8,
      `VMeshRef at byte ${ref.offset} to select groups within the mesh's ${mesh.groups.length}`,
      `${ref.groupStart}+${ref.groupCount}`,
    );
  }
  const out: SelectedPrimitive[] = [];
  // One view of the vertices for every group of the reference, not one per group.
  let floats: Float32Array | undefined;
  for (let g = ref.groupStart; g < ref.groupStart + ref.groupCount; g++) {
    const group = mesh.groups[g];
    // An empty group draws nothing, and glTF forbids zero-length accessors.
    // Whole triangles only: a stray index or two after them is no triangle (readVMeshData names it).
    const drawn = group.indexCount - group.indexCount % 3;
    if (drawn === 0) continue;
    const list = mesh.indices.subarray(group.indexStart, group.indexStart + drawn);
    const base = ref.vertexStart + group.vertexStart;
    if (ref.vertexStart + group.vertexEnd >= mesh.vertexCount) {
      source.fail(
        16 + 12 * g + 6,
        `group vertex end ${ref.vertexStart}+${group.vertexEnd} < ${mesh.vertexCount} (VMeshRef at byte ${ref.offset})`,
        String(ref.vertexStart + group.vertexEnd),
      );
    }
    // An index past the mesh: named by the group's largest index, as the format notes cite it.
    const outOfRange = (): never => {
      const max = maxIndex(list);
      return source.fail(
        mesh.indexAt + 2 * (group.indexStart + list.indexOf(max)),
        `vertex ${ref.vertexStart}+${group.vertexStart}+index < ${mesh.vertexCount} (VMeshRef at byte ${ref.offset})`,
        String(base + max),
      );
    };
    floats ??= floatView(mesh);
    out.push(gatherTriangles(mesh, floats, list, base, group.materialId, arena, outOfRange));
  }
  return out;
}

/**
 * How a `VMeshRef`'s own ranges disagree with the groups it selects, or undefined when they agree (or
 * it selects none). Every retail ref stores its first index as the sum of the earlier groups' index
 * counts, its index count as theirs, and its vertex count as their vertex span (`formats/freelancer.md`
 * §4.4); the decoder draws the groups, so a disagreement means a damaged ref — its group start or count
 * may pick other groups than the file's writer meant — or a damaged group table.
 *
 * @example
 * ```ts
 * const problem = refMismatch(mesh, ref);
 * if (problem) console.warn(problem);
 * ```
 */
export function refMismatch(mesh: VMeshData, ref: VMeshRef): string | undefined {
  // Loops over the group table, not slices and spreads: this runs for every reference.
  const end = Math.min(mesh.groups.length, ref.groupStart + ref.groupCount);
  if (ref.groupStart >= end) return undefined;
  const indexStart = mesh.groups[ref.groupStart].indexStart;
  let indexCount = 0, first = Infinity, last = -Infinity;
  for (let g = ref.groupStart; g < end; g++) {
    const group = mesh.groups[g];
    indexCount += group.indexCount;
    if (group.vertexStart < first) first = group.vertexStart;
    if (group.vertexEnd > last) last = group.vertexEnd;
  }
  const vertexCount = last - first + 1;
  if (ref.indexStart === indexStart && ref.indexCount === indexCount && ref.vertexCount === vertexCount) {
    return undefined;
  }
  const differences = [
    ref.indexStart !== indexStart ? `index start ${ref.indexStart} (the groups start at ${indexStart})` : "",
    ref.indexCount !== indexCount ? `index count ${ref.indexCount} (the groups have ${indexCount})` : "",
    ref.vertexCount !== vertexCount ? `vertex count ${ref.vertexCount} (the groups span ${vertexCount})` : "",
  ].filter(Boolean);
  if (!differences.length) return undefined;
  return `VMeshRef at byte ${ref.offset} disagrees with groups ${ref.groupStart}–` +
    `${ref.groupStart + ref.groupCount - 1} of mesh '${mesh.name}' that it selects: ${
      differences.join(", ")
    }; ` +
    "the groups are drawn, as Librelancer draws them (a damaged group start or count would pick other groups)";
}

/** The lines a `VWireData` selects, positions only; absolute vertex = `wire.vertexStart + index`. */
export function selectWire(
  mesh: VMeshData,
  wire: VWireData,
  arena: ArrayArena = new ArrayArena(0),
): SelectedPrimitive {
  const outOfRange = (): never => {
    const max = maxIndex(wire.indices);
    return wire.source.fail(
      16 + 2 * wire.indices.indexOf(max),
      `wire vertex < ${mesh.vertexCount}`,
      String(wire.vertexStart + max),
    );
  };
  return gatherLines(mesh, floatView(mesh), wire.indices, wire.vertexStart, arena, outOfRange);
}

/** The largest of `indices` (0 for none), for the message about an index past its mesh. */
function maxIndex(indices: Uint16Array): number {
  let max = 0;
  for (let i = 0; i < indices.length; i++) if (indices[i] > max) max = indices[i];
  return max;
}
