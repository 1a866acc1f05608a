/**
 * The part annotation (`extras.partgraph.part`) the rig nodes hand each other inside the scene, and
 * the interop extras (`ctrl_type`, `min`, `max`, …) of author-declared parts.
 *
 * @module
 */
import { type Node, PropertyType, type Root } from "@gltf-transform/core";
import type { JsonValue } from "../../runtime/node.ts";
import { getPartgraphExtras, setPartgraphExtras } from "../../runtime/scene/extras.ts";
import type { Side } from "./vocabulary.ts";
import type { Vec3 } from "./transform.ts";
import type { FittedGeometry } from "./fitted_geometry.ts";

/**
 * How a part was found: declared in the file's extras, by a decoder's constraint, by its name, or by its
 * shape where no name tells (`shape`: a glider's airbrake blades, `shape_brakes.ts`). The rig fits,
 * pivots and reports `name` and `shape` parts alike (`foundByRig`).
 */
export type FoundBy = "extras" | "constraint" | "name" | "shape";

/** Whether the rig found the part itself (by name or shape), so fits it and inserts its pivot. */
export function foundByRig(part: PartAnnotation | undefined): boolean {
  return part?.found_by === "name" || part?.found_by === "shape";
}

/** A node's local translation, rotation and scale. */
export interface Frame {
  translation: Vec3;
  rotation: [number, number, number, number];
  scale: Vec3;
}

/** A fitted hinge, in the panel's parent space (what `rig.insert_pivot` needs). */
export interface HingeAnnotation {
  /** A point on the hinge, parent space. */
  origin: Vec3;
  /** Unit hinge direction, parent space, signed so a positive angle moves the far edge as the kind says. */
  axis: Vec3;
  /** The same point in world space. */
  origin_world: Vec3;
  /** Unit world direction about which a positive angle turns (right-hand rule). */
  axis_world: Vec3;
}

/** How well the hinge fit went. */
export interface FitQuality {
  /** Span bins that held vertices. */
  bins_filled: number;
  /** Span bins used. */
  bins: number;
  /** Edge points that agreed with the line. */
  inliers: number;
  /** RMS distance of the inlier edge points from the line, scene units. */
  residual: number;
  /** Median chord, scene units. */
  chord: number;
  /** Span extent, scene units. */
  span: number;
  /** Vertices fitted. */
  vertices: number;
  /** How far the hinge can be trusted (see `fit_confidence.ts`). */
  confidence?: "good" | "weak" | "failed";
  /** Why the confidence is short of good (empty when good). */
  reasons?: string[];
  /** Share of the span (0–1) whose stations lie on the hinge line. */
  coverage?: number;
  /** Where the edges came from: the triangles sliced at stations, or binned vertices. */
  source?: "surface" | "vertices";
  /**
   * Which line the hinge follows: `forward_edge`, `aft_edge`, `quarter_chord` (stabilators,
   * canards), or `all_moving` (an elevator, elevon or rudder with no fixed surface ahead of it).
   */
  rule?: string;
  /** Why that rule, when geometry decided it. */
  rule_why?: string;
  /**
   * When the hinge is the line the panel's own animation keys: the range (degrees, signed as the
   * part's positive angle) those clips turn it through, which the part's `min`/`max` then are.
   */
  keyed_range?: { clips: string[]; min: number; max: number };
  /**
   * On a spinning part (propeller, rotor): the blades counted, the disc radius, the symmetry error
   * (90th-percentile distance of blade vertices turned by one blade spacing from the nearest vertex, /
   * radius), how the shaft was found (`disc_normal`, `half_turn`, `plane_search`, `frame`) and its
   * centre (`blades`, `hub`). `chord` is then the radius, `span` the diameter, `inliers` the blades.
   */
  spin?: { blades: number; radius: number; symmetry: number; axis_from: string; centre_from: string };
  /**
   * On a part that slides (`rule: "slide"`, a glider's Schempp-Hirth airbrake blade): the skin it
   * slides out of, whether it was modelled retracted or extended, and its travel (world units).
   */
  slide?: { surface: "upper" | "lower"; pose: "retracted" | "extended"; travel: number };
  /**
   * On a Fowler flap (`fowler_flaps.ts`), whose travel aft is not modelled: the track objects it rides
   * on and, when they are drawn, the unit world direction they run aft along (a slide to declare).
   */
  fowler?: { tracks: string[]; along_world?: Vec3 };
  /** When the hinge was taken from the mirror partner (their fits disagreed): the partner's name. */
  mirrored_from?: string;
  /**
   * How the panel node's own frame compares with the fitted hinge: the local axis best aligned with
   * it, the angle between them (degrees) and the distance of the node's origin from the hinge line
   * (scene units). Small values mean the author already placed a pivot there.
   */
  authored_pivot: { axis: "X" | "Y" | "Z"; degrees: number; offset: number };
}

