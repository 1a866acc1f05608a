/**
 * Morph weight animations keyed for another number of targets than their node's mesh has: an
 * optimizer stripped targets and left the shape key animation keyed for all of them, or an exporter
 * keyed only the first few. glTF asks for one value per target per key; viewers disagree on anything
 * else: three.js reads each key's values as written (its track's value size is the values per key),
 * setting target i from value i (a value past the targets drives nothing, a missing one leaves its
 * target as it was), while Blender's importer steps through the values by the target count, so every
 * key after the first reads its neighbour's values. three.js's reading is the one keeping each key's
 * values with their key, so it is kept: each key cut to the targets, or filled with 0. Left as written,
 * glTF-Transform kept the keys, and the export wrote a file the validator refuses.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";

const nodeLabel = (node: Node, nodes: readonly Node[]) =>
  node.getName() ? `node '${node.getName()}'` : `node ${nodes.indexOf(node)}`;

/**
 * Re-keys each weights animation's output to one value per target per key (see the module doc),
 * returning a repair per sampler as `<JSON path>: <what was done>`. Run after the morph counts are in
 * step (codec/morph_counts.ts), so every primitive of a mesh has its mesh's target count.
 */
export function fitWeightKeys(doc: Document): string[] {
  const repairs: string[] = [];
  const nodes = doc.getRoot().listNodes();
  doc.getRoot().listAnimations().forEach((animation, a) => {
    const samplers = animation.listSamplers();
    for (const channel of animation.listChannels()) {
      const node = channel.getTargetNode(), sampler = channel.getSampler();
      const mesh = node?.getMesh(), input = sampler?.getInput(), output = sampler?.getOutput();
      if (channel.getTargetPath() !== "weights" || !node || !mesh || !sampler || !input || !output) continue;
      const targets = Math.max(0, ...mesh.listPrimitives().map((p) => p.listTargets().length));
      const perKey = input.getCount() * (sampler.getInterpolation() === "CUBICSPLINE" ? 3 : 1);
      const values = output.getCount() * output.getElementSize();
      // No targets: viewers skip the channel (see check_animations.ts); a ragged count was refused there.
      if (targets === 0 || perKey === 0 || output.getType() !== "SCALAR" || values % perKey !== 0) continue;
      const written = values / perKey;
      if (written === targets) continue;
      const array = new Float32Array(perKey * targets);
      for (let k = 0; k < perKey; k++) {
        for (let t = 0; t < Math.min(written, targets); t++) {
          array[k * targets + t] = output.getScalar(k * written + t);
        }
      }
      const fitted = doc.createAccessor(output.getName()).setType("SCALAR").setArray(array)
        .setBuffer(output.getBuffer());
      sampler.setOutput(fitted);
      // Another sampler may share the keys (then left to it); else they go.
      if (output.listParents().every((parent) => parent === doc.getRoot())) output.dispose();
      const name = animation.getName() ? `'${animation.getName()}'` : `${a}`;
      repairs.push(
        `/animations/${a}/samplers/${samplers.indexOf(sampler)}/output: animation ${name} keys ` +
          `${written} morph weights per key for ${
            nodeLabel(node, nodes)
          }, whose mesh has ${targets} targets; ` +
          (written > targets
            ? `each key's ${written - targets} past the targets (driving nothing in three.js) are left out`
            : `each key's missing ${targets - written} are 0`) +
          " (Blender's importer reads such keys shifted, each from its neighbour's values)",
      );
    }
  });
  return repairs;
}
