/**
 * Sweep cases: a structural field of a valid file set to one boundary value (or several fields
 * edited together, for cycles), and the bytes that result. The field walkers of each format build
 * them; the runner (`run.ts`) sends each through the decoder and the export.
 *
 * @module
 */

/**
 * How a field is stored. `float` writes the value as a float32 of the same width; `bigEndian` stores it
 * most significant byte first (PNG and JPEG headers).
 */
export interface FieldType {
  readonly bytes: 1 | 2 | 4;
  readonly signed: boolean;
  readonly min: number;
  readonly max: number;
  readonly float?: boolean;
  readonly bigEndian?: boolean;
}

/** Little-endian int32. */
export const I32: FieldType = { bytes: 4, signed: true, min: -0x80000000, max: 0x7fffffff };
/** Little-endian uint32. */
export const U32: FieldType = { bytes: 4, signed: false, min: 0, max: 0xffffffff };
/** Little-endian int16. */
export const I16: FieldType = { bytes: 2, signed: true, min: -0x8000, max: 0x7fff };
/** Little-endian uint16. */
export const U16: FieldType = { bytes: 2, signed: false, min: 0, max: 0xffff };
/** One byte. */
export const U8: FieldType = { bytes: 1, signed: false, min: 0, max: 0xff };
/** Little-endian float32. */
export const F32: FieldType = { ...I32, float: true };
/** Big-endian uint32 (a PNG header's). */
export const BE32: FieldType = { ...U32, bigEndian: true };
/** Big-endian uint16 (a JPEG header's). */
export const BE16: FieldType = { ...U16, bigEndian: true };

/** One write. */
export interface Edit {
  readonly at: number;
  readonly type: FieldType;
  readonly value: number;
}

/** One sweep case: which field, which value, and how to make the bytes. */
export interface Case {
  readonly field: string;
  readonly value: string;
  /**
   * The writes, a length to cut the file to, or (for a change that moves what follows it: a JSON
   * number re-serialised, a Draco varint rewritten) a function making the case's bytes from the seed's.
   */
  readonly edits:
    | readonly Edit[]
    | { readonly truncate: number }
    | { readonly build: (bytes: Uint8Array) => Uint8Array };
}

/** Wraps a value into a field's range the way a writer storing it would (−1 in a u32 is 0xFFFFFFFF). */
function wrap(value: number, type: FieldType): number {
  if (type.float) return value;
  const span = 2 ** (type.bytes * 8);
  let v = ((Math.trunc(value) % span) + span) % span;
  if (type.signed && v > type.max) v -= span;
  return v;
}

function readField(v: DataView, at: number, type: FieldType): number {
  const le = !type.bigEndian;
  if (type.float) return v.getFloat32(at, le);
  if (type.bytes === 1) return v.getUint8(at);
  if (type.bytes === 2) return type.signed ? v.getInt16(at, le) : v.getUint16(at, le);
  return type.signed ? v.getInt32(at, le) : v.getUint32(at, le);
}

/** Writes `value` (already wrapped into the field's range) at `at`. */
export function writeField(view: DataView, at: number, type: FieldType, value: number): void {
  const le = !type.bigEndian;
  if (type.float) view.setFloat32(at, value, le);
  else if (type.bytes === 1) view.setUint8(at, value);
  else if (type.bytes === 2) type.signed ? view.setInt16(at, value, le) : view.setUint16(at, value, le);
  else type.signed ? view.setInt32(at, value, le) : view.setUint32(at, value, le);
}

/** Collects cases for one file, dropping values that leave the field unchanged and repeated values. */
export class Cases {
  readonly list: Case[] = [];
  #view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The value stored at `at`. */
  read(at: number, type: FieldType): number {
    return readField(this.#view, at, type);
  }

  /** One case per distinct value of `values` that changes the field at `at`. */
  field(name: string, at: number, type: FieldType, values: readonly number[]): void {
    if (at < 0 || at + type.bytes > this.bytes.byteLength) return;
    const original = this.read(at, type);
    const seen = new Set<number>();
    for (const raw of values) {
      if (!type.float && !Number.isFinite(raw)) continue;
      const value = wrap(raw, type);
      if (Object.is(value, original) || seen.has(value)) continue;
      seen.add(value);
      this.list.push({ field: name, value: String(value), edits: [{ at, type, value }] });
    }
  }

  /** One case of several writes together (a cycle through several records, say). */
  edits(name: string, value: string, edits: readonly Edit[]): void {
    if (edits.every((e) => e.at >= 0 && e.at + e.type.bytes <= this.bytes.byteLength)) {
      this.list.push({
        field: name,
        value,
        edits: edits.map((e) => ({ ...e, value: wrap(e.value, e.type) })),
      });
    }
  }

  /** One case per length the file is cut to. */
  truncations(name: string, lengths: readonly number[]): void {
    for (const length of new Set(lengths)) {
      if (length >= 0 && length < this.bytes.byteLength) {
        this.list.push({ field: name, value: String(length), edits: { truncate: length } });
      }
    }
  }
}

/** The bytes of a case. */
export function applyCase(bytes: Uint8Array, c: Case): Uint8Array {
  if ("truncate" in c.edits) return bytes.slice(0, c.edits.truncate);
  if ("build" in c.edits) return c.edits.build(bytes);
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  for (const { at, type, value } of c.edits) writeField(view, at, type, value);
  return out;
}
