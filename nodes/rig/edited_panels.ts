/**
 * Panels a user edited under partgraph's own earlier pivots — moved, turned or resized the flap in
 * Blender, or re-modelled its hinge line — are fitted again instead of keeping the stale hinge. Each
 * pivot records what its hinge was fitted to (`fitted_geometry.ts`); `rig.parts` compares it with the
 * panel as the file now has it, and where it moved by more than {@link EDITED_FRACTION} of the panel's
 * size takes the pivot out (the panel keeps its world pose) and marks the panel for `rig.fit_hinge`
 * with the kind, limits and group the pivot carried (a user's edited `min`/`max` kept).
 * `rig.insert_pivot` then records the new fit and warns how far the hinge moved ({@link noteRefit}).
 * An unedited panel keeps its pivot exactly, so re-runs stay idempotent.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import { declaredCtrlType, getPart, type PartAnnotation, setPart } from "./part_extras.ts";
import {
  EDITED_FRACTION,
  fittedGeometry,
  geometryDrift,
  geometrySize,
  isFittedGeometry,
  panelDrift,
  scaledGeometry,
} from "./fitted_geometry.ts";
import { panelChild, unwrap } from "./own_pivots.ts";
import { animatedNodes } from "./panel_animation.ts";
import {
  dot,
  length,
  linearDeterminant,
  normalize,
  sub,
  transformDirection,
  type Vec3,
} from "./transform.ts";

/** A number to show: three significant digits. */
const show = (x: number) => Number(x.toPrecision(3)).toString();

/**
 * Takes out every earlier pivot whose panel was edited since, marking the panel to be fitted again
 * (see the module); a panel whose pivot cannot be taken out (it holds more than the panel, is scaled
 * or animated) keeps it, warned. Returns the panels marked.
 */
export function refitEditedPanels(doc: Document, ctx: RunContext): Node[] {
  const animated = animatedNodes(doc);
  const marked: Node[] = [];
  for (const pivot of doc.getRoot().listNodes()) {
    const part = getPart(pivot);
    if (!part?.panel || !declaredCtrlType(pivot) || !isFittedGeometry(part.fitted_to)) continue;
    const panel = panelChild(pivot, part.panel);
    const moved = panel && panelDrift(part.fitted_to, pivot, panel);
    if (!panel || !moved) continue;
    const { drift, now } = moved;
    const size = geometrySize(part.fitted_to);
    if (!(drift > EDITED_FRACTION * size)) {
      // Turned about its hinge line: the hinge stands, the record follows the panel.
      if (moved.turn !== 0) setPart(pivot, { ...part, fitted_to: now });
      continue;
    }
    // Scaled about the pivot's origin (Blender's Apply Scale on a scaled model, a unit change): the
    // pivot's line is still the hinge of the scaled panel, so only the record follows.
    const k = geometrySize(now) / size;
    if (geometryDrift(scaledGeometry(part.fitted_to, k), now) <= EDITED_FRACTION * size * k) {
      setPart(pivot, { ...part, fitted_to: now });
      continue;
    }
    const world = pivot.getWorldMatrix();
    const mirror = linearDeterminant(world) < 0 ? -1 : 1;
    const earlier = {
      origin_world: [world[12], world[13], world[14]] as Vec3,
      axis_world: normalize(transformDirection(world, [mirror, 0, 0])),
    };
    const extras = pivot.getExtras() as Record<string, unknown>;
    const pivotName = pivot.getName();
    if (!unwrap(doc, pivot, panel, animated)) {
      ctx.warn(
        `panel '${panel.getName()}' moved under its pivot since partgraph rigged it (up to ${show(drift)}, ` +
          `${
            show(100 * drift / size)
          }% of its size, in the pivot's frame), but the pivot '${pivotName}' holds ` +
          "more than the panel, is scaled or animated, so its earlier hinge is kept: delete the pivot to " +
          "have the panel fitted again",
        { panel: panel.getName(), pivot: pivotName, drift },
      );
      continue;
    }
    const refit: PartAnnotation = {
      kind: part.kind,
      found_by: "name",
      unit: part.unit ?? "deg",
      min: finite(extras.min) ?? part.min,
      max: finite(extras.max) ?? part.max,
      rest: 0,
      group: typeof extras.group === "string" ? extras.group : part.group,
      positive: part.positive,
      refit_of: { ...earlier, drift, size },
    };
    setPart(panel, refit);
    marked.push(panel);
  }
  return marked;
}

/**
 * Called by `rig.insert_pivot` on each pivot it inserted: records what the hinge was fitted to and,
 * on a panel fitted again, warns how far its hinge is from the pivot's line.
 */
export function noteFit(pivot: Node, panel: Node, ctx: RunContext): void {
  const { refit_of: earlier, ...part } = getPart(pivot)!;
  const fitted = fittedGeometry(pivot, panel);
  setPart(pivot, { ...part, fitted_to: fitted });
  if (!earlier || !part.hinge) return;
  const axis = normalize(part.hinge.axis_world);
  const degrees = Math.acos(Math.min(1, Math.abs(dot(axis, earlier.axis_world)))) * 180 / Math.PI;
  // The new hinge's distance from the old line, at the new origin.
  const d = sub(part.hinge.origin_world, earlier.origin_world);
  const along = dot(d, earlier.axis_world);
  const offset = Math.sqrt(Math.max(0, length(d) ** 2 - along * along));
  ctx.warn(
    `panel '${panel.getName()}' moved under its pivot since partgraph rigged it (up to ` +
      `${show(earlier.drift)}, ${show(100 * earlier.drift / earlier.size)}% of its size, in the pivot's ` +
      "frame: the panel was edited, or the pivot's rotation applied): its hinge is fitted again, " +
      `${show(degrees)}° and ${show(offset)} from the pivot's line`,
    { panel: panel.getName(), pivot: pivot.getName(), drift: earlier.drift, degrees, offset },
  );
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
