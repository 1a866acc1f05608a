/**
 * The run context a node's function receives: tracked file access, warnings, the plug-in tables,
 * and `invoke`, which runs another node's function under the same rules a graph node gets —
 * parameters checked against its declaration, defaults applied — and only for node types the
 * caller declares in `invokes` (so their versions are part of the caller's cache key).
 *
 * @module
 */
import type { AnyNodeDef, JsonValue, RunContext } from "../node.ts";
import { checkParams, withDefaults } from "../params.ts";
import type { Registry } from "../registry.ts";
import type { Recorder, TrackedFiles } from "./files.ts";
import type { Document } from "@gltf-transform/core";
import { readyForChange } from "./values.ts";

/** What a context is made from. */
export interface ContextDeps {
  /** The registry the plan was compiled against. */
  readonly registry: Registry;
  /** The run's tracked files. */
  readonly files: TrackedFiles;
  /** Node types this node may invoke (its `invokes`, transitively). */
  readonly invokable: ReadonlyMap<string, AnyNodeDef>;
  /** Inputs whose scenes the node owns, with the scenes (see `Ownership`); none when omitted. */
  readonly owned?: ReadonlyMap<string, Document>;
}

/** Creates the context of one node run; everything it reads, writes and warns goes to `record`. */
export function createContext(
  nodeId: string,
  caller: AnyNodeDef,
  record: Recorder,
  deps: ContextDeps,
): RunContext {
  const { files, registry, invokable, owned } = deps;
  const readied = new WeakSet<Document>();
  const ctx: RunContext = {
    nodeId,
    plugins: registry,
    warn(message, detail) {
      record.warnings.push(detail ? { message, detail } : { message });
    },
    readFile: (path) => files.readFile(path, record),
    fileDigest: (path) => files.fileDigest(path, record),
    listDir: (path) => files.listDir(path, record),
    writeFile: (path, bytes) => files.writeFile(path, bytes, record),
    cheapToRecompute() {
      record.recompute = true;
    },
    owns(input) {
      const scene = owned?.get(input);
      if (!scene) return false;
      if (!readied.has(scene)) readied.add(scene), readyForChange(scene);
      return true;
    },
    async invoke(type, inputs, params: Record<string, JsonValue> = {}) {
      const target = invokable.get(type);
      if (!target) {
        throw new Error(
          registry.get(type)
            ? `'${caller.type}' invoked '${type}' without declaring it in invokes (its version would be missing from the cache key)`
            : `unknown node type '${type}'`,
        );
      }
      const problems = checkParams(target.params, params);
      if (problems.length) throw new Error(`invoking '${type}': ${problems.join("; ")}`);
      // The caller passes values it holds (and may still use): the invoked node owns none of them.
      const invoked: RunContext = { ...ctx, owns: () => false };
      return await target.run({ inputs, params: withDefaults(target.params, params), ctx: invoked });
    },
  };
  return ctx;
}
