/**
 * A preset's morph values on the scene: each sets the weight of the morph targets whose modifier id
 * or name it names, on every mesh of the preset's figure that has one.
 *
 * @module
 */
import type { Document, Mesh } from "@gltf-transform/core";
import { getPartgraphExtras, isExtrasFlag } from "../../../../runtime/scene/extras.ts";
import { clampToLimit, describeClamp } from "./joint_limits.ts";
import { figureOf } from "./preset_mesh_surface.ts";
import { percentDecode } from "./uri.ts";

/**
 * Sets morph weights by modifier id or name on the meshes `inScope` (all by default); returns how
 * many were set. A morph whose record keeps a clamped range (`min`/`max`, decode.dson v22) takes the
 * value within it, as Daz sets it; those no formula drives are named in `clamped` (the formulas
 * clamp the others as a whole).
 *
 * Daz applies a preset to the selected figure's own properties: a fitted item's morph of the same
 * name (`isItem`: a mesh of a figure fitted to another), and a merged graft's own morph of the
 * body's name (`graft_own`), move with the body only through auto-follow or a formula, which the
 * re-evaluation drives. So a name is set on them only when the figure's own meshes have no morph of
 * it (a preset made for the item itself, which Daz applies with the item selected). Such a name on
 * several of the figure's items (a dress and a jacket both shipping `Loose`) is set on each, as the
 * preset does not say which item was selected; `shared` lists it with the meshes set (`Loose
 * (Dress_geo-2, Jacket_geo-1)`) for the caller's warning (before apply_preset v26: silent).
 */
export function setMorphWeights(
  doc: Document,
  values: Map<string, number>,
  missing: string[],
  clamped: string[] = [],
  inScope: (mesh: Mesh) => boolean = () => true,
  isItem: (mesh: Mesh) => boolean = () => false,
  shared: string[] = [],
): number {
  const found = new Set<string>();
  const meshes = doc.getRoot().listMeshes().filter(inScope); // a preset dials the figure it is applied to
  const ownMorph = (mesh: Mesh, record: object) =>
    !isItem(mesh) && !isExtrasFlag((record as { graft_own?: unknown }).graft_own);
  let set = 0;
  for (const mesh of meshes) set += setOn(mesh, values, new Set(), clamped, found, (r) => ownMorph(mesh, r));
  const onFigure = new Set(found);
  const setBy = new Map<string, string[]>();
  for (const mesh of meshes) {
    set += setOn(mesh, values, onFigure, clamped, found, (r) => !ownMorph(mesh, r), (key) => {
      setBy.set(key, [...(setBy.get(key) ?? []), mesh.getName()]);
    });
  }
  for (const [key, names] of setBy) if (names.length > 1) shared.push(`${key} (${names.join(", ")})`);
  for (const target of values.keys()) if (!found.has(target)) missing.push(target);
  return set;
}

/**
 * Sets the `values` not in `skip` on the mesh's morphs `takes` accepts; adds the keys set to `found`
 * and tells `onSet` each (once per mesh).
 */
function setOn(
  mesh: Mesh,
  values: Map<string, number>,
  skip: ReadonlySet<string>,
  clamped: string[],
  found: Set<string>,
  takes: (record: object) => boolean,
  onSet: (key: string) => void = () => {},
): number {
  const dson = getPartgraphExtras(mesh).dson as
    | {
      morphs?: { id?: unknown; name?: unknown; min?: unknown; max?: unknown; aliases?: unknown }[];
      formulas?: { morphs?: unknown };
    }
    | undefined;
  const morphs = Array.isArray(dson?.morphs) ? dson.morphs : [];
  const driven = new Set(Array.isArray(dson?.formulas?.morphs) ? dson.formulas.morphs.map(String) : []);
  const weights = [...mesh.getWeights()];
  let set = 0;
  const done: string[] = [];
  morphs.forEach((morph, k) => {
    if (!morph || typeof morph !== "object" || !takes(morph)) return;
    // Ids and names some files keep percent-encoded match the decoded URL's (as Diffeomorphic
    // unquotes them, `getRigKey`).
    // An id whose `%` is literal (`Shape%20B`, addressed as `#Shape%2520B`) matches as written.
    const [raw, id, name] = [
      String(morph.id),
      percentDecode(String(morph.id)),
      percentDecode(String(morph.name)),
    ];
    // Then the alias channels standing for it (decode.dson v37): a preset dialling an older name
    // dials the morph (its own id or name wins when the preset sets both).
    const aliases = Array.isArray(morph.aliases) ? morph.aliases.map(String) : [];
    const named = [raw, id, name, ...aliases.flatMap((a) => [a, percentDecode(a)])]
      .filter((key) => values.has(key));
    const key = named[0];
    if (key === undefined || skip.has(key) || k >= weights.length) return;
    const value = values.get(key)!;
    const limit = {
      ...(typeof morph.min === "number" && Number.isFinite(morph.min) ? { min: morph.min } : {}),
      ...(typeof morph.max === "number" && Number.isFinite(morph.max) ? { max: morph.max } : {}),
    };
    weights[k] = clampToLimit(value, limit) + 0; // + 0: no −0 weight
    if (weights[k] !== value && !driven.has(raw)) {
      clamped.push(`${mesh.getName()}/${raw} ${describeClamp("value", value, weights[k], limit)}`);
    }
    done.push(...named); // an alias the preset sets beside its morph is applied too, not missing
    set++;
  });
  if (set) mesh.setWeights(weights);
  for (const key of new Set(done)) found.add(key), onSet(key);
  return set;
}

/**
 * The first few names of a list, for a preset's warnings.
 *
 * @example
 * ```ts
 * fewNames(["a", "b"]); // "a, b"
 * ```
 */
export function fewNames(list: readonly string[]): string {
  return list.slice(0, 8).join(", ") + (list.length > 8 ? `, … (${list.length} in all)` : "");
}

/**
 * The meshes of fitted items (figures with a `conform_target`: clothing, hair, an unmerged graft),
 * each by the figure of its skin's first joint, else of its node.
 */
export function fittedItemMeshes(doc: Document): Set<Mesh> {
  const out = new Set<Mesh>();
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const figure = figureOf(node.getSkin()?.listJoints()[0] ?? node);
    const dson = figure && getPartgraphExtras(figure).dson as { conform_target?: unknown } | undefined;
    if (typeof dson?.conform_target === "string") out.add(mesh);
  }
  return out;
}
