/**
 * `io.write` — writes bytes to a file inside the run's output directory, atomically (temp file +
 * rename): readers never see a partial file, and a failed run leaves the old file in place.
 *
 * @module
 */
import { defineNode } from "../../runtime/node.ts";

/** `io.write` node definition. */
export const ioWrite = defineNode({
  type: "io.write",
  version: 1,
  doc: "Writes bytes to a file in the output directory, atomically (temp file + rename).",
  inputs: { bytes: { type: "bytes", doc: "What to write." } },
  outputs: { path: { type: "string", doc: "The path written." } },
  params: {
    path: { type: "path", access: "write", doc: "Target file, relative to the output directory." },
  },
  sink: true,
  async run({ inputs, params, ctx }) {
    await ctx.writeFile(params.path, inputs.bytes.bytes);
    return { path: params.path };
  },
});
