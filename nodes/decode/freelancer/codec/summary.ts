/**
 * A compact description of a decoded or resolved Freelancer scene — parts, their parents, joints
 * with their degrees of freedom, hardpoints and LODs — for `inspect`-style tools and tests.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { JsonValue } from "../../../../runtime/node.ts";
import { getPartgraphExtras, isExtrasFlag } from "../../../../runtime/scene/extras.ts";

/** One degree of freedom of a joint, as `constraints.resolve` exposes it. */
export interface DofSummary {
  /** The pivot node's name. */
  node: string;
  ctrl_type: "rotation" | "translation";
  min: number;
  max: number;
}

/** One part of the model. */
export interface PartSummary {
  /** Object name. */
  name: string;
  /** Parent part's name; undefined for roots (and for every part before `constraints.resolve`). */
  parent?: string;
  /** Constraint kind that attaches it (`fix`, `rev`, …), once resolved. */
  joint?: string;
  /** Movable degrees of freedom (pivots between the parent and the part). */
  dofs: DofSummary[];
  hardpoints: { name: string; type: string }[];
  /** Number of LODs with geometry (0 when the part has no mesh). */
  lods: number;
  wireframe: boolean;
}

/**
 * Lists the parts of a scene `decode.cmp` made, in scene order.
 *
 * @example
 * ```ts
 * for (const part of summarizeParts(doc)) console.log(part.name, part.joint, part.dofs.length);
 * ```
 */
export function summarizeParts(doc: Document): PartSummary[] {
  const out: PartSummary[] = [];
  const isPart = (node: Node) => getPartgraphExtras(node).freelancer !== undefined;
  const visit = (node: Node, parentPart: string | undefined, dofs: DofSummary[]) => {
    if (isPart(node)) {
      const constraint = getPartgraphExtras(node).constraint as { kind?: string } | undefined;
      const children = node.listChildren();
      const kept = (getPartgraphExtras(node).freelancer as { kept_meshes?: string[] }).kept_meshes ?? [];
      out.push({
        name: node.getName(),
        parent: parentPart,
        joint: constraint?.kind,
        dofs,
        hardpoints: children.filter((c) => isExtrasFlag(c.getExtras().hardpoint))
          .map((c) => ({ name: c.getName(), type: String(c.getExtras().hptype) })),
        lods: (node.getMesh() ? 1 : 0) + children.filter((c) => /\$lod\d+$/.test(c.getName())).length +
          kept.filter((name) => /\$lod\d+\.mesh$/.test(name)).length,
        wireframe: children.some((c) => c.getName().endsWith(".vmeshwire")) ||
          kept.some((name) => name.endsWith(".vmeshwire.mesh")),
      });
      for (const child of children) visit(child, node.getName(), []);
      return;
    }
    const extras = node.getExtras() as { ctrl_type?: "rotation" | "translation"; min?: number; max?: number };
    const next = extras.ctrl_type
      ? [...dofs, {
        node: node.getName(),
        ctrl_type: extras.ctrl_type,
        min: extras.min ?? 0,
        max: extras.max ?? 0,
      }]
      : dofs;
    for (const child of node.listChildren()) visit(child, parentPart, next);
  };
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  for (const node of scene?.listChildren() ?? []) visit(node, undefined, []);
  return out;
}

/**
 * The library provenance `decode.cmp` recorded (which library supplied each material and texture,
 * what stayed missing, where the search looked), or null for a scene decoded with `libraries: none`.
 *
 * @example
 * ```ts
 * const { missing } = summarizeLibraries(doc) as { missing: { materials: string[] } };
 * ```
 */
export function summarizeLibraries(doc: Document): JsonValue {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  return (scene ? getPartgraphExtras(scene).libraries : undefined) ?? null;
}
