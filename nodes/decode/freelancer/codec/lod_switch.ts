/**
 * What a part's `MultiLevel/Switch2` makes the game draw. The game draws level `i` at a camera distance
 * `d` with `s[i] ≤ d < s[i+1]`, the first level that matches winning (treewyrm/freelancer `RENDERER.md`,
 * `MultiLevel.atRange`); the list is not sorted (retail's denormal junk mid-list stays where it is).
 * So a hand-edited list can leave a level no distance at all (`0, 0, 200`: LOD 0 is never drawn, LOD 1
 * is drawn from up close), or make one level's range cover the next's (`0, 300, 100`: LOD 1 never drawn);
 * a list shorter than the levels gives the last ones no range.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import { findChild, type UtfEntry } from "./utf.ts";

/** The levels of a part as its `Switch2` draws them. */
export interface LodSwitch {
  /** The level the game draws nearest the camera (0 unless the list gives LOD 0 no distance). */
  readonly near: number;
  /** Levels no camera distance draws, ascending. */
  readonly never: readonly number[];
}

/**
 * Works out, for `levels` LODs and the `Switch2` distances (absent: every level kept, LOD 0 drawn), the
 * level drawn nearest the camera and the levels never drawn.
 *
 * @example
 * ```ts
 * lodSwitch([0, 100, 200, 1000], 3); // { near: 0, never: [] }
 * lodSwitch([0, 0, 200, 1000], 3); // { near: 1, never: [0] }
 * lodSwitch([0, 300, 100, 1000], 3); // { near: 0, never: [1] }
 * ```
 */
export function lodSwitch(distances: readonly number[] | undefined, levels: number): LodSwitch {
  if (!distances || levels < 1) return { near: 0, never: [] };
  // Nearly every list rises level by level with one more distance than levels: each level draws its
  // own range, LOD 0 nearest (what the pieces below come to), without building them for every part.
  let rising = levels < distances.length;
  for (let i = 0; rising && i < levels; i++) rising = distances[i] < distances[i + 1];
  if (rising) return { near: 0, never: [] };
  const range = (i: number): [number, number] | undefined =>
    i + 1 < distances.length && distances[i] < distances[i + 1]
      ? [distances[i], distances[i + 1]]
      : undefined;
  const never: number[] = [];
  // Each level's range less those of the levels before it (they match first): what it draws.
  const drawn: { level: number; from: number }[] = [];
  for (let i = 0; i < levels; i++) {
    const own = range(i);
    let left: [number, number][] = own ? [own] : [];
    for (let j = 0; j < i && left.length; j++) {
      const earlier = range(j);
      if (earlier) left = left.flatMap((piece) => subtract(piece, earlier));
    }
    if (left.length) drawn.push({ level: i, from: Math.min(...left.map(([lo]) => lo)) });
    else never.push(i);
  }
  if (!drawn.length) return { near: 0, never: [] }; // a list that draws nothing: no order to read in it
  const nearest = drawn.reduce((a, b) => (b.from < a.from ? b : a));
  return { near: nearest.level, never };
}

/** `[lo, hi)` less `[cutLo, cutHi)`: zero, one or two pieces. */
function subtract([lo, hi]: [number, number], [cutLo, cutHi]: [number, number]): [number, number][] {
  if (cutHi <= lo || cutLo >= hi) return [[lo, hi]];
  const out: [number, number][] = [];
  if (cutLo > lo) out.push([lo, cutLo]);
  if (cutHi < hi) out.push([cutHi, hi]);
  return out;
}

/** What a part's `Switch2` makes the game draw, when that is not LOD 0 nearest and every level somewhere. */
export interface LodSwitchNote {
  /** The list's path in the fragment (`MultiLevel/Switch2`). */
  readonly at: string;
  readonly distances: readonly number[];
  readonly levels: number;
  /** What the game draws, in words naming no part: parts whose lists say the same share one warning. */
  readonly said: string;
}

/**
 * The level a part's `Switch2` (`at`: its path) makes the game draw nearest the camera (kept as the part's
 * `near_lod`; its node draws LOD 0 all the same, as LancerEdit does) and, when that is not LOD 0 or a
 * level is never drawn, the note {@link warnLodSwitches} names it by.
 */
export function lodSwitchNote(
  distances: readonly number[] | undefined,
  levels: number,
  at: string,
): { near: number; note?: LodSwitchNote } {
  const { near, never } = lodSwitch(distances, levels);
  if (near === 0 && !never.length) return { near };
  const said: string[] = [];
  if (near !== 0) {
    said.push(
      `LOD ${near} nearest the camera and never LOD 0 (the part keeps LOD 0 as LancerEdit shows and ` +
        `exports it; near_lod: ${near} in its extras)`,
    );
  }
  const unseen = never.filter((level) => level !== 0 || near === 0); // LOD 0 unseen is said above
  if (unseen.length) said.push(`no camera distance draws LOD ${unseen.join(", LOD ")}`);
  return { near, note: { at, distances: distances!, levels, said: said.join("; ") } };
}

