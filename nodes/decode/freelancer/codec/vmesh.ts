/**
 * VMesh: the vertex/index buffers of a mesh library (`VMeshData`), the references parts make into
 * them (`VMeshRef`, `VWireData`), and selection of a reference's triangles or lines as compact,
 * glTF-ready typed arrays. Vertex data stays in typed arrays from file to output: no per-vertex
 * objects.
 *
 * @module
 */
import type { ByteWindow } from "../../../../runtime/binary.ts";
import { ArrayArena } from "../../../../runtime/scene/accessors.ts";

/** D3D FVF bits Freelancer meshes use. */
export const FVF = {
  XYZ: 0x002,
  NORMAL: 0x010,
  PSIZE: 0x020,
  DIFFUSE: 0x040,
  SPECULAR: 0x080,
  TEXCOUNT_MASK: 0xf00,
} as const;

const KNOWN_FVF_BITS = FVF.XYZ | FVF.NORMAL | FVF.PSIZE | FVF.DIFFUSE | FVF.SPECULAR | FVF.TEXCOUNT_MASK;
const TRIANGLE_LIST = 4;
const MAX_UV_SETS = 8;

/** Where each attribute sits inside one vertex (byte offsets, -1 when absent). */
export interface VertexLayout {
  readonly fvf: number;
  readonly stride: number;
  readonly normal: number;
  readonly diffuse: number;
  /** Offset of UV set 0; set n is at `uv + 8n`. */
  readonly uv: number;
  readonly uvCount: number;
}

/**
 * The vertex layout of an FVF word, or a description of what is wrong with it.
 *
 * @example
 * ```ts
 * vertexLayout(0x112); // { stride: 32, normal: 12, diffuse: -1, uv: 24, uvCount: 1, ... }
 * ```
 */
export function vertexLayout(fvf: number): VertexLayout | string {
  if (fvf & ~KNOWN_FVF_BITS) return `unknown FVF bits 0x${(fvf & ~KNOWN_FVF_BITS).toString(16)}`;
  if (!(fvf & FVF.XYZ)) return "FVF without XYZ position";
  // (fvf >> 8) & 0xF is a count of UV sets (D3DFVF_TEXn), not a bit mask.
  const uvCount = (fvf & FVF.TEXCOUNT_MASK) >> 8;
  if (uvCount > MAX_UV_SETS) return `${uvCount} UV sets (at most ${MAX_UV_SETS})`;
  let at = 12;
  const normal = fvf & FVF.NORMAL ? (at += 12) - 12 : -1;
  if (fvf & FVF.PSIZE) at += 4;
  const diffuse = fvf & FVF.DIFFUSE ? (at += 4) - 4 : -1;
  if (fvf & FVF.SPECULAR) at += 4;
  const uv = at;
  at += 8 * uvCount;
  return { fvf, stride: at, normal, diffuse, uv: uvCount ? uv : -1, uvCount };
}

/** One material group ("TMeshHeader") of a mesh. */
export interface VMeshGroup {
  readonly materialId: number;
  /** Relative to the referencing VMeshRef's vertexStart. */
  readonly vertexStart: number;
  /** Inclusive. */
  readonly vertexEnd: number;
  readonly indexCount: number;
  /** Index of the group's first index in the mesh's index buffer (sum of earlier groups' counts). */
  readonly indexStart: number;
}

/** A decoded `VMeshData` leaf: header, groups, and views of its index and vertex buffers. */
export interface VMeshData {
  /** The mesh's directory name in its library (`*.vms`); its FLCRC32 is the id refs use. */
  readonly name: string;
  readonly layout: VertexLayout;
  readonly groups: readonly VMeshGroup[];
  /** Index buffer, relative indices (little-endian u16). */
  readonly indices: Uint16Array;
  readonly vertexCount: number;
  /** Vertex buffer bytes, `vertexCount × stride`. */
  readonly vertices: Uint8Array;
  /** The leaf the mesh came from (errors point into it). */
  readonly source: ByteWindow;
  /** Offset of the index buffer inside `source`. */
  readonly indexAt: number;
}

/**
 * Decodes one `VMeshData` leaf. Counts are checked against the leaf size before anything is
 * allocated.
 */
