/**
 * Daz's auto-follow projection when a preset dials a body morph: a body's `auto_follow` morph that a
 * preset (or a controller it dials) takes from 0 was not projected by `decode.dson`, which projects
 * the morphs dialled when decoded (`auto_project.ts`). Daz projects it onto each item fitted to the
 * body that has no morph of its name, so the clothing swells with the body rather than the body
 * through it; here too, after the preset's formulas are evaluated.
 *
 * The correspondence is not stored: each mesh's DSON geometry is rebuilt from its primitives and
 * the decoder's search run again, only for items a preset gives a morph to project
 * (`preset_mesh_surface.ts`, which keeps searches in memory for a later preset on the same scene).
 * A scene that never gets a preset carries no more than the `auto_follow` flag on its morph records
 * and, with merged geografts, `graft_body`. The projected morph is added as the decoder adds it: a
 * morph target of the body morph's id and name on every primitive, its weight driven in the item's
 * formula graph by the body's channel (`driveByBody`), so a later preset re-drives it (one at 0
 * undoes it). Items fitted to an item take its projected morphs in turn, bodies first, each item's
 * rigidity fitted into its projected morphs before the items fitted to it take them (`fitBefore`,
 * dson.apply_preset v55); an item that took a morph before the preset (the decode, an earlier
 * preset) from an item whose fit the preset moves takes it again, projected anew (v56); a merged
 * geograft's own vertices take it as the decode gives them, from the body's surface under the graft.
 *
 * @module
 */
