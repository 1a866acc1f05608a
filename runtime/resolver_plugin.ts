/**
 * Constraint resolver plug-ins: what `constraints.resolve` dispatches to by a scene's source format
 * (declared here, beside the node API in `node.ts`, which re-exports them).
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import type { ParamSpecs, ParamValues, RunContext } from "./node.ts";

/** Arguments a {@link ResolverPlugin} receives from `constraints.resolve`. */
export interface ResolveArgs<P extends ParamSpecs = ParamSpecs> {
  /**
   * The scene to resolve in place: a private copy of the input, or (for a resolver that
   * {@link ResolverPlugin.sharesVertexData}) the input itself when `constraints.resolve` owns it.
   */
  readonly scene: Document;
  /** The parameters the resolver declares, checked against their specs, with defaults applied. */
  readonly params: Readonly<ParamValues<P>>;
  /** The `constraints.resolve` node's context: warnings go here and appear against that node. */
  readonly ctx: RunContext;
}

/**
 * A constraint resolver plug-in for `constraints.resolve`: turns a decoder's raw constraint records
 * (joints, bones, rigidity groups) into a hierarchy of parts.
 */
export interface ResolverPlugin<P extends ParamSpecs = ParamSpecs> {
  /** Source formats (as recorded on the scene by decoders) this resolver handles. */
  readonly formats: readonly string[];
  /**
   * Bump whenever resolution results may change, so cached `constraints.resolve` results miss
   * (default 1). A custom module's own source is in the key already; files it imports are not.
   */
  readonly version?: number;
  /**
   * The parameters the resolver reads, declared like a node's. `constraints.resolve` takes them at
   * the top level of its own parameters; graphs are checked against these specs by the same code as
   * node parameters. A name may be declared by one plug-in only (share one spec object otherwise).
   */
  readonly params?: P;
  /**
   * True when `resolve` never writes into an accessor's array (it may add accessors and change the
   * hierarchy, transforms, names and extras): it then works on the input scene itself when
   * `constraints.resolve` owns it (`RunContext.owns`), else on a copy that shares vertex data with
   * the input: resolution then copies no vertex data (O(properties) at most, not O(vertices)).
   * Default false (a full copy).
   */
  readonly sharesVertexData?: boolean;
  /**
   * Whether `resolve` would change or warn about anything in `scene`, read without changing it. When
   * it answers false, `constraints.resolve` hands the scene on as it is, neither copied nor asked
   * for (`RunContext.owns`): a format most of whose files hold nothing to resolve (a Carnivores
   * `.car`, or a glTF a partgraph run wrote from one) then costs a look at its nodes, not a copy of
   * every property, where the node cannot own its input (the studio, watch mode). Default: always
   * resolved.
   */
  readonly hasWork?: (scene: Document) => boolean | Promise<boolean>;
  /** Resolve in place on the given scene. */
  resolve(args: ResolveArgs<P>): void | Promise<void>;
}

/** Declares a resolver, inferring the types of its parameters from their specs (as {@link defineNode}). */
export function defineResolver<const P extends ParamSpecs>(resolver: ResolverPlugin<P>): ResolverPlugin<P> {
  return resolver;
}
