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
import {
  declaredCtrlType,
  type Frame,
  getPart,
  type HingeAnnotation,
  type PartAnnotation,
  setPart,
} from "./part_extras.ts";
import {
  EDITED_FRACTION,
  fittedGeometry,
  geometrySize,
  isFittedGeometry,
  panelDrift,
  scaledGeometry,
} from "./fitted_geometry.ts";
import { panelChild, pivotLine, unwrap } from "./own_pivots.ts";
import { animatedNodes } from "./panel_animation.ts";
import type { LocalMeshes } from "./local_meshes.ts";
import {
  canonicalVec3,
  dot,
  length,
  normalize,
  type Quat,
  quatRotate,
  sub,
  transformPoint,
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
  const sheared: string[] = [];
  for (const pivot of doc.getRoot().listNodes()) {
    const part = getPart(pivot);
    if (!part?.panel || !declaredCtrlType(pivot) || !isFittedGeometry(part.fitted_to)) continue;
    const panel = panelChild(pivot, part.panel);
    const moved = panel && panelDrift(part.fitted_to, pivot, panel);
    if (!panel || !moved) continue;
    const { drift, now } = moved;
    const size = geometrySize(part.fitted_to);
    if (!(drift > EDITED_FRACTION * size)) {
      // Turned about its hinge line, or its frame's mirror applied away: the hinge stands, the record
      // follows the panel.
      if (moved.turn !== 0 || moved.mirrored) setPart(pivot, { ...part, fitted_to: now });
      continue;
    }
    // Scaled about the pivot's origin (Blender's Apply Scale on a scaled model, a unit change; on a
    // mirrored half, the mirror applied with it): the pivot's line is still the hinge of the scaled
    // panel, so only the record follows.
    const k = geometrySize(now) / size;
    const scaled = panelDrift(scaledGeometry(part.fitted_to, k), pivot, panel);
    if (scaled && scaled.drift <= EDITED_FRACTION * size * k) {
      setPart(pivot, { ...part, fitted_to: now });
      continue;
    }
    if (helpersScaleApplied(pivot)) {
      // The tool's doing, not the user's: told once, and the record follows the panel.
      // Its change beside any uniform scale the Apply took with it.
      const change = Math.min(drift / size, scaled ? scaled.drift / (size * k) : Infinity);
      sheared.push(`'${panel.getName()}' by up to ${show(100 * change)}% of its size`);
      setPart(pivot, { ...part, fitted_to: now });
      continue;
    }
    const earlier = pivotLine(pivot);
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
  if (sheared.length) {
    ctx.warn(
      `${sheared.length} panel(s) hang under partgraph's _unscale/_rescale helpers (their parent is scaled ` +
        `unevenly), whose scale was applied since (Blender's Apply → Scale); glTF holds no shear, so their ` +
        `shapes changed (${sheared.slice(0, 4).join(", ")}${
          sheared.length > 4 ? ", …" : ""
        }). Their earlier ` +
        "hinges are kept. To rig the model with its scale applied, apply it before rigging, or leave the " +
        "HINGE_auto_ helpers out of the Apply",
      { panels: sheared },
    );
  }
  return marked;
}

/** Whole scale: a helper so scaled had its scale applied (the helpers are made only for uneven scales). */
const unit = (node: Node) => node.getScale().every((v) => Math.abs(v - 1) < 1e-4);

/**
 * True when `pivot` hangs under its `_unscale` helper holding its panel through a `_rescale` one
 * (`unscale.ts`) and both have lost their scales: a tool applied them, shearing the panel in world.
 */
function helpersScaleApplied(pivot: Node): boolean {
  const name = pivot.getName().replace(/\.\d{3,}$/, "");
  const named = (node: Node | null | undefined, suffix: string) =>
    !!node && node.getName().replace(/\.\d{3,}$/, "") === `${name}${suffix}`;
  const rescale = pivot.listChildren().find((child) => named(child, "_rescale"));
  const mount = pivot.getParentNode();
  const top = named(mount, "_rest") ? mount!.getParentNode() : mount;
  return !!rescale && named(top, "_unscale") && unit(rescale) && unit(top!);
}

/** A new fit this close to a recovered pivot's line finds that line: float32 noise of a tool's rewrite. */
const SAME_DEGREES = 0.01;
const SAME_OFFSET_FRACTION = 1e-4;

/**
 * Called by `rig.insert_pivot` on each pivot it inserted: records what the hinge was fitted to; on a
 * panel fitted again, puts a recovered pivot back as it was when the fit found its line, else warns
 * how far the hinge is from the pivot's line. `meshes`: the run's memo of meshes read (`local_meshes.ts`).
 */
export function noteFit(pivot: Node, panel: Node, ctx: RunContext, meshes?: LocalMeshes): void {
  const { refit_of: earlier, ...part } = getPart(pivot)!;
  if (!earlier || !part.hinge) {
    setPart(pivot, { ...part, fitted_to: fittedGeometry(pivot, panel, meshes) });
    return;
  }
  const axis = normalize(part.hinge.axis_world);
  const degrees = Math.acos(Math.min(1, Math.abs(dot(axis, earlier.axis_world)))) * 180 / Math.PI;
  // The new hinge's distance from the old line, at the new origin.
  const d = sub(part.hinge.origin_world, earlier.origin_world);
  const along = dot(d, earlier.axis_world);
  const offset = Math.sqrt(Math.max(0, length(d) ** 2 - along * along));
  // The pivot keeps its name, though a tool renamed its panel since (Blender's `.001`).
  if (earlier.restore) rename(pivot, earlier.restore.name);
  // Signed: a pivot turned end for end (its X reversed) turns the panel the wrong way about the same line.
  const same = dot(axis, earlier.axis_world) > 0 && degrees <= SAME_DEGREES &&
    offset <= SAME_OFFSET_FRACTION * (part.fit?.chord ?? 0);
  if (earlier.restore && same && putBack(pivot, panel, earlier.restore)) {
    setPart(pivot, { ...part, hinge: hingeOf(pivot), fitted_to: fittedGeometry(pivot, panel, meshes) });
    return;
  }
  setPart(pivot, { ...part, fitted_to: fittedGeometry(pivot, panel, meshes) });
  const moved = earlier.drift === undefined || earlier.size === undefined
    ? "no longer lies on the line of its pivot, which carries no extras (the panel was moved, turned " +
      "or re-modelled, or the pivot's rotation applied with Blender's Ctrl+A)"
    : `moved under its pivot since partgraph rigged it (up to ${show(earlier.drift)}, ${
      show(100 * earlier.drift / earlier.size)
    }% of its size, in the pivot's frame: the panel was edited, or the pivot's rotation applied)`;
  ctx.warn(
    `panel '${panel.getName()}' ${moved}: its hinge is fitted again, ${show(degrees)}° and ` +
      `${show(offset)} from the line of '${pivot.getName()}' as it was`,
    { panel: panel.getName(), pivot: pivot.getName(), drift: earlier.drift ?? null, degrees, offset },
  );
}

/** Names a pivot (and its `_rest` mount) as it was named. */
function rename(pivot: Node, name: string): void {
  const mount = pivot.getParentNode();
  if (mount && mount.getName() === `${pivot.getName()}_rest`) mount.setName(`${name}_rest`);
  pivot.setName(name);
}

/** Puts a pivot (its mount) and panel back in the frames they had; false when the shape differs. */
function putBack(
  pivot: Node,
  panel: Node,
  restore: NonNullable<PartAnnotation["refit_of"]>["restore"] & object,
) {
  const mount = pivot.getParentNode();
  const hasMount = !!mount && /_rest(\.\d{3,})?$/.test(mount.getName());
  if (hasMount !== (restore.mount !== undefined) || panel.getParentNode() !== pivot) return false;
  const set = (node: Node, frame: Frame) =>
    node.setTranslation(frame.translation).setRotation(frame.rotation).setScale(frame.scale);
  if (restore.mount && mount) set(mount, restore.mount);
  set(pivot, restore.pivot);
  set(panel, restore.panel);
  return true;
}

/** The hinge a pivot turns about, as `rig.insert_pivot` records it (its parent's space, and world). */
function hingeOf(pivot: Node): HingeAnnotation {
  const parent = pivot.getParentNode()?.getWorldMatrix();
  const origin: Vec3 = [...pivot.getTranslation()];
  const axis = quatRotate(pivot.getRotation() as Quat, [1, 0, 0]);
  const line = pivotLine(pivot);
  return {
    origin: canonicalVec3(origin),
    axis: canonicalVec3(axis),
    origin_world: canonicalVec3(parent ? transformPoint(parent, origin) : origin),
    axis_world: canonicalVec3(line.axis_world),
  };
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
