/**
 * The `positive` word of partgraph's own pivots declared again by their shape (`own_pivots.ts`: a
 * tool dropped their extras), measured instead of assumed. The kind's default word is not always what
 * the first run wrote: a trim tab on a rudder or an upright panel moves `trailing_edge_right`, a spoiler
 * opening downward `trailing_edge_down` (`sense.ts`). The pivot's X is the hinge signed by the first
 * run, so turning the panel's moving edge (the points aft of the hinge; ahead of it for slats and
 * leading-edge flaps) by a small positive angle about it shows which way a positive angle moves it in
 * the aircraft frame; `rig.assign_side` calls this once the frame is known. A leading-edge flap whose
 * panel lies aft of its pivot was rigged as a Krueger flap (`krueger_flaps.ts`: hinged at its forward
 * edge, trailing edge down, 0–130°) and is read as one; judged by a droop flap's sense, its few points
 * ahead of the hinge told nothing or the wrong way, and its limits came back a droop flap's.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import { mergeExtras } from "../../runtime/scene/extras.ts";
import { gatherDrawn } from "./drawn_vertices.ts";
import { KIND_SPECS, type KindSpec, type Sense } from "./kinds.ts";
import { isKruegerName, KRUEGER_SPEC } from "./krueger_flaps.ts";
import { getPart, setPart } from "./part_extras.ts";
import { panelChild } from "./own_pivots.ts";
import { wantedMotion } from "./sense.ts";
import {
  cross,
  dot,
  linearDeterminant,
  type Mat4,
  multiply,
  normalize,
  transformDirection,
  type Vec3,
} from "./transform.ts";
import type { PanelKind } from "./vocabulary.ts";

/** Below this agreement with its kind's direction (cosine) the motion tells nothing (as `rig.fit_hinge` warns). */
const CLEAR = 0.3;

/** The word for the opposite motion: a pivot turning against its kind's convention. */
const opposite = (word: string) =>
  word.replace(/_(down|up|right)$/, (_, w: string) => `_${{ down: "up", up: "down", right: "left" }[w]}`);

/**
 * The word for a moving edge's motion (aircraft coordinates): the kind's own rule (`sense.ts`) with the
 * motion as the panel's normal (a far edge turning about its hinge moves along it), or the opposite
 * word when it moves against it; undefined when it agrees with neither.
 */
function wordFor(sense: Sense, motion: Vec3): string | undefined {
  const direction = normalize(motion);
  const wanted = wantedMotion(sense, direction, undefined);
  const along = dot(direction, wanted.direction);
  if (Math.abs(along) < CLEAR) return undefined;
  return along > 0 ? wanted.positive : opposite(wanted.positive);
}

/**
 * Sets each recovered pivot's `positive` (part and interop extras) to the way it turns its panel, warning
 * where that is not its kind's default, or where it could not be told and the default is assumed; a
 * leading-edge flap lying aft of its pivot takes a Krueger flap's limits and default (see the module).
 *
 * @param toAircraft Scene → aircraft rotation (`aircraftMatrix`).
 */
export function measureRecoveredSenses(doc: Document, toAircraft: Mat4, ctx: RunContext): void {
  for (const pivot of doc.getRoot().listNodes()) {
    const part = getPart(pivot);
    if (!part?.recovered) continue;
    const { recovered: _recovered, ...kept } = part;
    setPart(pivot, kept);
    const kindSpec = KIND_SPECS[part.kind as PanelKind];
    const panel = part.panel === undefined ? undefined : panelChild(pivot, part.panel);
    // "open" names no direction to get wrong: a brake opens whichever way its kind does.
    if (!kindSpec || !panel || kindSpec.positive === "open") continue;
    const sides = edgeMotions(pivot, panel, toAircraft);
    const spec = kruegerSpec(pivot, part.kind, sides, ctx) ?? kindSpec;
    if (spec !== kindSpec) {
      kept.min = spec.min;
      kept.max = spec.max;
      kept.positive = spec.positive;
      setPart(pivot, kept);
      mergeExtras(pivot, { min: spec.min, max: spec.max, positive: spec.positive });
    }
    const motion = spec.edge === "aft" ? sides.ahead : sides.aft;
    const word = motion && wordFor(spec.positive, motion);
    if (word === kept.positive) continue;
    const name = pivot.getName();
    const whose = spec === kindSpec ? "its kind's" : "a Krueger flap's";
    if (!word) {
      ctx.warn(
        `pivot '${name}' (${part.kind}) lost its extras and which way a positive angle moves its panel ` +
          `could not be told from its axis and geometry: '${kept.positive}', ${whose} default, is assumed`,
        { pivot: name, positive: kept.positive ?? null },
      );
      continue;
    }
    ctx.warn(
      `pivot '${name}' (${part.kind}) lost its extras: a positive angle moves its panel's ` +
        `${word.replaceAll("_", " ")} (measured from its axis and geometry), so its positive is '${word}', ` +
        `not ${whose} default '${kept.positive}'`,
      { pivot: name, positive: word, default: kept.positive ?? null },
    );
    setPart(pivot, { ...kept, positive: word });
    mergeExtras(pivot, { positive: word });
  }
}

