/**
 * partgraph's own earlier pivots, known by their shape when a tool dropped their extras. Blender's glTF
 * exporter writes custom properties back as extras only with Include → Custom Properties, which is off
 * by default (Blender 3.4), so a rigged file edited in Blender comes back with `HINGE_auto_<panel>`
 * nodes and no `ctrl_type`: without this the rig would take the panel under it for a new one and
 * insert a second pivot under the first. Such a pivot is taken out and its panel, whose kind its name
 * tells, fitted again; where the new fit finds the pivot's own line the pivot is put back exactly as
 * it was (`edited_panels.ts`), so unedited panels keep their pivots, and a panel the user moved,
 * turned or re-modelled — or a pivot whose rotation Blender's Ctrl+A applied — is rigged where it now
 * is, warned. Limits and group are the kind's defaults. A pivot that cannot be taken out (it holds
 * more than its panel, scales, or is animated) is declared again as it was written: its frame taken
 * for the hinge, its `positive` measured later (`recovered_senses.ts`).
 * A panel whose kind its name does not tell (one found by its shape, as a propeller) has its stale
 * pivot taken out instead — the panel keeps its world pose — so the rig finds and fits it afresh.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { JsonValue, RunContext } from "../../runtime/node.ts";
import { mergeExtras } from "../../runtime/scene/extras.ts";
import { KIND_SPECS, namedPanelPart } from "./kinds.ts";
import { type Frame, getPart, isPart, setPart } from "./part_extras.ts";
import { classifyPartName, matchPanelName } from "./vocabulary.ts";
import { linearDeterminant, multiply, normalize, transformDirection, type Vec3 } from "./transform.ts";
import { animatedNodes } from "./panel_animation.ts";
import { panelName } from "./panel_names.ts";

/** The prefix `rig.insert_pivot` names its pivots with (`insert_pivot_run.ts`'s PIVOT_PREFIX). */
const PREFIX = "HINGE_auto_";

/**
 * A name as a tool may write it back: without Blender's clash suffix (`Aileron_L.001`) and spelt as
 * three.js's loader sanitises it (whitespace as `_`, without `[ ] . : /`; `Flap.L` → `FlapL`).
 */
function sameLoosely(a: string, b: string): boolean {
  const sanitised = (name: string) => name.replace(/\s/g, "_").replace(/[[\].:/]/g, "");
  const unsuffixed = (name: string) => name.replace(/\.\d{3,}$/, "");
  return sanitised(a) === sanitised(b) || sanitised(unsuffixed(a)) === sanitised(unsuffixed(b));
}

/**
 * The child (or the child of a `HINGE_auto_<panel>_rescale` child) whose name is `panel`'s, loosely;
 * else the one called `panel` (`panel_names.ts`: a pivot's name reads the panel through Assimp's helper
 * suffix or a placeholder node's mesh, numbered `_<n>` when that name was taken).
 */
export function panelChild(node: Node, panel: string): Node | undefined {
  const find = (named: (child: Node) => string, name: string): Node | undefined => {
    for (const child of node.listChildren()) {
      if (sameLoosely(named(child), name)) return child;
      if (sameLoosely(child.getName(), `${PREFIX}${panel}_rescale`)) {
        const inner = child.listChildren().find((c) => sameLoosely(named(c), name));
        if (inner) return inner;
      }
    }
    return undefined;
  };
  const called = (child: Node) => panelName(child).name;
  // Without its number, then without the side a shared name was given (`HINGE_auto_Flap_L_1`), the
  // panel's own name without the number export gave a repeat (`Flap_1`).
  const bare = panel.replace(/_\d+$/, ""), unsided = bare.replace(/_[LR]$/, "");
  return find((child) => child.getName(), panel) ?? find(called, panel) ?? find(called, bare) ??
    find(called, unsided) ?? find((child) => called(child).replace(/_\d+$/, ""), unsided);
}

/**
 * The panel an extras-less `HINGE_auto_<panel>` node turns: its child `<panel>` (or, under a
 * non-uniformly scaled parent, the `HINGE_auto_<panel>_rescale` child holding it); undefined when the
 * node is not shaped as a pivot of ours.
 */
function turnedPanel(node: Node): Node | undefined {
  const name = node.getName().replace(/\.\d{3,}$/, "");
  if (!name.startsWith(PREFIX) || node.getMesh() || isPart(node)) return undefined;
  const panel = name.slice(PREFIX.length);
  return panel ? panelChild(node, panel) : undefined;
}

/**
 * A pivot of ours that kept its extras through a tool that renamed its panel (Blender's `.001`,
 * three.js's sanitised names) records the panel's name as the file now spells it.
 */
function renamePanel(node: Node): void {
  const part = getPart(node);
  if (part?.panel === undefined || node.listChildren().some((c) => c.getName() === part.panel)) return;
  const child = panelChild(node, part.panel);
  if (child && child.getName() !== part.panel) setPart(node, { ...part, panel: child.getName() });
}

/**
 * Declares again every pivot of partgraph's that lost its extras (see the module), warning once with
 * the cause and the Blender setting that keeps them; returns how many were found.
 */
