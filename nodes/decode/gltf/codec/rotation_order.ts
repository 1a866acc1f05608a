/**
 * Node rotations written [w, x, y, z] where glTF reads [x, y, z, w] — a habit of hand-written files and
 * small exporters (Eigen's, Unity's and three.js's constructors take w first or last). Read in glTF's
 * order, a part meant unturned, [1, 0, 0, 0], is turned half round about X, and every small turn is read
 * as a turn of nearly 180°. Nothing in one node tells the habit from a part meant upside down, so the
 * file's nodes are judged together, and the rotations are read as written: the warning names the nodes
 * and the likely fix.
 *
 * @module
 */
import { mirrorRotationNotes } from "./mirror_rotations.ts";

/** A first component at least this large reads as within 30° of a half turn about X. */
const NEAR_HALF_TURN_X = Math.cos((15 * Math.PI) / 180);

/** Suspects must outnumber the rotations read as (nearly) no turn this many times, unless two are [1, 0, 0, 0]. */
const UNTURNED_RATIO = 3;

/** How many suspect nodes a note names by path. */
const NAMED = 8;

/**
 * Notes (`<JSON path>: text`) on node rotations that look written [w, x, y, z]: at least two nodes read
 * as (nearly) a half turn about X, and either they outnumber three to one those read as (nearly) unturned —
 * the file writes the habit throughout — or at least two are exactly [±1, 0, 0, 0], an unturned part in the
 * habit's order.
 * One part meant upside down, or a file of both, is not named; then a left or right part whose rotation
 * mirrors its twin's only when read w-first is ({@link mirrorRotationNotes}). (Numbered blades stepped
 * about one axis are no evidence: read w-first, their steps still share an axis.)
 *
 * @example
 * ```ts
 * rotationOrderNotes({ nodes: [{ rotation: [1, 0, 0, 0] }, { rotation: [0.996, 0, 0, 0.087] }] });
 * // ["/nodes/0/rotation: …probably written [w, x, y, z]…"]
 * ```
 */
export function rotationOrderNotes(json: { nodes?: unknown }): string[] {
  const nodes = Array.isArray(json.nodes) ? json.nodes : [];
  const suspects: number[] = [];
  let unturned = 0, wFirstIdentity = 0, rotated = 0;
  nodes.forEach((node, i) => {
    const q = (node as { rotation?: unknown } | null)?.rotation;
    if (!Array.isArray(q) || q.length !== 4 || !q.every(Number.isFinite)) return;
    const length = Math.hypot(...q);
    if (!(length > 0)) return;
    const [x, y, z, w] = q.map((v) => v / length);
    rotated++;
    if (Math.abs(w) >= NEAR_HALF_TURN_X) unturned++;
    if (Math.abs(x) >= NEAR_HALF_TURN_X) suspects.push(i);
    if (Math.abs(x) > 1 - 1e-6 && Math.abs(y) + Math.abs(z) + Math.abs(w) < 1e-6) wFirstIdentity++;
  });
  // A blade or door meant turned near 180° about Z reads as unturned in the habit: a few are allowed.
  if (suspects.length < 2 || (suspects.length < UNTURNED_RATIO * unturned && wFirstIdentity < 2)) {
    // Not the whole file: a part another tool wrote may still show against its mirror twin.
    return mirrorRotationNotes(json);
  }
  const paths = suspects.map((i) => `/nodes/${i}/rotation`);
  const rest = paths.length > NAMED ? `, and ${paths.length - NAMED} more` : "";
  const evidence = wFirstIdentity < 2
    ? `${unturned === 0 ? "none" : `only ${unturned}`} of the file's ${rotated} rotations read${
      unturned === 1 ? "s" : ""
    } as (nearly) no turn`
    : `${wFirstIdentity} are exactly [1, 0, 0, 0], a part meant unturned in that order`;
  return [
    `${
      paths[0]
    }: ${suspects.length} node rotations read in glTF's [x, y, z, w] order as (nearly) a half turn ` +
    `about X (${paths.slice(1, NAMED).join(", ")}${rest}), and ${evidence}: probably written [w, x, y, z] ` +
    `(Eigen's, Unity's order). Read as written; if so, move each one's first number to the end.`,
  ];
}
