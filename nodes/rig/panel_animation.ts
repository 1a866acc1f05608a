/**
 * A panel's own animation kept through the rig. A panel moved under a new pivot has a new local
 * transform, so each keyframe of its translation and rotation channels is re-expressed the same way
 * (else a clip made for the file would throw the panel off its hinge); a panel split in two gives
 * the new half the same channels.
 *
 * @module
 */
import type { Accessor, AnimationSampler, Document, Node } from "@gltf-transform/core";
import { type Quat, quatConjugate, quatMultiply, quatRotate, sub, type Vec3 } from "./transform.ts";

/** The nodes any animation channel targets. */
export function animatedNodes(doc: Document): Set<Node> {
  const out = new Set<Node>();
  for (const animation of doc.getRoot().listAnimations()) {
    for (const channel of animation.listChannels()) {
      const target = channel.getTargetNode();
      if (target) out.add(target);
    }
  }
  return out;
}

/** Gives `to` a copy of every channel that targets `from` (sharing their samplers). */
export function copyChannels(doc: Document, from: Node, to: Node): void {
  for (const animation of doc.getRoot().listAnimations()) {
    for (const channel of animation.listChannels()) {
      const path = channel.getTargetPath();
      if (channel.getTargetNode() !== from || !path) continue;
      animation.addChannel(
        doc.createAnimationChannel(channel.getName())
          .setTargetNode(to)
          .setTargetPath(path)
          .setSampler(channel.getSampler()),
      );
    }
  }
}

/**
 * Re-expresses `node`'s translation and rotation keyframes for a node moved under a new parent whose
 * rest transform, in the old parent's space, is the rigid `translation` · `rotation`: each value `t`
 * becomes `r⁻¹(t − translation)` and each `q` becomes `r⁻¹q`. Both maps commute with glTF's
 * interpolations (lerp of an affine image, slerp under a left rotation; cubic-spline tangents take
 * the linear part only), so the node moves in the world exactly as before at every time. Each
 * changed channel gets a sampler and an output accessor of its own; ones nothing uses any more are
 * disposed. Scale and weights channels need nothing: the node keeps its scale.
 */
export function reparentAnimation(doc: Document, node: Node, translation: Vec3, rotation: Quat): void {
  const undo = quatConjugate(rotation);
  const replaced = new Set<AnimationSampler>();
  for (const animation of doc.getRoot().listAnimations()) {
    for (const channel of animation.listChannels()) {
      const path = channel.getTargetPath();
      const sampler = channel.getSampler();
      const output = sampler?.getOutput();
      const input = sampler?.getInput();
      if (channel.getTargetNode() !== node || !sampler || !output || !input) continue;
      if (path !== "translation" && path !== "rotation") continue;
      const cubic = sampler.getInterpolation() === "CUBICSPLINE";
      const map = path === "translation"
        ? (v: number[], tangent: boolean) => quatRotate(undo, tangent ? v : sub(v, translation))
        : (v: number[]) => quatMultiply(undo, v as Quat);
      const copy = doc.createAnimationSampler(sampler.getName())
        .setInterpolation(sampler.getInterpolation())
        .setInput(input)
        .setOutput(mappedAccessor(doc, output, (v, i) => map(v, cubic && i % 3 !== 1)));
      animation.addSampler(copy);
      channel.setSampler(copy);
      replaced.add(sampler);
    }
  }
  for (const sampler of replaced) disposeUnused(sampler);
}

/** A float copy of `accessor` with each element passed through `map` (element, index). */
function mappedAccessor(
  doc: Document,
  accessor: Accessor,
  map: (element: number[], index: number) => ArrayLike<number>,
): Accessor {
  const size = accessor.getElementSize();
  const out = new Float32Array(accessor.getCount() * size);
  const element: number[] = [];
  for (let i = 0; i < accessor.getCount(); i++) {
    out.set(map(accessor.getElement(i, element), i), i * size);
  }
  return doc.createAccessor(accessor.getName(), accessor.getBuffer() ?? doc.getRoot().listBuffers()[0])
    .setType(accessor.getType())
    .setArray(out);
}

/** Disposes `sampler` once no channel uses it, and its output once nothing else does. */
function disposeUnused(sampler: AnimationSampler): void {
  if (sampler.listParents().some((p) => p.propertyType === "AnimationChannel")) return;
  const output = sampler.getOutput();
  sampler.dispose();
  if (output && output.listParents().every((p) => p.propertyType === "Root")) output.dispose();
}
