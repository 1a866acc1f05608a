/**
 * The one little-endian byte writer the test encoders share (the inverse of `runtime/binary.ts`'s
 * reader): sequential writes at a cursor, and writes at a given offset for fixed record layouts.
 *
 * @module
 */

type Field = "Uint16" | "Int16" | "Uint32" | "Int32" | "Float32";

/** Little-endian writes into a buffer of known size. */
export class ByteWriter {
  /** Where the next sequential write goes. */
  at = 0;
  /** The buffer written into. */
  readonly bytes: Uint8Array;
  readonly #view: DataView;

  /** A writer over a new zeroed buffer of `size` bytes, or over `bytes`. */
  constructor(size: number | Uint8Array) {
    this.bytes = typeof size === "number" ? new Uint8Array(size) : size;
    this.#view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
  }

  #put(field: Field, size: number, at: number | undefined, value: number): void {
    const offset = at ?? this.at;
    this.#view[`set${field}`](offset, value, true);
    if (at === undefined) this.at += size;
  }

  /** u16 at the cursor, or at `at` (cursor unchanged). */
  u16(value: number, at?: number): void {
    this.#put("Uint16", 2, at, value);
  }
  /** i16 at the cursor, or at `at`. */
  i16(value: number, at?: number): void {
    this.#put("Int16", 2, at, value);
  }
  /** u32 at the cursor, or at `at`. */
  u32(value: number, at?: number): void {
    this.#put("Uint32", 4, at, value);
  }
  /** i32 at the cursor, or at `at`. */
  i32(value: number, at?: number): void {
    this.#put("Int32", 4, at, value);
  }
  /** f32 at the cursor, or at `at`. */
  f32(value: number, at?: number): void {
    this.#put("Float32", 4, at, value);
  }
  /** Raw bytes at the cursor, or at `at`. */
  raw(data: Uint8Array, at?: number): void {
    this.bytes.set(data, at ?? this.at);
    if (at === undefined) this.at += data.byteLength;
  }
  /** `text` as Latin-1 in a NUL-padded field of `field` bytes (at most `field - 1` kept, so it stays terminated). */
  text(text: string, field: number): void {
    for (let i = 0; i < Math.min(text.length, field - 1); i++) {
      this.bytes[this.at + i] = text.charCodeAt(i) & 0xff;
    }
    this.at += field;
  }
  /** The buffer, after checking the sequential writes filled it exactly. */
  finish(): Uint8Array {
    if (this.at !== this.bytes.byteLength) {
      throw new Error(`encoder wrote ${this.at} of ${this.bytes.byteLength} bytes`);
    }
    return this.bytes;
  }
}
