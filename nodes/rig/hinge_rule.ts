/**
 * The hinge rule of a fitted panel for `rig.fit_hinge` (`fit_hinge_run.ts`): its kind's edge, or
 * the whole (all-moving) surface where nothing fixed is ahead of it.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import type { BodySampler } from "./opening.ts";
import type { HingeFit } from "./hinge_fit.ts";
import type { HingeEdge } from "./kinds.ts";
import { kruegerPlace, panelSpec } from "./krueger_flaps.ts";
import {
  AHEAD_COVERAGE,
  aheadBox,
  EXPLODED_REACH,
  explodedStabiliserAhead,
  fixedSurfaceAhead,
  MAYBE_ALL_MOVING,
  PLANFORM_TELLS,
  wholePlanform,
  wingEdgeAhead,
} from "./all_moving.ts";
import { getPart } from "./part_extras.ts";
import type { HingeRule } from "./signed_part.ts";

/** A panel's hinge rule, why (where not its kind's), and whether the geometry only suggests it. */
export type RuleOf = { rule: HingeRule; why?: string; weak?: boolean };

/**
 * The hinge rule for a panel: its kind's edge, except that an elevator, elevon or rudder with no
 * fixed surface ahead of it is the whole (all-moving) surface.
 */
export function hingeRule(
  node: Node,
  fit: HingeFit,
  body: BodySampler,
  refit: (edge: HingeEdge) => HingeFit,
): RuleOf {
  const kind = getPart(node)!.kind;
  const edge = panelSpec(node).edge;
  // A leading-edge flap its place showed to be a Krueger (fit_panel.ts): its forward edge, and why.
  const krueger = kruegerPlace(node);
  if (krueger) return { rule: "forward_edge", why: krueger };
  if (MAYBE_ALL_MOVING.has(kind)) {
    // A panel floating alone (no fixed geometry within half a chord) shows nothing either way: its
    // kind decides, unless its own planform is a whole tailplane's (then all-moving, weak: a guess).
    let near: boolean | undefined;
    const isNear = () => near ??= body.isNear(node, fit, { fixedOnly: true });
    // Only off a body: panels drawn with nothing fixed at all (a parts file) say nothing of one.
    // A body: fixed geometry with triangles spanning a chord or more (not a leftover point or speck).
    const offBody = () => !isNear() && body.largestFixedExtent() >= fit.chord;
    const whole = PLANFORM_TELLS.has(kind) && offBody() ? wholePlanform(fit, refit("aft")) : undefined;
    if (whole) {
      return {
        rule: "all_moving",
        why: "it floats off the body (no fixed geometry within half a chord, as in an exploded or showcase " +
          `model), so nothing shows a fixed surface ahead, and ${whole}: taken as the whole surface, ` +
          "pivoting at quarter chord",
        weak: true,
      };
    }
    const ahead = fixedSurfaceAhead(fit, body.othersThan(node, { fixedOnly: true, near: aheadBox(fit) }));
    if (ahead < AHEAD_COVERAGE && isNear()) {
      // Pulled straight back off its stabiliser (an exploded view): hinged at its own leading edge. An
      // elevator whose planform is a whole tailplane's is no strip (a jet's stabilators behind its wing).
      const pulled = PLANFORM_TELLS.has(kind) && wholePlanform(fit, refit("aft"))
        ? undefined
        : explodedStabiliserAhead(
          fit,
          body.othersThan(node, { fixedOnly: true, near: aheadBox(fit, EXPLODED_REACH) }),
        );
      if (pulled !== undefined) {
        return {
          rule: edge === "aft" ? "aft_edge" : "forward_edge",
          why: `exploded: its stabiliser (or fin) is ${pulled.toFixed(1)} chord ahead, its trailing edge ` +
            "parallel to this surface's leading edge but past a hinge gap (pulled off it, as exploded and " +
            "showcase models draw it), so hinged at its own leading edge, not all-moving",
          weak: true,
        };
      }
      return {
        rule: "all_moving",
        why:
          `no fixed surface ahead of its leading edge (found over ${
            Math.round(ahead * 100)
          } % of its span): ` +
          "the whole surface moves, pivoting at quarter chord",
      };
    }
    // A wing's trailing edge ahead of an elevator-named surface whose own planform is a whole
    // tailplane's: a stabilator behind a cropped delta, named as game files name them.
    const tailplane = PLANFORM_TELLS.has(kind) && ahead >= AHEAD_COVERAGE
      ? wholePlanform(fit, refit("aft"))
      : undefined;
    if (
      tailplane &&
      wingEdgeAhead(fit, body.othersThan(node, { fixedOnly: true, near: aheadBox(fit, EXPLODED_REACH) }))
    ) {
      return {
        rule: "all_moving",
        why: "the fixed edge ahead of it runs on past its end along one line, a wing's trailing edge (an " +
          `elevator's stabiliser ends with it), and ${tailplane}: a stabilator behind the wing, pivoting on its shaft`,
      };
    }
  }
  return { rule: edge === "quarter" ? "quarter_chord" : edge === "aft" ? "aft_edge" : "forward_edge" };
}
