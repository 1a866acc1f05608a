/**
 * The one bounds-checked little-endian reader every binary decoder uses. A read outside the bytes
 * and a count the bytes cannot hold become a {@link DecodeError} naming the format, the file and the
 * absolute byte offset, so parsers never see a RangeError and never allocate from a count they have
 * not checked against the bytes that are left.
 *
 * @module
 */
import { DecodeError } from "./errors.ts";

/**
 * A window `[start, start + length)` of a file's bytes, with checked reads at offsets relative to
 * `start`; errors give offsets into the whole file.
 *
 * @example
 * ```ts
 * import { ByteWindow } from "./binary.ts";
 *
 * const bytes = new Uint8Array([2, 0, 0, 0, 0x41, 0x42, 0, 0]);
 * const file = ByteWindow.of(bytes, "demo", "demo.bin");
 * const count = file.count(0, "name count"); // 2
 * const name = file.cString(4, 4); // "AB"
 * console.log(count, name, file.sub(4, 4, "name block").length);
 * ```
 */
export class ByteWindow {
  /** The whole file (offsets in errors are into this array). */
  readonly bytes: Uint8Array;
  /** Absolute offset of the window's first byte. */
  readonly start: number;
  /** Length of the window in bytes. */
  readonly length: number;
  /** Format name used in errors. */
  readonly format: string;
  /** File name used in errors. */
  readonly file?: string;
  readonly #view: DataView;

  /**
   * A window over `bytes[start, start + length)`; callers check the range (use {@link sub}). A
   * `parent` window over the same `bytes` lends its reader: a decoder opens thousands of
   * sub-windows (decode.cmp made 6,897 DataViews for 16 retail-shaped compounds, 96 with sharing).
   */
  constructor(
    bytes: Uint8Array,
    start: number,
    length: number,
    format: string,
    file?: string,
    parent?: ByteWindow,
  ) {
    this.bytes = bytes;
    this.start = start;
    this.length = length;
    this.format = format;
    this.file = file;
    // The view spans the whole of `bytes` and reads at absolute offsets, so any window over the
    // same array can share it; the window's own bounds are checked by `need` before each read.
    this.#view = parent?.bytes === bytes
      ? parent.#view
      : new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** A window over the whole of `bytes`. */
  static of(bytes: Uint8Array, format: string, file?: string): ByteWindow {
    return new ByteWindow(bytes, 0, bytes.byteLength, format, file);
  }

  /** Throws a {@link DecodeError} at a window-relative offset. */
  fail(at: number, expected: string, found: string): never {
    throw new DecodeError({
      format: this.format,
      at: { offset: this.start + at },
      expected,
      found,
      file: this.file,
    });
  }

  /** Ensures `size` bytes at `at` lie inside the window; `what` names them in the error. */
  need(at: number, size: number, what: string): void {
    if (!(at >= 0 && size >= 0 && at + size <= this.length)) {
      this.fail(
        Math.max(0, Math.min(at, this.length)),
        `${size} bytes of ${what}`,
        `${Math.max(0, this.length - at)} bytes left in a ${this.length}-byte ${this.format} block`,
      );
    }
  }

  /** Little-endian u16 at `at`; `what` names the field in errors (reads in a range already checked may omit it). */
  u16(at: number, what = "a u16"): number {
    this.need(at, 2, what);
    return this.#view.getUint16(this.start + at, true);
  }

  /** Little-endian i16 at `at`. */
  i16(at: number, what = "an i16"): number {
    this.need(at, 2, what);
    return this.#view.getInt16(this.start + at, true);
  }

  /** Little-endian u32 at `at`. */
  u32(at: number, what = "a u32"): number {
    this.need(at, 4, what);
    return this.#view.getUint32(this.start + at, true);
  }

  /** Little-endian i32 at `at`. */
  i32(at: number, what = "an i32"): number {
    this.need(at, 4, what);
    return this.#view.getInt32(this.start + at, true);
  }

  /** Little-endian f32 at `at` (any value, NaN included). */
  f32(at: number, what = "an f32"): number {
    this.need(at, 4, what);
    return this.#view.getFloat32(this.start + at, true);
  }

  /** A non-negative i32 count at `at`; a negative value is a {@link DecodeError}. */
  count(at: number, what: string): number {
    const value = this.i32(at, what);
    if (value < 0) this.fail(at, `${what} ≥ 0`, String(value));
    return value;
  }

  /** `count` consecutive finite f32 values as a plain array (transforms and colours: NaN is corruption). */
  floats(at: number, count: number, what: string): number[] {
    this.need(at, count * 4, what);
    const out = new Array<number>(count);
    for (let i = 0; i < count; i++) {
      const value = this.#view.getFloat32(this.start + at + i * 4, true);
      if (!Number.isFinite(value)) this.fail(at + i * 4, `a finite float (${what})`, String(value));
      out[i] = value;
    }
    return out;
  }

  /** A sub-window; its offsets are relative to its own start. */
  sub(at: number, size: number, what: string, format = this.format): ByteWindow {
    this.need(at, size, what);
    return new ByteWindow(this.bytes, this.start + at, size, format, this.file, this);
  }

  /** The window's bytes (a view, not a copy). */
  view(at = 0, size = this.length - at): Uint8Array {
    this.need(at, size, "data");
    return this.bytes.subarray(this.start + at, this.start + at + size);
  }

  /** A Latin-1 string of at most `max` bytes that ends at the first NUL or the end of the window. */
  cString(at: number, max: number): string {
    const from = this.start + Math.max(0, at);
    return latin1(this.bytes.subarray(from, Math.max(from, this.start + Math.min(this.length, at + max))));
  }
}

/** Text of `bytes` up to the first NUL, one character per byte (the legacy formats are 8-bit ASCII). */
export function latin1(bytes: Uint8Array): string {
  let end = bytes.indexOf(0);
  if (end < 0) end = bytes.length;
  let text = "";
  for (let i = 0; i < end; i++) text += String.fromCharCode(bytes[i]);
  return text;
}
