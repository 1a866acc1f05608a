/**
 * The work of `scene.uninstance` (declared in `uninstance.ts`), loaded on the node's first run.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { InstancedMesh } from "@gltf-transform/extensions";
import type { NodeRun } from "../../runtime/lazy_run.ts";
import type { sceneUninstance } from "./uninstance.ts";
import { sceneToChange } from "../../runtime/scene/copy.ts";
import { DecodeError } from "../../runtime/errors.ts";

const EXTENSION = "EXT_mesh_gpu_instancing";
/**
 * The most instances expanded in one scene: each becomes a node, and a file of a few kilobytes can
 * declare millions (a forest of them is for a client that reads the extension).
 */
export const MAX_INSTANCES = 100_000;

/** Expands every instanced mesh into child nodes; a scene without any passes through as it is. */
export const run: NodeRun<typeof sceneUninstance> = ({ inputs, params, ctx }) => {
  // The scene shares its vertex data with the input: running again costs less than loading a copy.
  ctx.cheapToRecompute();
  const instanced = (node: Node) => node.getExtension<InstancedMesh>(EXTENSION);
  const nodes = inputs.scene.getRoot().listNodes();
  if (!params.enabled || !nodes.some((n) => instanced(n) && n.getMesh())) return { scene: inputs.scene };
  let total = 0;
  for (const [i, node] of nodes.entries()) {
    const batch = instanced(node);
    total += batch ? count(batch) : 0;
    if (total > MAX_INSTANCES) {
      throw new DecodeError({
        format: "gltf",
        at: { jsonPath: `/nodes/${i}/extensions/${EXTENSION}` },
        expected:
          `at most ${MAX_INSTANCES} instances in all to expand into nodes (keep the extension for a ` +
          "client that reads it)",
        found: `${total} by this node`,
      });
    }
  }
  const scene = sceneToChange(inputs.scene, ctx.owns("scene"));
  for (const node of scene.getRoot().listNodes()) {
    const batch = instanced(node);
    const mesh = node.getMesh();
    if (!batch || !mesh) continue;
    const at = (semantic: string, i: number, size: number) =>
      batch.getAttribute(semantic)?.getElement(i, new Array(size).fill(0));
    const weights = node.getWeights();
    for (let i = 0, n = count(batch); i < n; i++) {
      const child = scene.createNode(`${node.getName() || "instance"}_${i}`).setMesh(mesh);
      const [t, r, s] = [at("TRANSLATION", i, 3), at("ROTATION", i, 4), at("SCALE", i, 3)];
      if (t) child.setTranslation(t as [number, number, number]);
      if (r) child.setRotation(r as [number, number, number, number]);
      if (s) child.setScale(s as [number, number, number]);
      if (weights.length) child.setWeights(weights);
      node.addChild(child);
    }
    const others = batch.listSemantics().filter((s) => !["TRANSLATION", "ROTATION", "SCALE"].includes(s));
    if (others.length) {
      ctx.warn(
        `node '${node.getName()}': instance attributes ${others.join(", ")} have no node to go to; dropped`,
      );
    }
    const accessors = batch.listAttributes();
    node.setMesh(null);
    batch.dispose();
    // An accessor only the instancing used would be written as an unused one.
    for (const accessor of accessors) if (accessor.listParents().length <= 1) accessor.dispose();
  }
  for (const extension of scene.getRoot().listExtensionsUsed()) {
    if (extension.extensionName === EXTENSION) extension.dispose();
  }
  return { scene };
};

/** How many instances a batch draws: the count of its attributes (all equal, the extension says). */
function count(batch: InstancedMesh): number {
  const first = batch.listSemantics()[0];
  return first ? batch.getAttribute(first)!.getCount() : 0;
}
