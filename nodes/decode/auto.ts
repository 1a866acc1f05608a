/**
 * `decode.auto` — picks the decoder for some bytes, like three.js picks a loader plug-in: magic
 * bytes first, then the file extension. Decoders plug in through `Plugin.decoders`; see
 * {@link DecoderPlugin}.
 *
 * @module
 */
import { importOnUse, preloadWith } from "../../runtime/lazy_run.ts";
import { defineNode, type JsonValue } from "../../runtime/node.ts";
import { DecodeError } from "../../runtime/errors.ts";
import { mistakenFile } from "../../runtime/mistaken_file.ts";

/**
 * What the run imports, on its first call or ahead of it (a batch worker's preload, which loads the
 * decoders it invokes too): not to declare the node.
 */
const runModules = () =>
  importOnUse<typeof import("../../runtime/decoders.ts")>("../../runtime/decoders.ts", import.meta.url);

/** `decode.auto` node definition. */
export const decodeAuto = defineNode({
  type: "decode.auto",
  version: 4,
  doc: "Decodes any supported model format, chosen by magic bytes, then by file extension.",
  inputs: { bytes: { type: "bytes", doc: "A model file." } },
  outputs: { scene: { type: "scene", doc: "The decoded scene." } },
  params: {
    options: {
      type: "json",
      default: {},
      doc: 'Parameters for whichever decoder is chosen, by name (e.g. {"scale": 0.0145} for Carnivores); ' +
        "names that decoder does not declare are reported as warnings.",
      schema: { type: "object" },
      check: (v) => v && typeof v === "object" && !Array.isArray(v) ? undefined : "expected an object",
      // Each option is checked against every decoder that declares it, when the graph is checked.
      members: (plugins) =>
        plugins.decoders.map((d) => ({ owner: d.node, params: plugins.get(d.node)?.params ?? {} })),
    },
  },
  invokes: (plugins) => plugins.decoders.map((d) => d.node),
  run: preloadWith(async ({ inputs, params, ctx }) => {
    const { pickDecoder } = await runModules();
    const decoder = pickDecoder(ctx.plugins, inputs.bytes);
    if (!decoder) {
      const known = ctx.plugins.decoders.map((d) => d.extensions.join("/")).join(", ");
      throw new DecodeError({
        format: "auto",
        at: { offset: 0 },
        expected: `a known format (${known})`,
        found: `${mistakenFile(inputs.bytes.bytes) ?? "unrecognised bytes"} in '${inputs.bytes.name}'`,
        file: inputs.bytes.name,
      });
    }
    const options = params.options as Record<string, JsonValue>;
    const declared = ctx.plugins.get(decoder.node)?.params ?? {};
    const unknown = Object.keys(options).filter((name) => !(name in declared));
    if (unknown.length) {
      ctx.warn(`decoder '${decoder.node}' has no parameter(s) ${unknown.join(", ")}; ignored`);
    }
    const known = Object.fromEntries(Object.entries(options).filter(([name]) => name in declared));
    const out = await ctx.invoke(decoder.node, { bytes: inputs.bytes }, known);
    return { scene: out.scene as never };
  }, runModules),
});