import type { Document, Mesh, Node } from "@gltf-transform/core";
import type { JsonValue, WarningSink } from "../../../../runtime/node.ts";
import { SceneAccessors } from "../../../../runtime/scene/accessors.ts";
import { getPartgraphExtras, setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { describeProjection, driveByBody } from "./auto_project.ts";
import { morphDeltas } from "./build_primitive.ts";
import { readFormulaGraph } from "./formula_graph_read.ts";
import { MAX_TESTS, projectDeltas, type SurfaceHits } from "./nearest_surface.ts";
import {
  type DrawnMesh,
  figureOf,
  graftBodyOf,
  type MorphRecord,
  sceneMeshes,
  search,
  targetDeltas,
} from "./preset_mesh_surface.ts";
import { fewNames as few } from "./preset_morphs.ts";
import type { MovedMorph, ProjectedRigidity } from "./preset_rigidity.ts";
import { dsonKey } from "./preset_pose.ts";
import { parseDsonUri, percentDecode } from "./uri.ts";

/** How many fitted items a preset projected morphs onto. */
export interface PresetProjection {
  readonly items: number;
  readonly morphs: number;
}

/**
 * Projects onto each fitted item the mesh of which is `inScope` its body's `auto_follow` morphs that
 * are dialled now and that it has no morph of the name of (see the module doc); one warning per
 * item, as the decode says it; merged geografts' own vertices take them too (`graft_body`, v30).
 *
 * @example
 * ```ts
 * projectPresetMorphs(doc, scope.hasMesh, warn);
 * ```
 */
export function projectPresetMorphs(
  doc: Document,
  inScope: (mesh: Mesh) => boolean,
  warn: WarningSink,
  fitBefore?: (meshes: (mesh: Mesh) => boolean) => ProjectedRigidity,
): PresetProjection {
  const meshes = sceneMeshes(doc);
  const byFigure = new Map<Node, DrawnMesh[]>();
  for (const m of meshes) byFigure.set(m.figure, [...byFigure.get(m.figure) ?? [], m]);
  const byKey = new Map<string, Node>();
  for (const node of doc.getRoot().listNodes()) {
    const key = dsonKey(node);
    if (key !== undefined && !byKey.has(key)) byKey.set(key, node);
  }
  const bodyOf = (figure: Node): Node | undefined => {
    const target = (getPartgraphExtras(figure).dson as { conform_target?: unknown } | undefined)
      ?.conform_target;
    if (typeof target !== "string") return undefined;
    const node = byKey.get(parseDsonUri(target).id);
    return node ? figureOf(node) : undefined;
  };
  // Bodies first: an item fitted to an item takes the morphs projected onto that one.
  const depth = (figure: Node) => {
    let d = 0;
    for (let f = bodyOf(figure); f && d < 64; f = bodyOf(f)) d++;
    return d;
  };
  const depths = new Map(meshes.map((m) => [m, depth(m.figure)]));
  const items = meshes.filter((m) => depths.get(m)! > 0 && inScope(m.mesh))
    .sort((a, b) => depths.get(a)! - depths.get(b)!);
  let accessors: SceneAccessors | undefined;
  const made = () =>
    accessors ??= new SceneAccessors(doc, doc.getRoot().listBuffers()[0] ?? doc.createBuffer());
  // Merged geografts first (their body's own mesh), as the decode projects before merging.
  const unrecorded: string[] = [];
  const grafted = projectOntoGrafts(meshes, inScope, made, unrecorded);
  for (const message of grafted.messages) warn(message);
  let projectedItems = 0, projectedMorphs = grafted.morphs;
  let level = 1;
  // Projected morphs of shallower items whose fit moved their rigid parts (`fitBefore`).
  const moved = new Map<Mesh, MovedMorph[]>();
  for (const item of items) {
    // An item fitted to an item takes that one's projected morphs as Daz draws it, its rigidity
    // fitted in (body → coat → belt): the shallower items are fitted before the first deeper one.
    if (depths.get(item)! > level && fitBefore) {
      level = depths.get(item)!;
      const shallower = new Set(items.filter((m) => depths.get(m)! < level).map((m) => m.mesh));
      for (const [mesh, ids] of fitBefore((mesh) => shallower.has(mesh)).moved) moved.set(mesh, ids);
    }
    const body = bodyOf(item.figure)!;
    const bodyKey = dsonKey(body);
    if (bodyKey === undefined) continue;
    const formulas = (getPartgraphExtras(item.mesh).dson as { formulas?: JsonValue } | undefined)?.formulas;
    // Formulas that are not decode.dson's (said by the re-evaluation): not written over.
    if (formulas !== undefined && !readFormulaGraph(formulas)) continue;
    const own = ownNames(item.mesh);
    // Morphs it took before this preset from a body item whose fit this preset moved: projected
    // again from the body item's newly fitted target, as Daz does; those it cannot be are named.
    const stale = (byFigure.get(body) ?? []).flatMap((source) =>
      reproject(made, source, item, moved.get(source.mesh) ?? [])
    );
    warnStale(item.mesh, stale, bodyKey, warn);
    const projected: string[] = [], capped: string[] = [];
    for (const source of byFigure.get(body) ?? []) {
      const dson = getPartgraphExtras(source.mesh).dson as { morphs?: MorphRecord[] };
      const records = Array.isArray(dson?.morphs) ? dson.morphs : [];
      const weights = source.mesh.getWeights();
      const wanted = records.flatMap((record, k) => {
        if (record?.auto_follow !== true || !(weights[k] !== 0) || k >= weights.length) return [];
        const [id, name] = [String(record.id), String(record.name ?? record.id)];
        if ([id, name].some((n) => own.has(n) || own.has(percentDecode(n)))) return [];
        return [{ k, id, name, label: String(record.label ?? name), weight: weights[k] }];
      });
      if (!wanted.length) continue;
      let hits: SurfaceHits | undefined | null = null; // null: not searched yet
      for (const morph of wanted) {
        if (own.has(morph.id)) continue; // the body and a graft merged into it may both list it
        const say = `${morph.name} ${Math.round(morph.weight * 1e6) / 1e6}`;
        if (hits === null) hits = search(source, item);
        if (!hits) {
          capped.push(say); // past the search's budget (said as the decode says it)
          continue;
        }
        const { index, delta } = projectDeltas(hits, targetDeltas(source, morph.k), source.vertexCount);
        projected.push(`${say} (${index.length} vertices)`);
        if (!index.length) continue;
        // Its rigidity is fitted at this dial once the preset's projections are made
        // (`preset_rigidity.ts`, dson.apply_preset v54), not named as the decode names it.
        addMorph(made(), item, { ...morph, index, delta }, bodyKey);
        own.add(morph.id).add(morph.name);
        projectedMorphs++;
      }
    }
    if (projected.length) projectedItems++;
    for (const message of describeProjection({ projected, capped }, bodyKey, item.vertexCount)) {
      warn(`dson preset: fitted item '${item.mesh.getName()}': ${message}`);
    }
  }
  if (unrecorded.length) {
    warn(
      `dson preset: ${unrecorded.length} auto_follow morph(s) dialled on a body with merged geografts that have ` +
        `no morph of the name are not projected onto the grafts: the scene was decoded before decode.dson v31 ` +
        `recorded the body's surface under them and which grafts have which morphs (decode it again): ` +
        few(unrecorded),
    );
  }
  return { items: projectedItems, morphs: projectedMorphs };
}

/**
 * Projects onto the merged grafts' own vertices of each mesh `inScope` its body's dialled
 * auto_follow morphs, onto each graft that brought no morph of the id (its own or projected by the
 * decode, `graft.ts` records which grafts each came with, `grafts`), as a further target of the id
 * that the body's dial drives, as the decode merges a graft's projected morph; grafts that have it
 * keep theirs. Returns the warnings, and in `unrecorded` those of meshes decoded without the
 * `graft_body` record (before decode.dson v30) or, with several grafts of which some have the morph,
 * without the grafts' vertex ranges (before v31).
 */
function projectOntoGrafts(
  meshes: readonly DrawnMesh[],
  inScope: (mesh: Mesh) => boolean,
  accessors: () => SceneAccessors,
  unrecorded: string[],
): { messages: string[]; morphs: number } {
  const messages: string[] = [];
  let morphs = 0;
  for (const m of meshes) {
    const dson = getPartgraphExtras(m.mesh).dson as { morphs?: MorphRecord[]; merged_grafts?: unknown };
    if (!inScope(m.mesh) || !Array.isArray(dson.merged_grafts) || !dson.merged_grafts.length) continue;
    const records = Array.isArray(dson.morphs) ? dson.morphs : [];
    const weights = m.mesh.getWeights();
    const graft = graftBodyOf(m);
    const ends = graft?.graftEnds;
    const wanted = records.flatMap((record, k) => {
      if (record?.auto_follow !== true || !(weights[k] !== 0) || k >= weights.length) return [];
      const same = records.filter((r) => r?.id === record.id);
      let lacking: number[];
      if (ends) {
        if (record.grafts !== undefined) return []; // a graft's own, not the body's
        const have = new Set(same.flatMap((r) => (Array.isArray(r.grafts) ? r.grafts : [])));
        lacking = [...ends.keys()].filter((g) => !have.has(g));
      } else if (same[0] !== record) {
        return []; // a graft's: the body's record comes first
      } else if (same.length === 1) {
        lacking = [0]; // decoded before v31, no graft has it: all grafts (the ranges below)
      } else {
        // Decoded before v31, which did not record which graft brought a morph: some grafts but
        // not all may lack it (warned); as many records as grafts beside the body's: none does.
        if (same.length <= (dson.merged_grafts as unknown[]).length) {
          unrecorded.push(`${m.mesh.getName()}/${record.id}`);
        }
        return [];
      }
      if (!lacking.length) return [];
      const [id, name] = [String(record.id), String(record.name ?? record.id)];
      return [{ k, id, name, label: String(record.label ?? name), weight: weights[k], lacking }];
    });
    if (!wanted.length) continue;
    if (!graft) {
      unrecorded.push(...wanted.map((w) => `${m.mesh.getName()}/${w.id}`));
      continue;
    }
    const hits = search(m, m, graft);
    const projected: string[] = [], capped: string[] = [];
    let ownVertices = 0;
    for (const morph of wanted) {
      const say = `${morph.name} ${Math.round(morph.weight * 1e6) / 1e6}`;
      // The lacking grafts' own vertices (all grafts' when decoded before v31).
      const ranges = ends
        ? morph.lacking.map((g) => [g ? ends[g - 1] : graft.vertexCount, ends[g]])
        : [[graft.vertexCount, m.vertexCount]];
      ownVertices = Math.max(ownVertices, ranges.reduce((sum, [a, b]) => sum + b - a, 0));
      if (!hits) {
        capped.push(say);
        continue;
      }
      const found = projectDeltas(hits, targetDeltas(m, morph.k), m.vertexCount);
      const keep = [...found.index.keys()].filter((j) => {
        const v = found.index[j] + graft.vertexCount;
        return ranges.some(([a, b]) => v >= a && v < b);
      });
      const index = Int32Array.from(keep, (j) => found.index[j] + graft.vertexCount);
      const delta = new Float64Array(keep.length * 3);
      keep.forEach((j, i) => delta.set(found.delta.subarray(j * 3, j * 3 + 3), i * 3));
      projected.push(`${say} (${index.length} vertices)`);
      if (!index.length) continue;
      addMorph(accessors(), m, { ...morph, index, delta }, undefined, ends ? morph.lacking : undefined);
      morphs++;
    }
    for (const message of describeProjection({ projected, capped }, String(dsonKey(m.figure)), ownVertices)) {
      messages.push(`dson preset: the geografts merged into '${m.mesh.getName()}': ${message}`);
    }
  }
  return { messages, morphs };
}

/**
 * Projects again onto `item` (fitted to `source`'s figure) the morphs it holds projected from
 * `source` (decode.dson, an earlier preset) that are among `moved` — those whose rigidity this preset
 * fitted into `source` at a new dial, moving its rigid parts (a coat's buttons): Daz projects its
 * follower morphs from the body item as drawn now, so the item (a belt) lying over them follows
 * their new place. Each target of the id is written anew from the decoder's search
 * (`search` + `projectDeltas`, as the projection itself) and the record's `rigid` dropped, so the
 * item's own rigidity is fitted into the new shape at the dial (`preset_rigidity.ts`). Returns the
 * morphs of `moved` the item holds and that are not projected again (the search past its cap).
 */
function reproject(
  accessors: () => SceneAccessors,
  source: DrawnMesh,
  item: DrawnMesh,
  moved: readonly MovedMorph[],
): MovedMorph[] {
  if (!moved.length) return [];
  const dson = getPartgraphExtras(item.mesh).dson as { [key: string]: JsonValue } | undefined;
  const records = Array.isArray(dson?.morphs) ? [...dson.morphs] as { [key: string]: JsonValue }[] : [];
  const sourceRecords = (getPartgraphExtras(source.mesh).dson as { morphs?: MorphRecord[] } | undefined)
    ?.morphs;
  if (!Array.isArray(sourceRecords)) return [];
  const stale: MovedMorph[] = [];
  let again = 0;
  let hits: SurfaceHits | undefined | null = null; // null: not searched yet
  for (const m of moved) {
    const held = records.flatMap((r, j) => (r?.id === m.id && r.projected === true ? [j] : []));
    const k = sourceRecords.findIndex((r) => r?.id === m.id);
    if (!held.length || k < 0) continue;
    if (hits === null) hits = search(source, item);
    if (!hits) {
      stale.push(m);
      continue;
    }
    const projection = projectDeltas(hits, targetDeltas(source, k), source.vertexCount);
    for (const j of held) {
      item.mesh.listPrimitives().forEach((primitive, p) => {
        const target = primitive.listTargets()[j];
        const old = target?.getAttribute("POSITION");
        if (!target || !old) return;
        const n = item.dsonVertex[p].length;
        const { deltas, moved: count } = morphDeltas(projection, item.dsonVertex[p], item.vertexCount);
        // A fresh accessor: the old one's array may be the input scene's (copies share vertex data).
        target.setAttribute("POSITION", accessors().create("VEC3", deltas).setSparse(count * 3 < n));
        if (old.listParents().every((parent) => parent === accessors().doc.getRoot())) old.dispose();
      });
      // Its plain deltas are the new projection: the item's rigidity is fitted into it afresh.
      const { rigid: _stale, ...rest } = records[j];
      records[j] = { ...rest, vertices: projection.index.length };
      again++;
    }
  }
  if (again) setPartgraphExtras(item.mesh, { dson: { ...dson, morphs: records as JsonValue[] } });
  return stale;
}

/**
 * Names the morphs an item (fitted to an item) holds projected from its body's morphs `moved` — those
 * whose rigidity the preset fitted again at a new dial, moving the body item's rigid parts (a coat's
 * buttons) — that {@link reproject} could not project again (the search past its cap): where the item
 * (a belt) lies over those parts it follows their old place.
 */
function warnStale(
  mesh: Mesh,
  moved: readonly MovedMorph[],
  body: string,
  warn: WarningSink,
): void {
  if (!moved.length) return;
  const records = (getPartgraphExtras(mesh).dson as { morphs?: MorphRecord[] } | undefined)?.morphs;
  const held = Array.isArray(records)
    ? moved.filter((m) =>
      records.some((r) => r?.id === m.id && (r as { projected?: unknown }).projected === true)
    )
    : [];
  if (!held.length) return;
  const worst = Math.max(...held.map((m) => m.cm));
  warn(
    `dson preset: fitted item '${mesh.getName()}': ${held.length} morph(s) projected onto it from '${body}' ` +
      `before this preset (${
        few(held.map((m) => m.id))
      }) are not projected again (finding the surface of '${body}' nearest each of its vertices passed the ` +
      `cap of ${MAX_TESTS} triangle tests), while this preset fitted the rigidity of '${body}' into them at ` +
      `their dial, moving its rigid parts (buttons, buckles) up to ${
        (worst * 10).toFixed(2)
      } mm from where they were drawn: where this item lies over them it follows their ` +
      `old place: ${few([...new Set(held.flatMap((m) => m.groups))].map((g) => `'${g}'`))}`,
  );
}

/** The ids and names of the item's morphs and of its own formula channels (decoded as well). */
function ownNames(mesh: Mesh): Set<string> {
  const dson = getPartgraphExtras(mesh).dson as { morphs?: MorphRecord[]; formulas?: JsonValue } | undefined;
  const names = new Set<string>();
  for (const record of Array.isArray(dson?.morphs) ? dson.morphs : []) {
    for (const n of [record?.id, record?.name]) if (typeof n === "string") names.add(n).add(percentDecode(n));
  }
  const graph = readFormulaGraph(dson?.formulas);
  for (const [key, channel] of Object.entries(graph?.channels ?? {})) {
    if (channel.of === undefined) names.add(key).add(percentDecode(key));
  }
  return names;
}

/** Adds the projected morph to the item: a target on each primitive, its weight, records and formula. */
function addMorph(
  accessors: SceneAccessors,
  item: DrawnMesh,
  morph: { id: string; name: string; label: string; weight: number; index: Int32Array; delta: Float64Array },
  body?: string,
  grafts?: readonly number[],
): void {
  const { mesh } = item;
  mesh.listPrimitives().forEach((primitive, p) => {
    const n = item.dsonVertex[p].length;
    const { deltas, moved } = morphDeltas(morph, item.dsonVertex[p], item.vertexCount);
    const target = accessors.doc.createPrimitiveTarget(morph.name)
      .setAttribute("POSITION", accessors.create("VEC3", deltas).setSparse(moved * 3 < n));
    primitive.addTarget(target);
  });
  mesh.setWeights([...mesh.getWeights(), morph.weight]);
  const extras = mesh.getExtras() as { targetNames?: unknown };
  const names = Array.isArray(extras.targetNames) ? extras.targetNames : [];
  mesh.setExtras({ ...extras, targetNames: [...names, morph.name] });
  const dson = (getPartgraphExtras(mesh).dson ?? {}) as { [key: string]: JsonValue };
  const records = Array.isArray(dson.morphs) ? dson.morphs : [];
  const record = { id: morph.id, name: morph.name, label: morph.label, vertices: morph.index.length };
  // A merged graft's (no `body`): the body's dial of the id drives every morph of it.
  const graph = body === undefined
    ? undefined
    : driveByBody(readFormulaGraph(dson.formulas), dsonKey(item.figure), body, morph.id, morph.weight);
  setPartgraphExtras(mesh, {
    dson: {
      ...dson,
      // A fitted item's (`body`) is a projected morph, which takes the item's rigidity (preset_rigidity.ts).
      morphs: [...records, {
        ...record,
        auto_follow: true,
        ...(grafts ? { grafts: [...grafts] } : {}),
        ...(body !== undefined ? { projected: true } : {}),
      }],
      ...(graph ? { formulas: graph as unknown as JsonValue } : {}),
    },
  });
}
