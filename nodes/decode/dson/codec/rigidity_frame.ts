/**
 * What applying a mesh's rigidity groups needs from the scene and says about it, shared by
 * `dson.bake_morph` (`bake.ts`) and `dson.apply_preset`'s rigidity on projected morphs
 * (`preset_rigidity.ts`): each group's axis frame (its frame node's rest axes) and the warnings for
 * a missing frame node, a fit the reference vertices do not fix, and vertices in several masks.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { WarningSink } from "../../../../runtime/node.ts";
import type { AxisFrame, RigidityGroup, SharedMaskVertices } from "./rigidity.ts";
import { orientationAxes, restAxes } from "./follower_frame.ts";
import type { SceneNode } from "./model.ts";
import { parseDsonUri } from "./uri.ts";

/**
 * A lookup of the nodes a rigidity group may name (for {@link frameFor}): the glTF scene's nodes by
 * name (`nodesByName`), giving a node's rest axes (`restAxes`: its orientation, not its pose).
 */
export function restAxesIn(frames: ReadonlyMap<string, Node>): (id: string) => AxisFrame | undefined {
  return (id) => {
    const found = frames.get(id);
    return found && restAxes(found);
  };
}

/**
 * A lookup of the nodes a rigidity group may name (for {@link frameFor}) in the decode's scene nodes
 * (`nodes`, before the glTF nodes are built: the decode fits rigidity into the morphs it projects,
 * `auto_project.ts`), by instance key first, then definition id, as `nodesByName` finds them.
 */
export function sceneAxesIn(nodes: readonly SceneNode[]): (id: string) => AxisFrame | undefined {
  return (id) => {
    const node = nodes.find((n) => n.key === id) ?? nodes.find((n) => n.id === id);
    return node && orientationAxes(node.orientation, node.rotationOrder);
  };
}

/**
 * The axis frame of `group`: the axes `axesOf` gives for the node it names ({@link restAxesIn},
 * {@link sceneAxesIn}). DSON spec: transform nodes give the axis frame, "in the rotation order of
 * those nodes", else the reference node; otherwise the fit uses the reference vertices' own principal
 * axes. Rigidity runs with the morphs on the mesh at rest, before skinning poses it (morphs → rigidity
 * → skinning, as rigid followers are refitted), so the node's axes are its rest axes, not its posed
 * ones (before dson.bake_morph v8: its world axes, pose included). A named node that is not in the
 * scene (a library definition nobody instantiated, an uninstalled figure) is warned about at the
 * group's path (`at.path`: in the scene extras, or in its DSON file for the decode), and the
 * principal axes are used.
 *
 * @example
 * ```ts
 * const at = { mesh: "Shirt", path: "/meshes/1/…/groups/0" };
 * const frame = frameFor(group, restAxesIn(nodesByName(doc)), at, warn);
 * ```
 */
export function frameFor(
  group: RigidityGroup,
  axesOf: (id: string) => AxisFrame | undefined,
  at: { mesh: string; path: string },
  warn: WarningSink,
): AxisFrame | undefined {
  const uri = group.transformNodes[0] ?? group.reference;
  if (uri === undefined) return undefined;
  const frame = axesOf(parseDsonUri(uri).id);
  if (!frame) {
    const field = group.transformNodes.length ? "transform node" : "reference node";
    const where = `${at.path}/${group.transformNodes.length ? "transform_nodes/0" : "reference"}`;
    warn(
      `rigidity group '${group.id}' of '${at.mesh}' (${where}): ${field} '${uri}' is not a node of the scene; ` +
        "its scale and rotation axes are the reference vertices' principal axes instead",
    );
    return undefined;
  }
  return frame;
}

/**
 * The warning for a group `applyRigidity` fitted with a guess (`what`, see there), at the group's
 * path `path` in the scene extras of mesh `mesh`.
 */
export function uncertainWarning(
  group: RigidityGroup,
  mesh: string,
  path: string,
  what: "stretch" | "twist" | "surface",
): string {
  if (what === "surface") {
    return `rigidity group '${group.id}' of '${mesh}' (${path}/reference_vertices): ` +
      "its reference vertices lie on a line that keeps its direction, or at one place, while the mesh " +
      "around them twists about that line (or turns about that place) by over 1.1 degrees, or stretches " +
      "by over 2% where its scale_modes ask for a stretch they cannot measure; they record neither, so " +
      "its participants slide, unturned and unscaled, as Daz's fit of them moves them, off the " +
      "surface's motion";
  }
  if (what === "stretch") {
    return `rigidity group '${group.id}' of '${mesh}' (${path}/scale_modes): ` +
      "its scale_modes stretch its participants across the line its reference vertices lie on, a " +
      "direction those vertices do not fix; they are stretched along one perpendicular chosen, which " +
      "may not be Daz's";
  }
  return `rigidity group '${group.id}' of '${mesh}' (${path}/rotation_mode): ` +
    "its full turn is not fixed by its reference vertices, which lie on a line that turns or " +
    "on a strip narrower than the morph's unevenness fixes a twist by: nothing sure says how far its " +
    "participants twist about that line; they take the least turn that carries it (on a strip, the " +
    "best fit's twist), which may not be Daz's";
}

/**
 * Says which vertex is moved by several rigidity groups and what it takes. Daz does not document
 * how overlapping masks combine (participant facets of neighbouring groups share their edge's
 * vertices), so the reading is said, not silent.
 */
export function sharedMaskWarning(mesh: string, { count, first }: SharedMaskVertices): string {
  const quoted = first.groups.map((id) => `'${id}'`);
  const list = quoted.length === 2
    ? quoted.join(" and ")
    : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
  const more = count > 1
    ? ` (and ${count - 1} more ${count === 2 ? "vertex" : "vertices"} in several masks)`
    : "";
  return `rigidity on '${mesh}': vertex ${first.vertex} is in the masks of groups ${list}${more}: it takes the ` +
    `last group's (${
      quoted.at(-1)
    }) rigid transform, blended by its rigidity weight with the plain morph; Daz ` +
    "does not document how overlapping groups combine";
}
