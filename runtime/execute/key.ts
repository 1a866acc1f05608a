/**
 * Cache keys: SHA-256 over the canonical JSON encoding of one object holding everything that
 * shapes a node's output — the key schema, the node type, its implementation version (and custom
 * module digest), the versions of the tools that shape output bytes, its parameters after defaults
 * (or a source's content fingerprint), the keys of its inputs, the version of every node its
 * run function can reach through `ctx.invoke`, and the version of every plug-in it `uses`.
 *
 * @module
 */
import { canonicalJson, sha256Hex, valueDigest } from "../canonical.ts";
import { encodeValue } from "../cache/codec.ts";
import type { AnyNodeDef, JsonValue, SocketType } from "../node.ts";
import type { FileDigest } from "../cache/disk.ts";
import type { Registry } from "../registry.ts";
import { TOOL_VERSIONS } from "../version.ts";

/**
 * Bumped whenever the shape of {@link KeyMaterial} changes, or what a stored value holds (4: scenes
 * keep node transforms within 1e-5 of the default, which GLB entries before it lost; 5: a scene keeps
 * the NaN and ±Infinity of its extras, and the places a copy nulled, beside its GLB), so older cache
 * entries miss.
 */
export const KEY_SCHEMA = 5;

/** The version (and custom module digest) of one node type, as keys record it. */
export interface NodeVersion {
  /** The declaration's `version`. */
  readonly version: number;
  /** Digest of the custom module the type came from; null for built-ins. */
  readonly impl: string | null;
}

/** The version (and custom module digest) of one plug-in a node uses, as keys record it. */
export interface PluginVersion {
  /** The formats it handles, e.g. `cmp/3db`. */
  readonly name: string;
  /** The plug-in's `version` (1 when it declares none). */
  readonly version: number;
  /** Digest of the custom module the plug-in came from; null for built-ins. */
  readonly impl: string | null;
}

/** Everything a node's cache key is made of, as one object. */
export interface KeyMaterial {
  /** The node type id. */
  readonly type: string;
  /** The node type's own version. */
  readonly node: NodeVersion;
  /** Parameters after defaults, or the fingerprint that replaces them. */
  readonly params: JsonValue;
  /** The key of each input's value, by socket name. */
  readonly inputs: Readonly<Record<string, string>>;
  /** The versions of every node type `ctx.invoke` can reach from this node, by type. */
  readonly invokes: Readonly<Record<string, NodeVersion>>;
  /** The plug-ins the node `uses`, in registration order (which decides the one that is chosen). */
  readonly plugins: readonly PluginVersion[];
}

/**
 * The cache key of a node's result: SHA-256 hex of the canonical JSON of the key material plus the
 * key schema and tool versions.
 *
 * @example
 * ```ts
 * const key = actionKey({
 *   type: "test.const",
 *   node: { version: 1, impl: null },
 *   params: { value: 2 },
 *   inputs: {},
 *   invokes: {},
 *   plugins: [],
 * });
 * console.log(key.length); // 64
 * ```
 */
export function actionKey(material: KeyMaterial): string {
  // The canonical JSON of `{ schema, tools, ...material }`, its keys in sorted order, spelled out so
  // the tool versions (the same for every node of every run) are encoded once per process.
  const { inputs, invokes, node, params, plugins, type } = material;
  return sha256Hex(
    `{"inputs":${canonicalJson(inputs)},"invokes":${canonicalJson(invokes)},"node":${canonicalJson(node)},` +
      `"params":${canonicalJson(params)},"plugins":${canonicalJson(plugins)},"schema":${KEY_SCHEMA},` +
      `"tools":${TOOLS_JSON},` +
      `"type":${canonicalJson(type)}}`,
  );
}

const TOOLS_JSON = canonicalJson(TOOL_VERSIONS);

/** The key of an uncached node's result: what it actually produced, by output name. */
export function producedKey(digests: Readonly<Record<string, string>>): string {
  return sha256Hex(canonicalJson({ schema: KEY_SCHEMA, produced: digests }));
}

/** The version record of a registered node type. */
export function nodeVersion(registry: Registry, def: AnyNodeDef): NodeVersion {
  return { version: def.version, impl: registry.implDigest(def.type) ?? null };
}

/** The version records of the node types a node can invoke (see {@link reachableInvokes}), by type. */
export function invokeVersions(
  registry: Registry,
  reachable: ReadonlyMap<string, AnyNodeDef>,
): Record<string, NodeVersion> {
  const versions: Record<string, NodeVersion> = {};
  for (const [type, target] of reachable) versions[type] = nodeVersion(registry, target);
  return versions;
}

/** The version records of the plug-ins a node `uses`. */
export function pluginVersions(registry: Registry, def: AnyNodeDef): PluginVersion[] {
  return (def.uses?.(registry) ?? []).map((plugin) => ({
    name: plugin.formats.join("/"),
    version: plugin.version ?? 1,
    impl: registry.pluginDigest(plugin) ?? null,
  }));
}

/**
 * The node types a node's run function can reach through `ctx.invoke`: what it declares in
 * `invokes`, and what those declare, transitively (a worklist, so any depth is fine). Throws when a
 * declared type is not registered: its version could not be part of the key.
 */
export function reachableInvokes(registry: Registry, def: AnyNodeDef): Map<string, AnyNodeDef> {
  const reached = new Map<string, AnyNodeDef>();
  const pending = [def];
  while (pending.length) {
    const from = pending.pop()!;
    for (const type of from.invokes?.(registry) ?? []) {
      if (reached.has(type)) continue;
      const target = registry.get(type);
      if (!target) throw new Error(`'${from.type}' declares it invokes '${type}', which is not registered`);
      reached.set(type, target);
      pending.push(target);
    }
  }
  return reached;
}

/** Content digest of a value of a socket type (for manifests, graph inputs and uncached nodes). */
export async function contentDigest(type: SocketType, value: unknown): Promise<string> {
  const encoded = await encodeValue(type, value);
  const meta = encoded.meta === undefined ? "" : canonicalJson(encoded.meta);
  return valueDigest(encoded.bytes) + (meta ? `:${sha256Hex(meta)}` : "");
}

/**
 * The key a node's dependents see. A node that read files through `ctx.readFile`/`listDir` is
 * recomputed under the same key when one of them changes, so its dependents must see the files'
 * digests too, or they would be served results made from the old contents. A source keyed by a
 * fingerprint of what it reads has them in its key already (and a moved file keeps them warm).
 */
export function dependentsKey(def: AnyNodeDef, key: string, reads: readonly FileDigest[]): string {
  if (!reads.length || def.fingerprint) return key;
  const sorted = [...reads].sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  return sha256Hex(canonicalJson({ key, reads: sorted.map((r) => [r.path, r.sha256]) }));
}