/**
 * Names what each part's `Switch2` makes the game draw ({@link lodSwitchNote}): one warning per finding,
 * naming every part it holds for (a capital ship with junk in all its lists has dozens), the list of the
 * first as an example.
 */
export function warnLodSwitches(
  notes: readonly { readonly part: string; readonly note: LodSwitchNote }[],
  warn: (message: string) => void,
): void {
  const groups = new Map<string, { part: string; note: LodSwitchNote }[]>();
  for (const item of notes) groups.set(item.note.said, [...groups.get(item.note.said) ?? [], item]);
  for (const [said, group] of groups) {
    const { part, note } = group[0];
    const list = `${note.at} (${note.distances.join(", ")}) over ${note.levels} levels`;
    const rule = "the game draws the first level whose range holds the camera distance";
    if (group.length === 1) {
      warn(`part '${part}': ${list}: ${rule}, so ${said}`);
      continue;
    }
    const names = group.slice(0, 8).map((g) => `'${g.part}'`).join(", ") +
      (group.length > 8 ? ` and ${group.length - 8} more` : "");
    warn(
      `${group.length} parts (${names}) have a Switch2 that draws the same: ${rule}, so ${said} (` +
        `part '${part}': ${list})`,
    );
  }
}

/**
 * Names each `LevelN` of a `MultiLevel` (`at`: its path) holding more than its `VMeshPart`: Librelancer
 * skips a level without exactly one child (and so every level after it), the game finds the
 * `VMeshPart` by name; it is read here, the first of several.
 */
export function warnCrowdedLevels(
  levels: ReadonlyMap<number, { name: string; children?: readonly { name: string }[] }>,
  at: string,
  warn: (message: string) => void,
): void {
  // Nearly every level holds its one VMeshPart: look for one that holds more before sorting any.
  let crowded = false;
  for (const level of levels.values()) if ((level.children?.length ?? 0) > 1) crowded = true;
  if (!crowded) return;
  for (const [n, level] of [...levels].sort(([a], [b]) => a - b)) {
    const children = level.children ?? [];
    const parts = children.filter((c) => c.name.toLowerCase() === "vmeshpart");
    if (children.length <= 1 || !parts.length) continue;
    const skipped = n === 0 ? "so draws no mesh for the part" : "and every level after it";
    warn(
      `${at}/${level.name} holds ${children.length} entries (${children.map((c) => c.name).join(", ")}), ` +
        `not one: Librelancer skips such a level (${skipped}); its ${
          parts.length > 1 ? `first of ${parts.length} VMeshParts` : "VMeshPart"
        } is read here, as the game finds it by name`,
    );
  }
}

/**
 * `MultiLevel/Switch2`: the distances at which the game switches LODs (f32 × levels + 1, the first 0;
 * `formats/freelancer.md` §5.1), kept in the part's extras as `switch_distances` and nowhere else —
 * every LOD is kept whatever they say. So a damaged list costs the list, never the model (before, a
 * directory in its place or a float of garbage bytes was a DecodeError for the whole file): a
 * directory, a value that is not finite (NaN, ∞) and bytes after the last whole float are each named;
 * retail's denormal junk in the middle of four capital ships' lists is finite and kept unsorted.
 */
export function readSwitchDistances(multi: UtfEntry, warn: WarningSink, at: string): number[] | undefined {
  const entry = findChild(multi, "Switch2");
  if (!entry) return undefined;
  const path = `${at}${multi.name}/${entry.name}`;
  const data = entry.data;
  if (!data) {
    warn(`${path} is a directory, not the leaf of LOD switch distances; ignored (every LOD is kept)`);
    return undefined;
  }
  const count = data.length >> 2;
  if (data.length % 4) {
    warn(
      `${path} (byte ${data.start}) is ${data.length} bytes, not a whole number of floats; its ${count} whole ` +
        "distance(s) are read",
    );
  }
  const values: number[] = [];
  const bad: string[] = [];
  for (let i = 0; i < count; i++) {
    const value = data.f32(4 * i);
    if (!Number.isFinite(value)) bad.push(`${value} at byte ${data.start + 4 * i}`);
    values.push(value);
  }
  if (bad.length) {
    warn(
      `${path} holds ${bad.join(", ")}, not a distance; switch_distances is left out (every LOD is kept)`,
    );
    return undefined;
  }
  return values;
}
