/**
 * Rigidity on the morphs projected onto a fitted item, once a preset has fixed their dial. Daz applies
 * rigidity to exactly the morphs it projects (formats B.10, D7: "Rigidity only applies to morphs that
 * are dynamically generated and projected"), fitting each group's reference vertices from the item at
 * rest to the item with the morph at its dial, and moving the participants rigidly, blended by the
 * weight map (`rigidity.ts`, docs/dson.md "Rigidity: how baking applies it"). A glTF morph target is
 * linear in its weight and cannot hold a fit that turns or scales with the dial, but at one weight it
 * can hold the fit exactly: `dson.apply_preset` (v54) writes each projected morph's participants'
 * deltas as `(rigid place − rest) / weight`, so the item is drawn as Daz draws it at the dial the preset
 * set, and a viewer re-dialling the target moves the buttons along the line to that place. The decode
 * (decode.dson v72) fits a morph it projects at the decoded scene's own dial by the same fit
 * ({@link rigidFitter}, from `auto_project.ts`), before an item fitted to that item projects it in
 * turn; a preset fits each item before the items fitted to it take its morphs (v55).
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
import {
  applyRigidity,
  type AxisFrame,
  type DsonRigidity,
  type RigidityGroup,
  type SharedMaskVertices,
} from "./rigidity.ts";
import { frameFor, restAxesIn, sharedMaskWarning, uncertainWarning } from "./rigidity_frame.ts";

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
  /**
   * By mesh, the morphs (id and the farthest move, cm) whose fit drew a participant at its dial
   * over 0.1 mm from where the target drew it before: an item fitted to that mesh that took the
   * morph earlier (the decode, an earlier preset) followed the old place, and is projected again
   * (`preset_project.ts` reproject, dson.apply_preset v56).
   */
  readonly moved: Map<Mesh, MovedMorph[]>;
}

/** A projected morph whose new fit moved rigid parts ({@link ProjectedRigidity.moved}). */
export interface MovedMorph {
  readonly id: string;
  /** The farthest a participant moved (cm). */
  readonly cm: number;
  /** The rigidity groups with a participant moved over 0.1 mm. */
  readonly groups: readonly string[];
}

/** Beyond this (cm, a tenth of a millimetre) a participant's new fitted place is told from its old one. */
const MOVED_CM = 0.01;

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
  const moved = new Map<Mesh, MovedMorph[]>();
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
    if (!drawn) continue;
    const name = mesh.getName();
    const groupsAt = `/meshes/${m}/extras/partgraph/dson/rigidity/groups`;
    const pathOf = (g: RigidityGroup) =>
      `${groupsAt}/${rawGroups.findIndex((j) => (j as { id?: unknown } | null)?.id === g.id)}`;
    const said = new Set<string>();
    const sayOnce = (message: string) => {
      if (!said.has(message)) said.add(message), warn(`dson preset: ${message}`);
    };
    frames ??= nodesByName(doc);
    const fitter = rigidFitter(drawn.positions, drawn.rigidity, {
      frame: (group) => frameFor(group, restAxesIn(frames!), { mesh: name, path: pathOf(group) }, sayOnce),
      shared: (shared) => sayOnce(sharedMaskWarning(name, shared)),
      uncertain: (group, what) => sayOnce(uncertainWarning(group, name, pathOf(group), what)),
    });
    if (!fitter) continue;
    const { participants } = fitter;
    const isParticipant = new Uint8Array(vertexCount);
    for (const v of participants) isParticipant[v] = 1;
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
      const cm = fitter.fit(plain.map((d) => d / METRES_PER_CM), w);
      let farthest = 0; // how far the fit moves a participant from where the target drew it (cm)
      const movedVertex = new Set<number>();
      const at = new Int32Array(vertexCount).fill(-1);
      participants.forEach((v, j) => at[v] = j);
      mesh.listPrimitives().forEach((primitive, p) => {
        const target = primitive.listTargets()[k];
        const old = target?.getAttribute("POSITION");
        if (!target || !old) return;
        const ids = dsonVertex[p];
        if (!ids.some((v) => isParticipant[v])) return;
        const deltas = Float32Array.from(old.getArray()!);
        ids.forEach((v, i) => {
          if (!isParticipant[v]) return;
          const was = [0, 1, 2].map((c) => deltas[i * 3 + c]);
          for (let c = 0; c < 3; c++) deltas[i * 3 + c] = cm[at[v] * 3 + c] * METRES_PER_CM;
          const move = Math.hypot(...was.map((d, c) => (deltas[i * 3 + c] - d) * w / METRES_PER_CM));
          farthest = Math.max(farthest, move);
          if (move > MOVED_CM) movedVertex.add(v);
        });
        // A fresh accessor: the old one's array may be the input scene's (copies share vertex data).
        const fresh = doc.createAccessor(old.getName()).setType("VEC3").setArray(deltas)
          .setBuffer(old.getBuffer()).setSparse(old.getSparse());
        target.setAttribute("POSITION", fresh);
        if (old.listParents().every((parent) => parent === doc.getRoot())) old.dispose();
      });
      out[k] = {
        ...(records[k] as object),
        rigid: rigidFitOf(w, participants, plain) as unknown as JsonValue,
      };
      fitted++;
      if (farthest > MOVED_CM) {
        const id = String((records[k] as { id?: unknown } | null)?.id ?? "");
        const groups = drawn.rigidity.groups.filter((g) =>
          g.referenceVertices.length && g.maskVertices.some((v) => movedVertex.has(v))
        ).map((g) => g.id);
        moved.set(mesh, [...moved.get(mesh) ?? [], { id, cm: farthest, groups }]);
      }
    }
    setPartgraphExtras(mesh, {
      dson: { ...(dson as { [key: string]: JsonValue }), morphs: out as JsonValue[] },
    });
  }
  return { morphs: fitted, moved };
}

