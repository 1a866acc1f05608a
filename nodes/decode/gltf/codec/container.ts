/**
 * The outer layers of a glTF file, read with every length checked before glTF-Transform sees them:
 * the GLB container (header and chunks), the JSON text (nesting depth bounded before parsing, so
 * no later recursive walk can overflow the stack) and embedded `data:` URIs.
 *
 * @module
 */
import { mistakenFile } from "../../../../runtime/mistaken_file.ts";
import type { JSONDocument } from "@gltf-transform/core";
import { DecodeError } from "../../../../runtime/errors.ts";
import { maxJsonDepth } from "../../../../runtime/depth.ts";
import { MAX_GLTF_DEPTH } from "../../../../runtime/scene/gltf_io.ts";
import { decodeDataUri, type ReadDataUri } from "../../../../runtime/scene/data_uri.ts";
import { utf16Note, utf16Order } from "../../../../runtime/utf16.ts";
import { readGlbV1 } from "./gltf1_glb.ts";
import { lineColumn, repeatedKeys, syntaxFault } from "./json_text.ts";

const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;
/** The resource name glTF-Transform gives a GLB's binary chunk. */
const GLB_BUFFER = "@glb.bin";

/** Where a problem sits, for {@link GltfSource.fail}. */
export type GltfAt = { offset: number } | { jsonPath: string };

/** A glTF file being read: its format name and file name, for errors. */
export interface GltfSource {
  readonly format: "glb" | "gltf";
  readonly file?: string;
}

/** Builds the typed error for a glTF file. */
export function gltfError(source: GltfSource, at: GltfAt, expected: string, found: string): DecodeError {
  return new DecodeError({ format: source.format, at, expected, found, file: source.file });
}

/**
 * Splits GLB or glTF JSON bytes into the parsed JSON and its binary resources (the GLB chunk and
 * decoded data URIs), or throws a {@link DecodeError} naming the byte offset or JSON path. What is
 * read past a fault real writers made is described in `repairs` (`at <byte offset>: …`).
 */
export function readContainer(bytes: Uint8Array, source: GltfSource, repairs: string[] = []): JSONDocument {
  if (source.format === "glb") return readGlb(bytes, source, repairs);
  const text = asUtf8(bytes, source, repairs);
  checkJsonStart(text, source);
  const json = parseJson(text, 0, source, repairs);
  return { json, resources: dataUriResources(json, source, repairs) };
}

function readGlb(bytes: Uint8Array, source: GltfSource, repairs: string[]): JSONDocument {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (offset: number, expected: string, found: string) =>
    gltfError(source, { offset }, expected, found);
  if (bytes.byteLength < 20) throw fail(0, "a 12-byte GLB header and a chunk", `${bytes.byteLength} bytes`);
  const version = view.getUint32(4, true);
  // Binary glTF 1.0 (KHR_binary_glTF): its JSON is upgraded to 2.0 by the structure check (gltf1.ts).
  if (version === 1) {
    return readGlbV1(
      bytes,
      source,
      (body, at) => parseJson(withoutNulPadding(body, at, repairs), at, source, repairs),
    );
  }
  if (version !== 2) throw fail(4, "GLB version 2 (or 1, binary glTF 1.0)", String(version));
  const total = view.getUint32(8, true);
  if (total > bytes.byteLength || total < 20) {
    throw fail(8, `a total length of 20..${bytes.byteLength} bytes`, String(total));
  }
  let json: JSONDocument["json"] | undefined;
  let bin: Uint8Array<ArrayBuffer> | undefined;
  for (let at = 12; at < total;) {
    if (at + 8 > total) throw fail(at, "an 8-byte chunk header", `${total - at} bytes left`);
    const length = view.getUint32(at, true);
    const type = view.getUint32(at + 4, true);
    if (length > total - at - 8) throw fail(at, `a chunk length up to ${total - at - 8}`, String(length));
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (at === 12 && type !== CHUNK_JSON) throw fail(at + 4, "the JSON chunk first", `type 0x${hex(type)}`);
    if (type === CHUNK_JSON && json === undefined) {
      json = parseJson(withoutNulPadding(body, at + 8, repairs), at + 8, source, repairs);
    } // A view, not a copy: the reader copies every accessor and image out of it, so nothing the scene
    // keeps refers to it, and a copy would be a third full-size array beside the file and the scene.
    else if (type === CHUNK_BIN && bin === undefined) bin = body as Uint8Array<ArrayBuffer>;
    at += 8 + length;
  }
  const resources = dataUriResources(json!, source, repairs);
  if (bin) resources[GLB_BUFFER] = bin;
  return { json: json!, resources };
}

