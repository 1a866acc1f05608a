/**
 * Rigidity on the morphs projected onto a fitted item, once a preset has fixed their dial. Daz applies
 * rigidity to exactly the morphs it projects (formats B.10, D7: "Rigidity only applies to morphs that
 * are dynamically generated and projected"), fitting each group's reference vertices from the item at
 * rest to the item with the morph at its dial, and moving the participants rigidly, blended by the
 * weight map (`rigidity.ts`, docs/dson.md "Rigidity: how baking applies it"). A glTF morph target is
 * linear in its weight and cannot hold a fit that turns or scales with the dial, but at one weight it
 * can hold the fit exactly: `dson.apply_preset` (v54) writes each projected morph's participants'
 * deltas as `(rigid place − rest) / weight`, so the item is drawn as Daz draws it at the dial the preset
 * set, and a viewer re-dialling the target moves the buttons along the line to that place.
 *
 * The plain projected deltas of those participants are kept in the morph record
 * (`extras.partgraph.dson.morphs[k].rigid`: the weight fitted at, the DSON vertices and their plain
 * deltas in metres), so a later preset re-dialling the body fits again at its new dial, and
 * `dson.bake_morph` bakes the plain morph with rigidity at its own weight
 * ({@link plainParticipants}). Only records marked `projected` (decode.dson v71 and
 * `dson.apply_preset` v54 mark the morphs they project) are fitted: an item's own morphs, modelled
 * by its author, take no rigidity in Daz. Each projected morph is fitted on its own, from the rest
 * shape to that morph at its dial (as a bake of it would); Daz does not document how several
 * projected morphs combine.
 *
 * @module
 */
