/**
 * Builders of hostile shapes — valid files whose structure costs out of proportion to their size —
 * shared by the decoders' tests and `deno task shapes`.
 *
 * @module
 */
import { flCrc32 } from "../../nodes/decode/freelancer/codec/crc.ts";
import { compoundTree, encodeVMeshData, packVertices } from "./freelancer/encode_model.ts";
import { encodeUtf } from "./freelancer/encode_utf.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/**
 * A GLB of `json` and a binary chunk of `bin` (a multiple of 4 bytes).
 *
 * @example
 * ```ts
 * const bytes = glbOf({ asset: { version: "2.0" } }, new Uint8Array(0));
 * ```
 */
export function glbOf(json: Json, bin: Uint8Array): Uint8Array {
  const text = JSON.stringify(json);
  const jsonBytes = new TextEncoder().encode(text + " ".repeat((4 - (text.length % 4)) % 4));
  const out = new Uint8Array(28 + jsonBytes.length + bin.length);
  const view = new DataView(out.buffer);
  [0x46546c67, 2, out.length, jsonBytes.length, 0x4e4f534a].forEach((word, i) =>
    view.setUint32(4 * i, word, true)
  );
  out.set(jsonBytes, 20);
  view.setUint32(20 + jsonBytes.length, bin.length, true);
  view.setUint32(24 + jsonBytes.length, 0x004e4942, true);
  out.set(bin, 28 + jsonBytes.length);
  return out;
}

/** A GLB's JSON chunk, parsed. */
export function glbJson(glb: Uint8Array): Json {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

/** `glb` with its JSON changed by `edit`, its binary chunk (if any) as it was. */
export function editedGlb(glb: Uint8Array, edit: (json: Json) => void): Uint8Array {
  const view = new DataView(glb.buffer, glb.byteOffset);
  const jsonLength = view.getUint32(12, true);
  const json = glbJson(glb);
  edit(json);
  const at = 20 + jsonLength;
  if (at >= glb.length) {
    // No binary chunk: glbOf's empty one left off, the total length set again.
    const out = glbOf(json, new Uint8Array(0)).slice(0, -8);
    new DataView(out.buffer).setUint32(8, out.length, true);
    return out;
  }
  return glbOf(json, glb.subarray(at + 8, at + 8 + view.getUint32(at, true)));
}

/**
 * A GLB of one meshopt-compressed view (64 compressed bytes) declaring `count` 12-byte elements,
 * changed by `edit` before it is written.
 *
 * @example
 * ```ts
 * const bomb = meshoptGlb(2 ** 28); // 1 KB that would decode to 3 GB
 * ```
 */
export function meshoptGlb(count: number, edit: (json: Json) => void = () => {}): Uint8Array {
  const json: Json = {
    asset: { version: "2.0" },
    extensionsUsed: ["EXT_meshopt_compression"],
    extensionsRequired: ["EXT_meshopt_compression"],
    buffers: [{ byteLength: 64 }, {
      byteLength: count * 12,
      extensions: { EXT_meshopt_compression: { fallback: true } },
    }],
    bufferViews: [{
      buffer: 1,
      byteLength: count * 12,
      byteStride: 12,
      extensions: {
        EXT_meshopt_compression: { buffer: 0, byteLength: 64, byteStride: 12, count, mode: "ATTRIBUTES" },
      },
    }],
    accessors: [{ bufferView: 0, componentType: 5126, count, type: "VEC3", min: [0, 0, 0], max: [1, 1, 1] }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, mode: 0 }] }],
    nodes: [{ mesh: 0 }],
    scenes: [{ nodes: [0] }],
  };
  edit(json);
  return glbOf(json, new Uint8Array(64));
}

/** What {@link sharedMeshCompound} builds. */
export interface SharedMeshOptions {
  /** Parts, `Root` first. */
  readonly parts: number;
  /** Vertices of the one mesh. */
  readonly vertices: number;
  /** Vertices each part's reference draws. */
  readonly used: number;
  /** The first vertex of part `p`'s reference. */
  readonly start: (p: number) => number;
  /** The part part `p` (≥ 1) is fixed to. */
  readonly parent: (p: number) => number;
}

/**
 * A `.cmp` whose parts all draw one mesh (FVF 0x2) through `VMeshRef`s, each fixed to another part:
 * overlapping references from many starts, or a chain of parts thousands deep.
 *
 * @example
 * ```ts
 * const chain = sharedMeshCompound({ parts: 600, vertices: 30, used: 30, start: () => 0, parent: (p) => p - 1 });
 * ```
 */
export function sharedMeshCompound(options: SharedMeshOptions): Uint8Array {
  const { parts, vertices, used, start, parent } = options;
  const positions = new Float32Array(3 * vertices).map((_, i) => ((i * 7919) % 1000) / 100);
  const indices = Array.from({ length: 3 * Math.floor(used / 3) }, (_, i) => i);
  const mesh = encodeVMeshData({
    fvf: 0x2,
    groups: [{ materialId: flCrc32("m"), vertexStart: 0, vertexEnd: used - 1, indexCount: indices.length }],
    indices,
    vertices: packVertices(0x2, vertices, { positions }),
  });
  const names = Array.from({ length: parts }, (_, p) => (p === 0 ? "Root" : `Part${p}`));
  const ref = (p: number) => ({
    meshId: flCrc32("m.vms"),
    vertexStart: start(p),
    vertexCount: used,
    indexStart: 0,
    indexCount: indices.length,
    groupStart: 0,
    groupCount: 1,
  });
  return encodeUtf(compoundTree({
    meshes: [{ name: "m.vms", data: mesh }],
    parts: names.map((name, p) => ({ name, fileName: `p${p}.3db`, fragment: { lods: [ref(p)] } })),
    constraints: names.slice(1).map((child, i) => ({
      kind: "fix" as const,
      parent: names[parent(i + 1)],
      child,
      translation: [0.01, 0, 0],
      rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1],
    })),
  }));
}
