/**
 * Groups of collision and shadow proxies: what a game model carries beside the drawn aircraft for its
 * engine — a `Collision` (`Colliders`, `COL`, `UCX_Collision`, Godot's `…-colonly`) group of boxes, a
 * `Shadow` group of flattened or low-poly copies — each proxy named as the object it stands for
 * (`Collision/Aileron_L`). A proxy named so is no surface and must not be joined to the one it stands
 * for: taken as a second piece of `Aileron_L`, a box pulled the surface's hinge 5–38° off, judged good.
 * A proxy named by its own prefix or suffix (`UCX_Aileron_L_00`, `Aileron_L-colonly`) is read by the
 * name vocabulary; this module reads the groups that hold proxies named plainly.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import { tokenize } from "./vocabulary.ts";

/** Words naming a group of collision or shadow proxies (Unreal's prefixes, Godot's suffixes, games'). */
const PROXY_WORDS: ReadonlySet<string> = new Set([
  "collision",
  "collisions",
  "collider",
  "colliders",
  "col",
  "colonly",
  "convcol",
  "convcolonly",
  "ucx",
  "ubx",
  "usp",
  "ucp",
  "hitbox",
  "hitboxes",
  "shadow",
  "shadows",
]);

/**
 * Words that make a proxy word something drawn: an anti-collision light (`AntiCollisionLight`, a
 * beacon), a shadow box of a cockpit's panel lighting.
 */
const DRAWN_WORDS: ReadonlySet<string> = new Set(["anti", "light", "lights", "lamp", "beacon", "strobe"]);

/**
 * True when `name` names a group of collision or shadow proxies: one of its words is a proxy word
 * and none makes it a drawn thing.
 *
 * @example
 * ```ts
 * isProxyGroupName("UCX_Collision"); // true
 * isProxyGroupName("AntiCollisionLight"); // false
 * ```
 */
export function isProxyGroupName(name: string): boolean {
  const tokens = tokenize(name);
  return tokens.some((t) => PROXY_WORDS.has(t)) && !tokens.some((t) => DRAWN_WORDS.has(t));
}

/**
 * The proxy groups among `roots` and their descendants (outermost only) that hold nodes `named` a
 * surface, with those nodes: what name search leaves out, for one warning.
 */
export function proxyGroupsHoldingSurfaces(
  roots: readonly Node[],
  named: (node: Node) => boolean,
): { group: Node; surfaces: Node[] }[] {
  const out: { group: Node; surfaces: Node[] }[] = [];
  const inside = (node: Node, surfaces: Node[]) => {
    if (named(node)) surfaces.push(node);
    for (const child of node.listChildren()) inside(child, surfaces);
  };
  const visit = (node: Node) => {
    if (!isProxyGroupName(node.getName())) {
      for (const child of node.listChildren()) visit(child);
      return;
    }
    const surfaces: Node[] = [];
    for (const child of node.listChildren()) inside(child, surfaces);
    if (surfaces.length > 0) out.push({ group: node, surfaces });
  };
  for (const root of roots) visit(root);
  return out;
}

/**
 * Names, in one warning, the proxy groups holding nodes `named` a surface, which name search leaves
 * out: a user whose drawn model sits in such a group learns why nothing in it was rigged.
 */
export function warnProxyGroups(
  roots: readonly Node[],
  named: (node: Node) => boolean,
  ctx: Pick<RunContext, "warn">,
): void {
  const groups = proxyGroupsHoldingSurfaces(roots, named);
  if (groups.length === 0) return;
  const surfaces = groups.flatMap((g) => g.surfaces.map((n) => n.getName()));
  const shown = surfaces.slice(0, 4).map((n) => `'${n}'`).join(", ");
  const more = surfaces.length > 4 ? ` and ${surfaces.length - 4} more` : "";
  ctx.warn(
    `${groups.map((g) => `'${g.group.getName()}'`).join(", ")} ${groups.length === 1 ? "is" : "are"} named ` +
      `a group of collision or shadow proxies and ${groups.length === 1 ? "holds" : "hold"} nodes named ` +
      `like control surfaces (${shown}${more}): taken as the proxies of the surfaces named so, not ` +
      "rigged and not joined to them — rename the group, or give its nodes ctrl_type extras, if they " +
      "are drawn surfaces",
    { groups: groups.map((g) => g.group.getName()), panels: surfaces },
  );
}
