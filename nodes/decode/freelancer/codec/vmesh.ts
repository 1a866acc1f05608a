/**
 * VMesh: the vertex/index buffers of a mesh library (`VMeshData`) and the references parts make into
 * them (`VMeshRef`, `VWireData`); `vmesh_select.ts` turns a reference into glTF-ready arrays.
 *
 * @module
 */
import type { ByteWindow } from "../../../../runtime/binary.ts";

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

/** Bytes after a mesh's vertex buffer that no vertex stride explains (padding, a tool's leftovers). */
export interface TrailingBytes {
  readonly mesh: string;
  readonly bytes: number;
  /** Absolute byte offset of the first of them. */
  readonly at: number;
}

/**
 * Every vertex stride an FVF this reader decodes can have (all multiples of 4: D3D packs f32s and
 * u32 colours), so a note that another stride would fill a mesh never names one no FVF gives.
 */
export const REAL_STRIDES: ReadonlySet<number> = (() => {
  const strides = new Set<number>();
  for (let fvf = 0; fvf <= KNOWN_FVF_BITS; fvf++) {
    const layout = vertexLayout(fvf);
    if (typeof layout !== "string") strides.add(layout.stride);
  }
  return strides;
})();

/**
 * Decodes one `VMeshData` leaf. Counts are checked against the leaf size before anything is
 * allocated; `warn` hears of what the game would not load as is but still reads (a mesh type other
 * than 1, bytes after the vertex buffer). Given `padding`, bytes after the vertex buffer that no longer
 * stride of a real FVF (`REAL_STRIDES`) would fill go to it instead, for one warning per file.
 */