/**
 * The JSON chunk without trailing NUL bytes. The spec pads it with spaces, but GLB writers padded
 * it with NULs as they pad the binary chunk (gltf-rs before 0.12, VReducer's VRM output, fx-gltf's
 * first versions), and JSON parsers — three.js's and Blender's too — refuse those files whole.
 */
function withoutNulPadding(body: Uint8Array, offset: number, repairs: string[]): Uint8Array {
  let end = body.length;
  while (end > 0 && body[end - 1] === 0) end--;
  if (end < body.length) {
    repairs.push(
      `byte offset ${offset + end}: the JSON chunk is padded with ${body.length - end} NUL byte(s), ` +
        "not the spaces glTF pads it with; read without them",
    );
  }
  return body.subarray(0, end);
}

/**
 * glTF JSON as UTF-8. A file saved as UTF-16 ({@link utf16Order}) is read, with a repair saying
 * so: Python's `json` reads it, three.js and Blender refuse it whole.
 */
function asUtf8(bytes: Uint8Array, source: GltfSource, repairs: string[]): Uint8Array {
  const order = utf16Order(bytes);
  if (!order) return bytes;
  let text: string;
  try {
    text = new TextDecoder(order, { fatal: true }).decode(bytes);
  } catch {
    const odd = bytes.length % 2 === 1;
    throw gltfError(
      source,
      { offset: odd ? bytes.length - 1 : 0 },
      `${order.toUpperCase()} text throughout`,
      odd ? "an odd byte at the end" : "a surrogate without its pair",
    );
  }
  repairs.push(`byte offset 0: ${utf16Note(order)} (byte offsets in later messages count the text as UTF-8)`);
  return new TextEncoder().encode(text);
}

/** Bytes shown of a file that is neither container. */
const SHOWN = 8;

/**
 * A file that is no GLB must be glTF JSON: an object, so its first byte after a BOM and white space
 * is `{`. Anything else — a `.glb` that lost its header, an image or archive given by mistake, a
 * text file — is named as neither container with its first bytes, rather than as broken JSON.
 */
function checkJsonStart(bytes: Uint8Array, source: GltfSource): void {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (
    at < bytes.length &&
    (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d)
  ) {
    at++;
  }
  if (bytes[at] === 0x7b) return;
  const first = bytes.subarray(at, at + SHOWN);
  const mistaken = mistakenFile(bytes, at);
  const printable = first.every((b) => b >= 0x20 && b < 0x7f);
  const shown = at >= bytes.length
    ? "an empty file"
    : mistaken
    ? mistaken
    : printable
    ? `text starting '${String.fromCharCode(...first)}${bytes.length > at + SHOWN ? "…" : ""}'`
    : `bytes ${[...first].map((b) => b.toString(16).padStart(2, "0")).join(" ")}${
      bytes.length > at + SHOWN ? " …" : ""
    }`;
  throw gltfError(
    source,
    { offset: at },
    "a GLB (starting with the magic 'glTF') or glTF JSON (an object, starting with '{')",
    shown,
  );
}

function hex(n: number): string {
  return n.toString(16).padStart(8, "0");
}

/**
 * Parses JSON text at byte `offset` of the file. A syntax fault is refused at its own byte offset, line
 * and column (V8's message names no position for most, such as a trailing comma); a key an object gives
 * twice with different values is read as JSON.parse reads it, the last, with a repair in `repairs`.
 */
