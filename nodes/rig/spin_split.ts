/**
 * Two rotors drawn as one object, split: a contra-rotating propeller pair or a coaxial helicopter's
 * two rotors joined into one mesh (`Contraprop`, a Sketchfab export's one object) turn opposite ways,
 * which one pivot cannot do. Where the mesh's connected pieces fall cleanly on either side of the
 * plane between the two discs of blades (`spin_layers.ts`; hubs and spinners with the disc their
 * centre is on), the node keeps the front (upper, left) rotor, renamed `<name>_Front` (`_Upper`,
 * `_Left`), and a new sibling `<name>_Rear` (`_Lower`, `_Right`) with the same transform, extras and
 * materials takes the other; each is then fitted as a spinning part of its own. A piece across the
 * plane (one hub drawn through both), children, morph targets or a skin leave it whole, warned.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { gatherPositions, IndexOutOfRangeError } from "./geometry.ts";
import { whyNotSplittable } from "./mesh_halves.ts";
import { connectedPieces, splitNode } from "./split_pieces.ts";
import { dot, type Mat4, sub, type Vec3 } from "./transform.ts";
import type { ShaftDirection } from "./spinning_names.ts";

/** A piece reaching this share of the radius past the plane between the discs is across it. */
const ACROSS = 0.02;

/** Names of the two halves by the aircraft direction the shaft runs along: the one ahead of it first. */
const HALF_NAMES: Readonly<Record<ShaftDirection, [string, string]>> = {
  forward: ["Front", "Rear"],
  up: ["Upper", "Lower"],
  left: ["Left", "Right"],
};

/**
 * Splits `node` at the plane through `point` square to `axis` (aircraft frame; `axis` points along the
 * named direction `along`): returns the new node holding the far side, or why it cannot be split.
 *
 * @example
 * ```ts
 * splitRotorPair(doc, contraprop, toAircraft, fit.layers!, axis, "forward", fit.radius); // Contraprop_Rear
 * ```
 */
export function splitRotorPair(
  doc: Document,
  node: Node,
  toAircraft: Mat4,
  point: Vec3,
  axis: Vec3,
  along: ShaftDirection,
  radius: number,
): Node | string {
  if (!node.getMesh()) return "its blades are in objects under it";
  if (node.getSkin()) return "it is skinned";
  const why = whyNotSplittable(node, { guides: true });
  if (why) return why;
  let gathered;
  try {
    gathered = gatherPositions(node, toAircraft, { descend: false, triangles: true });
  } catch (error) {
    if (error instanceof IndexOutOfRangeError) return `it is malformed: ${error.message}`;
    throw error;
  }
  const { pieceOf, lateral } = connectedPieces(gathered.positions, gathered.count, gathered.triangles!);
  const low = new Float64Array(lateral.length).fill(Infinity),
    high = new Float64Array(lateral.length).fill(-Infinity);
  for (let i = 0; i < gathered.count; i++) {
    const piece = pieceOf[i];
    if (piece < 0) continue;
    const d = dot(
      sub([gathered.positions[i * 3], gathered.positions[i * 3 + 1], gathered.positions[i * 3 + 2]], point),
      axis,
    );
    low[piece] = Math.min(low[piece], d), high[piece] = Math.max(high[piece], d);
  }
  const sideOf: string[] = [];
  for (let k = 0; k < lateral.length; k++) {
    if (low[k] < -ACROSS * radius && high[k] > ACROSS * radius) {
      return "a piece of it reaches across both discs";
    }
    // "left" keeps the node (the rotor ahead along the shaft), "right" goes to the new sibling.
    sideOf.push(low[k] + high[k] > 0 ? "left" : "right");
  }
  if (!sideOf.includes("left") || !sideOf.includes("right")) return "its pieces lie on one side";
  const name = node.getName();
  const far = splitNode(doc, node, pieceOf, sideOf);
  const [ahead, behind] = HALF_NAMES[along];
  node.setName(`${name}_${ahead}`);
  far.setName(`${name}_${behind}`);
  node.getMesh()!.setName(`${name}_${ahead}`);
  far.getMesh()!.setName(`${name}_${behind}`);
  return far;
}
