/**
 * Daz's auto-follow by projection: a body's dialled `auto_follow` morph (a body shape, `FBMHeavy`)
 * that a fitted item has no morph of the same name for is, in Daz, created on the item on the fly
 * (DzFollowingProjectionOptions, as the Transfer Utility does): the item's vertices follow the body
 * surface near them, so a dress swells with the body rather than cutting through it. Here each
 * item vertex takes the body morph's delta at the nearest point of the body's surface, averaged
 * with the points of the triangles up to a quarter farther (`nearest_surface.ts`: a garment off the
 * skin follows its shape, not its fine detail; fading out between 5 and 10 cm from the body), as a
 * morph target of the item carrying the body morph's id and name. Its weight is
 * the body's, kept in the item's formula graph as a follower reading `<body key>:#<id>` (as an
 * auto-follow channel is, `auto_follow.ts`), so `dson.apply_preset` re-drives it with the body.
 * Daz applies the item's rigidity to the morphs it projects: at the scene's dial the projected target
 * holds it (decode.dson v72, the fit `dson.apply_preset` makes, `preset_rigidity.ts`), and since
 * bodies are evaluated first, an item fitted to this one projects the fitted shape (body → coat → belt).
 *
 * Both meshes are taken in their geometry's own space, the space the morph deltas are in: Daz's
 * fitted items are modelled around the body at its rest shape. Daz's own projection considers the
 * locations around the closest point within a tolerance (DzFollowingProjectionOptions; its other
 * options — projecting from the subdivided body, "smart" left/right handling, correlated morphs — are
 * not modelled), so a garment near a sharp crease may still differ from Daz's by the crease's detail.
 *
 * @module
 */
import type { UnprojectedMorph } from "./body_values.ts";
import { bodyChannelKey } from "./formula_body.ts";
import type { FormulaGraph } from "./formula_graph.ts";
import type { DsonGeometry } from "./geometry.ts";
import type { MeshParts } from "./mesh_parts.ts";
import { METRES_PER_CM } from "./model.ts";
import { type RigidFit, rigidFitOf, type RigidFitter } from "./preset_rigidity.ts";
import { describeRigidProjection, rigidGroupsOff } from "./projected_rigidity.ts";
import {
  FULL_DISTANCE_CM,
  MAX_DISTANCE_CM,
  MAX_TESTS,
  nearestSurface,
  projectDeltas,
  SMOOTH_RATIO,
} from "./nearest_surface.ts";

/** What {@link projectOntoItem} did: the morphs projected (`name weight (n vertices)`) and those not (capped). */
export interface Projection {
  readonly projected: string[];
  readonly capped: string[];
  /** The item's rigidity groups whose participants the projected morphs move, and those morphs' names. */
  readonly rigid?: { readonly groups: string[]; readonly morphs: string[] };
}

/**
 * Adds to `parts` (a fitted item's mesh) a morph for each of `unprojected` (its body's, `body` the
 * body figure's DSON key), driven in its formula graph (`figure`: the item figure's key) by the
 * body's value.
 *
 * @example
 * ```ts
 * const { projected, capped } = projectOntoItem(parts, bodies.unprojected(mesh, values), body, figure);
 * ```
 */
export function projectOntoItem(
  parts: MeshParts,
  unprojected: readonly UnprojectedMorph[],
  body: string,
  figure: string | undefined,
  rigid?: { readonly fitter: RigidFitter | undefined },
): Projection {
  const projected: string[] = [], capped: string[] = [];
  const rigidGroups = new Set<string>(), rigidMorphs: string[] = [];
  const byGeometry = new Map<DsonGeometry, UnprojectedMorph["morph"][]>();
  for (const { morph, geometry } of unprojected) {
    byGeometry.set(geometry, [...byGeometry.get(geometry) ?? [], morph]);
  }
  for (const [geometry, morphs] of byGeometry) {
    const hits = nearestSurface(geometry, parts.geometry.positions);
    const say = (m: UnprojectedMorph["morph"]) => `${m.name} ${Math.round(m.weight * 1e6) / 1e6}`;
    if (!hits) {
      capped.push(...morphs.map(say));
      continue;
    }
    for (const morph of morphs) {
      // One morph per id on a mesh (a body and a graft merged into it may both list it).
      if (parts.morphs.some((m) => m.id === morph.id)) continue;
      const { index, delta } = projectDeltas(hits, morph, geometry.vertexCount);
      projected.push(`${say(morph)} (${index.length} vertices)`);
      if (!index.length) continue;
      // Daz applies the item's rigidity to the projected morph: at the scene's own dial it is fitted
      // in (decode.dson v72, the preset's fit, `preset_rigidity.ts`), so an item fitted to this one
      // projects the fitted shape in turn (bodies are evaluated first).
      const fitted = rigid?.fitter && fitAtDial(rigid.fitter, index, delta, morph.weight);
      if (!fitted) {
        // At 0 or an unknown dial nothing fixes the fit: the groups rigidity would move are named (v70).
        const { positions, rigidity } = parts.geometry;
        const off = rigidGroupsOff(positions, rigidity, index, delta, morph.weight);
        if (off.length) rigidMorphs.push(morph.name);
        for (const id of off) rigidGroups.add(id);
      }
      parts.morphs.push({
        id: morph.id,
        name: morph.name,
        label: morph.label,
        index: fitted?.index ?? index,
        delta: fitted?.delta ?? delta,
        weight: morph.weight,
        ...(fitted ? { rigid: fitted.rigid } : {}),
        // Daz's projected morphs follow by name in turn: an item fitted to this one takes it.
        autoFollow: true,
        // Daz applies the item's rigidity to it (dson.apply_preset fits it in, `preset_rigidity.ts`).
        projected: true,
      });
      parts.formulas = driveByBody(parts.formulas, figure, body, morph.id, morph.weight);
    }
  }
  return {
    projected,
    capped,
    ...(rigidGroups.size ? { rigid: { groups: [...rigidGroups], morphs: rigidMorphs } } : {}),
  };
}