/** `extras.partgraph.part`: a part's kind, origin and (for panels) fitted hinge. */
export interface PartAnnotation {
  /** A panel kind, a decoder's joint kind (`rev`, `pris`, …) or `other`. */
  kind: string;
  found_by: FoundBy;
  /**
   * `"skin"` for a panel that is a skin bone: its geometry is the skinned vertices weighted mostly to
   * it, not meshes under it.
   */
  driven_by?: "skin";
  side?: Side;
  /** Mirrors of the interop extras (see the part contract). */
  ctrl_type?: "rotation" | "translation";
  unit?: string;
  min?: number;
  max?: number;
  rest?: number;
  group?: string;
  positive?: string;
  /** Set by `rig.fit_hinge` on panels. */
  hinge?: HingeAnnotation;
  /** Set by `rig.fit_hinge` on panels. */
  fit?: FitQuality;
  /** On an inserted pivot: the name of the panel it turns. */
  panel?: string;
  /**
   * On an inserted pivot: the panel's geometry in the pivot's frame when the hinge was fitted, so a
   * later run refits a panel edited since (`edited_panels.ts`).
   */
  fitted_to?: FittedGeometry;
  /**
   * On a panel an earlier run rigged and the user edited since, between `rig.parts` and
   * `rig.insert_pivot`: the earlier hinge (world) and how far the panel moved in its pivot's frame.
   */
  refit_of?: {
    origin_world: Vec3;
    axis_world: Vec3;
    /** How far the panel moved in the pivot's frame and its size, when the pivot kept its record. */
    drift?: number;
    size?: number;
    /**
     * On a pivot recovered without extras: its frames as the file had them, put back when the new fit
     * finds the same line, so an unedited panel keeps its pivot exactly.
     */
    restore?: { name: string; pivot: Frame; panel: Frame; mount?: Frame };
  };
  /**
   * On an earlier pivot `rig.parts` declared again by its shape (its extras lost), until
   * `rig.assign_side` measured which way its positive angle turns the panel (`recovered_senses.ts`).
   */
  recovered?: boolean;
}

/** The part annotation of a node, or undefined. */
export function getPart(node: Node): PartAnnotation | undefined {
  const part = getPartgraphExtras(node).part;
  if (!part || typeof part !== "object" || Array.isArray(part)) return undefined;
  return part as unknown as PartAnnotation;
}

/** Replaces the part annotation of a node you own (other `extras.partgraph` fields are kept). */
export function setPart(node: Node, part: PartAnnotation): void {
  setPartgraphExtras(node, { part: withoutUndefined(part) as unknown as JsonValue });
}

/** Removes the part annotation of a node you own. */
export function clearPart(node: Node): void {
  const extras = { ...(node.getExtras() as Record<string, JsonValue>) };
  const own = { ...getPartgraphExtras(node) };
  delete own.part;
  if (Object.keys(own).length) extras.partgraph = own;
  else delete extras.partgraph;
  node.setExtras(extras);
}

/**
 * The author's `ctrl_type` extra when it declares a part, read as typed into 3ds Max's or Blender's
 * custom properties too (`"Rotation"`, `" translation "`; `rig.parts` writes it back as the word).
 */
export function declaredCtrlType(node: Node): "rotation" | "translation" | undefined {
  const value = (node.getExtras() as Record<string, unknown>).ctrl_type;
  const word = typeof value === "string" ? value.trim().toLowerCase() : undefined;
  return word === "rotation" || word === "translation" ? word : undefined;
}

/** True when the node is a part: declared by the author, by a decoder, or already found. */
export function isPart(node: Node): boolean {
  return declaredCtrlType(node) !== undefined || getPart(node) !== undefined;
}

/** True when the node or anything under it is a part. */
export function holdsPart(node: Node): boolean {
  if (isPart(node)) return true;
  return node.listChildren().some(holdsPart);
}

/** Nodes that carry a part annotation, in a stable depth-first order over the scene(s). */
export function listPartNodes(roots: readonly Node[]): Node[] {
  const out: Node[] = [];
  const visit = (node: Node) => {
    if (getPart(node)) out.push(node);
    for (const child of node.listChildren()) visit(child);
  };
  for (const root of roots) visit(root);
  return out;
}

function withoutUndefined(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

/** Top-level nodes (no parent node), in the document's stable order; orphans included. */
export function topLevelNodes(nodes: readonly Node[]): Node[] {
  // Children listed once from every node: asking each of 30,000 nodes its parent listed its parent
  // edges anew (~0.1 s a call, seven calls a rig). A parent not among `nodes` is asked for.
  const children = new Set<Node>();
  for (const node of nodes) for (const child of node.listChildren()) children.add(child);
  const whole = everyNodeOfItsFile(nodes);
  return nodes.filter((node) => !children.has(node) && (whole || !node.getParentNode()));
}

/** True when `nodes` are every node of their file, in its order: then each one's parent is among them. */
function everyNodeOfItsFile(nodes: readonly Node[]): boolean {
  const root = nodes[0]?.listParents().find((p) => p.propertyType === PropertyType.ROOT) as Root | undefined;
  const all = root?.listNodes();
  return !!all && all.length === nodes.length && all.every((node, i) => node === nodes[i]);
}

/**
 * The `/`-joined names from the top-level node down (unnamed nodes appear as `#<index>`), each
 * spelt by `nameOf` (default: the node's own name).
 */
export function nodePath(
  node: Node,
  indexOf: (node: Node) => number,
  nameOf: (node: Node) => string = (n) => n.getName(),
): string {
  const names: string[] = [];
  for (let n: Node | null = node; n; n = n.getParentNode()) names.push(nameOf(n) || `#${indexOf(n)}`);
  return names.reverse().join("/");
}
