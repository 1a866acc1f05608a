/**
 * A file's node matrices judged together, before the structure check settles each one alone
 * (check_matrix.ts). One tool writes all of a file's matrices the same way, and a matrix alone can be
 * read two ways:
 *
 * - written row by row (a row-major engine's): a part placed away from its parent shows it (its
 *   translation lands in the bottom row), but a part at its parent's origin (a propeller blade, a
 *   door on its hinge) has nothing in the bottom row; it reads as valid, turned the other way. Where two
 *   or more of the file's matrices are row by row and none has a translation in its last column, such
 *   a part is read transposed too.
 * - with a perspective term in the bottom row: at a part away from its parent the last column holds
 *   the translation as well; at a part at its parent's origin the term alone reads like a row-by-row
 *   translation, and transposing it turned the part the other way and moved it. Where two or more of
 *   the file's matrices carry a term beside their translation, and fewer read as row by row, those that
 *   read so have their term left out like the rest.
 *
 * Each is repaired with a warning naming the nodes and the matrices the reading follows.
 *
 * @module
 */

/** How far a number may be from 0 (float noise) to count as 0. */
const TOLERANCE = 1e-6;
/** How many nodes a note names before counting the rest. */
const NAMED = 8;

type Kind = "row-by-row" | "perspective" | "column" | "at-origin" | "other";

function kindOf(m: number[]): Kind {
  const bottom = Math.max(Math.abs(m[3]), Math.abs(m[7]), Math.abs(m[11]));
  const last = Math.max(Math.abs(m[12]), Math.abs(m[13]), Math.abs(m[14]));
  if (bottom > TOLERANCE) {
    // check_matrix.ts's own test for a row-by-row matrix: exact zeros in the last column and w 1.
    if (m[12] === 0 && m[13] === 0 && m[14] === 0 && m[15] === 1) return "row-by-row";
    return last > TOLERANCE ? "perspective" : "other";
  }
  if (last > TOLERANCE) return "column";
  // At its parent's origin: transposing turns it the other way only if its turn is not symmetric.
  const asymmetric = Math.abs(m[1] - m[4]) > TOLERANCE || Math.abs(m[2] - m[8]) > TOLERANCE ||
    Math.abs(m[6] - m[9]) > TOLERANCE;
  return asymmetric ? "at-origin" : "other";
}

const listed = (nodes: number[]) =>
  nodes.slice(0, NAMED).map((i) => `/nodes/${i}`).join(", ") +
  (nodes.length > NAMED ? `, and ${nodes.length - NAMED} more` : "");

/**
 * Rewrites the matrices the file's others show to be written row by row, or to carry a perspective
 * term (see the module doc), in `json`'s nodes; returns a repair per rewritten node as
 * `/nodes/<i>/matrix: text`. Anything not a list of 16 finite numbers is left to the structure check.
 */
export function alignMatrixRows(json: { nodes?: unknown }): string[] {
  if (!Array.isArray(json.nodes)) return [];
  const kinds = new Map<Kind, number[]>();
  const matrices: number[][] = [];
  json.nodes.forEach((node, i) => {
    const m = (node as { matrix?: unknown } | null)?.matrix;
    if (
      !Array.isArray(m) || m.length !== 16 || !m.every((v) => typeof v === "number" && Number.isFinite(v))
    ) {
      return;
    }
    matrices[i] = m;
    const kind = kindOf(m);
    kinds.set(kind, [...(kinds.get(kind) ?? []), i]);
  });
  const of = (kind: Kind) => kinds.get(kind) ?? [];
  const repairs: string[] = [];
  if (of("row-by-row").length >= 2 && !of("column").length && !of("perspective").length) {
    for (const i of of("at-origin")) {
      const m = matrices[i];
      (json.nodes[i] as { matrix: number[] }).matrix = m.map((_, j) => m[(j % 4) * 4 + Math.floor(j / 4)]);
      repairs.push(
        `/nodes/${i}/matrix: at its parent's origin, as written a valid turn, but the file's other matrices ` +
          `are written row by row (${
            listed(of("row-by-row"))
          }; none has a translation in its last column): ` +
          "read transposed as they are (as written, turned the other way)",
      );
    }
  }
  if (of("perspective").length >= 2 && of("row-by-row").length < of("perspective").length) {
    for (const i of of("row-by-row")) {
      const m = matrices[i];
      (json.nodes[i] as { matrix: number[] }).matrix = m.map((
        v,
        j,
      ) => (j === 3 || j === 7 || j === 11 ? 0 : v));
      repairs.push(
        `/nodes/${i}/matrix: bottom row [${m[3]}, ${m[7]}, ${m[11]}, ${
          m[15]
        }] at its parent's origin reads as ` +
          `a translation written row by row, but the file's other matrices carry such a term beside their ` +
          `translation (${listed(of("perspective"))}): its projective part is left out as theirs is ` +
          "(read transposed, the part turned the other way and moved)",
      );
    }
  }
  return repairs;
}