function parseJson(
  bytes: Uint8Array,
  offset: number,
  source: GltfSource,
  repairs: string[],
): JSONDocument["json"] {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw gltfError(source, { offset }, "UTF-8 JSON text", "bytes that are not UTF-8");
  }
  // A BOM (as Windows editors save) reads the same without it; it is 3 bytes before the text.
  const bom = text.startsWith("\uFEFF") ? 3 : 0;
  if (bom) text = text.slice(1);
  const byteAt = (at: number) => offset + bom + new TextEncoder().encode(text.slice(0, at)).length;
  const depth = maxJsonDepth(text, MAX_GLTF_DEPTH);
  if (depth.exceeded) {
    throw gltfError(
      source,
      { offset: byteAt(depth.at) },
      `JSON nested at most ${MAX_GLTF_DEPTH} deep`,
      "deeper nesting",
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    const fault = syntaxFault(text);
    if (fault) {
      const { line, column } = lineColumn(text, fault.at);
      const expected = `valid JSON: ${fault.expected}`;
      throw gltfError(
        source,
        { offset: byteAt(fault.at) },
        expected,
        `${fault.found} (line ${line}, column ${column})`,
      );
    }
    const position = /position (\d+)/.exec(String(cause))?.[1];
    throw gltfError(
      source,
      { offset: byteAt(Number(position ?? 0)) },
      "valid JSON",
      cause instanceof Error ? cause.message : String(cause),
    );
  }
  for (const repeat of repeatedKeys(text, json)) {
    const places = repeat.at.map((at) => {
      const { line, column } = lineColumn(text, at);
      return `line ${line}, column ${column}`;
    });
    repairs.push(
      `${repeat.path}: the key is given ${repeat.times} times with different values (${
        places.join("; ")
      }); ` +
        "the last is read, as JSON.parse, three.js and Blender read it, but glTF forbids repeating a key and " +
        "readers that take the first (RapidJSON's lookup, as in Assimp) read the other",
    );
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) {
    throw gltfError(source, { jsonPath: "/" }, "a JSON object", describe(json));
  }
  return json as JSONDocument["json"];
}

/**
 * Decodes every `data:` URI of buffers and images; other URIs are left for the structure check. A
 * payload as web tools and hand edits write it — the URL-safe alphabet, percent-encoded, `;BASE64` in
 * another case — is read, with a repair in `repairs` (line breaks, spaces and missing padding are
 * base64's own leniency, read silently).
 */
export function dataUriResources(
  json: JSONDocument["json"],
  source: GltfSource,
  repairs: string[] = [],
): Record<string, Uint8Array<ArrayBuffer>> {
  const resources: Record<string, Uint8Array<ArrayBuffer>> = {};
  for (const collection of ["buffers", "images"] as const) {
    const list = (json as unknown as Record<string, unknown>)[collection];
    if (!Array.isArray(list)) continue;
    list.forEach((item, i) => {
      const uri = item && typeof item === "object" ? (item as { uri?: unknown }).uri : undefined;
      if (typeof uri !== "string") return;
      const at = { jsonPath: `/${collection}/${i}/uri` };
      if (!uri.startsWith("data:")) {
        throw gltfError(
          source,
          at,
          "an embedded data: URI (io.read embeds what a .gltf references)",
          uri.slice(0, 80),
        );
      }
      // glTF-Transform reads an image's type out of `data:image/<type>`, and throws on none.
      if (uri.startsWith("data:image/") && !/^data:image\/\w/.test(uri)) {
        throw gltfError(
          source,
          at,
          "a data: URI of type image/<subtype> (image/png, image/jpeg)",
          uri.slice(0, 40),
        );
      }
      if (uri in resources) return;
      let read: ReadDataUri;
      try {
        read = decodeDataUri(uri);
      } catch (error) {
        throw gltfError(source, at, "a data: URI with a readable payload", (error as Error).message);
      }
      resources[uri] = read.bytes;
      if (read.notes.length) repairs.push(`${at.jsonPath}: the data: URI's ${read.notes.join(", and its ")}`);
    });
  }
  return resources;
}

/** A short description of a JSON value for "found" texts. */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value);
  return String(value);
}
