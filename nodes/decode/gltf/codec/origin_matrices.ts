/**
 * A node matrix at its parent's origin that the file's other matrices cannot settle (matrix_rows.ts):
 * the file's only matrix, or one beside a single row-by-row one. Its last column holds no translation,
 * so written row by row it reads as a valid turn the other way, and a perspective term in its bottom
 * row reads as a row-by-row translation. Copies at one place, though, are spread about an axis — a
 * propeller's or rotor's blades, a wheel's spokes — the one their parent spins about (its rotation
 * keys), or the one their other copies are turned about. The reading (as read, or with its turn the
 * other way and at the origin) under which the part keeps to that axis with its copies, and the other
 * does not, is taken, with a warning; where neither or both do, the part is named.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import { quat } from "gl-matrix";

/** A 3×3 part whose transpose differs by more than this is a turn the other way when transposed. */
const ASYMMETRIC = 1e-6;
/** How far (radians) a turn's axis may be off the spread axis: rounding to 4 places, with margin. */
const AXIS_TOLERANCE = 2e-3;
/** How many nodes a note names before counting the rest. */
const NAMED = 6;

/** A node whose matrix the file's others do not settle, found in the JSON before anything reads it. */
export interface OriginMatrix {
  /** The node's index in the file. */
  readonly index: number;
  /** Whether its bottom row holds a term (read as a row-by-row translation, the part turned). */
  readonly bottomTerm: boolean;
  /** How many of the file's matrices are written row by row with a translation (the rest: none is). */
  readonly rowByRow: number;
  /** How many nodes of the file have a matrix. */
  readonly matrices: number;
}

type Vec3 = [number, number, number];
type Quat = [number, number, number, number];

/**
 * The file's matrices at their parent's origin that are turned (asymmetric 3×3) with a uniform scale,
 * or with a small bottom-row term (a row-by-row translation, or a perspective term), read before
 * matrix_rows.ts and the structure check settle them.
 */
export function originMatrices(json: { nodes?: unknown }): OriginMatrix[] {
  if (!Array.isArray(json.nodes)) return [];
  const found: { index: number; bottomTerm: boolean }[] = [];
  let rowByRow = 0, matrices = 0;
  json.nodes.forEach((node, index) => {
    const m = (node as { matrix?: unknown } | null)?.matrix;
    if (
      !Array.isArray(m) || m.length !== 16 || !m.every((v) => typeof v === "number" && Number.isFinite(v))
    ) {
      return;
    }
    matrices++;
    const bottom = Math.max(Math.abs(m[3]), Math.abs(m[7]), Math.abs(m[11]));
    const last = Math.max(Math.abs(m[12]), Math.abs(m[13]), Math.abs(m[14]));
    if (last > 0) return;
    const lengths = [0, 1, 2].map((c) => Math.hypot(m[c * 4], m[c * 4 + 1], m[c * 4 + 2]));
    // A bottom row past a hundredth of the part's scale is a place written row by row: settled (check_matrix.ts).
    if (bottom > 0.01 * Math.max(...lengths)) {
      rowByRow++;
      return;
    }
    const asymmetric = Math.abs(m[1] - m[4]) > ASYMMETRIC || Math.abs(m[2] - m[8]) > ASYMMETRIC ||
      Math.abs(m[6] - m[9]) > ASYMMETRIC;
    const uniform = Math.max(...lengths) - Math.min(...lengths) <= 1e-3 * Math.max(...lengths);
    if (asymmetric && uniform && lengths[0] > 0) found.push({ index, bottomTerm: bottom > 0 });
  });
  return found.map((f) => ({ ...f, rowByRow, matrices }));
}

// gl-matrix's, into plain arrays: doubles, as the file's rotations are read.
const conjugate = (q: Quat): Quat => quat.conjugate([0, 0, 0, 1], q) as Quat;
const multiply = (a: Quat, b: Quat): Quat => quat.multiply([0, 0, 0, 1], a, b) as Quat;

/** A turn's unit axis and angle (radians), or undefined for no turn. */
function axisOf(q: Quat): { axis: Vec3; angle: number } | undefined {
  const s = Math.hypot(q[0], q[1], q[2]);
  const angle = 2 * Math.atan2(s, Math.abs(q[3]));
  if (angle < AXIS_TOLERANCE) return undefined;
  const sign = q[3] < 0 ? -1 : 1;
  return { axis: [sign * q[0] / s, sign * q[1] / s, sign * q[2] / s], angle };
}

/** Whether turn `q` is about `axis` (either way), or no turn. */
function about(q: Quat, axis: Vec3): boolean {
  const a = axisOf(q);
  if (!a) return true;
  const dot = Math.abs(a.axis[0] * axis[0] + a.axis[1] * axis[1] + a.axis[2] * axis[2]);
  // The axis's error is the angle's rounding over the turn's half-angle sine.
  return Math.sqrt(Math.max(0, 1 - dot * dot)) <= AXIS_TOLERANCE / Math.max(0.05, Math.sin(a.angle / 2));
}

