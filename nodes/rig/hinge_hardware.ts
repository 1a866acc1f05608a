/**
 * Hinge hardware modelled as objects of its own: `Flap_Bracket_1`, `Aileron_Hinge_Fitting`,
 * `FlapMount.003` — at the scene's root, under the wing, or under an empty of brackets. Name search
 * leaves such objects alone (structure words), so the panel's fit never sees them; yet a bracket that
 * sits against a panel and reaches well below (or above) its sections says the real pivot is likely
 * down there — a dropped hinge — and not along the nose the fit follows. Brackets inside the panel's
 * own subtree are part of its geometry and are judged by `hanging.ts`.
 *
 * An object counts for a panel when, between the panel's span ends, it comes within 15 % of the
 * chord of the panel's sections (it sits against it) and, near the hinge edge (from half a chord ahead
 * of it to a third of the chord behind), lies more than 5 % of the chord above or below them.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { gatherPositions, subtreeNodes } from "./geometry.ts";
import type { HingeFit } from "./hinge_fit.ts";
import { MARGIN } from "./hanging.ts";
import type { HingeEdge } from "./kinds.ts";
import { getPart, isPart } from "./part_extras.ts";
import type { Mat4 } from "./transform.ts";
import { tokenize } from "./vocabulary.ts";

/**
 * Name tokens (singular) of the parts a control surface's hinge is carried on. Not `track`: a flap
 * on tracks slides aft as it turns (Fowler), which no hinge line describes, and the forward-edge hinge
 * is the documented approximation for it (the demo fighter's `Flap_Track_1` runs 15 % of its flap's
 * chord below it, and the flap stays good); nor `fairing`, which also names wing-root and pylon
 * fairings.
 */
const HARDWARE_TOKENS: ReadonlySet<string> = new Set(["bracket", "fitting", "mount", "hinge"]);

/** An object of hinge hardware, its vertices in the aircraft frame. */
export interface HardwareObject {
  readonly name: string;
  readonly positions: Float64Array;
  readonly count: number;
}

/** Hardware beside a panel, and how far it reaches outside the panel's sections (share of its chord). */
export interface HardwareReach {
  readonly name: string;
  readonly depth: number;
}

/** Within this share of the chord of the sections an object sits against the panel. */
const TOUCH = 0.15;
/** Further than this (shares of the chord) from the sections an object is something else. */
const FAR = 1;
/** Vertices of one object judged; a denser one is sampled evenly down to about this. */
const SAMPLED = 5_000;

/** True when a name (`Flap_Bracket_1`, `HingeFittings`, `flap-mount.003`) names hinge hardware. */
export function isHardwareName(name: string): boolean {
  return tokenize(name).some((t) =>
    HARDWARE_TOKENS.has(t.length > 4 && t.endsWith("s") ? t.slice(0, -1) : t)
  );
}

/**
 * Every mesh node named like hinge hardware (or under a node so named, an empty of brackets) that is
 * no part, holds none and hangs under none, with its vertices in the aircraft frame. Skinned meshes
 * are left out (they are drawn where their joints put them).
 */
export function listHardware(doc: Document, toAircraft: Mat4): HardwareObject[] {
  const nodes = doc.getRoot().listNodes();
  const moving = new Set(nodes.filter(isPart).flatMap(subtreeNodes));
  const out: HardwareObject[] = [];
  for (const node of nodes) {
    if (!node.getMesh() || node.getSkin() || moving.has(node)) continue;
    const parent = node.getParentNode();
    const named = isHardwareName(node.getName())
      ? node
      : parent && isHardwareName(parent.getName())
      ? parent
      : undefined;
    if (!named || subtreeNodes(node).some((n) => getPart(n))) continue;
    const { positions, count } = gatherPositions(node, toAircraft, { descend: false });
    if (count > 0) out.push({ name: node.getName() || named.getName(), positions, count });
  }
  return out;
}

/**
 * The hardware objects that sit against the panel and reach outside its sections near its hinge
 * edge (see the module doc), furthest first; empty when the fit has no section envelope.
 *
 * @example
 * ```ts
 * hardwareBeside(fit, "forward", listHardware(doc, toAircraft)); // [{ name: "Flap_Bracket_1", depth: 0.31 }]
 * ```
 */
export function hardwareBeside(
  fit: HingeFit,
  edge: HingeEdge,
  objects: readonly HardwareObject[],
): HardwareReach[] {
  const sections = fit.sections;
  if (!sections || !(fit.chord > 0) || edge === "quarter") return [];
  const { envelope, mean, uMin, uMax } = sections;
  const [s0, s1, s2] = fit.span, [c0, c1, c2] = fit.chordDir, [n0, n1, n2] = fit.normal;
  const [m0, m1, m2] = mean;
  const ends = 0.05 * fit.chord;
  // Chord positions (0 lead, 1 trail) near the hinge edge, where a dropped hinge's pivot hangs.
  const [hingeFrom, hingeTo] = edge === "aft" ? [0.65, 1.5] : [-0.5, 0.35];
  const found: HardwareReach[] = [];
  for (const { name, positions, count } of objects) {
    let touch = Infinity, depth = 0;
    const stride = Math.max(1, Math.floor(count / SAMPLED));
    for (let i = 0; i < count; i += stride) {
      const dx = positions[i * 3] - m0, dy = positions[i * 3 + 1] - m1, dz = positions[i * 3 + 2] - m2;
      const u = dx * s0 + dy * s1 + dz * s2;
      if (!(u >= uMin - ends && u <= uMax + ends)) continue;
      const v = dx * c0 + dy * c1 + dz * c2, w = dx * n0 + dy * n1 + dz * n2;
      const x = envelope.chordPosition(u, v, w);
      if (!(x >= -0.5 && x <= 1.5)) continue;
      const beyond = envelope.beyond(u, v, w);
      // Ahead of the lead or behind the trail the distance along the chord counts toward touching.
      touch = Math.min(touch, Math.hypot(Math.max(0, -x, x - 1), beyond));
      if (x >= hingeFrom && x <= hingeTo && beyond <= FAR) depth = Math.max(depth, beyond);
    }
    if (touch <= TOUCH && depth > MARGIN) found.push({ name, depth });
  }
  return found.sort((a, b) => b.depth - a.depth || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
