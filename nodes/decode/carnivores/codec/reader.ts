/**
 * A little-endian reader over a file's bytes that turns every out-of-range read and every bad count
 * into a {@link DecodeError} with the byte offset, so the parsers never see a RangeError and never
 * allocate from a count they have not checked against the bytes that are left.
 *
 * @module
 */
import { DecodeError } from "../../../../runtime/errors.ts";
import { NAME_BYTES } from "./model.ts";

/**
 * Bounds-checked little-endian reads for one file.
 *
 * @example
 * ```ts
 * const r = new ByteReader(bytes, "3df", "palm.3df");
 * r.require(0, 16, "header");
 * const vertexCount = r.count(0, "vertex count");
 * ```
 */
export class ByteReader {
  /** The file's bytes. */
  readonly bytes: Uint8Array;
  /** Format name put into errors (`"3df"`, `"car"`). */
  readonly format: string;
  /** File name put into errors, when known. */
  readonly file?: string;
  readonly #view: DataView;

  /** A reader over `bytes`; errors name `format` and `file`. */
  constructor(bytes: Uint8Array, format: string, file?: string) {
    this.bytes = bytes;
    this.format = format;
    this.file = file;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Size of the file in bytes. */
  get length(): number {
    return this.bytes.byteLength;
  }

  /** Throws a {@link DecodeError} at `offset`. */
  fail(offset: number, expected: string, found: string): never {
    throw new DecodeError({ format: this.format, at: { offset }, expected, found, file: this.file });
  }

  /** Throws unless `byteCount` bytes starting at `offset` lie inside the file. */
  require(offset: number, byteCount: number, what: string): void {
    if (offset + byteCount > this.length) {
      const left = Math.max(0, this.length - offset);
      this.fail(offset, `${what} (${byteCount} bytes)`, `${left} byte(s) left in a ${this.length}-byte file`);
    }
  }

  /** int32 at `offset` (caller has checked the range). */
  i32(offset: number): number {
    return this.#view.getInt32(offset, true);
  }

  /** int16 at `offset`. */
  i16(offset: number): number {
    return this.#view.getInt16(offset, true);
  }

  /** uint16 at `offset`. */
  u16(offset: number): number {
    return this.#view.getUint16(offset, true);
  }

  /** float32 at `offset`. */
  f32(offset: number): number {
    return this.#view.getFloat32(offset, true);
  }

  /** A non-negative int32 count at `offset`; a negative value is a {@link DecodeError}. */
  count(offset: number, what: string): number {
    this.require(offset, 4, what);
    const value = this.i32(offset);
    if (value < 0) this.fail(offset, `${what} ≥ 0`, String(value));
    return value;
  }

  /** A 32-byte NUL-terminated name at `offset`, read as Latin-1 (the files are 8-bit ASCII). */
  name(offset: number): string {
    return latin1(this.bytes.subarray(offset, offset + NAME_BYTES));
  }
}

/** Text of `bytes` up to the first NUL, one character per byte. */
export function latin1(bytes: Uint8Array): string {
  let end = bytes.indexOf(0);
  if (end < 0) end = bytes.length;
  let text = "";
  for (let i = 0; i < end; i++) text += String.fromCharCode(bytes[i]);
  return text;
}
