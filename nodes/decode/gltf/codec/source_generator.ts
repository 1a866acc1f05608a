/**
 * The tool that wrote a glTF file (`asset.generator`), kept on the decoded scene. glTF-Transform's
 * reader overwrites the generator with its own, and `export.gltf` pins it to partgraph's, so without
 * this a user could not tell whether a model came from Blender, 3ds Max or a converter. It is kept as
 * `asset.extras.partgraph.sourceGenerator`, which travels in every file partgraph writes.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";

/** What a file partgraph wrote says in `asset.generator` (`runtime/version.ts`'s GENERATOR). */
const OWN = /^partgraph\b/;

/**
 * Records `generator` (the file's `asset.generator`, read before glTF-Transform) as
 * `asset.extras.partgraph.sourceGenerator` of `doc`'s root, in place. A file partgraph wrote keeps the
 * record it carries (the tool of the file partgraph read then) and gets none of its own, so reading
 * and writing partgraph's output again changes nothing; one without a generator, or whose
 * `asset.extras` is not an object, is left as it is.
 *
 * @example
 * ```ts ignore
 * recordSourceGenerator(doc, json.asset?.generator); // "Khronos glTF Blender I/O v3.4.50"
 * ```
 */
export function recordSourceGenerator(doc: Document, generator: unknown): void {
  if (typeof generator !== "string" || generator.trim() === "") return;
  const asset = doc.getRoot().getAsset();
  const extras = asset.extras ?? {};
  if (typeof extras !== "object" || Array.isArray(extras)) return;
  const own = (extras as Record<string, unknown>).partgraph;
  const partgraph = own && typeof own === "object" && !Array.isArray(own)
    ? own as Record<string, unknown>
    : {};
  if (own !== undefined && partgraph !== own) return; // an author's own non-object value: left alone
  // partgraph's own output already says so in its generator: the record it carries (if any) stays.
  if (OWN.test(generator)) return;
  asset.extras = { ...extras, partgraph: { ...partgraph, sourceGenerator: generator } };
}