/** The `rigid` record of a fit at `weight`: the participants and their plain deltas (m, by DSON vertex). */
export function rigidFitOf(weight: number, participants: readonly number[], plain: Float64Array): RigidFit {
  return {
    weight,
    vertices: [...participants],
    plain: participants.flatMap((v) => Array.from(plain.subarray(v * 3, v * 3 + 3))),
  };
}

/** What a rigidity fit asks of its caller: each group's axis frame, and where to say its guesses. */
export interface RigidFitSay {
  /** A group's axis frame (its frame node's rest axes); undefined: the reference vertices' own. */
  readonly frame: (group: RigidityGroup) => AxisFrame | undefined;
  /** Vertices in several groups' masks. */
  readonly shared: (shared: SharedMaskVertices) => void;
  /** A group fitted with a guess. */
  readonly uncertain: (group: RigidityGroup, what: "stretch" | "twist" | "surface") => void;
}

/** A mesh's rigidity made ready to fit into projected morphs ({@link rigidFitter}). */
export interface RigidFitter {
  /** The DSON vertices the groups with reference vertices move, ascending. */
  readonly participants: readonly number[];
  /** The mesh's DSON vertex count. */
  readonly vertexCount: number;
  /**
   * The participants' deltas (cm, xyz per participant) a morph target needs so that at `weight` it
   * draws them where rigidity puts them: `(rigid place − rest) / weight`, the fit made from the rest
   * shape to the rest shape plus `weight` × `plain` (cm, xyz by DSON vertex).
   */
  fit(plain: Float64Array, weight: number): Float64Array;
}

/**
 * The one fit of rigidity into a projected morph at its dial, shared by the decode (`auto_project.ts`,
 * decode.dson v72, the scene's own dial) and a preset ({@link fitProjectedRigidity}): `base` is the
 * mesh at rest (cm, xyz by DSON vertex), `rigidity` its groups and weight map. Undefined when no group
 * has a reference vertex (those move nothing).
 *
 * @example
 * ```ts
 * const deltas = rigidFitter(geometry.positions, geometry.rigidity, say)?.fit(plainCm, 0.7);
 * ```
 */
export function rigidFitter(
  base: Float64Array,
  rigidity: DsonRigidity,
  say: RigidFitSay,
): RigidFitter | undefined {
  const groups = rigidity.groups.filter((g) => g.referenceVertices.length);
  if (!groups.length) return undefined;
  const vertexCount = base.length / 3;
  const perVertex = rigidity.weights && new Float64Array(vertexCount);
  if (perVertex) {
    const { index, value } = rigidity.weights!;
    for (let k = 0; k < index.length; k++) if (index[k] < vertexCount) perVertex[index[k]] = value[k];
  }
  const participants = [...new Set(groups.flatMap((g) => [...g.maskVertices]))]
    .filter((v) => v < vertexCount).sort((a, b) => a - b);
  return {
    participants,
    vertexCount,
    fit(plain, weight) {
      const after = new Float64Array(base.length);
      for (let i = 0; i < after.length; i++) after[i] = base[i] + weight * plain[i];
      const rigid = applyRigidity(base, after, perVertex, groups, say.frame, say.shared, say.uncertain);
      const out = new Float64Array(participants.length * 3);
      participants.forEach((v, j) => {
        for (let c = 0; c < 3; c++) out[j * 3 + c] = (rigid[v * 3 + c] - base[v * 3 + c]) / weight;
      });
      return out;
    },
  };
}
