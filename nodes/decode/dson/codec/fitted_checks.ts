/**
 * The checks made on a mesh once its formulas are evaluated (`modifier_formulas.ts`), each a warning
 * where it changes or cannot match what Daz shows: morph dials past their clamped range that no
 * formula drives (clamped here, `morph_clamp.ts`), and for a fitted item its `auto_follow` channels
 * the body cannot drive (`auto_follow.ts`) and the body's dialled auto-follow morphs it has none of,
 * projected onto it (`auto_project.ts`).
 *
 * @module
 */
import { describeUnfollowed, type Unfollowed } from "./auto_follow.ts";
import { describeProjection, projectOntoItem } from "./auto_project.ts";
import type { BodyValues } from "./body_values.ts";
import type { ContentLibrary } from "./content.ts";
import type { ModifierValue } from "./formula_eval.ts";
import type { MeshParts } from "./mesh_parts.ts";
import type { SceneNode } from "./model.ts";
import { clampUndriven, describeClamps } from "./morph_clamp.ts";
import { type RigidFitter, rigidFitter } from "./preset_rigidity.ts";
import type { RigidityGroup } from "./rigidity.ts";
import { frameFor, sceneAxesIn, sharedMaskWarning, uncertainWarning } from "./rigidity_frame.ts";

/** One evaluated mesh, as {@link fittedChecks} reads it. */
export interface EvaluatedMesh {
  /** The mesh's parts: its morphs (clamped in place; projected ones added) and formula graph. */
  readonly parts: MeshParts;
  /** Its modifiers by id. */
  readonly values: ReadonlyMap<string, ModifierValue>;
  /** The ids formulas drive. */
  readonly driven: ReadonlySet<string>;
  readonly bodies: BodyValues;
  readonly mesh: number;
  /** The DSON key of the mesh's figure (its formula graph's `figure`). */
  readonly figure?: string;
  /** Its auto-follow channels that could not follow. */
  readonly unfollowed: readonly Unfollowed[];
  /** The scene's nodes: the frames rigidity groups name, read when a projected morph is fitted. */
  readonly nodes: readonly SceneNode[];
}

/**
 * Clamps the mesh's undriven morph dials to their range, projects its body's dialled auto-follow
 * morphs it lacks onto it, and reports, through `library`, what was clamped, projected or could not
 * follow its body.
 *
 * @example
 * ```ts
 * fittedChecks(library, { parts, values, driven, bodies, mesh, figure, unfollowed });
 * ```
 */
export function fittedChecks(library: ContentLibrary, at: EvaluatedMesh): void {
  const { values, bodies, mesh } = at;
  // A dial past a clamped range that no formula drives is kept in range, as Daz shows it.
  const clamps = clampUndriven(at.parts.morphs, at.driven);
  if (clamps.length) {
    const { entry } = values.get(clamps[0].id)!;
    library.repaired(entry.file, `${entry.path}/channel`, describeClamps(clamps));
  }
  const body = bodies.lookup(mesh)?.figure;
  if (body === undefined) return;
  const unprojected = bodies.unprojected(mesh, values);
  if (unprojected.length) {
    // After the clamps: a projected morph's weight is the body's, already in its range.
    const said: string[] = [];
    const projection = projectOntoItem(at.parts, unprojected, body, at.figure, {
      fitter: itemRigidity(at, (message) => said.includes(message) || said.push(message)),
    });
    // Said at the item's geometry, which takes the morphs (it may have no modifier of its own).
    for (const message of describeProjection(projection, body, at.parts.geometry.vertexCount)) {
      library.repaired(at.parts.file, at.parts.geometry.path, message);
    }
    for (const message of said) {
      library.repaired(at.parts.file, `${at.parts.geometry.path}/rigidity`, message);
    }
  }
  if (at.unfollowed.length) {
    const { file, path, message } = describeUnfollowed(at.unfollowed, body);
    library.repaired(file, path, message);
  }
}

/**
 * The item's rigidity made ready to fit into the morphs projected onto it at the scene's dial
 * (`preset_rigidity.ts` rigidFitter, the preset's fit): each group's frame node read from the scene's
 * nodes, its guesses said through `say` (once each) as a preset or bake says them.
 */
function itemRigidity(at: EvaluatedMesh, say: (message: string) => void): RigidFitter | undefined {
  const { geometry } = at.parts;
  const rigidity = geometry.rigidity;
  if (!rigidity?.groups.length) return undefined;
  const name = at.parts.key;
  const pathOf = (g: RigidityGroup) => `${geometry.path}/rigidity/groups/${rigidity.groups.indexOf(g)}`;
  return rigidFitter(geometry.positions, rigidity, {
    frame: (group) => frameFor(group, sceneAxesIn(at.nodes), { mesh: name, path: pathOf(group) }, say),
    shared: (shared) => say(sharedMaskWarning(name, shared)),
    uncertain: (group, what) => say(uncertainWarning(group, name, pathOf(group), what)),
  });
}