/** The axis `parent` spins about in its own frame: its rotation keys' widest turn from the first. */
function spinAxis(parent: Node): Vec3 | undefined {
  let best: { axis: Vec3; angle: number } | undefined;
  for (const p of parent.listParents()) {
    if (p.propertyType !== "AnimationChannel") continue;
    const channel = p as unknown as {
      getTargetPath(): string;
      getSampler(): { getOutput(): unknown } | null;
    };
    if (channel.getTargetPath() !== "rotation") continue;
    const output = channel.getSampler()?.getOutput() as
      | { getCount(): number; getElement(i: number, t: number[]): number[] }
      | null;
    if (!output || output.getCount() < 2) continue;
    const first = output.getElement(0, []) as Quat;
    for (let k = 1; k < output.getCount(); k++) {
      const turn = axisOf(multiply(conjugate(first), output.getElement(k, []) as Quat));
      if (turn && (!best || turn.angle > best.angle)) best = turn;
    }
  }
  return best?.axis;
}

const near = (t: number[], tolerance: number) => Math.hypot(t[0], t[1], t[2]) <= tolerance;

/**
 * Settles the {@link OriginMatrix} nodes (`nodes[i]` is the file's node `i`, as read) by their copies'
 * spread axis (see the module doc); returns a repair or note per node as `/nodes/<i>/matrix: text`.
 */
export function settleOriginMatrices(found: readonly OriginMatrix[], nodes: readonly Node[]): string[] {
  const byParent = new Map<Node | null, OriginMatrix[]>();
  for (const f of found) {
    const node = nodes[f.index];
    if (!node) continue;
    const parent = node.getParentNode();
    byParent.set(parent, [...(byParent.get(parent) ?? []), f]);
  }
  const notes: string[] = [];
  const index = new Map(found.map((f) => [nodes[f.index], f.index]));
  for (const [parent, group] of byParent) {
    const members = group.map((f) => nodes[f.index]);
    // Read, a bottom-row term put a part at a small "translation" (check_matrix.ts): within a hundredth of
    // the parts' scale, a copy is at the same place.
    const size = Math.max(1e-9, ...members.map((n) => Math.abs(n.getScale()[0])));
    const copies = (parent?.listChildren() ?? []).filter((n) =>
      !index.has(n) && near(n.getTranslation(), 0.01 * size) &&
      Math.abs(n.getScale()[0] - n.getScale()[1]) <= 1e-3 * Math.abs(n.getScale()[0])
    );
    let axis = parent ? spinAxis(parent) : undefined;
    // Without a spin, the axis the copies as read are turned about from the first (all pairs alike).
    if (!axis && copies.length >= 2) {
      const base = conjugate(copies[0].getRotation() as Quat);
      const turns = copies.slice(1).map((c) => multiply(c.getRotation() as Quat, base));
      const first = turns.map(axisOf).find((t) => t);
      if (first && turns.every((q) => about(q, first.axis))) axis = first.axis;
    }
    const fits = (rotations: Quat[]) => {
      const all = [...rotations, ...copies.map((c) => c.getRotation() as Quat)];
      if (all.length < 2 || !axis) return false;
      for (let a = 0; a < rotations.length; a++) {
        for (let b = 0; b < all.length; b++) {
          if (a !== b && !about(multiply(all[b], conjugate(all[a])), axis)) return false;
        }
      }
      return true;
    };
    const read = members.map((n) => n.getRotation() as Quat);
    const other = read.map(conjugate);
    const asRead = fits(read), turned = fits(other);
    const paths = group.map((f) => `/nodes/${f.index}`);
    const listed = paths.slice(0, NAMED).join(", ") +
      (paths.length > NAMED ? `, and ${paths.length - NAMED} more` : "");
    const copiesSaid = parent && spinAxis(parent)
      ? `the axis its parent's rotation keys spin it about`
      : `the axis its ${copies.length} copies at that place are turned about`;
    if (turned && !asRead) {
      members.forEach((n, k) => {
        n.setRotation(other[k]).setTranslation([0, 0, 0]);
      });
      for (const f of group) {
        notes.push(
          `/nodes/${f.index}/matrix: at its parent's origin, ${
            f.bottomTerm
              ? "its bottom-row term read as a translation written row by row"
              : "a valid turn as written"
          }, but so read it leaves ${copiesSaid}, which its copies keep${
            group.length > 1 ? ` (with ${listed})` : ""
          }: read ${
            f.bottomTerm ? "with the term left out" : "transposed (written row by row)"
          }, turned the other way`,
        );
      }
      continue;
    }
    if (asRead) continue;
    // Undecided: named where the file hints at rows (a row-by-row matrix), or where it is the file's only one.
    for (const f of group) {
      if (!(f.rowByRow > 0 || f.matrices === 1 || f.bottomTerm)) continue;
      notes.push(
        `/nodes/${f.index}/matrix: at its parent's origin, a turn that reads as valid either way: ${
          f.bottomTerm
            ? "its bottom-row term is a row-by-row translation, or a perspective term"
            : f.matrices === 1
            ? "the file's only matrix, with none to compare with"
            : "beside one matrix of the file written row by row"
        }, and no copies or spin to judge it by; written row by row it is turned the other way (read as ${
          f.bottomTerm ? "row by row" : "written"
        })`,
      );
    }
  }
  return notes;
}