import type { Document, Mesh } from "@gltf-transform/core";
import type { JsonValue, WarningSink } from "../../../../runtime/node.ts";
import { getPartgraphExtras, setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { DSON_VERTEX_ATTRIBUTE } from "./build_primitive.ts";
import { nodesByName } from "./follower_frame.ts";
import { METRES_PER_CM } from "./model.ts";
import { drawnRigidity } from "./projected_rigidity.ts";
import { applyRigidity, type RigidityGroup } from "./rigidity.ts";
import { frameFor, sharedMaskWarning, uncertainWarning } from "./rigidity_frame.ts";

/** A projected morph's rigidity fit as its record keeps it (`rigid`). */
export interface RigidFit {
  /** The weight the participants' deltas were fitted at. */
  readonly weight: number;
  /** The participants' DSON vertices. */
  readonly vertices: readonly number[];
  /** Their plain projected deltas (m), xyz per vertex. */
  readonly plain: readonly number[];
}

/** A morph record's `rigid`, when well formed for a mesh of `vertexCount` DSON vertices. */
function rigidOf(record: unknown, vertexCount = Infinity): RigidFit | undefined {
  const rigid = (record as { rigid?: Partial<RigidFit> } | undefined)?.rigid;
  if (!rigid || typeof rigid.weight !== "number" || !Array.isArray(rigid.vertices)) return undefined;
  const { vertices, plain } = rigid;
  if (!Array.isArray(plain) || plain.length !== vertices.length * 3) return undefined;
  if (!vertices.every((v) => Number.isInteger(v) && v >= 0 && v < vertexCount)) return undefined;
  if (!plain.every(Number.isFinite)) return undefined;
  return rigid as RigidFit;
}

/**
 * The plain projected deltas (m) of the participants of morph target `target` of `mesh`, by DSON
 * vertex, when a preset fitted rigidity into that target; undefined otherwise.
 *
 * @example
 * ```ts
 * const plain = plainParticipants(mesh, 0); // Map { 42 => [0.001, 0, 0.002], … }
 * ```
 */
export function plainParticipants(mesh: Mesh, target: number): Map<number, number[]> | undefined {
  const morphs = (getPartgraphExtras(mesh).dson as { morphs?: unknown[] } | undefined)?.morphs;
  const rigid = Array.isArray(morphs) ? rigidOf(morphs[target]) : undefined;
  if (!rigid) return undefined;
  return new Map(rigid.vertices.map((v, i) => [v, rigid.plain.slice(i * 3, i * 3 + 3)]));
}

/** What {@link fitProjectedRigidity} did. */
export interface ProjectedRigidity {
  /** Projected morph targets whose participants were fitted at their dial. */
  readonly morphs: number;
}

/**
 * Fits the rigidity of each mesh `inScope` into its projected morphs (records marked `projected`)
 * whose weight is not 0 and not the one they were fitted at (see the module doc). Warnings — a group's
 * frame node missing, a fit its reference vertices do not fix, a vertex in several masks — are said
 * once per mesh and group, prefixed `dson preset:`.
 *
 * @example
 * ```ts
 * fitProjectedRigidity(doc, scope.hasMesh, warn);
 * ```
 */
export function fitProjectedRigidity(
  doc: Document,
  inScope: (mesh: Mesh) => boolean,
  warn: WarningSink,
): ProjectedRigidity {
  let fitted = 0;
  let frames: ReturnType<typeof nodesByName> | undefined;
  const meshes = doc.getRoot().listMeshes();
  for (const [m, mesh] of meshes.entries()) {
    if (!inScope(mesh)) continue;
    const dson = getPartgraphExtras(mesh).dson as
      | { morphs?: unknown[]; rigidity?: { groups?: JsonValue[] }; vertex_count?: unknown }
      | undefined;
    const records = dson?.morphs;
    const rawGroups = dson?.rigidity?.groups;
    if (!Array.isArray(records) || !Array.isArray(rawGroups) || !rawGroups.length) continue;
    const weights = mesh.getWeights();
    const due = records.flatMap((record, k) => {
      const w = weights[k];
      if (k >= weights.length || !w || !Number.isFinite(w)) return [];
      if ((record as { projected?: unknown })?.projected !== true) return [];
      return rigidOf(record)?.weight === w ? [] : [k];
    });
    if (!due.length) continue;
    const dsonVertex = mesh.listPrimitives().map((p) =>
      Array.from(p.getAttribute(DSON_VERTEX_ATTRIBUTE)?.getArray() ?? [])
    );
    let vertexCount = typeof dson?.vertex_count === "number" ? dson.vertex_count : 0;
    for (const ids of dsonVertex) for (const v of ids) vertexCount = Math.max(vertexCount, v + 1);
    const drawn = drawnRigidity(mesh, dsonVertex, vertexCount);
    const groups = drawn?.rigidity.groups.filter((g) => g.referenceVertices.length) ?? [];
    if (!drawn || !groups.length) continue;
    const perVertex = drawn.rigidity.weights && new Float64Array(vertexCount);
    if (perVertex) {
      const { index, value } = drawn.rigidity.weights!;
      for (let k = 0; k < index.length; k++) perVertex[index[k]] = value[k];
    }
    const participants = [...new Set(groups.flatMap((g) => [...g.maskVertices]))].sort((a, b) => a - b);
    const isParticipant = new Uint8Array(vertexCount);
    for (const v of participants) isParticipant[v] = 1;
    const name = mesh.getName();
    const groupsAt = `/meshes/${m}/extras/partgraph/dson/rigidity/groups`;
    const pathOf = (g: RigidityGroup) =>
      `${groupsAt}/${rawGroups.findIndex((j) => (j as { id?: unknown } | null)?.id === g.id)}`;
    const said = new Set<string>();
    const sayOnce = (message: string) => {
      if (!said.has(message)) said.add(message), warn(`dson preset: ${message}`);
    };
    frames ??= nodesByName(doc);
    const base = drawn.positions;
    const out = [...records]; // the input scene's records are not written in place
    for (const k of due) {
      const w = weights[k];
      const stored = rigidOf(records[k], vertexCount);
      // The plain projected deltas (m), by DSON vertex: the target's, its participants' kept aside.
      const plain = new Float64Array(vertexCount * 3);
      mesh.listPrimitives().forEach((primitive, p) => {
        const delta = primitive.listTargets()[k]?.getAttribute("POSITION")?.getArray();
        if (delta) dsonVertex[p].forEach((v, i) => plain.set(delta.subarray(i * 3, i * 3 + 3), v * 3));
      });
      stored?.vertices.forEach((v, i) => plain.set(stored.plain.slice(i * 3, i * 3 + 3), v * 3));
      const after = new Float64Array(vertexCount * 3);
      for (let i = 0; i < after.length; i++) after[i] = base[i] + w * plain[i] / METRES_PER_CM;
      const rigid = applyRigidity(
        base,
        after,
        perVertex,
        groups,
        (group) => frameFor(group, frames!, { mesh: name, path: pathOf(group) }, sayOnce),
        (shared) => sayOnce(sharedMaskWarning(name, shared)),
        (group, what) => sayOnce(uncertainWarning(group, name, pathOf(group), what)),
      );
      mesh.listPrimitives().forEach((primitive, p) => {
        const target = primitive.listTargets()[k];
        const old = target?.getAttribute("POSITION");
        if (!target || !old) return;
        const ids = dsonVertex[p];
        if (!ids.some((v) => isParticipant[v])) return;
        const deltas = Float32Array.from(old.getArray()!);
        ids.forEach((v, i) => {
          if (!isParticipant[v]) return;
          for (let c = 0; c < 3; c++) {
            deltas[i * 3 + c] = (rigid[v * 3 + c] - base[v * 3 + c]) * METRES_PER_CM / w;
          }
        });
        // A fresh accessor: the old one's array may be the input scene's (copies share vertex data).
        const fresh = doc.createAccessor(old.getName()).setType("VEC3").setArray(deltas)
          .setBuffer(old.getBuffer()).setSparse(old.getSparse());
        target.setAttribute("POSITION", fresh);
        if (old.listParents().every((parent) => parent === doc.getRoot())) old.dispose();
      });
      const rigidFit: RigidFit = {
        weight: w,
        vertices: participants,
        plain: participants.flatMap((v) => Array.from(plain.subarray(v * 3, v * 3 + 3))),
      };
      out[k] = { ...(records[k] as object), rigid: rigidFit as unknown as JsonValue };
      fitted++;
    }
    setPartgraphExtras(mesh, {
      dson: { ...(dson as { [key: string]: JsonValue }), morphs: out as JsonValue[] },
    });
  }
  return { morphs: fitted };
}