/** A panel's points on each side of its pivot's hinge: how many, and their summed motion. */
interface Sides {
  /** The summed motion of the points ahead of the hinge; undefined when none or it cancels. */
  readonly ahead: Vec3 | undefined;
  /** The same for the points aft of it. */
  readonly aft: Vec3 | undefined;
  readonly aheadCount: number;
  readonly aftCount: number;
}

/**
 * A Krueger's rig defaults for a recovered leading-edge flap whose panel lies mostly aft of its pivot
 * (partgraph hinges a Krueger at its forward edge, a droop flap at its aft edge); undefined for any
 * other. One not named a Krueger (told by its place in the first run) is warned, naming it.
 */
function kruegerSpec(pivot: Node, kind: string, sides: Sides, ctx: RunContext): KindSpec | undefined {
  if (kind !== "leading_edge_flap" || sides.aftCount <= sides.aheadCount) return undefined;
  if (!isKruegerName(pivot)) {
    const name = pivot.getName();
    ctx.warn(
      `pivot '${name}' (leading_edge_flap) lost its extras and its panel lies aft of it: the hinge is its ` +
        `forward edge, where partgraph hinges a Krueger flap, so it is read as one (trailing edge down, ` +
        `${KRUEGER_SPEC.min}–${KRUEGER_SPEC.max}°), not as a droop flap (name it Krueger, or export with ` +
        "Custom Properties on, to say so)",
      { pivot: name, positive: KRUEGER_SPEC.positive, min: KRUEGER_SPEC.min, max: KRUEGER_SPEC.max },
    );
  }
  return KRUEGER_SPEC;
}

/**
 * The motion (aircraft coordinates) a small positive turn about the pivot's X gives the panel's points
 * ahead of the hinge and those aft of it, summed per side, with how many lie on each.
 */
function edgeMotions(pivot: Node, panel: Node, toAircraft: Mat4): Sides {
  const world = pivot.getWorldMatrix();
  // A mirroring ancestor turns a positive local rotation into a negative world one (sense.ts).
  const sign = linearDeterminant(world) < 0 ? -1 : 1;
  const frame = multiply(toAircraft, world);
  const axis = transformDirection(frame, [sign, 0, 0]);
  const origin: Vec3 = [frame[12], frame[13], frame[14]];
  // A vertex no triangle draws (one left at the model's origin, the wing's in a shared buffer) moves no edge.
  const { positions: p, count } = gatherDrawn(panel, toAircraft);
  const ahead: Vec3 = [0, 0, 0], aft: Vec3 = [0, 0, 0];
  let aheadCount = 0, aftCount = 0;
  for (let o = 0; o < count * 3; o += 3) {
    const r: Vec3 = [p[o] - origin[0], p[o + 1] - origin[1], p[o + 2] - origin[2]];
    // The aft component across the hinge, x being aft; points on the hinge move neither edge.
    const across = r[0] - axis[0] * dot(r, axis) / dot(axis, axis);
    if (across === 0) continue;
    const m = cross(axis, r);
    const sum = across > 0 ? aft : ahead;
    for (let k = 0; k < 3; k++) sum[k] += m[k];
    if (across > 0) aftCount++;
    else aheadCount++;
  }
  const moved = (sum: Vec3, n: number) => n && Math.hypot(...sum) > 0 ? sum : undefined;
  return { ahead: moved(ahead, aheadCount), aft: moved(aft, aftCount), aheadCount, aftCount };
}
