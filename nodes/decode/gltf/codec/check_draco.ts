/**
 * The Draco half of the glTF structure check. Draco's WebAssembly decoder sizes its tables from the
 * counts in a bitstream's header before it reads any data: a 1 KB GLB whose header declared 100
 * million faces made it allocate 1.2 GB and abort. So each `KHR_draco_mesh_compression` primitive's
 * header is read here first, and what all of them decode to is held to {@link DRACO_MAX_RATIO} × their
 * compressed bytes. After decoding, {@link checkDracoDecoded} holds the result to the accessors' counts.
 *
 * Layout (Draco bitstream specification; `KHR_draco_mesh_compression` specifies version 2.2, and
 * 2.0 and 2.1, which early exporters wrote, are read too): `DRACO`, major and minor version, encoder
 * type (1: triangular mesh), method (0: sequential, 1: edgebreaker), 16-bit flags, metadata when flag
 * 0x8000 is set, then the connectivity header. Its counts are varints, except the sequential
 * header's before 2.2 (32-bit words); an edgebreaker header before 2.2 begins with a count of new
 * vertices.
 *
 * @module
 */
import type { Document, JSONDocument } from "@gltf-transform/core";
import type { Checker, Json } from "./checker.ts";
import { gltfError, type GltfSource } from "./container.ts";
import { COMPONENT_BYTES, TYPE_COMPONENTS } from "../../../../runtime/scene/gltf_codes.ts";

const DRACO = "KHR_draco_mesh_compression";

/**
 * Most bytes Draco may decode per compressed byte. A flat 1000 × 1000 grid, the most regular mesh
 * there is, decodes to 680 × its bytes (positions and indices, at Draco's strongest settings); the
 * corpus's low-poly airplane and the demo fighter, compressed by glTF-Transform, to 7–9 ×.
 */
export const DRACO_MAX_RATIO = 1024;

/** Deepest metadata nesting read; Draco's encoder writes one or two levels. */
const MAX_METADATA_DEPTH = 64;

/** What a Draco mesh bitstream's header says decoding will make. */
export interface DracoHeader {
  readonly version: string;
  readonly method: "sequential" | "edgebreaker";
  readonly faces: number;
  /** The sequential header's point count; an edgebreaker stream's follows from its attribute seams. */
  readonly points?: number;
}

/** Where a bitstream stops matching its layout: a byte offset in the stream, expected and found. */
export class DracoHeaderError extends Error {
  constructor(readonly offset: number, readonly expected: string, readonly found: string) {
    super(`at byte ${offset} of the Draco data: expected ${expected}, found ${found}`);
  }
}

/**
 * Reads the header of a Draco mesh bitstream, as far as its face and point counts, or throws a
 * {@link DracoHeaderError}. Reads only the header's bytes, in time linear in them.
 *
 * @example
 * ```ts
 * import { readDracoHeader } from "./check_draco.ts";
 * const bytes = new Uint8Array([68, 82, 65, 67, 79, 2, 2, 1, 0, 0, 0, 12, 8, 1]);
 * readDracoHeader(bytes); // { version: "2.2", method: "sequential", faces: 12, points: 8 }
 * ```
 */
export function readDracoHeader(bytes: Uint8Array): DracoHeader {
  const r = new ByteReader(bytes);
  const magic = String.fromCharCode(...bytes.subarray(0, 5));
  if (magic !== "DRACO") throw new DracoHeaderError(0, "the magic 'DRACO'", `'${magic}'`);
  r.skip(5);
  const major = r.u8("a major version"), minor = r.u8("a minor version");
  if (major !== 2 || minor > 2) {
    throw new DracoHeaderError(5, "bitstream version 2.0 to 2.2", `${major}.${minor}`);
  }
  const type = r.u8("an encoder type");
  if (type !== 1) throw new DracoHeaderError(7, "encoder type 1 (a triangular mesh)", String(type));
  const method = r.u8("an encoding method");
  if (method > 1) throw new DracoHeaderError(8, "method 0 (sequential) or 1 (edgebreaker)", String(method));
  const flags = r.u16("the flags");
  if (flags & 0x8000) skipMetadata(r);
  const header = { version: `${major}.${minor}`, method: method ? "edgebreaker" : "sequential" } as const;
  if (method === 0) {
    const count = (what: string) => minor < 2 ? r.u32(what) : r.varint(what);
    const faces = count("a face count");
    return { ...header, faces, points: count("a point count") };
  }
  r.u8("a traversal type");
  if (minor < 2) r.varint("a new-vertex count");
  r.varint("an encoded-vertex count");
  return { ...header, faces: r.varint("a face count") };
}