/**
 * The projected morph `index`/`delta` (cm) with its item's rigidity fitted in at `weight` (the
 * scene's dial): participants take `(rigid place − rest) / weight`, added to the sparse index where
 * the plain morph left them unmoved, and `rigid` keeps their plain deltas (m) so a preset re-dialling
 * it, or a bake, fits again (`preset_rigidity.ts`). Undefined at weight 0 or a dial not known.
 */
function fitAtDial(
  fitter: RigidFitter,
  index: Int32Array,
  delta: Float64Array,
  weight: number,
): { index: Int32Array; delta: Float64Array; rigid: RigidFit } | undefined {
  if (!weight || !Number.isFinite(weight) || !fitter.participants.length) return undefined;
  const vertexCount = fitter.vertexCount;
  const plain = new Float64Array(vertexCount * 3);
  for (let k = 0; k < index.length; k++) plain.set(delta.subarray(k * 3, k * 3 + 3), index[k] * 3);
  const fitted = fitter.fit(plain, weight);
  const full = Float64Array.from(plain);
  fitter.participants.forEach((v, j) => full.set(fitted.subarray(j * 3, j * 3 + 3), v * 3));
  const moved = new Uint8Array(vertexCount);
  for (const v of index) moved[v] = 1;
  for (const v of fitter.participants) moved[v] ||= full[v * 3] || full[v * 3 + 1] || full[v * 3 + 2] ? 1 : 0;
  const at: number[] = [];
  moved.forEach((m, v) => m && at.push(v));
  const out = new Float64Array(at.length * 3);
  at.forEach((v, k) => out.set(full.subarray(v * 3, v * 3 + 3), k * 3));
  const metres = plain.map((d) => d * METRES_PER_CM);
  return { index: Int32Array.from(at), delta: out, rigid: rigidFitOf(weight, fitter.participants, metres) };
}

/**
 * `graph` (a new one for `figure` when undefined) with morph `id` of the item driven by the body's
 * channel of that id (`body`: the body figure's DSON key; `weight`: its value now), as a follower
 * reading `<body key>:#<id>` is, so a preset re-drives it. Shared by the decode and
 * `dson.apply_preset` (`preset_project.ts`), which write the same graph.
 *
 * @example
 * ```ts
 * parts.formulas = driveByBody(parts.formulas, "Dress-1", "Genesis9-1", "FBMHeavy", 0.7);
 * ```
 */
export function driveByBody(
  graph: FormulaGraph | undefined,
  figure: string | undefined,
  body: string,
  id: string,
  weight: number,
): FormulaGraph {
  const out = graph ?? { channels: {}, bones: {}, morphs: [], ...(figure ? { figure } : {}) };
  const key = bodyChannelKey(body, id);
  out.channels[key] = { value: weight, of: body, id };
  out.channels[id] = { value: 0, formulas: [{ stage: "sum", ops: [{ value: key }] }] };
  out.morphs.push(id);
  return out;
}

/** The warnings for {@link projectOntoItem}'s result (none when nothing was to project). */
export function describeProjection(result: Projection, body: string, vertices: number): string[] {
  const list = (l: readonly string[]) => `${l.slice(0, 8).join(", ")}${l.length > 8 ? ", …" : ""}`;
  const out: string[] = [];
  if (result.projected.length) {
    out.push(
      `${result.projected.length} dialled auto_follow morph(s) of the body this item is fitted to ('${body}') ` +
        `that the item has no morph of the same name for are projected from the body, as Daz's auto-follow ` +
        `does: each item vertex follows the body's surface nearest it, averaged over the surface up to ` +
        `${SMOOTH_RATIO * 100}% farther (fully within ${FULL_DISTANCE_CM} cm, fading to nothing at ` +
        `${MAX_DISTANCE_CM} cm), an approximation of Daz's own: ${list(result.projected)}`,
    );
  }
  const rigid = result.rigid && describeRigidProjection(result.rigid.groups, result.rigid.morphs);
  if (rigid) out.push(rigid);
  if (result.capped.length) {
    out.push(
      `${result.capped.length} dialled auto_follow morph(s) of the body this item is fitted to ('${body}') ` +
        `that the item has no morph of the same name for are not projected onto it: finding the body's ` +
        `surface nearest each of its ${vertices} vertices passed the cap of ${MAX_TESTS} triangle tests, so ` +
        `the item keeps its own shape and may cut through the body: ${list(result.capped)}`,
    );
  }
  return out;
}
