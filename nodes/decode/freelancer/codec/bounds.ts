/**
 * Bounds-checked little-endian reads over a slice of a file. Every read names its absolute byte
 * offset in the {@link DecodeError} it throws, so a corrupt file is reported where it is corrupt.
 *
 * @module
 */
import { DecodeError } from "../../../../runtime/errors.ts";

/** A window `[start, end)` of a file's bytes, with checked reads at offsets relative to `start`. */
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
   * A window over `bytes[start, start + length)`; callers check the range (use {@link sub}).
   *
   * @example
   * ```ts
   * const whole = new ByteWindow(bytes, 0, bytes.length, "utf", "ship.cmp");
   * const header = whole.sub(0, 56, "UTF header");
   * ```
   */
  constructor(bytes: Uint8Array, start: number, length: number, format: string, file?: string) {
    this.bytes = bytes;
    this.start = start;
    this.length = length;
    this.format = format;
    this.file = file;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Throws a DecodeError at a window-relative offset. */
  fail(at: number, expected: string, found: string): never {
    throw new DecodeError({
      format: this.format,
      at: { offset: this.start + at },
      expected,
      found,
      file: this.file,
    });
  }

  /** Ensures `size` bytes at `at` lie inside the window. */
  need(at: number, size: number, what: string): void {
    if (!(at >= 0 && size >= 0 && at + size <= this.length)) {
      this.fail(
        Math.max(0, Math.min(at, this.length)),
        `${size} bytes of ${what}`,
        `${Math.max(0, this.length - at)} bytes left in a ${this.length}-byte ${this.format} block`,
      );
    }
  }

  /** Little-endian u16 at `at`; `what` names the field in errors. */
  u16(at: number, what: string): number {
    this.need(at, 2, what);
    return this.#view.getUint16(this.start + at, true);
  }

  /** Little-endian u32 at `at`. */
  u32(at: number, what: string): number {
    this.need(at, 4, what);
    return this.#view.getUint32(this.start + at, true);
  }

  /** Little-endian i32 at `at`. */
  i32(at: number, what: string): number {
    this.need(at, 4, what);
    return this.#view.getInt32(this.start + at, true);
  }

  /** Little-endian f32 at `at` (any value, NaN included). */
  f32(at: number, what: string): number {
    this.need(at, 4, what);
    return this.#view.getFloat32(this.start + at, true);
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
    return new ByteWindow(this.bytes, this.start + at, size, format, this.file);
  }

  /** The window's bytes (a view, not a copy). */
  view(at = 0, size = this.length - at): Uint8Array {
    this.need(at, size, "data");
    return this.bytes.subarray(this.start + at, this.start + at + size);
  }

  /** A Latin-1 string of at most `max` bytes that ends at the first NUL or the end of the range. */
  cString(at: number, max: number): string {
    const end = Math.min(this.length, at + max);
    let s = "";
    for (let i = this.start + at; i < this.start + end; i++) {
      const b = this.bytes[i];
      if (b === 0) break;
      s += String.fromCharCode(b);
    }
    return s;
  }
}