/** Attribute and file metadata: entries of short names and values, nested no deeper than is real. */
function skipMetadata(r: ByteReader): void {
  const attributes = r.varint("an attribute metadata count");
  for (let i = 0; i <= attributes; i++) {
    if (i < attributes) r.varint("an attribute id");
    // Each element: entries, then its sub-elements depth first, each after its name.
    const open: number[] = [];
    do {
      const at = r.offset;
      const entries = r.varint("a metadata entry count");
      for (let e = 0; e < entries; e++) {
        r.skip(r.u8("a name length"));
        r.skip(r.u8("a value length"));
      }
      open.push(r.varint("a sub-metadata count"));
      if (open.length > MAX_METADATA_DEPTH) {
        throw new DracoHeaderError(at, `metadata at most ${MAX_METADATA_DEPTH} levels deep`, "deeper");
      }
      while (open.length && open[open.length - 1] === 0) open.pop();
      if (open.length) {
        open[open.length - 1]--;
        r.skip(r.u8("a sub-metadata name length"));
      }
    } while (open.length);
  }
}

/** Little-endian reads that fail with the offset and what was being read. */
class ByteReader {
  offset = 0;
  constructor(readonly bytes: Uint8Array) {}

  #need(n: number, what: string): void {
    if (this.offset + n > this.bytes.length) {
      throw new DracoHeaderError(this.offset, what, `${this.bytes.length - this.offset} bytes left`);
    }
  }

  skip(n: number): void {
    this.#need(n, `${n} more bytes`);
    this.offset += n;
  }

  u8(what: string): number {
    this.#need(1, what);
    return this.bytes[this.offset++];
  }

  u16(what: string): number {
    return this.u8(what) | (this.u8(what) << 8);
  }

  u32(what: string): number {
    this.#need(4, what);
    const b = this.bytes, at = this.offset;
    this.offset += 4;
    return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)) + b[at + 3] * 2 ** 24;
  }

  /** Draco's unsigned LEB128 of a 32-bit value: at most 5 bytes. */
  varint(what: string): number {
    const at = this.offset;
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const byte = this.u8(what);
      value += (byte & 0x7f) * 2 ** (7 * i);
      if (!(byte & 0x80)) {
        if (value > 0xffffffff) throw new DracoHeaderError(at, `${what} below 2³²`, String(value));
        return value;
      }
    }
    throw new DracoHeaderError(at, `${what} in at most 5 varint bytes`, "more");
  }
}

/** A Draco primitive of the file: its JSON path and its extension's, the extension and its view. */
export interface DracoPrimitive {
  readonly at: string;
  readonly path: string;
  readonly primitive: Json;
  readonly def: Json;
  readonly view: number;
}

/** The file's Draco primitives, each with its JSON paths and buffer view. */
export function dracoPrimitives(c: Checker): DracoPrimitive[] {
  const found: DracoPrimitive[] = [];
  c.list("meshes").forEach((mesh, m) => {
    (mesh.primitives as Json[]).forEach((primitive, p) => {
      const extensions = primitive.extensions as Json | undefined;
      if (extensions?.[DRACO] === undefined) return;
      const at = `/meshes/${m}/primitives/${p}`, path = `${at}/extensions/${DRACO}`;
      const def = c.object(extensions[DRACO], path);
      c.declareUsed(DRACO, path);
      const view = c.index(def, "bufferView", path, "bufferViews");
      if (view === undefined) c.fail(`${path}/bufferView`, "a buffer view index", undefined);
      found.push({ at, path, primitive, def, view: view! });
    });
  });
  return found;
}

/**
 * Accessor indices Draco primitives fill, from JSON not yet checked (anything that is not an index is
 * skipped here; {@link checkDracoPrimitives} refuses it).
 */
export function dracoAccessors(json: Json): Set<number> {
  const accessors = new Set<number>();
  for (const mesh of Array.isArray(json.meshes) ? json.meshes as Json[] : []) {
    for (const primitive of Array.isArray(mesh?.primitives) ? mesh.primitives as Json[] : []) {
      const def = (primitive?.extensions as Json | undefined)?.[DRACO] as Json | undefined;
      if (!def || typeof def !== "object") continue;
      const named = (primitive.attributes ?? {}) as Json;
      const filled = [...Object.keys((def.attributes ?? {}) as Json).map((s) => named[s]), primitive.indices];
      for (const index of filled) if (Number.isInteger(index)) accessors.add(index as number);
    }
  }
  return accessors;
}

