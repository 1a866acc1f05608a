/**
 * Nodes scaled to 0 on an axis: a part an exporter collapsed (a degenerate matrix decomposed, a "hide"
 * done by scaling), or hidden until a scale key brings it back. glTF allows it and viewers draw the part
 * flat or not at all, but the node's matrix has no inverse, so nothing can be placed in its frame: the
 * rig cannot turn the part about a hinge of its own, and a skin bound to it gets no inverse bind matrix.
 * What scale was meant is not in the file, so the part is read as written and named.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { SceneTree } from "./transform_habits.ts";

/** How many nodes a note names before counting the rest. */
const NAMED = 8;

/**
 * One note (`/nodes/<i>/scale: text`) naming every node whose scale is 0 on some axis, with the axes,
 * and when a scale animation gives it a whole scale later, from when.
 */
export function flatScaleNotes(doc: Document, tree: SceneTree): string[] {
  const shownFrom = new Map<Node, number>();
  for (const animation of doc.getRoot().listAnimations()) {
    for (const channel of animation.listChannels()) {
      const node = channel.getTargetNode(), sampler = channel.getSampler();
      const input = sampler?.getInput(), output = sampler?.getOutput();
      if (channel.getTargetPath() !== "scale" || !node || !input || !output) continue;
      const cubic = sampler!.getInterpolation() === "CUBICSPLINE";
      const key = [0, 0, 0];
      for (let k = 0; k < input.getCount(); k++) {
        output.getElement(cubic ? 3 * k + 1 : k, key);
        if (key.every((v) => v !== 0)) {
          const t = input.getScalar(k);
          shownFrom.set(node, Math.min(shownFrom.get(node) ?? Infinity, t));
          break;
        }
      }
    }
  }
  const flat = tree.nodes.flatMap((node) => {
    const scale = node.getScale();
    const axes = [0, 1, 2].flatMap((a) => (scale[a] === 0 ? ["XYZ"[a]] : []));
    if (!axes.length) return [];
    const i = tree.jsonIndex(node);
    const name = node.getName() ? `'${node.getName()}'` : `node ${i}`;
    const shown = shownFrom.get(node);
    return [{
      i,
      text: `${name} (${axes.join(", ")}${
        shown !== undefined ? `; a scale key shows it from ${shown} s` : ""
      })`,
    }];
  });
  if (!flat.length) return [];
  const listed = flat.slice(0, NAMED).map((f) => f.text).join(", ") +
    (flat.length > NAMED ? `, and ${flat.length - NAMED} more` : "");
  return [
    `/nodes/${flat[0].i}/scale: ${flat.length} node${flat.length > 1 ? "s" : ""} scaled to 0 on an axis, ` +
    `drawn flat or not at all (collapsed by an exporter, or hidden by scaling?): ${listed}. Read as written; ` +
    "such a node's matrix has no inverse, so nothing can be turned or bound in its frame (the rig cannot hinge it)",
  ];
}