export function readVMeshData(data: ByteWindow, name: string): VMeshData {
  data.need(0, 16, "VMeshData header");
  const primitive = data.u32(4, "primitive type");
  if (primitive !== TRIANGLE_LIST) data.fail(4, "primitive type 4 (triangle list)", String(primitive));
  const groupCount = data.u16(8, "group count");
  const indexCount = data.u16(10, "index count");
  const fvf = data.u16(12, "FVF");
  const vertexCount = data.u16(14, "vertex count");
  const layout = vertexLayout(fvf);
  if (typeof layout === "string") data.fail(12, "a supported FVF", layout);
  const indexAt = 16 + 12 * groupCount;
  const vertexAt = indexAt + 2 * indexCount;
  const size = vertexAt + layout.stride * vertexCount;
  if (size > data.length) {
    data.fail(
      Math.min(data.length, 8),
      `${size} bytes for ${groupCount} groups, ${indexCount} indices, ${vertexCount} × ${layout.stride}-byte vertices`,
      `a ${data.length}-byte VMeshData`,
    );
  }
  const groups: VMeshGroup[] = [];
  let indexStart = 0;
  for (let g = 0; g < groupCount; g++) {
    const at = 16 + 12 * g;
    const vertexStart = data.u16(at + 4, "group vertex start");
    const vertexEnd = data.u16(at + 6, "group vertex end");
    const count = data.u16(at + 8, "group index count");
    if (vertexEnd < vertexStart) data.fail(at + 6, `vertex end ≥ start ${vertexStart}`, String(vertexEnd));
    // vertexEnd is inclusive and relative to a ref's start ≥ 0, so it must address a vertex.
    if (vertexEnd >= vertexCount) {
      data.fail(at + 6, `a vertex end below the ${vertexCount} vertices`, String(vertexEnd));
    }
    if (count % 3 !== 0) data.fail(at + 8, "an index count divisible by 3", String(count));
    if (indexStart + count > indexCount) {
      data.fail(at + 8, `group indices within the ${indexCount} of the mesh`, `${indexStart}+${count}`);
    }
    groups.push({
      materialId: data.u32(at, "material id"),
      vertexStart,
      vertexEnd,
      indexCount: count,
      indexStart,
    });
    indexStart += count;
  }
  const indexBytes = data.view(indexAt, 2 * indexCount);
  // Copy when unaligned: a Uint16Array view needs an even byte offset.
  const indices = (indexBytes.byteOffset & 1) === 0
    ? new Uint16Array(indexBytes.buffer, indexBytes.byteOffset, indexCount)
    : new Uint16Array(indexBytes.slice().buffer);
  return {
    name,
    layout,
    groups,
    indices,
    vertexCount,
    vertices: data.view(vertexAt, layout.stride * vertexCount),
    source: data,
    indexAt,
  };
}

/** A part's reference into a mesh (`VMeshRef`, 60 bytes). */
export interface VMeshRef {
  /** FLCRC32 of the library mesh name; 0 = no geometry. */
  readonly meshId: number;
  readonly vertexStart: number;
  readonly vertexCount: number;
  readonly indexStart: number;
  readonly indexCount: number;
  readonly groupStart: number;
  readonly groupCount: number;
  /** Absolute offset of the record, for error messages. */
  readonly offset: number;
}

/** Decodes a `VMeshRef` leaf. The stored bounding box is not used: later LODs often carry LOD0's. */
export function readVMeshRef(data: ByteWindow): VMeshRef {
  // Only the first 20 bytes are used, but a shorter record than the format's 60 is damaged.
  data.need(0, 60, "VMeshRef");
  return {
    meshId: data.u32(4, "mesh id"),
    vertexStart: data.u16(8, "vertex start"),
    vertexCount: data.u16(10, "vertex count"),
    indexStart: data.u16(12, "index start"),
    indexCount: data.u16(14, "index count"),
    groupStart: data.u16(16, "group start"),
    groupCount: data.u16(18, "group count"),
    offset: data.start,
  };
}

/** A HUD wireframe (`VWireData`): line-list indices into a mesh. */
export interface VWireData {
  readonly meshId: number;
  readonly vertexStart: number;
  readonly indices: Uint16Array;
  /** The leaf (errors point into it; indices start at 16). */
  readonly source: ByteWindow;
}

/** Decodes a `VWireData` leaf (16-byte header, then `indexCount` u16 line-list indices). */
export function readVWireData(data: ByteWindow): VWireData {
  const headerSize = data.u32(0, "VWireData header size");
  if (headerSize !== 16) data.fail(0, "VWireData header size 16", String(headerSize));
  const indexCount = data.u16(12, "wire index count");
  if (indexCount % 2 !== 0) data.fail(12, "an even wire index count (line list)", String(indexCount));
  const bytes = data.view(16, 2 * indexCount);
  const indices = new Uint16Array(bytes.slice().buffer);
  return {
    meshId: data.u32(4, "wire mesh id"),
    vertexStart: data.u16(8, "wire vertex start"),
    indices,
    source: data,
  };
}

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
 * Vertex → output index of the primitive being gathered, -1 when unused. Vertex counts are u16, so
 * one table serves every mesh; {@link gather} resets the entries it set, which costs O(vertices
 * used) per primitive instead of O(mesh vertices).
 */
const remap = new Int32Array(0x10000).fill(-1);
/** Mesh vertex of each output vertex, in first-use order (index counts are u16 too). */
const order = new Uint32Array(0x10000);

/**
 * Copies the vertices an index list uses into compact glTF arrays and rebases the indices.
 * `absolute(i)` is the mesh vertex of index `i`; callers have checked every one is in range.
 */