/**
 * Each Draco primitive: its view's bytes start a mesh bitstream whose header reads, its attributes
 * are ones the primitive names, and all primitives together decode to at most {@link DRACO_MAX_RATIO}
 * × the compressed bytes + 1 MiB — three indices per face, and per point one element of each attribute
 * (the sequential header's points, or the accessors' count, which decoding must then produce).
 * Call after the meshes and accessors are checked.
 */
export function checkDracoPrimitives(c: Checker): void {
  const primitives = dracoPrimitives(c);
  if (!primitives.length) return;
  const views = c.list("bufferViews"), accessors = c.list("accessors");
  const compressed = [...new Set(primitives.map((p) => p.view))]
    .reduce((sum, v) => sum + (views[v].byteLength as number), 0);
  const budget = DRACO_MAX_RATIO * compressed + (1 << 20);
  let decoded = 0;
  for (const { at, path, primitive, def, view } of primitives) {
    // Draco decodes faces: the extension allows no points or lines.
    const mode = primitive.mode ?? 4;
    if (mode !== 4 && mode !== 5) {
      c.fail(`${at}/mode`, "TRIANGLES or TRIANGLE_STRIP, as Draco decodes faces", mode);
    }
    const named = primitive.attributes as Json;
    const attributes = c.object(def.attributes, `${path}/attributes`);
    let elementBytes = 0, count = 0;
    for (const semantic of Object.keys(attributes)) {
      // Draco's attribute ids are 32-bit: a larger one would wrap round to another attribute's.
      c.int(attributes, semantic, `${path}/attributes`, 2 ** 32);
      if (named[semantic] === undefined) {
        c.fail(
          `${path}/attributes/${semantic}`,
          "a Draco attribute id for an attribute the primitive names",
          attributes[semantic],
        );
      }
      const accessor = accessors[named[semantic] as number];
      elementBytes += COMPONENT_BYTES[accessor.componentType as number] *
        TYPE_COMPONENTS[accessor.type as string];
      count = accessor.count as number;
    }
    const data = c.bufferData(views[view].buffer as number);
    const viewExtensions = views[view].extensions as Json | undefined;
    if (!data || viewExtensions?.EXT_meshopt_compression || viewExtensions?.KHR_meshopt_compression) {
      c.fail(`${path}/bufferView`, "a view of stored (not meshopt-compressed) bytes", view);
    }
    const start = (views[view].byteOffset as number | undefined) ?? 0;
    let header: DracoHeader;
    try {
      header = readDracoHeader(data!.subarray(start, start + (views[view].byteLength as number)));
    } catch (error) {
      if (!(error instanceof DracoHeaderError)) throw error;
      const expected = `a Draco mesh bitstream: ${error.expected} at byte ${error.offset} of view ${view}`;
      throw gltfError(c.source, { jsonPath: `${path}/bufferView` }, expected, error.found);
    }
    decoded += header.faces * 3 * 4 + (header.points ?? count) * elementBytes;
    if (decoded > budget) {
      const expected = `at most ${budget} bytes decoded from Draco data up to here ` +
        `(${DRACO_MAX_RATIO} × the compressed ${compressed} + 1 MiB; this primitive's ${header.method} header declares ` +
        `${header.faces} faces${header.points === undefined ? "" : ` and ${header.points} points`})`;
      c.fail(path, expected, decoded);
    }
  }
}

/**
 * After decoding: every accessor a Draco primitive filled holds the count its JSON declares (the
 * extension requires the accessors to "match the decompressed data"), so the budget
 * {@link checkDracoPrimitives} reckoned from those counts is what was made. `doc` is what
 * glTF-Transform read from `jsonDoc` (its accessors in the same order).
 */
export function checkDracoDecoded(jsonDoc: JSONDocument, doc: Document, source: GltfSource): void {
  const accessors = doc.getRoot().listAccessors();
  for (const index of dracoAccessors(jsonDoc.json as unknown as Json)) {
    const declared = jsonDoc.json.accessors?.[index]?.count;
    const made = accessors[index]?.getCount();
    if (declared !== undefined && made !== declared) {
      throw gltfError(
        source,
        { jsonPath: `/accessors/${index}/count` },
        `the ${made} elements its Draco data decodes to`,
        String(declared),
      );
    }
  }
}
