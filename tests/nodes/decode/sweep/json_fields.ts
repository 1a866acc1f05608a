/**
 * Sweep cases for JSON formats (glTF, GLB's JSON chunk, DSON): a number or link of the parsed JSON
 * set to a boundary value and the file written back — a GLB with its JSON chunk replaced (its BIN
 * chunk, and any after it, kept byte for byte), a text file re-serialised. The field walkers
 * (`gltf_fields.ts`, `dson_fields.ts`) choose which members and which values.
 *
 * @module
 */
import type { Case } from "./cases.ts";

// deno-lint-ignore no-explicit-any
export type Json = any;

/** One step of a JSON path: a member name or an array index. */
export type Step = string | number;

/** A JSON file and how to write it back. */
export interface JsonFile {
  readonly json: Json;
  /** Where the BIN chunk's data starts in the file (a GLB with one), else undefined. */
  readonly binStart?: number;
  /** The bytes of the file with `json` as its JSON. */
  write(json: Json): Uint8Array;
}

const encoder = new TextEncoder();

/** `bytes` as a JSON file: a GLB (version 2 or 1) or JSON text; undefined when neither parses. */
export function jsonFile(bytes: Uint8Array): JsonFile | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength >= 20 && view.getUint32(0, true) === 0x46546c67) {
    const version = view.getUint32(4, true);
    const length = view.getUint32(12, true);
    // GLB 1: a 20-byte header whose content (JSON) follows at once, the body after it.
    const start = 20;
    const json = JSON.parse(new TextDecoder().decode(bytes.subarray(start, start + length)));
    const tail = bytes.slice(start + length);
    return {
      json,
      binStart: version === 2 ? start + length + 8 : start + length,
      write(edited: Json) {
        const text = encoder.encode(JSON.stringify(edited));
        const padded = version === 2 ? Math.ceil(text.length / 4) * 4 : text.length;
        const out = new Uint8Array(20 + padded + tail.length);
        out.set(text, 20);
        out.fill(0x20, 20 + text.length, 20 + padded);
        out.set(tail, 20 + padded);
        const header = new DataView(out.buffer);
        header.setUint32(0, 0x46546c67, true);
        header.setUint32(4, version, true);
        header.setUint32(8, out.length, true);
        header.setUint32(12, padded, true);
        header.setUint32(16, view.getUint32(16, true), true);
        return out;
      },
    };
  }
  try {
    const json = JSON.parse(new TextDecoder().decode(bytes));
    return { json, write: (edited: Json) => encoder.encode(JSON.stringify(edited)) };
  } catch {
    return undefined;
  }
}

/** The value at `path` in `json` (undefined when a step is missing). */
export function at(json: Json, path: readonly Step[]): Json {
  let value = json;
  for (const step of path) value = value?.[step];
  return value;
}

/** `path` as a JSON pointer, the way decoders name it (`/accessors/0/count`). */
export function pointer(path: readonly Step[]): string {
  return "/" + path.join("/");
}

/** The first, second and last index of `n` (all when few): where off-by-ones show. */
export function pick(n: number): number[] {
  return [...new Set([0, 1, n - 1].filter((i) => i >= 0 && i < n))];
}

/** Values no count, length or index can take: out of the int32 and uint32 ranges, and a fraction. */
export const OUT_OF_RANGE = [2 ** 31 - 1, 2 ** 32, 1e15, 0.5] as const;

/** Collects the JSON cases of one file. */
export class JsonCases {
  readonly list: Case[] = [];
  constructor(readonly file: JsonFile) {}

  /** One case per distinct value of `values` (finite, different from the current one) at `path`. */
  set(path: readonly Step[], values: readonly unknown[], field = pointer(path)): void {
    const original = at(this.file.json, path);
    const seen = new Set<string>();
    for (const value of values) {
      if (typeof value === "number" && !Number.isFinite(value)) continue;
      const text = JSON.stringify(value);
      if (value === original || seen.has(text)) continue;
      seen.add(text);
      this.change(field, text, (json) => {
        const parent = at(json, path.slice(0, -1));
        parent[path[path.length - 1]] = structuredClone(value);
      });
    }
  }

  /** One case of any edit (several members at once: a cycle, an array cut short). */
  change(field: string, value: string, edit: (json: Json) => void): void {
    const { file } = this;
    this.list.push({
      field,
      value,
      edits: {
        build: () => {
          const json = structuredClone(file.json);
          edit(json);
          return file.write(json);
        },
      },
    });
  }
}
