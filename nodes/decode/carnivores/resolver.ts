/**
 * The Carnivores resolver for `constraints.resolve`: turns the `.3df` bone table the decoder kept
 * into joints and a glTF skin (the work is in `resolver_run.ts`, loaded on first use).
 *
 * @module
 */
import { importOnUse, preloadWith } from "../../../runtime/lazy_run.ts";
import type { ResolverPlugin } from "../../../runtime/node.ts";

/**
 * Resolver plug-in for scenes decoded from `.3df`, `.car`, `.rsc` and `.3dn` (each object with bones gets
 * its own skeleton).
 *
 * @example
 * ```ts
 * export const carnivoresPlugin = { nodes: [decode3df], resolvers: [carnivoresResolver] };
 * ```
 */
export const carnivoresResolver: ResolverPlugin = {
  formats: ["3df", "car", "rsc", "3dn"],
  // 2: a vertex owner of -1 (0xFFFF, "no bone") binds to the root bone, not to bone 0.
  // 3: pivots one scale (×16, ×10, ×100 or the inverse) off all their points are read at that scale.
  version: 3,
  // Joints and bones change the hierarchy and add skin accessors; no vertex is rewritten.
  sharesVertexData: true,
  // Every `.car` (and a glTF written from one) has no bones: passed through, never copied.
  hasWork: async (scene) => (await resolverRun()).hasBonesToResolve(scene),
  resolve: preloadWith(async (args) => (await resolverRun()).resolveCarnivoresScene(args), resolverRun),
};

/** The resolver's work, imported on first use (or ahead of it: a batch worker's preload). */
function resolverRun() {
  return importOnUse<typeof import("./resolver_run.ts")>("./resolver_run.ts", import.meta.url);
}
