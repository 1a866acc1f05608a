/**
 * Damage-state copies drawn at one place: game rips and sim models keep a surface's damaged variants
 * beside the intact one — IL-2's `AroneL_D0`…`AroneL_D3` (D0 intact), `Aileron_L_dmg`, `_damaged`,
 * `_destroyed`, `_broken`, `_wreck`, DCS's `AILERON_L_DAMAGE`, War Thunder's `aileron_l_dm` damage-model
 * boxes or an `xray` group — dented, holed, torn short, bent or a coarse box. Lying over the intact
 * surface they were taken for pieces of it and fitted together: a damage-model box pulled both hinges
 * 14–33° off, judged good. A game swaps a damaged copy in where the intact one hangs, so each copy turns about the
 * intact surface's hinge (as levels of detail turn about the first level's, `lod_levels.ts`).
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";

/** IL-2's damage level after the name (`AroneL_D1`, `Flap01_D2`): a `D` and one digit, ending it. */
const DAMAGE_LEVEL = /(?:^|[\s_.-]|(?<=[a-z\d]))D(\d)$/;
/** Words ending a damaged copy's name (a mesh index after them is read past). */
const DAMAGE_WORD = /[\s_.-](?:dmg|damaged|damage|destroyed|broken|wreck|wrecked|dm)$/i;
/** An intact copy's word, beside damaged ones. */
const INTACT_WORD = /[\s_.-]intact$/i;
/** A game rip's or Sketchfab's mesh index after the mark (`Aileron_L_dmg_0`). */
const MESH_INDEX = /[_.]\d+$/;
/**
 * Words naming groups of damage-model or put-away parts (War Thunder's `xray`, a `Damage` collection,
 * Blender collections exported as a parent: `LOD_dmg`, `_hidden`, `Damaged.001`, `DMG_parts`).
 */
const DAMAGE_GROUP_WORD =
  /(?:^|[^a-z])(?:x[\s_-]?ray|dm|dmg|damage|damaged|damage[\s_-]?model|destroyed|wreck|wrecked|hidden)(?![a-z])/i;
/**
 * Whether a node (a group, or a surface's own node) says it is not drawn: a `hide_render` extra (a
 * Blender property a script copied), a `visible: false` extra (a three.js app's `userData.visible`, a
 * game exporter's flag) or `KHR_node_visibility` (Godot 4.5+ and UnityGLTF write it for a hidden node;
 * Blender's exporter writes none: it keeps a hidden object plainly or drops it).
 */
function hiddenFlag(node: Node): boolean {
  const extras = (node.getExtras() ?? {}) as Record<string, unknown>;
  // KHR_node_visibility's property, read without the extensions package (the rig reads no other).
  const visibility = node.getExtension("KHR_node_visibility") as { getVisible?(): boolean } | null;
  return extras.hide_render === true || extras.visible === false || visibility?.getVisible?.() === false;
}

/**
 * How damaged a node's name or a group above it says it is: 0 intact (`_D0`, `_intact`), 1–9 by
 * IL-2's level, 1 for a damage word or group; undefined when nothing marks it.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * const doc = new Document();
 * damageLevel(doc.createNode("AroneL_D2")); // 2
 * damageLevel(doc.createNode("Aileron_L_damaged")); // 1
 * damageLevel(doc.createNode("Aileron_L")); // undefined
 * ```
 */
export function damageLevel(node: Node): number | undefined {
  const name = node.getName().trim();
  for (const text of [name, name.replace(MESH_INDEX, "")]) {
    const level = DAMAGE_LEVEL.exec(text);
    if (level) return Number(level[1]);
    if (DAMAGE_WORD.test(text)) return 1;
    if (INTACT_WORD.test(text)) return 0;
  }
  // Hidden by its own flag alone, a surface is a state swapped in for the one drawn at its place (a
  // damage state, a variant, a kept backup: Blender's `Aileron_L.001`), not a piece of it: fitted with
  // it as one surface, both were pulled off (held-out hidden_own.ts seeds 300-395, both frames: 449 of
  // 1,000 surfaces and copies wrong, warned as pieces -> 0). Alone, it is rigged as any surface.
  if (hiddenFlag(node)) return 1;
  for (let at = node.getParentNode(); at; at = at.getParentNode()) {
    if (DAMAGE_GROUP_WORD.test(at.getName().trim()) || hiddenFlag(at)) return 1;
  }
  return undefined;
}

/**
 * Of panels lying over each other, the least damaged (an unmarked panel beside marked ones is the
 * intact one), when their names tell damage states apart; else all of them.
 */
export function leastDamaged(group: readonly Node[]): Node[] {
  const levels = group.map((node) => damageLevel(node) ?? 0);
  const least = Math.min(...levels);
  if (levels.every((level) => level === least)) return [...group];
  return group.filter((_, i) => levels[i] === least);
}

/**
 * The name of the surface a damage copy stands in for, as a key: its mark taken off and lower-cased
 * (`Aileron_L_D3`, `AILERON_L_DAMAGE`, `aileron_l_dm_0` and an intact `Aileron_L_D0` are all
 * `aileron_l`); the name itself, lower-cased, when nothing marks it.
 */
export function surfaceKey(name: string): string {
  const text = name.trim().replace(MESH_INDEX, "");
  const marked = [DAMAGE_LEVEL, DAMAGE_WORD, INTACT_WORD].find((mark) => mark.test(text));
  return (marked ? text.replace(marked, "") : name.trim()).toLowerCase();
}

/** Blender's suffix on a duplicate's name (`Aileron_L.001`): names unique in a file, a copy numbered. */
const DUPLICATE_SUFFIX = /\.\d{3}$/;

/**
 * {@link surfaceKey} of `node`, reading past Blender's `.001` when only a group above says it is a damage
 * copy (`Aileron_L.001` in a `DAMAGE` or `_hidden` collection stands in for `Aileron_L`).
 */
export function copySurfaceKey(node: Node): string {
  const name = node.getName();
  const key = surfaceKey(name);
  // Without a `.001` there is nothing to read past (the name's key, whatever the groups above say):
  // asking them first walked up the tree from each of 30,000 plain nodes (~0.3 s a look for copies).
  if (key !== name.trim().toLowerCase() || !DUPLICATE_SUFFIX.test(name.trim()) || !damageLevel(node)) {
    return key;
  }
  return surfaceKey(name.trim().replace(DUPLICATE_SUFFIX, ""));
}
