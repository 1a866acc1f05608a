/**
 * The meshes of a Freelancer scene's mesh references: each distinct reference (mesh, start vertex,
 * groups) becomes one glTF mesh, shared by every part drawing it. A reference that cannot be drawn
 * (past its mesh, a mesh no library defines) is left out with a warning; groups of a `NullMaterial`
 * and triangles through non-finite vertices are left out as the game leaves them; a mesh whose
 * `VMeshData` does not decode is named once, after the parts, with every user that lost geometry.
 *
 * @module
 */
import type { Document, Mesh } from "@gltf-transform/core";
import { DecodeError } from "../../../../runtime/errors.ts";
import type { WarningSink } from "../../../../runtime/node.ts";
import type { SceneAccessors } from "../../../../runtime/scene/accessors.ts";
import { setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { addRefQuietly, setQuietly } from "../../../../runtime/scene/quiet_refs.ts";
import { formatId } from "./crc.ts";
import { describeMeshDamage, type FreelancerModel } from "./model.ts";
import { isNullMaterial } from "./material.ts";
import type { MakePrimitive } from "./scene_primitive.ts";
import { wantsTangents } from "./tangents.ts";
import type { VMeshRef } from "./vmesh.ts";
import { refMismatch, type SelectedPrimitive, selectRef } from "./vmesh_select.ts";
import { withFiniteVertices } from "./finite_vertices.ts";
import { withMendedNormals } from "./zero_normals.ts";
import { describeLibraries, describeParts, type ModelUsers, modelUsers } from "./users.ts";

/** The reference meshes of one scene. */
export interface RefMeshes {
  /** The mesh `ref` draws (named `<nodeName>.mesh`), or null when it draws nothing; `where` names it. */
  refMesh(ref: VMeshRef, nodeName: string, where: () => string): Mesh | null;
  /** Records that `what` lost its geometry to damaged mesh `meshId` (said by {@link reportLost}). */
  lose(meshId: number, what: string): void;
  /** One warning per damaged mesh, naming what lost geometry to it. */
  reportLost(): void;
}

/**
 * The reference meshes of the scene in `doc`.
 *
 * @example
 * ```ts
 * const refs = refMeshes(doc, accessors, model, primitive, warn, "ship.cmp");
 * node.setMesh(refs.refMesh(ref, "Root", () => "part 'Root' LOD 0"));
 * refs.reportLost();
 * ```
 */
export function refMeshes(
  doc: Document,
  accessors: SceneAccessors,
  model: FreelancerModel,
  primitive: MakePrimitive,
  warn: WarningSink,
  file: string | undefined,
  users: ModelUsers = modelUsers(model),
): RefMeshes {
  /**
   * Per mesh id, each distinct reference already made (vertex start, groups): its mesh, and why it
   * cannot be drawn when it cannot. Numbers compared in place, not a string key built per reference.
   */
  const made = new Map<number, MadeRef[]>();
  const selected = new SelectionBudget(model, file);
  /** Per damaged mesh id: what loses its geometry (one warning per mesh, after the parts). */
  const lost = new Map<number, string[]>();
  /** Per mesh id in no loaded library: the byte of its first reference and what it would draw. */
  const missing = new Map<number, { at: number; users: string[] }>();
  /** Meshes whose extra UV sets were named: once a mesh, not once a reference (a part, a LOD). */
  const uvSetsNamed = new Set<number>();
  const lose = (meshId: number, what: string) => {
    const users = lost.get(meshId);
    if (users) users.push(what);
    else lost.set(meshId, [what]);
  };
  const refMesh = (ref: VMeshRef, nodeName: string, where: () => string): Mesh | null => {
    if (ref.meshId === 0) return null;
    if (model.damagedMeshes.has(ref.meshId)) {
      lose(ref.meshId, where());
      return null;
    }
    const earlier = madeBefore(made.get(ref.meshId), ref);
    if (earlier) {
      if (earlier.problem) warn(`${where()}: ${earlier.problem}`);
      return earlier.mesh;
    }
    let refProblem: string | undefined;
    const data = model.meshes.get(ref.meshId);
    let mesh: Mesh | null = null;
    if (!data) {
      // One warning per mesh after the parts: every part of a capital ship refers to its LOD's mesh.
      const entry = missing.get(ref.meshId) ??
        missing.set(ref.meshId, { at: ref.offset, users: [] }).get(ref.meshId)!;
      entry.users.push(where());
    } else {
      // Not when every group drawn reads its last two sets as tangents (a normal-mapped material);
      // the groups are looked at only for a mesh of more than two sets, not yet named.
      const allTangents = () => {
        const groups = data.groups.slice(ref.groupStart, ref.groupStart + ref.groupCount);
        return groups.length > 0 &&
          groups.every((g) =>
            wantsTangents(data.layout.uvCount, data.layout.normal >= 0, model.materials.get(g.materialId))
          );
      };
      if (data.layout.uvCount > 2 && !uvSetsNamed.has(ref.meshId) && !allTangents()) {
        uvSetsNamed.add(ref.meshId);
        warn(
          `mesh '${data.name}' has ${data.layout.uvCount} UV sets (FVF 0x${
            data.layout.fvf.toString(16)
          }); mods store tangents there; drawn on ${describeParts(users.meshes.get(ref.meshId))}`,
        );
      }
      let prims: SelectedPrimitive[];
      try {
        prims = selectRef(data, ref, accessors.arena);
        const mismatch = refMismatch(data, ref);
        if (mismatch) warn(`${where()}: ${mismatch}`);
      } catch (error) {
        // A reference that does not fit its mesh (groups or vertices past it) costs its own
        // geometry, not the model: the part node stays, with its hardpoints and attached parts.
        if (!(error instanceof DecodeError)) throw error;
        const problem = `${error.message}; this geometry is left out (the part, its hardpoints and ` +
          "the parts attached to it are kept)";
        refProblem = problem;
        warn(`${where()}: ${problem}`);
        prims = [];
      }
      prims = withoutNullMaterial(prims, model, (what) =>
        warn(
          `${where()}: ${what} of mesh '${data.name}' left out: the game draws a NullMaterial as ` +
            "nothing (plain transparent)",
        ));
      prims = withFiniteVertices(prims, (what) => warn(`${where()}: mesh '${data.name}': ${what}`));
      withMendedNormals(prims, (what) => warn(`${where()}: mesh '${data.name}': ${what}`));
      selected.add(prims, ref);
      if (prims.length) {
        mesh = doc.createMesh(`${nodeName}.mesh`);
        // A warning about a primitive (a UV set its material samples) names the mesh and its users.
        const meshWords = () => `'${data.name}' (drawn on ${describeParts(users.meshes.get(ref.meshId))})`;
        for (let i = 0; i < prims.length; i++) {
          const made = primitive(prims[i], `${nodeName}.${i}`, false, meshWords);
          // Without the change event addPrimitive dispatches to no listener (`quiet_refs.ts`).
          if (!addRefQuietly(mesh, "primitives", made)) mesh.addPrimitive(made);
        }
        // A new mesh's extras are empty: what setPartgraphExtras would merge, stored without its event.
        const freelancer = { mesh: data.name, mesh_id: formatId(ref.meshId) };
        if (!setQuietly(mesh, "extras", { partgraph: { freelancer } })) {
          setPartgraphExtras(mesh, { freelancer });
        }
      }
    }
    const entry: MadeRef = {
      vertexStart: ref.vertexStart,
      groupStart: ref.groupStart,
      groupCount: ref.groupCount,
      mesh,
      problem: refProblem,
    };
    const list = made.get(ref.meshId);
    if (list) list.push(entry);
    else made.set(ref.meshId, [entry]);
    return mesh;
  };

  const reportLost = () => {
    for (const [meshId, { at, users }] of missing) {
      warn(
        `mesh ${formatId(meshId)} (VMeshRef at byte ${at}) is in no loaded library; the geometry drawn ` +
          `from it is left out (${namedUsers(users)}); looked in ${
            describeLibraries(model)
          }; give its .vms ` +
          "as 'library'",
      );
    }
    for (const [meshId, users] of lost) {
      const damage = model.damagedMeshes.get(meshId)!;
      const shown = namedUsers(users);
      warn(
        `mesh '${damage.name}': ${describeMeshDamage(damage)}; the geometry drawn from it is left out ` +
          `(${shown}); the parts, their hardpoints and the parts attached to them are kept`,
      );
    }
  };
  return { refMesh, lose, reportLost };
}

/** Users of a mesh as a warning lists them: the first eight, then how many more. */
function namedUsers(users: readonly string[]): string {
  return users.slice(0, 8).join(", ") + (users.length > 8 ? ` and ${users.length - 8} more` : "");
}

/** A reference {@link refMeshes} has made: what tells it from another of its mesh, and what it made. */
interface MadeRef {
  readonly vertexStart: number;
  readonly groupStart: number;
  readonly groupCount: number;
  readonly mesh: Mesh | null;
  /** Why it cannot be drawn, when it cannot. */
  readonly problem?: string;
}

/** The reference of `list` (one mesh's) with `ref`'s vertex start and groups, if made before. */
function madeBefore(list: readonly MadeRef[] | undefined, ref: VMeshRef): MadeRef | undefined {
  if (!list) return undefined;
  for (const made of list) {
    if (
      made.vertexStart === ref.vertexStart && made.groupStart === ref.groupStart &&
      made.groupCount === ref.groupCount
    ) return made;
  }
  return undefined;
}

/**
 * The primitives of a reference without those of `NullMaterial` groups, which the game does not draw;
 * `leftOut` hears what was dropped (`2 triangles of material 'null' (NullMaterial)`).
 */
function withoutNullMaterial(
  prims: SelectedPrimitive[],
  model: FreelancerModel,
  leftOut: (what: string) => void,
): SelectedPrimitive[] {
  // Most references draw no NullMaterial group: no new array for them.
  if (!prims.some((p) => isNullMaterial(model.materials.get(p.materialId)))) return prims;
  const kept = prims.filter((p) => !isNullMaterial(model.materials.get(p.materialId)));
  const triangles = new Map<string, number>();
  for (const p of prims) {
    const def = model.materials.get(p.materialId);
    if (!isNullMaterial(def)) continue;
    const label = `'${def!.name}'`;
    triangles.set(label, (triangles.get(label) ?? 0) + p.indices.length / 3);
  }
  const count = [...triangles.values()].reduce((a, b) => a + b, 0);
  leftOut(
    `${count} triangle${count === 1 ? "" : "s"} of material${triangles.size === 1 ? "" : "s"} ` +
      `${[...triangles.keys()].join(", ")} (NullMaterial)`,
  );
  return kept;
}

/**
 * Bytes the primitives selected from mesh references may hold in all: 16 × the loaded meshes' own
 * bytes, + 1 MiB. Every distinct reference is its own copy of the vertices it draws, so 2,000 parts
 * drawing a 65,535-vertex mesh from 97 start vertices made a 2 MB `.cmp` an 89 MB GLB (from 2,000
 * starts, 1.8 GB); retail references select disjoint ranges, about once the mesh.
 */
class SelectionBudget {
  readonly #limit: number;
  readonly #kind: string;
  #used = 0;
  constructor(model: FreelancerModel, private readonly file: string | undefined) {
    let meshBytes = 0;
    for (const mesh of model.meshes.values()) meshBytes += mesh.vertices.byteLength + mesh.indices.byteLength;
    this.#limit = 16 * meshBytes + (1 << 20);
    this.#kind = model.kind;
  }

  /** Counts a reference's primitives; past the budget, a DecodeError at the reference. */
  add(prims: readonly SelectedPrimitive[], ref: VMeshRef): void {
    // Loops, not a reduce: a closure per primitive, for every reference of every model.
    for (const p of prims) {
      this.#used += p.positions.byteLength + p.indices.byteLength + (p.normals?.byteLength ?? 0) +
        (p.colors?.byteLength ?? 0);
      for (const uv of p.uvs) this.#used += uv.byteLength;
    }
    if (this.#used <= this.#limit) return;
    throw new DecodeError({
      format: this.#kind,
      at: { offset: ref.offset },
      expected: `mesh references selecting at most ${this.#limit} bytes of geometry in all ` +
        "(16 × the meshes' own bytes + 1 MiB; each distinct reference is a copy of what it draws)",
      found: `${this.#used} bytes up to this VMeshRef`,
      file: this.file,
    });
  }
}
