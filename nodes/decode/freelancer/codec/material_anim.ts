/**
 * `MaterialAnim`: the game scrolls and stretches some materials' texture coordinates over time
 * (engine exhausts, shields, screens). Librelancer's `MaterialAnim.cs` reads one directory per
 * material, named after it, with `MACount` (i32, frames), `MAFlags` (i32) and `MADeltas` (f32, five
 * per frame: duration, then the U and V offset velocities and the U and V scale velocities) —
 * and `MAKeys`, which it skips; it plays only one-frame animations, the offset `t × velocity` and the
 * scale `1 + t × velocity` with `t` the time modulo the duration.
 *
 * glTF's way to animate a texture offset is `KHR_animation_pointer` over `KHR_texture_transform`,
 * but neither three.js's `GLTFLoader` (only through Needle's separate plug-in) nor Blender 3.4's
 * importer (Blender gained it with 4.x) reads it, and a static offset would be a still frame of a
 * motion. So the animation is kept in the material's extras and named in a warning.
 *
 * @module
 */
import { DecodeError } from "../../../../runtime/errors.ts";
import { findChild, findChildren, requireLeaf, type UtfEntry } from "./utf.ts";

/** One material's `MaterialAnim` entry, as stored. */
export interface MaterialAnimation {
  /** The directory's name (the material it animates). */
  readonly name: string;
  /** `MACount`: frames. */
  readonly count: number;
  /** `MAFlags`. */
  readonly flags: number;
  /** `MADeltas`: per frame duration, U and V offset velocity, U and V scale velocity. */
  readonly deltas: readonly number[];
}

/** A `MaterialAnim` entry whose leaves did not all read: its material's name, and what went wrong. */
export interface MaterialAnimProblem {
  readonly material: string;
  readonly message: string;
}

/**
 * Every `MaterialAnim/<material>` directly under `dir`, by lower-cased material name (the first of a
 * name wins, as in the libraries). An entry whose leaves do not read is kept with what did, and its
 * problem named in `problems`, so one damaged entry costs no more than its own extras.
 */
export function readMaterialAnims(
  dir: UtfEntry,
  into: Map<string, MaterialAnimation>,
  problems: MaterialAnimProblem[],
): void {
  for (const collection of findChildren(dir, "MaterialAnim")) {
    for (const entry of collection.children ?? []) {
      const key = entry.name.toLowerCase();
      if (!entry.children || into.has(key)) continue;
      let count = 0, flags = 0;
      let deltas: number[] = [];
      try {
        const countLeaf = findChild(entry, "MACount");
        if (countLeaf) count = requireLeaf(countLeaf, "an MACount leaf").i32(0, "MACount");
        const flagsLeaf = findChild(entry, "MAFlags");
        if (flagsLeaf) flags = requireLeaf(flagsLeaf, "an MAFlags leaf").i32(0, "MAFlags");
        const deltasLeaf = findChild(entry, "MADeltas");
        if (deltasLeaf) {
          const data = requireLeaf(deltasLeaf, "an MADeltas leaf");
          deltas = data.floats(0, Math.floor(data.length / 4), "MADeltas");
        }
      } catch (error) {
        if (!(error instanceof DecodeError)) throw error;
        problems.push({
          material: entry.name,
          message: `${collection.name}/${entry.name}: ${error.message}`,
        });
      }
      into.set(key, { name: entry.name, count, flags, deltas });
    }
  }
}

/**
 * What a warning says of an animation: `scrolls U 0.5/s, V 0/s over 2 s` for a one-frame
 * animation (scale velocities when not zero), else the frame count.
 */
export function describeAnimation(anim: MaterialAnimation): string {
  const d = anim.deltas;
  if (anim.count !== 1 || d.length < 5) return `${anim.count} frames (${d.length} deltas)`;
  const n = (v: number) => String(Math.round(v * 1e4) / 1e4);
  const scale = d[3] || d[4] ? `, stretches U ${n(d[3])}/s, V ${n(d[4])}/s` : "";
  return `scrolls U ${n(d[1])}/s, V ${n(d[2])}/s${scale}, repeating every ${n(d[0])} s`;
}
