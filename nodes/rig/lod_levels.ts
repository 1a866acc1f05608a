/**
 * Levels of detail drawn at one place: a game model exported whole keeps every level of a surface
 * where the first is (Unity's `Plane_LOD0`…`Plane_LOD2` groups, Unreal's `SM_Aileron_L_LOD1`,
 * Sketchfab's `LOD1/Aileron_L_LOD1_0`), the lower ones coarse — a plate, a box. Lying over each other,
 * they were taken for pieces of one surface and fitted together, and a box pulled every level's hinge
 * 4–38° off, judged good. A surface's levels turn about the hinge of its first level alone: a viewer
 * switching levels sees it turn alike, about where the detailed one hinges.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import { copyMark } from "./copy_names.ts";
import { leastDamaged } from "./damage_states.ts";

/**
 * The level of detail a node is drawn in, by the nearest level mark on it or above it (`_LOD1`,
 * `LOD2`, `lod_0`); undefined when nothing marks one.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * const doc = new Document();
 * const node = doc.createNode("Aileron_L");
 * doc.createNode("Plane_LOD2").addChild(node);
 * lodLevel(node); // 2
 * ```
 */
export function lodLevel(node: Node): number | undefined {
  for (let at: Node | null = node; at; at = at.getParentNode()) {
    const mark = copyMark(at.getName());
    if (mark?.by === "lod") return mark.level;
  }
  return undefined;
}

/**
 * Of panels lying over each other, those to fit the surface from: the intact one's when damage states
 * are drawn with it (`damage_states.ts`), and of those the first level of detail's when they are drawn
 * in more than one (an unmarked panel beside marked ones is the first level, as `Aileron_L` beside
 * `Aileron_L_LOD1`), else all of them, pieces of one surface.
 */
export function firstLevel(group: readonly Node[]): Node[] {
  const intact = leastDamaged(group);
  const levels = intact.map((node) => lodLevel(node) ?? 0);
  const first = Math.min(...levels);
  if (levels.every((level) => level === first)) return intact;
  return intact.filter((_, i) => levels[i] === first);
}

/**
 * How the fit and its warning call a group of panels lying over each other: pieces of one surface,
 * or levels of detail of one (`names` as the warning lists them).
 */
export function overlapWords(
  group: readonly Node[],
  names: string,
  kind: string,
): { why: string; warning: string } {
  if (leastDamaged(group).length < group.length) {
    return {
      why: `the intact surface's hinge: ${names} are damage states of one surface`,
      warning: `panels ${names} (${kind}) are damage states of one surface drawn at one place: each ` +
        "turns about the intact one's hinge (a damaged copy alone hinges elsewhere)",
    };
  }
  if (firstLevel(group).length < group.length) {
    return {
      why: `the first level of detail's hinge: ${names} are levels of detail of one surface`,
      warning: `panels ${names} (${kind}) are levels of detail of one surface drawn at one place: each ` +
        "level turns about the first level's hinge (a coarse level alone hinges elsewhere)",
    };
  }
  return {
    why: `fitted as one surface with its other pieces (${names}): they lie over each other, ` +
      "and a piece alone hinges off the whole surface's line",
    warning: `panels ${names} (${kind}) are pieces of one surface (split by material, or into ` +
      "skins?): each alone gave a different hinge, so all turn about the whole surface's",
  };
}
