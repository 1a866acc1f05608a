/**
 * DSON bytes to a JSON value: gzip is detected by its magic bytes (Daz writes `.duf`/`.dsf` both
 * plain and gzip-wrapped under the same extension; gzip inside gzip is unwrapped), a UTF-8 BOM and
 * UTF-16 text are tolerated, comments, stray commas and Python's NaN/Infinity are read as meant
 * (lenient_json.ts, each warned), and a syntax error is reported as a {@link DecodeError} located by the JSON path it interrupted.
 *
 * @module
 */
import { DecodeError } from "../../../../runtime/errors.ts";
import { maxJsonDepth } from "../../../../runtime/depth.ts";
import { importOnUse } from "../../../../runtime/lazy_run.ts";
import { repairJsonText } from "./lenient_json.ts";

/** Decompressed DSON larger than this is refused: a gzip bomb must not exhaust memory. */
export const MAX_DSON_TEXT_BYTES = 1 << 30;

/** Most gzip layers unwrapped (a file gzipped again by a tool has two). */
const MAX_GZIP_LAYERS = 4;

/** Deepest JSON nesting accepted: real Daz files stay far below it; deeper is hostile (stack overflow). */
export const MAX_DSON_DEPTH = 128;

/** True when the bytes start with the gzip magic `1F 8B`. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * True when the bytes are certainly plain-text DSON: a JSON object whose first key is
 * `file_version` or `asset_info` (every Daz file starts that way). Gzip-wrapped DSON cannot be
 * recognised without inflating it, so it is left to the file extension.
 *
 * @example
 * ```ts
 * looksLikePlainDson(new TextEncoder().encode('{ "file_version": "0.6.0.0" }')); // true
 * ```
 */
export function looksLikePlainDson(bytes: Uint8Array): boolean {
  const head = decodeText(bytes.subarray(0, 256)).trimStart();
  return /^\{\s*"(file_version|asset_info)"\s*:/.test(head);
}

/**
 * Parses DSON file bytes (plain or gzip, UTF-8 or UTF-16) into a JSON value.
 *
 * @example
 * ```ts
 * const json = await parseDsonBytes(await Deno.readFile("figure.dsf"), "figure.dsf");
 * ```
 */
export async function parseDsonBytes(
  bytes: Uint8Array,
  file?: string,
  warn?: (message: string) => void,
): Promise<unknown> {
  let plain = isGzip(bytes) ? await gunzip(bytes, file, warn) : bytes;
  // A tool that gzips what Daz had already gzipped leaves gzip inside gzip; no DSON text starts
  // with 1F 8B, so the inner layers are unwrapped too (a few at most: deeper is hostile).
  for (let layers = 1; isGzip(plain); layers++) {
    if (layers === MAX_GZIP_LAYERS) {
      throw new DecodeError({
        format: "dson",
        at: { offset: 0 },
        expected: `DSON text inside at most ${MAX_GZIP_LAYERS} gzip layers`,
        found: "gzip deeper still",
        file,
      });
    }
    plain = await gunzip(plain, file, warn);
    if (!isGzip(plain)) warn?.(`dson: ${file ?? "file"}: gzip inside gzip (${layers + 1} layers) unwrapped`);
  }
  const text = decodeText(
    plain,
    () => warn?.(`dson: ${file ?? "file"}: not UTF-8 text; read as Windows-1252 (old converters write it)`),
  );
  const depth = maxJsonDepth(text, MAX_DSON_DEPTH);
  if (depth.exceeded) {
    throw new DecodeError({
      format: "dson",
      at: { jsonPath: jsonPathAt(text, depth.at) },
      expected: `JSON nested at most ${MAX_DSON_DEPTH} deep`,
      found: `deeper nesting (character ${depth.at})`,
      file,
    });
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    // Hand edits and other writers leave comments, stray commas and Python's NaN/Infinity
    // (lenient_json.ts); each repair is named. Anything else is reported at the original error.
    const repaired = repairJsonText(text);
    if (repaired.comments || repaired.commas || repaired.nonFinite) {
      try {
        const value = JSON.parse(repaired.text);
        const where = `dson: ${file ?? "file"}:`;
        if (repaired.comments) warn?.(`${where} ${repaired.comments} comment(s) ignored (JSON has none)`);
        if (repaired.commas) warn?.(`${where} ${repaired.commas} stray trailing comma(s) ignored`);
        if (repaired.nonFinite) {
          warn?.(
            `${where} ${repaired.nonFinite} NaN/Infinity value(s) (Python's json writes them) read as absent`,
          );
        }
        return value;
      } catch {
        // fall through to the original error
      }
    }
    const message = cause instanceof Error ? cause.message : String(cause);
    const position = errorPosition(message, text);
    throw new DecodeError({
      format: "dson",
      at: { jsonPath: jsonPathAt(text, position) },
      expected: "valid JSON",
      found: `${message.replace(/\s*\(line \d+ column \d+\)/, "")} (character ${position})`,
      file,
    }, { cause });
  }
}

async function gunzip(
  bytes: Uint8Array,
  file?: string,
  warn?: (message: string) => void,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
      .pipeThrough(new DecompressionStream("gzip"));
    for await (const chunk of stream) {
      total += chunk.byteLength;
      if (total > MAX_DSON_TEXT_BYTES) {
        throw new DecodeError({
          format: "dson",
          at: { offset: 0 },
          expected: `at most ${MAX_DSON_TEXT_BYTES} bytes of decompressed text`,
          found: "more",
          file,
        });
      }
      chunks.push(chunk);
    }
  } catch (cause) {
    if (cause instanceof DecodeError) throw cause;
    // DecompressionStream refuses anything after the first gzip member, and so loses files gunzip,
    // Python and zlib readers take: several members (RFC 1952 reads them as one file), and a
    // member followed by padding or stray bytes. Read member by member, each checked by its CRC.
    const members = await gunzipMembers(bytes, file, warn).catch(() => undefined);
    if (members) return members;
    throw new DecodeError({
      format: "dson",
      at: { offset: 0 },
      expected: "a valid gzip stream",
      found: cause instanceof Error ? cause.message : String(cause),
      file,
    }, { cause });
  }
  return joined(chunks, total);
}

