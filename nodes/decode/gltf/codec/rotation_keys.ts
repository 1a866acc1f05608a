/**
 * Rotation keys written [w, x, y, z] where glTF reads [x, y, z, w] — the tools that write node rotations
 * w-first (codec/rotation_order.ts) write their animation keys the same way. Unlike a node's rotation, a
 * channel's keys can be weighed against something written right: the node's own rotation, its rest pose.
 * A control surface swung about its hinge, a gear leg retracting, a propeller turning all pass through
 * or stay near their rest pose; read in glTF's order, keys written w-first are each a turn of nearly
 * 180° away from it. (How far keys are from each other says nothing: reordering the components of every
 * key alike keeps each angle between two keys.)
 *
 * - A key that is the node's rotation when read w-first, where none as written comes within 20° of it,
 *   is taken as certain: the channel's keys (tangents too) are reordered, with a warning naming the node.
 * - Keys that all stay within 60° of the rest pose read w-first and are all more than 90° from it as
 *   written are named as likely, and read as written.
 *
 * @module
 */
import type { Accessor, Document, Node } from "@gltf-transform/core";

/** A key this close to the rest pose (degrees) is the rest pose (keys are rounded to 4-6 places). */
const AT_REST = 1;
/** Keys as written must all be farther than this from the rest pose (degrees) to repair. */
const FAR_AS_WRITTEN = 20;
/** For a note without a repair: read w-first the keys within this of the rest pose on average… */
const NEAR_W_FIRST = 60;
/** …and as written farther than this on average (degrees). */
const FAR_FOR_NOTE = 100;
/** How many nodes a note names before counting the rest. */
const NAMED = 12;

/** The angle (degrees) between two turns given as quaternions of any length; NaN when one has none. */
function angle(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const la = Math.hypot(a[0], a[1], a[2], a[3]), lb = Math.hypot(b[0], b[1], b[2], b[3]);
  const dot = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) / (la * lb);
  return (2 * Math.acos(Math.min(1, dot)) * 180) / Math.PI;
}

const wFirst = (k: ArrayLike<number>) => [k[1], k[2], k[3], k[0]];

interface Verdict {
  readonly node: Node;
  readonly certain: boolean;
  /** The first key that is the rest pose read w-first (for a certain one). */
  readonly restKey: number;
}

/** Judges one channel's keys against its node's rest rotation. */
function judge(node: Node, output: Accessor, cubic: boolean): Verdict | undefined {
  const rest = node.getRotation();
  if (!(Math.hypot(...rest) > 0)) return undefined;
  let nearestWritten = Infinity, sumWritten = 0, sumWFirst = 0, keys = 0, restKey = -1;
  let firstWritten = NaN, firstWFirst = NaN;
  const key = [0, 0, 0, 0];
  for (let i = cubic ? 1 : 0; i < output.getCount(); i += cubic ? 3 : 1) {
    output.getElement(i, key);
    const written = angle(key, rest), reordered = angle(wFirst(key), rest);
    if (!Number.isFinite(written)) return undefined; // a zero key: nothing to judge by
    if (!keys) [firstWritten, firstWFirst] = [written, reordered];
    keys++;
    nearestWritten = Math.min(nearestWritten, written);
    sumWritten += written;
    sumWFirst += reordered;
    if (reordered < AT_REST && restKey < 0) restKey = keys - 1;
  }
  if (!keys) return undefined;
  // The first key is the pose at the animation's start, where a part usually rests: it decides, even
  // where a later key as written comes back to rest (a propeller's half turn read w-first does).
  if (firstWFirst < AT_REST && firstWritten > FAR_AS_WRITTEN) return { node, certain: true, restKey: 0 };
  if (restKey >= 0 && nearestWritten > FAR_AS_WRITTEN) return { node, certain: true, restKey };
  if (sumWFirst / keys < NEAR_W_FIRST && sumWritten / keys > FAR_FOR_NOTE) {
    return { node, certain: false, restKey };
  }
  return undefined;
}

/** Reorders every element of a VEC4 accessor from [w, x, y, z] to [x, y, z, w], in its own format. */
function reorder(output: Accessor): void {
  const array = output.getArray()!;
  for (let i = 0; i + 3 < array.length; i += 4) {
    const w = array[i];
    array[i] = array[i + 1];
    array[i + 1] = array[i + 2];
    array[i + 2] = array[i + 3];
    array[i + 3] = w;
  }
  output.setArray(array);
}

const listed = (names: string[]) =>
  names.slice(0, NAMED).join(", ") + (names.length > NAMED ? `, and ${names.length - NAMED} more` : "");

/**
 * Reorders rotation keys that are certainly written [w, x, y, z] and names likely ones (see the module
 * doc), one note per animation: `<JSON path>: text`.
 */
export function rotationKeyNotes(doc: Document, jsonIndex: (node: Node) => number): string[] {
  const notes: string[] = [];
  const label = (node: Node) => node.getName() ? `'${node.getName()}'` : `node ${jsonIndex(node)}`;
  const done = new Set<Accessor>();
  doc.getRoot().listAnimations().forEach((animation, a) => {
    const certain: string[] = [], likely: string[] = [];
    const verdicts: { verdict: Verdict; output: Accessor; path: string }[] = [];
    animation.listChannels().forEach((channel, c) => {
      const node = channel.getTargetNode(), sampler = channel.getSampler(), output = sampler?.getOutput();
      if (channel.getTargetPath() !== "rotation" || !node || !output || output.getType() !== "VEC4") return;
      if (done.has(output)) return;
      const verdict = judge(node, output, sampler!.getInterpolation() === "CUBICSPLINE");
      if (verdict) verdicts.push({ verdict, output, path: `/animations/${a}/channels/${c}` });
    });
    // One tool writes a whole animation: where some channel is certain, its likely ones are read alike.
    const sure = verdicts.some(({ verdict }) => verdict.certain);
    for (const { verdict, output } of verdicts) {
      if (!sure) {
        likely.push(label(verdict.node));
        continue;
      }
      if (done.has(output)) continue;
      reorder(output);
      done.add(output);
      certain.push(
        verdict.certain
          ? `${label(verdict.node)} (key ${verdict.restKey})`
          : `${label(verdict.node)} (likely)`,
      );
    }
    const firstPath = verdicts[0]?.path;
    const name = animation.getName() ? `'${animation.getName()}'` : `${a}`;
    if (certain.length) {
      notes.push(
        `${firstPath}: animation ${name}: the rotation keys of ${
          listed(certain)
        } are far from the node's own ` +
          `rotation as written, and the key named is that rotation exactly when read [w, x, y, z] (a channel ` +
          `marked likely comes near it only so, beside them): written w-first (Eigen's, Unity's order); read ` +
          `reordered [x, y, z, w]`,
      );
    }
    if (likely.length) {
      notes.push(
        `${firstPath}: animation ${name}: the rotation keys of ${
          listed(likely)
        } are within ${NEAR_W_FIRST}° of ` +
          `the node's own rotation on average when read [w, x, y, z], and more than ${FAR_FOR_NOTE}° from it as ` +
          `written: probably written w-first. Read as written; if so, move each key's first number to the end`,
      );
    }
  });
  return notes;
}
