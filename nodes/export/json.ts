/**
 * `export.json` — a JSON value to file bytes (for rig reports, constraint tables), with keys in a
 * stable order so the same value always gives the same bytes.
 *
 * @module
 */
import { importOnUse, preloadWith } from "../../runtime/lazy_run.ts";
import { defineNode } from "../../runtime/node.ts";

/** What the run imports, on its first call or ahead of it (a batch worker's preload): not to declare the node. */
const runModules = () =>
  importOnUse<typeof import("../../runtime/canonical.ts")>("../../runtime/canonical.ts", import.meta.url);

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
  run: preloadWith(async ({ inputs, params }) => {
    const { sortKeysDeep } = await runModules();
    const text = JSON.stringify(sortKeysDeep(inputs.json), null, 2) + "\n";
    return { bytes: { bytes: new TextEncoder().encode(text), name: `${params.name}.json` } };
  }, runModules),
});
