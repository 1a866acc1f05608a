/**
 * `constraints.resolve` — turns the raw constraint records a decoder kept (Freelancer `Cons` joints,
 * Carnivores bones, DSON rigidity groups) into a part hierarchy. Formats plug in resolvers through
 * `Plugin.resolvers`; the resolver is chosen by the source format recorded on the scene, and each
 * resolver declares the parameters it reads, which this node takes at the top level.
 *
 * @module
 */
import { importOnUse, preloadWith } from "../../runtime/lazy_run.ts";
import {
  defineNode,
  type JsonValue,
  type ParamSpecs,
  type ResolverPlugin,
  type WarningSink,
} from "../../runtime/node.ts";
import { getSourceInfo } from "../../runtime/scene/source.ts";

/**
 * What the run imports, on its first call or ahead of it (a batch worker's preload; the resolvers
 * preload their own): not to declare the node, which would load glTF-Transform.
 */
const runModules = () =>
  Promise.all([
    importOnUse<typeof import("../../runtime/params.ts")>("../../runtime/params.ts", import.meta.url),
    importOnUse<typeof import("../../runtime/scene/copy.ts")>("../../runtime/scene/copy.ts", import.meta.url),
  ]);

/** `constraints.resolve` node definition. */
export const constraintsResolve = defineNode({
  type: "constraints.resolve",
  version: 1,
  doc: "Resolves a decoded scene's constraint records (joints, bones, rigidity groups) into a part " +
    "hierarchy; the resolver is chosen by the scene's source format, and its parameters are this " +
    "node's. A scene with nothing to resolve passes through unchanged.",
  inputs: { scene: { type: "scene", doc: "A decoded scene with raw constraint records." } },
  outputs: { scene: { type: "scene", doc: "The scene with its hierarchy resolved." } },
  params: {},
  uses: (plugins) => plugins.resolvers,
  pluginParams: (plugins) =>
    plugins.resolvers.map((r) => ({ owner: `the ${r.formats.join("/")} resolver`, params: r.params ?? {} })),
  run: preloadWith(async ({ inputs, params, ctx }) => {
    const [{ withDefaults }, { copyScene }] = await runModules();
    const format = getSourceInfo(inputs.scene)?.format;
    const resolver = ctx.plugins.resolvers.find((r) => format && r.formats.includes(format));
    // Changing only the hierarchy costs less than loading a stored scene: the cache keeps no copy.
    if (!resolver || resolver.sharesVertexData) ctx.cheapToRecompute();
    if (!resolver) {
      // A scene from a format without constraint records (glTF) has nothing to resolve; a format
      // whose resolver is missing is worth a word.
      if (format) ctx.warn(`no constraint resolver for source format '${format}'; scene passed through`);
      return { scene: inputs.scene };
    }
    const given = params as Record<string, JsonValue>;
    warnUnused(given, resolver.params ?? {}, ctx.plugins.resolvers, format!, ctx.warn);
    // Nothing to resolve (every `.car`): the scene as it is, not a copy of it, and not asked for.
    if (resolver.hasWork && !(await resolver.hasWork(inputs.scene))) return { scene: inputs.scene };
    // A resolver that writes no vertex data works on the input itself when this node owns it.
    const scene = resolver.sharesVertexData && ctx.owns("scene")
      ? inputs.scene
      : copyScene(inputs.scene, { shareData: resolver.sharesVertexData });
    await resolver.resolve({ scene, params: withDefaults(resolver.params ?? {}, given), ctx });
    return { scene };
  }, runModules),
});

/** Warns about parameters set (to other than their default) that the chosen resolver does not read. */
function warnUnused(
  given: Record<string, JsonValue>,
  declared: ParamSpecs,
  resolvers: readonly ResolverPlugin[],
  format: string,
  warn: WarningSink,
): void {
  for (const [name, value] of Object.entries(given)) {
    if (name in declared) continue;
    const owner = resolvers.find((r) => r.params && name in r.params);
    if (owner && JSON.stringify(value) === JSON.stringify(owner.params![name].default)) continue;
    const whose = owner ? ` (the ${owner.formats.join("/")} resolver's)` : "";
    warn(`'${format}' scenes take no parameter '${name}'${whose}; it is ignored`);
  }
}
