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
import { clampUndriven, describeClamps } from "./morph_clamp.ts";

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
    const projection = projectOntoItem(at.parts, unprojected, body, at.figure);
    // Said at the item's geometry, which takes the morphs (it may have no modifier of its own).
    for (const message of describeProjection(projection, body, at.parts.geometry.vertexCount)) {
      library.repaired(at.parts.file, at.parts.geometry.path, message);
    }
  }
  if (at.unfollowed.length) {
    const { file, path, message } = describeUnfollowed(at.unfollowed, body);
    library.repaired(file, path, message);
  }
}