/**
 * Inflates gzip member after member until the bytes end or something other than a member follows;
 * such trailing bytes are ignored with a warning (gunzip's "trailing garbage ignored"). Each
 * member's CRC-32 and length must match its data, so a damaged stream is never taken for one
 * followed by garbage. Throws on anything else.
 */
async function gunzipMembers(
  bytes: Uint8Array,
  file?: string,
  warn?: (message: string) => void,
): Promise<Uint8Array> {
  // Through importOnUse: Node's compatibility layer loads only for such a file, not with the node's declaration.
  const { inflateRawSync } = await importOnUse<typeof import("node:zlib")>("node:zlib");
  const parts: Uint8Array[] = [];
  let total = 0;
  let at = 0;
  while (at < bytes.length) {
    if (!isGzip(bytes.subarray(at))) {
      const rest = bytes.subarray(at);
      const zeros = rest.every((b) => b === 0);
      warn?.(
        `dson: ${file ?? "file"}: ${rest.length} byte(s) after the gzip stream (from byte ${at}${
          zeros ? ", all zero" : ""
        }) ignored`,
      );
      break;
    }
    const body = gzipBodyStart(bytes, at);
    const { buffer, engine } = inflateRawSync(
      bytes.subarray(body),
      {
        info: true,
        maxOutputLength: Math.max(MAX_DSON_TEXT_BYTES - total, 1),
      } as Parameters<typeof inflateRawSync>[1],
    ) as unknown as {
      buffer: Uint8Array;
      engine: { bytesWritten: number };
    };
    const end = body + engine.bytesWritten;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (end + 8 > bytes.length || view.getUint32(end, true) !== crc32(buffer)) throw new Error("CRC");
    if (view.getUint32(end + 4, true) !== buffer.length % 2 ** 32) throw new Error("length");
    parts.push(buffer);
    total += buffer.length;
    at = end + 8;
  }
  return joined(parts, total);
}

