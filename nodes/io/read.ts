/**
 * `io.read` — reads a file into a `bytes` value. Keyed by the file's content, not its path: moving a
 * file keeps the cache warm, editing it in place re-runs everything downstream.
 *
 * @module
 */
import { basename } from "node:path";
import { defineNode } from "../../runtime/node.ts";
import { sha256Hex } from "../../runtime/canonical.ts";

/** `io.read` node definition. */
export const ioRead = defineNode({
  type: "io.read",
  version: 1,
  doc: "Reads a file into bytes (with its file name, used for format sniffing).",
  inputs: {},
  outputs: { bytes: { type: "bytes", doc: "The file's contents and name." } },
  params: {
    path: { type: "path", access: "read", doc: "File to read, relative to the working directory." },
  },
  async fingerprint({ path }, ctx) {
    return { sha256: sha256Hex(await ctx.readFile(path)), name: basename(path) };
  },
  async run({ params, ctx }) {
    return { bytes: { bytes: await ctx.readFile(params.path), name: basename(params.path) } };
  },
});
