/**
 * The registry of node types and plug-ins. Built-ins and custom modules register the same way;
 * a graph that names custom modules runs against a child registry, so one graph's modules never
 * leak into another's.
 *
 * @module
 */
import type { AnyNodeDef, DecoderPlugin, ParamSpecs, Plugin, PluginTables, ResolverPlugin } from "./node.ts";

/** Type ids are `category.name`, lower snake case; `graph` is reserved for node groups. */
const TYPE_ID = /^[a-z][a-z0-9_]*(\.[a-z0-9][a-z0-9_]*)+$/;

/**
 * Node types and plug-ins by name.
 *
 * @example
 * ```ts
 * import { createRegistry, defineNode } from "./mod.ts";
 *
 * const double = defineNode({
 *   type: "math.double",
 *   version: 1,
 *   doc: "Doubles a number.",
 *   inputs: { value: { type: "number", doc: "The number to double." } },
 *   outputs: { value: { type: "number", doc: "Twice the input." } },
 *   params: {},
 *   run: ({ inputs }) => ({ value: inputs.value * 2 }),
 * });
 * const registry = createRegistry([{ nodes: [double] }]);
 * console.log(registry.get("math.double")?.doc);
 * ```
 */
export class Registry implements PluginTables {
  readonly #nodes = new Map<string, AnyNodeDef>();
  readonly #decoders: DecoderPlugin[] = [];
  readonly #resolvers: ResolverPlugin[] = [];
  readonly #implDigests = new Map<string, string>();
  /** Source digests of the custom modules resolver plug-ins came from (built-ins have none). */
  readonly #pluginDigests = new Map<ResolverPlugin, string>();
  /** Nodes with `pluginParams`, as seen with their plug-ins' parameters; cleared on `register`. */
  readonly #withPluginParams = new Map<string, AnyNodeDef>();

  /** Registers every node and plug-in of a module. `implDigest` (custom modules) goes into cache keys. */
  register(plugin: Plugin, implDigest?: string): this {
    for (const node of plugin.nodes ?? []) {
      if (!TYPE_ID.test(node.type)) {
        throw new TypeError(`node type '${node.type}' must look like 'category.name' (lower snake case)`);
      }
      if (!Number.isInteger(node.version) || node.version < 1) {
        throw new TypeError(`node type '${node.type}' needs an integer version >= 1`);
      }
      if (this.#nodes.has(node.type) && this.#nodes.get(node.type) !== node) {
        throw new TypeError(`node type '${node.type}' is already registered`);
      }
      this.#nodes.set(node.type, node);
      if (implDigest) this.#implDigests.set(node.type, implDigest);
    }
    for (const resolver of plugin.resolvers ?? []) {
      if (resolver.version !== undefined && !(Number.isInteger(resolver.version) && resolver.version >= 1)) {
        throw new TypeError(`resolver '${resolver.formats.join("/")}' needs an integer version >= 1`);
      }
      if (implDigest) this.#pluginDigests.set(resolver, implDigest);
    }
    this.#decoders.push(...plugin.decoders ?? []);
    this.#resolvers.push(...plugin.resolvers ?? []);
    this.#withPluginParams.clear();
    // Conflicting plug-in parameters are a registration error, not a surprise at the first graph.
    for (const type of this.#nodes.keys()) this.get(type);
    return this;
  }

  /** The definition of a node type (with the parameters its plug-ins declare), or undefined. */
  get(type: string): AnyNodeDef | undefined {
    const node = this.#nodes.get(type);
    if (!node?.pluginParams) return node;
    let seen = this.#withPluginParams.get(type);
    if (!seen) this.#withPluginParams.set(type, seen = { ...node, params: this.#mergedParams(node) });
    return seen;
  }

  /** Every registered node, sorted by type id. */
  list(): AnyNodeDef[] {
    return [...this.#nodes.keys()].sort().map((type) => this.get(type)!);
  }

  /** A node's own parameters followed by those its plug-ins declare, each name claimed once. */
  #mergedParams(node: AnyNodeDef): ParamSpecs {
    const params: Record<string, ParamSpecs[string]> = { ...node.params };
    const owners = new Map(Object.keys(node.params).map((name) => [name, node.type]));
    for (const { owner, params: declared } of node.pluginParams!(this)) {
      for (const [name, spec] of Object.entries(declared)) {
        if (name in params && params[name] !== spec) {
          throw new TypeError(
            `parameter '${name}' of '${node.type}' is declared by both ${owners.get(name)} and ${owner}; ` +
              "share one spec object or choose another name",
          );
        }
        params[name] = spec;
        owners.set(name, owner);
      }
    }
    return params;
  }

  /** Digest of a custom node's module source, if it came from one. */
  implDigest(type: string): string | undefined {
    return this.#implDigests.get(type);
  }

  /** Digest of the custom module a resolver plug-in came from, if it came from one. */
  pluginDigest(plugin: ResolverPlugin): string | undefined {
    return this.#pluginDigests.get(plugin);
  }

  /** Decoder plug-ins in registration order (custom ones after built-ins). */
  get decoders(): readonly DecoderPlugin[] {
    return this.#decoders;
  }

  /** Resolver plug-ins in registration order. */
  get resolvers(): readonly ResolverPlugin[] {
    return this.#resolvers;
  }

  /** A new registry with everything this one has, to which a graph's custom modules are added. */
  child(): Registry {
    const copy = new Registry();
    for (const [type, node] of this.#nodes) copy.#nodes.set(type, node);
    for (const [type, digest] of this.#implDigests) copy.#implDigests.set(type, digest);
    for (const [plugin, digest] of this.#pluginDigests) copy.#pluginDigests.set(plugin, digest);
    copy.#decoders.push(...this.#decoders);
    copy.#resolvers.push(...this.#resolvers);
    return copy;
  }
}

/**
 * A registry holding the given plug-ins, registered in order. The core knows no node of its own:
 * the built-ins are one list of plug-ins among others (`BUILTIN_PLUGINS` in `nodes/mod.ts`).
 *
 * @example
 * ```ts
 * import { createRegistry } from "./mod.ts";
 *
 * const empty = createRegistry();
 * console.log(empty.list().length); // 0
 * ```
 */
export function createRegistry(plugins: readonly Plugin[] = []): Registry {
  const registry = new Registry();
  for (const plugin of plugins) registry.register(plugin);
  return registry;
}