function gather(
  mesh: VMeshData,
  indexList: Uint16Array,
  base: number,
  materialId: number,
  withAttributes: boolean,
  arena: ArrayArena,
): SelectedPrimitive {
  let used = 0;
  // At most 65,535 distinct vertices, so rebased indices stay below the u16 restart value.
  const out = arena.uint16(indexList.length);
  for (let i = 0; i < indexList.length; i++) {
    const v = base + indexList[i];
    let r = remap[v];
    if (r < 0) {
      r = remap[v] = used;
      order[used++] = v;
    }
    out[i] = r;
  }
  for (let k = 0; k < used; k++) remap[order[k]] = -1;
  const { layout } = mesh;
  const floats = floatView(mesh);
  const strideF = layout.stride >> 2;
  const positions = arena.float32(used * 3);
  const normals = withAttributes && layout.normal >= 0 ? arena.float32(used * 3) : undefined;
  const colors = withAttributes && layout.diffuse >= 0 ? arena.float32(used * 4) : undefined;
  const uvs = withAttributes ? Array.from({ length: layout.uvCount }, () => arena.float32(used * 2)) : [];
  const normalF = layout.normal >> 2, uvF = layout.uv >> 2;
  for (let k = 0; k < used; k++) {
    const src = order[k] * strideF;
    positions[3 * k] = floats[src];
    positions[3 * k + 1] = floats[src + 1];
    positions[3 * k + 2] = floats[src + 2];
    if (normals) {
      let x = floats[src + normalF], y = floats[src + normalF + 1], z = floats[src + normalF + 2];
      const squared = x * x + y * y + z * z;
      // glTF requires unit normals; exporters sometimes leave them unnormalised or zero.
      if (!(Math.abs(squared - 1) < 1e-4)) {
        const length = Math.sqrt(squared);
        if (length > 1e-12 && Number.isFinite(length)) {
          x /= length, y /= length, z /= length;
        } else {
          x = 0, y = 1, z = 0;
        }
      }
      normals[3 * k] = x;
      normals[3 * k + 1] = y;
      normals[3 * k + 2] = z;
    }
    for (let u = 0; u < uvs.length; u++) {
      uvs[u][2 * k] = floats[src + uvF + 2 * u];
      uvs[u][2 * k + 1] = floats[src + uvF + 2 * u + 1];
    }
  }
  if (colors) {
    const bytes = mesh.vertices;
    for (let k = 0; k < used; k++) {
      // D3DCOLOR is 0xAARRGGBB, i.e. bytes B, G, R, A in memory.
      const at = order[k] * layout.stride + layout.diffuse;
      colors[4 * k] = SRGB_TO_LINEAR[bytes[at + 2]];
      colors[4 * k + 1] = SRGB_TO_LINEAR[bytes[at + 1]];
      colors[4 * k + 2] = SRGB_TO_LINEAR[bytes[at]];
      colors[4 * k + 3] = bytes[at + 3] / 255;
    }
  }
  return { materialId, positions, normals, colors, uvs, indices: out };
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
  for (let g = ref.groupStart; g < ref.groupStart + ref.groupCount; g++) {
    const group = mesh.groups[g];
    // An empty group draws nothing, and glTF forbids zero-length accessors.
    if (group.indexCount === 0) continue;
    const list = mesh.indices.subarray(group.indexStart, group.indexStart + group.indexCount);
    const base = ref.vertexStart + group.vertexStart;
    if (ref.vertexStart + group.vertexEnd >= mesh.vertexCount) {
      source.fail(
        16 + 12 * g + 6,
        `group vertex end ${ref.vertexStart}+${group.vertexEnd} < ${mesh.vertexCount} (VMeshRef at byte ${ref.offset})`,
        String(ref.vertexStart + group.vertexEnd),
      );
    }
    let max = 0;
    for (let i = 0; i < list.length; i++) if (list[i] > max) max = list[i];
    if (list.length && base + max >= mesh.vertexCount) {
      const i = list.indexOf(max);
      source.fail(
        mesh.indexAt + 2 * (group.indexStart + i),
        `vertex ${ref.vertexStart}+${group.vertexStart}+index < ${mesh.vertexCount} (VMeshRef at byte ${ref.offset})`,
        String(base + max),
      );
    }
    out.push(gather(mesh, list, base, group.materialId, true, arena));
  }
  return out;
}

/** The lines a `VWireData` selects, positions only; absolute vertex = `wire.vertexStart + index`. */
export function selectWire(
  mesh: VMeshData,
  wire: VWireData,
  arena: ArrayArena = new ArrayArena(0),
): SelectedPrimitive {
  let max = 0;
  for (let i = 0; i < wire.indices.length; i++) if (wire.indices[i] > max) max = wire.indices[i];
  if (wire.indices.length && wire.vertexStart + max >= mesh.vertexCount) {
    wire.source.fail(
      16 + 2 * wire.indices.indexOf(max),
      `wire vertex < ${mesh.vertexCount}`,
      String(wire.vertexStart + max),
    );
  }
  return gather(mesh, wire.indices, wire.vertexStart, 0, false, arena);
}
