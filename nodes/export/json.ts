/**
 * `export.json` — a JSON value to file bytes (for rig reports, constraint tables), with keys in a
 * stable order so the same value always gives the same bytes.
 *
 * @module
 */
import { defineNode, type JsonValue } from "../../runtime/node.ts";

/** `export.json` node definition. */
export const exportJson = defineNode({
  type: "export.json",
  version: 1,
  doc: "Encodes a JSON value as a UTF-8 .json file (keys sorted, 2-space indent, final newline).",
  inputs: { json: { type: "json", doc: "The value to encode." } },
  outputs: { bytes: { type: "bytes", doc: "The .json file." } },
  params: {
    name: { type: "string", default: "data", doc: "Base file name of the output (.json added)." },
  },
  run({ inputs, params }) {
    const text = JSON.stringify(sortKeys(inputs.json), null, 2) + "\n";
    return { bytes: { bytes: new TextEncoder().encode(text), name: `${params.name}.json` } };
  },
});

function sortKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k])]));
  }
  return value;
}
