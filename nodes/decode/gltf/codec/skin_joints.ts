/**
 * Skins listing a node more than once among their joints (the schema's `uniqueItems`, which some
 * writers break): three.js binds each joint slot with its own inverse bind matrix, so a repeat is a
 * slot of its own. glTF-Transform keeps a joint once, moving the node to its last slot, so every slot
 * between shifted onto another bone — vertices bound to the wrong bones, silently. Each repeat becomes
 * a new child of its node with no transform of its own: the same world matrix in a slot of its own,
 * which is what three.js draws.
 *
 * @module
 */
import type { Checker, Json } from "./checker.ts";

/**
 * Gives each repeated joint of `skin` (at JSON path `path`) a child node of its own, with a repair
 * naming the slots; indices are already checked.
 *
 * @example
 * ```ts
 * separateRepeatedJoints(checker, json.skins[0], "/skins/0");
 * ```
 */
export function separateRepeatedJoints(c: Checker, skin: Json, path: string): void {
  const joints = skin.joints;
  if (!Array.isArray(joints)) return;
  const nodes = c.list("nodes");
  const firstSlot = new Map<number, number>();
  const repeats: string[] = [];
  joints.forEach((node: number, slot: number) => {
    const first = firstSlot.get(node);
    if (first === undefined) return void firstSlot.set(node, slot);
    const joint = nodes[node];
    const name = typeof joint.name === "string" ? joint.name : `node${node}`;
    nodes.push({ name: `${name}_joint${slot}` });
    ((joint.children ??= []) as number[]).push(nodes.length - 1);
    joints[slot] = nodes.length - 1;
    repeats.push(`slot ${slot} repeats node ${node} '${name}' of slot ${first}`);
  });
  if (!repeats.length) return;
  c.repaired(
    `${path}/joints`,
    `${repeats.length} joint(s) listed again (${repeats.slice(0, 3).join("; ")}${
      repeats.length > 3 ? "; …" : ""
    }): each given a child of its node with no transform of its own, so its slot keeps its own inverse ` +
      "bind matrix, as three.js binds it (read as listed, the joints after the first repeat would shift " +
      "onto other bones)",
  );
}
