/**
 * Baking a morph target into a decoded DSON scene with rigidity honoured — shared by
 * `dson.bake_morph` and the DSON resolver of `constraints.resolve`. Works on the glTF form: the
 * `_DSON_VERTEX` attribute gathers split vertices back into DSON vertices, the rigidity groups come
 * from the mesh extras and the weights from `_RIGIDITY`.
 *
 * @module
 */
import type { Document, Mesh } from "@gltf-transform/core";
import type { JsonValue, WarningSink } from "../../../../runtime/node.ts";
import { getPartgraphExtras, setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { DSON_VERTEX_ATTRIBUTE, RIGIDITY_ATTRIBUTE } from "./build_primitive.ts";
import { applyRigidity, type RigidityGroup, rigidityGroupFromJson } from "./rigidity.ts";
import { frameFor, restAxesIn, sharedMaskWarning, uncertainWarning } from "./rigidity_frame.ts";
import { plainParticipants } from "./preset_rigidity.ts";
import { followTargetsAgain } from "./preset_conform.ts";
import { followerStates, refitFollowers, warnSheared, warnStale } from "./follower_refit.ts";
import { poseInstanceCopies } from "./instance_copies.ts";
import { nodesByName, warnUnframed } from "./follower_frame.ts";
import { shapeValueReader, warnRecentre } from "./preset_rig.ts";
import { fixRigDial, readRigCentres, recentreJoints } from "./rig_recentre.ts";

/** What {@link bakeMorph} did. */
export interface BakeResult {
  /** Meshes the morph was baked into. */
  meshes: number;
  /** Rigidity groups applied. */
  groups: number;
}

/**
 * Bakes morph `name` at `weight` into the base shape of every mesh that has it, in place, and
 * removes the target. Rigidity groups move their participants rigidly (see `rigidity.ts`).
 * Throws when no mesh has a morph of that name (the message lists the morphs there are).
 *
 * @example
 * ```ts
 * const mine = copyScene(scene);
 * bakeMorph(mine, "Bend", 1, (m) => console.warn(m));
 * ```
 */
export function bakeMorph(
  doc: Document,
  name: string,
  weight: number,
  warn: WarningSink,
): BakeResult {
  const result: BakeResult = { meshes: 0, groups: 0 };
  const available: string[] = [];
  const baked = new Map<Mesh, string>(); // each mesh's modifier id of the morph baked
  // Rigid followers' reference vertices before the bake, to refit them to after it.
  const followers = followerStates(doc, false);
  for (const mesh of doc.getRoot().listMeshes()) {
    const names = targetNames(mesh);
    available.push(...names);
    let target = names.indexOf(name);
    if (target < 0) target = names.findIndex((n) => n.toLowerCase() === name.toLowerCase());
    if (target < 0) continue;
    const id = morphId(mesh, target);
    result.groups += bakeMeshTarget(doc, mesh, target, weight, warn);
    result.meshes++;
    if (id !== undefined) baked.set(mesh, id);
  }
  if (result.meshes === 0) {
    throw new Error(
      `no morph named '${name}' in the scene (morphs: ${[...new Set(available)].join(", ") || "none"})`,
    );
  }
  moveJointsWithBake(doc, baked, weight, warn);
  // Daz fits each follower to its reference vertices as the baked shape moves them (and its joint).
  const sheared: string[] = [], uncertain: string[] = [], untwisted: string[] = [], surfaced: string[] = [];
  refitFollowers(doc, followers.states, sheared, uncertain, untwisted, surfaced);
  warnSheared(sheared, warn, "dson bake", uncertain, untwisted, surfaced);
  warnStale(followers.stale, warn, "dson bake");
  // Refitted along principal axes: said here too, not only by the decode (before v8, silently).
  warnUnframed(followers.unframed, warn, "dson bake", followers.framePaths);
  // Instances draw their targets as they are now: their copies take the moved joints' places.
  poseInstanceCopies(doc);
  return result;
}

/**
 * A shape baked at `weight` is the figure's shape at that weight for good: the joint centres its ERC
 * formulas move (decode.dson's `rig_centres`) go where that weight puts them, as decode.dson puts
 * them for a file saved with the shape dialled so (before dson.bake_morph v3 they stayed where the
 * decoded dial put them, silently), and those formulas read the weight from then on.
 */
function moveJointsWithBake(
  doc: Document,
  baked: ReadonlyMap<Mesh, string>,
  weight: number,
  warn: WarningSink,
): void {
  const meshes = [...baked.keys()].filter((mesh) => readRigCentres(mesh));
  if (!meshes.length) return;
  const readers = new Map(meshes.map((mesh) => [mesh, shapeValueReader(mesh, new Map())]));
  const result = recentreJoints(
    doc,
    meshes,
    (mesh, id) => id === baked.get(mesh) ? weight : readers.get(mesh)!(id),
  );
  for (const mesh of meshes) fixRigDial(mesh, baked.get(mesh)!, weight);
  warnRecentre(result, warn, "dson bake");
  // Conforming items follow their targets' new rest frames.
  if (result.moved) followTargetsAgain(doc, warn);
}

/** The modifier id of morph target `target` of a decoded mesh (`extras.partgraph.dson.morphs`). */
function morphId(mesh: Mesh, target: number): string | undefined {
  const morphs = (getPartgraphExtras(mesh).dson as { morphs?: { id?: unknown }[] } | undefined)?.morphs;
  const id = Array.isArray(morphs) ? morphs[target]?.id : undefined;
  return typeof id === "string" ? id : undefined;
}

function targetNames(mesh: Mesh): string[] {
  const names = (mesh.getExtras() as { targetNames?: unknown }).targetNames;
  return Array.isArray(names) ? names.map(String) : [];
}

function bakeMeshTarget(
  doc: Document,
  mesh: Mesh,
  target: number,
  weight: number,
  warn: WarningSink,
): number {
  const primitives = mesh.listPrimitives();
  let vertexCount = 0;
  for (const primitive of primitives) {
    const ids = primitive.getAttribute(DSON_VERTEX_ATTRIBUTE)?.getArray();
    if (!ids) {
      throw new Error(
        `mesh '${mesh.getName()}' has no ${DSON_VERTEX_ATTRIBUTE} attribute (not decoded by decode.dson)`,
      );
    }
    for (const v of ids) vertexCount = Math.max(vertexCount, v + 1);
  }
  const before = new Float64Array(vertexCount * 3);
  const after = new Float64Array(vertexCount * 3);
  let weights: Float64Array | undefined;
  // A projected morph dson.apply_preset fitted rigidity into holds its participants' plain deltas
  // aside: rigidity is fitted again at this weight from the plain morph, as Daz fits it.
  const plain = plainParticipants(mesh, target);
  for (const primitive of primitives) {
    const ids = primitive.getAttribute(DSON_VERTEX_ATTRIBUTE)!.getArray()!;
    const positions = primitive.getAttribute("POSITION")!.getArray()!;
    const delta = primitive.listTargets()[target]?.getAttribute("POSITION")?.getArray();
    const rigidity = primitive.getAttribute(RIGIDITY_ATTRIBUTE)?.getArray();
    if (rigidity) weights ??= new Float64Array(vertexCount);
    for (let i = 0; i < ids.length; i++) {
      const v = ids[i];
      const aside = plain?.get(v);
      for (let k = 0; k < 3; k++) {
        before[v * 3 + k] = positions[i * 3 + k];
        const d = aside ? aside[k] : delta ? delta[i * 3 + k] : 0;
        after[v * 3 + k] = positions[i * 3 + k] + weight * d;
      }
      if (rigidity && weights) weights[v] = rigidity[i];
    }
  }
  const indexed = rigidityGroups(mesh, vertexCount, warn);
  const groups = [...indexed.keys()];
  const frames = nodesByName(doc);
  const meshAt = `/meshes/${doc.getRoot().listMeshes().indexOf(mesh)}/extras/partgraph/dson/rigidity/groups`;
  const corrected = groups.length
    ? applyRigidity(
      before,
      after,
      weights,
      groups,
      (group) =>
        frameFor(
          group,
          restAxesIn(frames),
          { mesh: mesh.getName(), path: `${meshAt}/${indexed.get(group)}` },
          warn,
        ),
      (shared) => warn(sharedMaskWarning(mesh.getName(), shared)),
      (group, what) => warn(uncertainWarning(group, mesh.getName(), `${meshAt}/${indexed.get(group)}`, what)),
    )
    : after;
  for (const primitive of primitives) {
    const ids = primitive.getAttribute(DSON_VERTEX_ATTRIBUTE)!.getArray()!;
    const position = primitive.getAttribute("POSITION")!;
    const baked = new Float32Array(ids.length * 3);
    for (let i = 0; i < ids.length; i++) {
      for (let k = 0; k < 3; k++) baked[i * 3 + k] = corrected[ids[i] * 3 + k];
    }
    // A fresh accessor: the old one may be shared with another primitive that keeps its shape.
    const fresh = doc.createAccessor(position.getName()).setType("VEC3").setArray(baked)
      .setBuffer(position.getBuffer());
    primitive.setAttribute("POSITION", fresh);
    if (position.listParents().every((p) => p === doc.getRoot())) position.dispose();
    const removed = primitive.listTargets()[target];
    if (removed) {
      primitive.removeTarget(removed);
      const accessors = removed.listAttributes();
      removed.dispose();
      for (const accessor of accessors) {
        if (accessor.listParents().every((p) => p === doc.getRoot())) accessor.dispose();
      }
    }
  }
  const names = targetNames(mesh);
  const [morphName] = names.splice(target, 1);
  const meshWeights = [...mesh.getWeights()];
  meshWeights.splice(target, 1);
  mesh.setWeights(meshWeights);
  mesh.setExtras({ ...mesh.getExtras(), targetNames: names });
  const dson = getPartgraphExtras(mesh).dson as { [key: string]: JsonValue } | undefined;
  if (dson) {
    const morphs = Array.isArray(dson.morphs) ? [...dson.morphs] : [];
    morphs.splice(target, 1);
    const baked = Array.isArray(dson.baked_morphs) ? dson.baked_morphs : [];
    setPartgraphExtras(mesh, {
      dson: {
        ...dson,
        morphs,
        baked_morphs: [...baked, { name: morphName, weight, rigidity_groups: groups.length }],
      },
    });
  }
  return groups.length;
}

/** The mesh's usable rigidity groups, each with its index in the mesh's extras (for warnings' paths). */
function rigidityGroups(mesh: Mesh, vertexCount: number, warn: WarningSink): Map<RigidityGroup, number> {
  const dson = getPartgraphExtras(mesh).dson as { rigidity?: { groups?: JsonValue[] } } | undefined;
  const out = new Map<RigidityGroup, number>();
  for (const [index, json] of (dson?.rigidity?.groups ?? []).entries()) {
    const group = rigidityGroupFromJson(json, vertexCount);
    if (typeof group === "string") warn(`rigidity group on '${mesh.getName()}' ignored: ${group}`);
    else out.set(group, index);
  }
  return out;
}