export function redeclareOwnPivots(doc: Document, ctx: RunContext): number {
  const found: string[] = [];
  const animated = animatedNodes(doc);
  for (const node of doc.getRoot().listNodes()) {
    renamePanel(node);
    const panel = turnedPanel(node);
    if (!panel) continue;
    const kind = matchPanelName(panel.getName().replace(/\.\d{3,}$/, ""))?.kind ??
      classifyPartName(node.getName());
    if (!kind && unwrap(doc, node, panel, animated)) {
      found.push(node.getName());
      continue;
    }
    if (kind) {
      // Fitted again, its frames kept to be put back if the fit finds the same line (edited_panels.ts).
      const earlier = pivotLine(node);
      const mount = restMount(node, animated);
      const restore = {
        name: node.getName(),
        pivot: frameOf(node),
        panel: frameOf(panel),
        ...(mount ? { mount: frameOf(mount) } : {}),
      };
      if (unwrap(doc, node, panel, animated)) {
        setPart(panel, { ...namedPanelPart(kind), refit_of: { ...earlier, restore } });
        found.push(node.getName());
        continue;
      }
    }
    const spec = kind ? KIND_SPECS[kind] : undefined;
    const interop: Record<string, JsonValue> = {
      ctrl_type: "rotation",
      axis: "X",
      unit: "deg",
      min: spec?.min ?? null,
      max: spec?.max ?? null,
      rest: 0,
    };
    if (spec) {
      interop.group = spec.group;
      interop.positive = spec.positive;
    }
    mergeExtras(node, interop);
    setPart(node, {
      ...getPart(node),
      kind: kind ?? "other",
      found_by: "name",
      ctrl_type: "rotation",
      unit: "deg",
      min: spec?.min,
      max: spec?.max,
      rest: 0,
      group: spec?.group,
      positive: spec?.positive,
      panel: panel.getName(),
      // Its positive word is measured once the frame is known (recovered_senses.ts).
      recovered: spec ? true : undefined,
    });
    found.push(node.getName());
  }
  if (found.length) {
    const list = found.slice(0, 4).map((n) => `'${n}'`).join(", ") + (found.length > 4 ? ", …" : "");
    ctx.warn(
      `${found.length} pivot(s) of an earlier partgraph run (${list}) carry no extras: the file went ` +
        "through a tool that drops glTF extras (Blender's exporter writes custom properties only with " +
        "Include → Custom Properties on). Their panels are fitted again, each pivot kept as it was where its " +
        "panel still lies on its line, with its kind's default limits; a " +
        "range keyed by the model's clips, and any part the model declared with ctrl_type extras, are " +
        "lost — export with Custom Properties on",
      { pivots: found },
    );
  }
  return found.length;
}

/** The line a pivot turns about, world: its origin and its X, signed as a positive turn goes. */
export function pivotLine(pivot: Node): { origin_world: Vec3; axis_world: Vec3 } {
  const world = pivot.getWorldMatrix();
  const mirror = linearDeterminant(world) < 0 ? -1 : 1;
  return {
    origin_world: [world[12], world[13], world[14]],
    axis_world: normalize(transformDirection(world, [mirror, 0, 0])),
  };
}

/** A node's local frame. */
export function frameOf(node: Node): Frame {
  return {
    translation: [...node.getTranslation()],
    rotation: [...node.getRotation()],
    scale: [...node.getScale()],
  };
}

/** The `_rest` mount `zero_rest` put above a pivot, when it holds the pivot alone. */
function restMount(pivot: Node, animated: ReadonlySet<Node>): Node | undefined {
  const mount = pivot.getParentNode();
  return mount && /_rest(\.\d{3,})?$/.test(mount.getName()) && mount.listChildren().length === 1 &&
      !mount.getMesh() && !animated.has(mount)
    ? mount
    : undefined;
}

/**
 * Takes a stale pivot (and the `_rest` mount `zero_rest` put above it) out from over its panel, the
 * panel keeping its world pose; false (nothing changed) when the pivot holds more than the panel,
 * scales, or is animated, or the panel is.
 */
export function unwrap(doc: Document, pivot: Node, panel: Node, animated: ReadonlySet<Node>): boolean {
  const rest = restMount(pivot, animated);
  const chain = rest ? [rest, pivot] : [pivot];
  const unit = (n: Node) => n.getScale().every((s) => Math.abs(s - 1) < 1e-6);
  if (
    panel.getParentNode() !== pivot || pivot.listChildren().length !== 1 ||
    chain.some((n) => animated.has(n) || !unit(n)) || animated.has(panel)
  ) {
    return false;
  }
  const local = chain.reduceRight(
    (m, n) => multiply(n.getMatrix(), m),
    panel.getMatrix() as ArrayLike<number>,
  );
  // Written as translation, rotation and scale: exact for the rigid frames a pivot and its mount hold.
  const top = chain[0];
  const parent = top.getParentNode();
  const roots = parent
    ? []
    : doc.getRoot().listScenes().filter((scene) => scene.listChildren().includes(top));
  panel.setMatrix(local as unknown as Parameters<Node["setMatrix"]>[0]);
  if (parent) parent.addChild(panel);
  for (const scene of roots) scene.addChild(panel);
  for (const n of chain) n.dispose();
  return true;
}
