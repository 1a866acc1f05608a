/**
 * A preset changing a body shape moves the joints, as Daz moves them: the joint centres a shape's
 * ERC formulas move (decode.dson v57, `rig_formulas.ts`) are evaluated again at the preset's dials
 * (`rig_recentre.ts`), so the scene is the one decode.dson gives a file saved at those dials. Before
 * dson.apply_preset v41 the joints stayed at the decoded centres, with a warning.
 *
 * @module
 */
import type { Document, Mesh } from "@gltf-transform/core";
import type { JsonValue, WarningSink } from "../../../../runtime/node.ts";
import { getPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { evaluateFormulaGraph } from "./formula_graph.ts";
import { readFormulaGraph } from "./formula_graph_read.ts";
import { fewNames as few } from "./preset_morphs.ts";
import { readRigCentres, recentreJoints, type RecentreResult } from "./rig_recentre.ts";
import { percentDecode } from "./uri.ts";

/**
 * Moves the joints of the meshes in scope whose shape dials a preset changed: each modifier a
 * mesh's `rig_centres` reads takes its value from the mesh's formulas (after the preset,
 * `preset_formulas.ts`), else the weight of the morph of that id on the mesh, else the preset's own
 * value (`values`), else the decoded dial (`rig_dials`). Call it after the formulas and morph weights
 * are set and before the preset's poses, which are read about the new centres. What cannot be moved
 * is one warning per reason.
 *
 * @example
 * ```ts
 * moveRigJoints(doc, new Map([["FBMHeavy", 1]]), () => true, console.warn);
 * ```
 */
export function moveRigJoints(
  doc: Document,
  values: ReadonlyMap<string, number>,
  inScope: (mesh: Mesh) => boolean,
  warn: WarningSink,
): number {
  const meshes = doc.getRoot().listMeshes().filter(inScope);
  const readers = new Map<Mesh, (id: string) => number | undefined>();
  const valueOf = (mesh: Mesh, id: string): number | undefined => {
    if (!readers.has(mesh)) readers.set(mesh, shapeValueReader(mesh, values));
    return readers.get(mesh)!(id);
  };
  const result = recentreJoints(doc, meshes, valueOf);
  warnRecentre(result, warn, "dson preset");
  // A scene decoded before decode.dson v58 kept the dials but not the formulas: said, not moved.
  const stale: string[] = [];
  for (const mesh of meshes) {
    const dials = (getPartgraphExtras(mesh).dson as { rig_dials?: unknown } | undefined)?.rig_dials;
    if (!dials || typeof dials !== "object" || Array.isArray(dials) || readRigCentres(mesh)) continue;
    for (const [id, was] of Object.entries(dials as Record<string, unknown>)) {
      const now = valueOf(mesh, id);
      if (typeof was === "number" && now !== undefined && Math.abs(now - was) > 1e-9) {
        stale.push(`${mesh.getName()} ${id} ${was} → ${now}`);
      }
    }
  }
  if (stale.length) {
    warn(
      `dson preset: ${stale.length} dial(s) whose ERC formulas move joint centres changed, but the scene was ` +
        `decoded before decode.dson v58 kept those formulas (rig_centres); the joints stay: ${few(stale)}`,
    );
  }
  return result.moved;
}

/**
 * The value of each modifier on `mesh` as the scene holds it now (see {@link moveRigJoints}), the
 * preset's `values` after the mesh's formulas and morph weights.
 *
 * @example
 * ```ts
 * const valueOf = shapeValueReader(mesh, new Map());
 * valueOf("FBMHeavy"); // the morph's weight
 * ```
 */
export function shapeValueReader(
  mesh: Mesh,
  values: ReadonlyMap<string, number>,
): (id: string) => number | undefined {
  const dson = getPartgraphExtras(mesh).dson as
    | { formulas?: JsonValue; morphs?: { id?: unknown }[]; rig_dials?: Record<string, unknown> }
    | undefined;
  const graph = readFormulaGraph(dson?.formulas);
  const channelValue = graph ? evaluateFormulaGraph(graph).channelValue : undefined;
  const morphIds = Array.isArray(dson?.morphs) ? dson.morphs.map((m) => m?.id) : [];
  const weights = mesh.getWeights();
  return (id) => {
    const formula = graph && Object.hasOwn(graph.channels, id) ? channelValue!(id) : undefined;
    if (formula !== undefined) return formula;
    const k = morphIds.indexOf(id);
    if (k >= 0 && k < weights.length) return weights[k];
    const preset = values.get(id) ?? values.get(percentDecode(id));
    if (preset !== undefined) return preset;
    const dial = dson?.rig_dials?.[id];
    return typeof dial === "number" ? dial : undefined;
  };
}

/**
 * One warning per reason a joint was not moved with the shape (`prefix`: who says it).
 *
 * @example
 * ```ts
 * warnRecentre(recentreJoints(doc, meshes, valueOf), console.warn, "dson bake");
 * ```
 */
export function warnRecentre(result: RecentreResult, warn: WarningSink, prefix: string): void {
  if (result.unknown.length) {
    warn(
      `${prefix}: ${result.unknown.length} joint rest-frame channel(s) driven by ERC formulas cannot be ` +
        `evaluated at the new values (an input not known); they keep their place: ${few(result.unknown)}`,
    );
  }
  if (result.offKeys.length) {
    warn(
      `${prefix}: ${result.offKeys.length} joint rest-frame channel(s) met a spline_tcb input between its keys, ` +
        `where readers disagree; the DSON spec's Kochanek–Bartels reading is used: ${few(result.offKeys)}`,
    );
  }
  if (result.unbound.length) {
    warn(
      `${prefix}: ${result.unbound.length} skin joint(s) the shape moved are bound other than at their rest ` +
        `frame (a mesh skinned to a rigid follower); their inverse binds are kept: ${few(result.unbound)}`,
    );
  }
}