/** The parts one after another, in one array of `total` bytes. */
function joined(parts: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/** Where the deflate data of the gzip member at `at` starts (after its optional header fields). */
function gzipBodyStart(bytes: Uint8Array, at: number): number {
  const flags = bytes[at + 3];
  if (bytes[at + 2] !== 8 || flags & 0xe0) throw new Error("not a deflate gzip member");
  let p = at + 10;
  if (flags & 4) p += 2 + (bytes[p] | (bytes[p + 1] << 8));
  if (flags & 8) { while (p < bytes.length && bytes[p++] !== 0); }
  if (flags & 16) { while (p < bytes.length && bytes[p++] !== 0); }
  if (flags & 2) p += 2;
  if (p > bytes.length) throw new Error("truncated gzip header");
  return p;
}

let CRC_TABLE: Uint32Array | undefined;

/** The CRC-32 (IEEE, as gzip uses) of the bytes. */
function crc32(bytes: Uint8Array): number {
  const table = CRC_TABLE ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = table[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * UTF-8 (BOM stripped) or UTF-16 by BOM, or by the zero bytes ASCII leaves in UTF-16 text. With
 * `onLegacy`, bytes that are not valid UTF-8 are read as Windows-1252 and `onLegacy` is called.
 */
function decodeText(bytes: Uint8Array, onLegacy?: () => void): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] !== 0 && bytes[1] === 0) return new TextDecoder("utf-16le").decode(bytes);
  if (bytes.length >= 2 && bytes[0] === 0 && bytes[1] !== 0) return new TextDecoder("utf-16be").decode(bytes);
  // TextDecoder drops a UTF-8 BOM by default.
  if (!onLegacy) return new TextDecoder("utf-8").decode(bytes);
  // The replacing decoder is many times faster than the fatal one (an ASCII fast path: 2 ms against
  // 56 ms on a 15 MB figure), and gives the same text whenever it replaced nothing: a U+FFFD in its
  // text is either a replacement or one the file holds, so only then is the fatal decoder asked.
  const text = new TextDecoder("utf-8").decode(bytes);
  if (!text.includes("\uFFFD")) return text;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8: old converters and editors write the Windows code page ("É" as one byte 0xC9).
    // Read as UTF-8 it would be U+FFFD in every accented name, silently.
    onLegacy();
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

/** The character position V8 names in a JSON syntax error, or the end of the text. */
function errorPosition(message: string, text: string): number {
  const match = /position (\d+)/.exec(message);
  if (match) return Math.min(Number(match[1]), text.length);
  const line = /line (\d+) column (\d+)/.exec(message);
  if (line) {
    let offset = 0;
    for (let l = 1; l < Number(line[1]) && offset >= 0; l++) offset = text.indexOf("\n", offset) + 1;
    return Math.min(Math.max(offset, 0) + Number(line[2]) - 1, text.length);
  }
  return text.length;
}

/**
 * The JSON pointer of the value being read at a character position, found by scanning the text
 * up to it (strings skipped, containers tracked). Used to locate syntax errors for people.
 */
export function jsonPathAt(text: string, position: number): string {
  type Frame = { array: boolean; index: number; key: string };
  const stack: Frame[] = [];
  let pendingKey = "";
  let expectKey = false;
  for (let i = 0; i < position && i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (expectKey) {
        try {
          pendingKey = JSON.parse(text.slice(i, j + 1));
        } catch {
          pendingKey = text.slice(i + 1, j);
        }
      }
      i = j;
    } else if (c === "{" || c === "[") {
      const top = stack.at(-1);
      if (top && !top.array) top.key = pendingKey;
      stack.push({ array: c === "[", index: 0, key: "" });
      expectKey = c === "{";
    } else if (c === "}" || c === "]") {
      stack.pop();
      expectKey = false;
    } else if (c === ",") {
      const top = stack.at(-1);
      if (top?.array) top.index++;
      expectKey = !!top && !top.array;
    } else if (c === ":") {
      const top = stack.at(-1);
      if (top) top.key = pendingKey;
      expectKey = false;
    }
  }
  const parts = stack.map((f) => f.array ? String(f.index) : f.key);
  return "/" + parts.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");
}
