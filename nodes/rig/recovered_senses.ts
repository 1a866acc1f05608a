/**
 * The `positive` word of partgraph's own pivots declared again by their shape (`own_pivots.ts`: a
 * tool dropped their extras), measured instead of assumed. The kind's default word is not always what
 * the first run wrote: a trim tab on a rudder or an upright panel moves `trailing_edge_right`, a spoiler
 * opening downward `trailing_edge_down` (`sense.ts`). The pivot's X is the hinge signed by the first
 * run, so turning the panel's moving edge (the points aft of the hinge; ahead of it for slats and
 * leading-edge flaps) by a small positive angle about it shows which way a positive angle moves it in
 * the aircraft frame; `rig.assign_side` calls this once the frame is known.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import { mergeExtras } from "../../runtime/scene/extras.ts";
import { gatherPositions } from "./geometry.ts";
import { KIND_SPECS, type Sense } from "./kinds.ts";
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
 * where that is not its kind's default, or where it could not be told and the default is assumed.
 *
 * @param toAircraft Scene → aircraft rotation (`aircraftMatrix`).
 */
export function measureRecoveredSenses(doc: Document, toAircraft: Mat4, ctx: RunContext): void {
  for (const pivot of doc.getRoot().listNodes()) {
    const part = getPart(pivot);
    if (!part?.recovered) continue;
    const { recovered: _recovered, ...kept } = part;
    setPart(pivot, kept);
    const spec = KIND_SPECS[part.kind as PanelKind];
    const panel = part.panel === undefined ? undefined : panelChild(pivot, part.panel);
    // "open" names no direction to get wrong: a brake opens whichever way its kind does.
    if (!spec || !panel || spec.positive === "open") continue;
    const motion = edgeMotion(pivot, panel, toAircraft, spec.edge === "aft");
    const word = motion && wordFor(spec.positive, motion);
    if (word === part.positive) continue;
    const name = pivot.getName();
    if (!word) {
      ctx.warn(
        `pivot '${name}' (${part.kind}) lost its extras and which way a positive angle moves its panel ` +
          `could not be told from its axis and geometry: '${part.positive}', its kind's default, is assumed`,
        { pivot: name, positive: part.positive ?? null },
      );
      continue;
    }
    ctx.warn(
      `pivot '${name}' (${part.kind}) lost its extras: a positive angle moves its panel's ` +
        `${word.replaceAll("_", " ")} (measured from its axis and geometry), so its positive is '${word}', ` +
        `not its kind's default '${part.positive}'`,
      { pivot: name, positive: word, default: part.positive ?? null },
    );
    setPart(pivot, { ...kept, positive: word });
    mergeExtras(pivot, { positive: word });
  }
}

/**
 * The mean motion (aircraft coordinates) a small positive turn about the pivot's X gives the panel's
 * points on its moving side of the hinge (aft of it, or ahead with `leading`); undefined when none.
 */
function edgeMotion(pivot: Node, panel: Node, toAircraft: Mat4, leading: boolean): Vec3 | undefined {
  const world = pivot.getWorldMatrix();
  // A mirroring ancestor turns a positive local rotation into a negative world one (sense.ts).
  const sign = linearDeterminant(world) < 0 ? -1 : 1;
  const frame = multiply(toAircraft, world);
  const axis = transformDirection(frame, [sign, 0, 0]);
  const origin: Vec3 = [frame[12], frame[13], frame[14]];
  const { positions: p, count } = gatherPositions(panel, toAircraft);
  const sum: Vec3 = [0, 0, 0];
  let n = 0;
  for (let o = 0; o < count * 3; o += 3) {
    const r: Vec3 = [p[o] - origin[0], p[o + 1] - origin[1], p[o + 2] - origin[2]];
    // The aft component across the hinge, x being aft.
    const aft = r[0] - axis[0] * dot(r, axis) / dot(axis, axis);
    if (leading ? aft >= 0 : aft <= 0) continue;
    const m = cross(axis, r);
    for (let k = 0; k < 3; k++) sum[k] += m[k];
    n++;
  }
  return n && Math.hypot(...sum) > 0 ? sum : undefined;
}