export function readVMeshData(
  data: ByteWindow,
  name: string,
  warn: (message: string) => void = () => {},
  padding?: (bytes: TrailingBytes) => void,
): VMeshData {
  data.need(0, 16, "VMeshData header");
  // Told only once the mesh decodes: a damaged one is reported by its error alone.
  const notes: string[] = [];
  let trailing: TrailingBytes | undefined;
  // KB: "the game crashes otherwise"; the rest of the header still describes a triangle mesh.
  const meshType = data.u32(0, "mesh type");
  if (meshType !== 1) {
    notes.push(`mesh type ${meshType} at byte ${data.start} (the game loads only 1); read as mesh type 1`);
  }
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
  if (size < data.length) {
    // Retail meshes end exactly with their vertex buffer. Bytes left over mean the counts or the FVF
    // are wrong — a wrong FVF misreads every vertex, and vertices one stride longer would fill it.
    const extra = data.length - size;
    const longer = vertexCount && extra % vertexCount === 0 ? layout.stride + extra / vertexCount : 0;
    // A tool padding leaves to 16 bytes leaves 1-3 bytes a vertex over few vertices (34-byte vertices):
    // only a stride some FVF has can explain bytes; the rest are padding like any other.
    const stride = REAL_STRIDES.has(longer) ? longer : 0;
    // Bytes no stride explains are padding or a tool's leftovers: the caller may tell them once for
    // every mesh of a file. Bytes a longer stride would fill are this mesh's own warning.
    if (!stride && padding) trailing = { mesh: name, bytes: extra, at: data.start + size };
    else {
      notes.push(
        `${extra} byte(s) after the vertex buffer at byte ${data.start + size} are ignored: the header ` +
          `(${groupCount} groups, ${indexCount} indices, ${vertexCount} × ${layout.stride}-byte vertices of ` +
          `FVF 0x${fvf.toString(16)}) accounts for ${size} of the ${data.length} bytes` +
          (stride
            ? `; ${stride}-byte vertices would fill it exactly, so the FVF may be wrong and the vertices misread`
            : ""),
      );
    }
  }
  const indexBytes = data.view(indexAt, 2 * indexCount);
  // Copy when unaligned: a Uint16Array view needs an even byte offset.
  const indices = (indexBytes.byteOffset & 1) === 0
    ? new Uint16Array(indexBytes.buffer, indexBytes.byteOffset, indexCount)
    : new Uint16Array(indexBytes.slice().buffer);
  const groups: VMeshGroup[] = [];
  let indexStart = 0;
  for (let g = 0; g < groupCount; g++) {
    const at = 16 + 12 * g;
    const vertexStart = data.u16(at + 4, "group vertex start");
    let vertexEnd = data.u16(at + 6, "group vertex end");
    const count = data.u16(at + 8, "group index count");
    if (indexStart + count > indexCount) {
      data.fail(at + 8, `group indices within the ${indexCount} of the mesh`, `${indexStart}+${count}`);
    }
    if (vertexEnd < vertexStart || vertexEnd >= vertexCount) {
      // Two exporter habits store the end otherwise: one past the last vertex (an exclusive end, which
      // for the last group is the vertex count) and 0 (never filled in). The indices say which vertices
      // the group draws, so the end is taken from them; any other end beyond the mesh is damage.
      const habit = vertexEnd < vertexStart ? "below its start" : vertexEnd === vertexCount ? "one past" : "";
      let used = -1;
      for (let i = indexStart; i < indexStart + count; i++) if (indices[i] > used) used = indices[i];
      if (!habit || vertexStart + used >= vertexCount) {
        if (vertexEnd < vertexStart) {
          data.fail(at + 6, `vertex end ≥ start ${vertexStart}`, String(vertexEnd));
        }
        data.fail(at + 6, `a vertex end below the ${vertexCount} vertices`, String(vertexEnd));
      }
      const end = vertexStart + Math.max(used, 0);
      notes.push(
        `group ${g}'s vertex end ${vertexEnd} at byte ${data.start + at + 6} is ${
          habit === "one past"
            ? `one past the ${vertexCount} vertices (an exclusive end)`
            : `below its start ${vertexStart}`
        }; read as ${end}, the last vertex its indices use`,
      );
      vertexEnd = end;
    }
    if (count % 3 !== 0) {
      // The game draws count / 3 whole triangles (D3D's primitive count); the rest are no triangle.
      notes.push(
        `group ${g}'s index count ${count} at byte ${data.start + at + 8} is not divisible by 3; its ` +
          `${Math.floor(count / 3)} whole triangle(s) are drawn and the last ${count % 3} index(es) left out`,
      );
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
  const vertices = data.view(vertexAt, layout.stride * vertexCount);
  const degenerate = degenerateDiffuse(vertices, layout, vertexCount);
  if (degenerate) notes.push(`${degenerate} (vertex buffer at byte ${data.start + vertexAt})`);
  notes.forEach((note) => warn(note));
  if (trailing) padding!(trailing);
  return {
    name,
    layout,
    groups,
    indices,
    vertexCount,
    vertices,
    source: data,
    indexAt,
  };
}

/**
 * What is wrong with a mesh's vertex diffuse colours (`D3DFVF_DIFFUSE`, bytes B, G, R, A) when every
 * one is black or every alpha is 0, as converters write for "no colour"; undefined otherwise. The
 * game multiplies the material's colour by the vertex colour (Librelancer's `Basic` shader:
 * `Dc * input.color`), and glTF viewers multiply `COLOR_0` into the base colour the same way: the
 * model is drawn as the game draws it, but the user should hear why it is black or invisible.
 */
function degenerateDiffuse(vertices: Uint8Array, layout: VertexLayout, count: number): string | undefined {
  if (layout.diffuse < 0 || count === 0) return undefined;
  let black = true, clear = true;
  for (let v = 0, at = layout.diffuse; v < count && (black || clear); v++, at += layout.stride) {
    if (vertices[at] | vertices[at + 1] | vertices[at + 2]) black = false;
    if (vertices[at + 3]) clear = false;
  }
  const all = `all ${count} vertex diffuse colours (FVF 0x40)`;
  if (black) {
    return `${all} are black${clear ? " with alpha 0" : ""}: the game multiplies the material colour by ` +
      "them (as Librelancer draws it) and glTF viewers multiply COLOR_0 into the base colour, so its lit " +
      `colour is black${clear ? " and, where its material blends, it is invisible" : ""}; a converter ` +
      "that wrote zeros for 'no colour' should leave the diffuse out of the FVF";
  }
  if (clear) {
    return `${all} have alpha 0: where its material blends (Oc/Ot types) it is invisible, in the game as ` +
      "in glTF viewers (COLOR_0 alpha multiplies the base alpha); opaque materials ignore it";
  }
  return undefined;
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
