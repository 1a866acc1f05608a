/**
 * Choosing a decoder plug-in for some bytes, like three.js picks a loader plug-in: magic bytes
 * first, then the file extension. Used by `decode.auto` and by `partgraph inspect`.
 *
 * @module
 */
import { extname } from "node:path";
import type { BytesValue, DecoderPlugin, PluginTables } from "./node.ts";

/**
 * Finds the decoder for a file: the first whose `sniff` recognises the bytes, else the first that
 * claims the extension.
 *
 * @example
 * ```ts
 * import { createRegistry, pickDecoder } from "./mod.ts";
 *
 * const registry = createRegistry([{
 *   decoders: [{ format: "txt", node: "decode.txt", extensions: ["txt"] }],
 * }]);
 * const bytes = new TextEncoder().encode("hello");
 * console.log(pickDecoder(registry, { bytes, name: "a.TXT" })?.format); // "txt"
 * ```
 */
export function pickDecoder(plugins: PluginTables, input: BytesValue): DecoderPlugin | undefined {
  const sniffed = plugins.decoders.find((d) => d.sniff?.(input.bytes));
  if (sniffed) return sniffed;
  const ext = extname(input.name).slice(1).toLowerCase();
  return plugins.decoders.find((d) => d.extensions.includes(ext));
}
