/**
 * Export repair of a skin whose joints have no common root: they lie in separate trees of the scene
 * (an armature's bones exported as top-level nodes, a prop's bone beside a character's). glTF 2.0
 * requires one ("each skin's joints MUST have a common root"; the validator's
 * `SKIN_NO_COMMON_ROOT`), but skinning reads only the joints' world matrices, so the meaning is
 * plain, and viewers take such files: three.js binds the skeleton as it is, Blender 3.4's importer
 * makes one armature of every tree. The output gives the trees the root they lack: a new node of
 * identity transform, `<skin>_root`, put where they were, holds them. No world transform changes.
 * Follows `repair.ts`: it reports what needs repair, and repairs it when `apply`.
 *
 * @module
 */
import { type Document, type Node, PropertyType, type Scene, type Skin } from "@gltf-transform/core";
import type { WrittenName as NameOf } from "../../runtime/scene/unique_names.ts";

/** Names of the trees listed in a message before the rest are counted. */
const NAMED = 3;

/**
 * Gives each skin whose joints lie in more than one tree a common root, with one message per skin;
 * in place when `apply`. Trees held by different sets of scenes are left as they are (one root
 * cannot be in some scenes and not others): the output check refuses them, as before.
 *
 * @example
 * ```ts
 * const messages: string[] = [];
 * jointRootRepairs(doc, false, messages, writtenNames(doc)); // one message per skin that needs a root
 * ```
 */
export function jointRootRepairs(doc: Document, apply: boolean, messages: string[], nameOf: NameOf): void {
  const skins = doc.getRoot().listSkins();
  for (let s = 0; s < skins.length; s++) jointRootRepair(doc, skins[s], apply, messages, nameOf);
}

function jointRootRepair(
  doc: Document,
  skin: Skin,
  apply: boolean,
  messages: string[],
  nameOf: NameOf,
): void {
  const trees = new Set<Node>();
  const joints = skin.listJoints();
  for (let j = 0; j < joints.length; j++) {
    let top = joints[j];
    for (let parent = top.getParentNode(); parent; parent = parent.getParentNode()) top = parent;
    trees.add(top);
  }
  if (trees.size < 2) return;
  const tops = [...trees];
  const holders = tops.map(scenesHolding);
  if (holders.some((scenes) => !sameScenes(scenes, holders[0]))) return;
  const name = `${skin.getName() || "skin"}_root`;
  const named = tops.slice(0, NAMED).map((top) => `'${nameOf(top)}'`).join(", ");
  const rest = tops.length > NAMED ? ` and ${tops.length - NAMED} more` : "";
  messages.push(
    `skin '${nameOf(skin)}': its joints have no common root (they lie in the trees of ${named}${rest}); ` +
      `those trees put under a new node '${name}'`,
  );
  if (!apply) return;
  const root = doc.createNode(name);
  for (const scene of holders[0]) {
    for (const top of tops) scene.removeChild(top);
    scene.addChild(root);
  }
  for (const top of tops) root.addChild(top);
}

/** The scenes listing `node` among their roots. */
function scenesHolding(node: Node): Scene[] {
  return node.listParents().filter((parent): parent is Scene => parent.propertyType === PropertyType.SCENE);
}

function sameScenes(a: readonly Scene[], b: readonly Scene[]): boolean {
  return a.length === b.length && a.every((scene) => b.includes(scene));
}
