/**
 * How many glTF-Transform nodes a piece of work creates: a count of the copies it makes of a scene
 * of many nodes, without timing anything.
 *
 * @module
 */
import { Node } from "@gltf-transform/core";

/**
 * The `Node`s glTF-Transform creates while `body` runs (every `Node` constructor calls `init`).
 *
 * @example
 * ```ts
 * const made = await nodesCreated(() => runNode(constraintsResolve, { scene }));
 * ```
 */
export async function nodesCreated(body: () => Promise<unknown>): Promise<number> {
  // `init` is protected in the types; the prototype's own method is what every constructor calls.
  const proto = Node.prototype as unknown as { init(this: Node): void };
  const init = proto.init;
  let count = 0;
  proto.init = function (this: Node) {
    count++;
    init.call(this);
  };
  try {
    await body();
  } finally {
    proto.init = init;
  }
  return count;
}
