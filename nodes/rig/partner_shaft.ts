/**
 * An all-moving pair's shaft shared across the mirror: where the author turned one side's node onto
 * its shaft and left the other's square to the file (a flat tail whose shaft runs along the file's
 * lateral axis: one side's shaft is the node's own X, the other's its −X, so only one node turns), the
 * turned side shows where the shaft is, and a partner drawing its mirror image turns on its mirror.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { HingeFit } from "./hinge_fit.ts";
import { pairPartners } from "./mirror_partners.ts";
import type { Box } from "./surface_pieces.ts";
import { dot } from "./transform.ts";

/** Boxes mirror each other within this share of their largest extent (as mirror_image.ts's do). */
const MIRROR_BOX = 0.03;
/** Most two partners' shafts may lie apart across the mirror (degrees) to share one. */
const SHAFT_DEGREES = 1;

/**
 * Gives the partner of each panel whose shaft its author set on its node (`shaft: "authored"`) that
 * shaft, mirrored across its plane of symmetry, where the partner's own shaft place is the node's
 * origin in its chord (`origin`: said as maybe anywhere) or a guess (`guessed`), their boxes mirror
 * each other and their shafts run within {@link SHAFT_DEGREES} across the mirror. Changes `fits` in
 * place and returns the names of the panels given a shaft.
 *
 * @example
 * ```ts
 * sharePartnerShafts(fits, boxes, kindOf); // ["Elevator_R"]: its node left unturned, Elevator_L's turned
 * ```
 */
export function sharePartnerShafts(
  fits: Map<Node, HingeFit>,
  boxes: Map<Node, Box>,
  kindOf: (node: Node) => string,
  centreOf: (node: Node) => number = () => 0,
  unpaired: (node: Node) => boolean = () => false,
): string[] {
  const given: string[] = [];
  const nodes = [...fits.keys()].filter((n) => !unpaired(n));
  for (const pair of pairPartners(nodes, (n) => fits.get(n)!, kindOf, centreOf)) {
    const [shown, other] = fits.get(pair[0])!.shaft === "authored" ? pair : [pair[1], pair[0]];
    const fs = fits.get(shown)!, fo = fits.get(other)!;
    if (fs.shaft !== "authored" || (fo.shaft !== "origin" && fo.shaft !== "guessed")) continue;
    const centre = centreOf(shown);
    const mirroredAxis = [fs.axis[0], fs.axis[1], -fs.axis[2]];
    const cos = Math.abs(dot(mirroredAxis as [number, number, number], fo.axis));
    if (cos < Math.cos((SHAFT_DEGREES * Math.PI) / 180)) continue;
    const a = boxes.get(shown), b = boxes.get(other);
    if (!a || !b || !mirroredBoxes(a, b, centre)) continue;
    // The shaft's point at mid-span: the shown side's mirrored (its planform mirrors this one's).
    fits.set(other, {
      ...fo,
      origin: [fs.origin[0], fs.origin[1], 2 * centre - fs.origin[2]],
      shaft: "authored",
    });
    given.push(other.getName());
  }
  return given;
}

/** True when box `b` is `a` mirrored across the plane at lateral `centre` (aircraft frame: left third). */
function mirroredBoxes(a: Box, b: Box, centre: number): boolean {
  const extent = Math.max(...[0, 1, 2].map((k) => Math.max(a.hi[k] - a.lo[k], b.hi[k] - b.lo[k])));
  const near = (x: number, y: number) => Math.abs(x - y) <= MIRROR_BOX * extent;
  return near(a.lo[0], b.lo[0]) && near(a.hi[0], b.hi[0]) && near(a.lo[1], b.lo[1]) &&
    near(a.hi[1], b.hi[1]) && near(a.lo[2], 2 * centre - b.hi[2]) && near(a.hi[2], 2 * centre - b.lo[2]);
}
