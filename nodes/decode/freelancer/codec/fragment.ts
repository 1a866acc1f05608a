/**
 * Rigid fragments: the content of a `.3db` file or of one part directory of a `.cmp` — mesh
 * references per LOD, the HUD wireframe, hardpoints and an optional camera.
 *
 * @module
 */
import { degreesTyped } from "./turn_limits.ts";
import type { WarningSink } from "../../../../runtime/node.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { findChild, findChildren, requireLeaf, type UtfEntry } from "./utf.ts";
import { warnMisspeltEntries } from "./entry_names.ts";
import { readRotation } from "./rotation.ts";
import { readVMeshRef, readVWireData, type VMeshRef, type VWireData } from "./vmesh.ts";
import { warnSeveralRefs } from "./several_refs.ts";
import { type LodSwitchNote, lodSwitchNote, readSwitchDistances, warnCrowdedLevels } from "./lod_switch.ts";

/** A hardpoint: a named attachment frame on a part. */
export interface Hardpoint {
  readonly name: string;
  readonly kind: "fix" | "rev";
  readonly position: number[];
  /** Nine floats, rows of R (same convention as constraints). */
  readonly orientation: number[];
  /** Revolute only: axis (default +Y), limits in radians. */
  readonly axis?: number[];
  readonly min?: number;
  readonly max?: number;
  /**
   * Revolute only, when `Min` > `Max` as stored: the stored values and where each leaf is (`min` and
   * `max` above hold them the other way round); `reversed_limits.ts` decides whether to warn.
   */
  readonly reversed?: {
    readonly min: number;
    readonly max: number;
    readonly minAt: string;
    readonly maxAt: string;
  };
  /**
   * Revolute only, when a limit is beyond a full turn (typed in degrees): what the warning says after the
   * hardpoint's name; `reversed_limits.ts` names them, one warning for several.
   */
  readonly degrees?: { readonly said: string; readonly limits: readonly number[] };
}

/** A camera fragment's lens; fov values are half-angles in radians. */
export interface FragmentCamera {
  readonly fovx: number;
  readonly fovy: number;
  readonly znear: number;
  readonly zfar: number;
}

/** What one fragment holds. */
export interface Fragment {
  /** Mesh references, LOD 0 first (empty for parts without geometry). */
  readonly lods: readonly VMeshRef[];
  /** Entry path of each of {@link lods} inside the fragment directory, for warnings. */
  readonly lodEntries?: readonly string[];
  /** `Switch2` LOD distances, when present. */
  readonly switchDistances?: readonly number[];
  /** The index in {@link lods} the game draws nearest the camera, when not 0 (`lod_switch.ts`). */
  readonly nearLevel?: number;
  /** What `Switch2` makes the game draw when odd, for the file's one warning per finding (`lod_switch.ts`). */
  readonly lodSwitch?: LodSwitchNote;
  readonly wire?: VWireData;
  readonly hardpoints: readonly Hardpoint[];
  readonly camera?: FragmentCamera;
}

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** A fragment's path prefix for messages: `<its directory>/`, or nothing at a `.3db`'s root (`\\`). */
function where(dir: UtfEntry): string {
  return dir.name === "\\" ? "" : `${dir.name}/`;
}

/** Entries a fragment directory holds (any of them makes a `.3db` root a fragment). */
export const FRAGMENT_ENTRIES = ["VMeshPart", "MultiLevel", "Hardpoints", "VMeshWire", "Camera"];

/** Names misspelt entries of a fragment, its levels, mesh parts, wireframe and hardpoint groups. */
function checkEntryNames(dir: UtfEntry, warn: WarningSink): void {
  // Places are made only to warn: every fragment, level and mesh part is checked, few are misspelt.
  const place = (path: string) => () =>
    `${dir.name === "\\" ? "the root" : `fragment '${dir.name}'`}${path ? `, ${path}` : ""}`;
  warnMisspeltEntries(dir, FRAGMENT_ENTRIES, place(""), warn);
  const multi = findChild(dir, "MultiLevel");
  const levels = (multi?.children ?? []).filter((c) => LEVEL_NAME.test(c.name));
  const path = (level: UtfEntry) => `${multi!.name}/${level.name}`;
  for (const level of levels) warnMisspeltEntries(level, ["VMeshPart"], () => place(path(level))(), warn);
  const own = findChild(dir, "VMeshPart");
  if (own) warnMisspeltEntries(own, ["VMeshRef"], place(own.name), warn);
  for (const level of levels) {
    const part = findChild(level, "VMeshPart");
    if (part) warnMisspeltEntries(part, ["VMeshRef"], () => place(`${path(level)}/${part.name}`)(), warn);
  }
  const wire = findChild(dir, "VMeshWire");
  if (wire) warnMisspeltEntries(wire, ["VWireData"], place(wire.name), warn);
  for (const group of findChildren(dir, "Hardpoints")) {
    warnMisspeltEntries(group, ["Fixed", "Revolute"], place(group.name), warn);
  }
}

/** A `MultiLevel` child that is a level (`Level0`, `level 2 `). */
const LEVEL_NAME = /^level\s*\d+\s*$/i;

/**
 * Reads a fragment directory (of part `part`, for messages); problems that real tools shrug off are
 * passed to `outer`, a compound fragment's beginning with the part they are about.
 */
export function readFragment(dir: UtfEntry, outer: WarningSink, part = "Root"): Fragment {
  // A compound's fragment is named by its file name, which need not look like the part's Object name
  // (exporters write hashes, `_lod` suffixes): each warning begins with the part, unless it names it.
  const named = `part '${part}'`;
  const warn: WarningSink = dir.name === "\\"
    ? outer
    : (message, detail) => outer(message.includes(named) ? message : `${named}: ${message}`, detail);
  const lods: VMeshRef[] = [];
  const lodEntries: string[] = [];
  let switchDistances: number[] | undefined;
  let nearLevel = 0;
  let lodNote: LodSwitchNote | undefined;
  checkEntryNames(dir, warn);
  warnSeveralRefs(dir, part, where(dir), warn);
  const multi = findChild(dir, "MultiLevel");
  if (multi) {
    const levels = levelsByNumber(multi, warn, where(dir));
    const first = firstLevel(levels, multi, warn, where(dir));
    for (let level = first;; level++) {
      const levelDir = levels.get(level);
      const ref = findChild(findChild(levelDir, "VMeshPart"), "VMeshRef");
      if (!ref) {
        // Like Librelancer, only the levels from 0 up to the first gap are read; say what that leaves.
        const later = [...levels].filter(([n]) => n > level).map(([, entry]) => entry.name);
        const what = levelDir
          ? `${where(dir)}${multi.name}/${levelDir.name} has no VMeshPart/VMeshRef`
          : `${where(dir)}${multi.name} has no Level${level}`;
        const kept = level === first
          ? "the part has no mesh"
          : `the part keeps its ${level - first} LOD(s) before it`;
        if (later.length) {
          warn(
            `${what}: the levels after it (${later.join(", ")}) are not read, as Librelancer reads only ` +
              `levels 0, 1, … up to the first missing one; ${kept}`,
          );
        } else if (levelDir) warn(`${what}: ${kept}`);
        break;
      }
      const entry = `${multi.name}/${levelDir!.name}/VMeshPart/${ref.name}`;
      const later = level === first ? "the part has no mesh" : "it and the later levels are left out";
      const read = attempt(
        () => readVMeshRef(requireLeaf(ref, "a VMeshRef leaf")),
        `${where(dir)}${entry}`,
        later,
        warn,
      );
      if (!read) break;
      lods.push(read);
      lodEntries.push(entry);
    }
    switchDistances = readSwitchDistances(multi, warn, where(dir));
    warnCrowdedLevels(levels, `${where(dir)}${multi.name}`, warn);
    if (first === 0) {
      ({ near: nearLevel, note: lodNote } = lodSwitchNote(
        switchDistances,
        lods.length,
        `${multi.name}/Switch2`,
      ));
    }
  } else {
    const part = findChild(dir, "VMeshPart");
    const ref = findChild(part, "VMeshRef");
    const read = ref &&
      attempt(
        () => readVMeshRef(requireLeaf(ref, "a VMeshRef leaf")),
        `${where(dir)}VMeshPart/${ref.name}`,
        "the part has no mesh",
        warn,
      );
    if (read) {
      lods.push(read);
      lodEntries.push(`VMeshPart/${ref!.name}`);
    } else if (part && !ref) {
      warn(`${where(dir)}${part.name} has no VMeshRef: the part has no mesh`);
    }
  }
  const wireLeaf = findChild(findChild(dir, "VMeshWire"), "VWireData");
  const wire = wireLeaf
    ? attempt(
      () => readVWireData(requireLeaf(wireLeaf, "a VWireData leaf")),
      `${where(dir)}VMeshWire/${wireLeaf.name}`,
      "the wireframe is left out",
      warn,
    )
    : undefined;
  return {
    lods,
    lodEntries,
    switchDistances,
    ...(nearLevel ? { nearLevel } : {}),
    ...(lodNote ? { lodSwitch: lodNote } : {}),
    wire,
    hardpoints: readHardpoints(dir, warn, part),
    camera: attempt(() => readCamera(dir), `${where(dir)}Camera`, "the camera is left out", warn),
  };
}

/**
 * `read()`, or undefined with a warning when it throws a {@link DecodeError}: damage to one mesh
 * reference, the wireframe or the camera costs that item, as damage to a mesh costs the geometry drawn
 * from it, not the model (before, a 56-byte VMeshRef on LOD 1 or a wireframe with a stray index
 * refused the whole file). Damage to the container itself stays a DecodeError (`utf.ts`).
 */
function attempt<T>(read: () => T, entry: string, lost: string, warn: WarningSink): T | undefined {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    warn(`${entry} does not decode (${error.message}); ${lost}`);
    return undefined;
  }
}

/**
 * The level drawn as LOD 0: `Level0`, or, when a `MultiLevel` has none but has later levels, the
 * lowest of them, with a warning. A mod exporter names the level after the LOD it was asked to write
 * (the MilkShape/3ds Max CMP exporter's `Level<k>`), so its file holds `Level1` or `Level2` alone;
 * Librelancer reads only from `Level0` up and draws nothing, but the mesh is the one the file has.
 */
function firstLevel(levels: Map<number, UtfEntry>, multi: UtfEntry, warn: WarningSink, at: string): number {
  if (levels.has(0) || levels.size === 0) return 0;
  const lowest = Math.min(...levels.keys());
  if (!findChild(findChild(levels.get(lowest), "VMeshPart"), "VMeshRef")) return 0;
  warn(
    `${at}${multi.name} has no Level0; its lowest level, ${levels.get(lowest)!.name}, is drawn as LOD 0 ` +
      "(a mod exporter names the level after the LOD it wrote; Librelancer reads only from Level0 and " +
      "draws nothing)",
  );
  return lowest;
}

/**
 * The `LevelN` directories of a `MultiLevel` by their number, read as Librelancer reads it (the
 * integer after `level`, so a tool's `Level00`/`Level01` are levels 0 and 1); the first of two with
 * one number is kept, with a warning. A name other than `Level<n>` is named in a warning.
 */
function levelsByNumber(multi: UtfEntry, warn: WarningSink, at: string): Map<number, UtfEntry> {
  const levels = new Map<number, UtfEntry>();
  for (const child of multi.children ?? []) {
    const match = /^level\s*(\d+)\s*$/i.exec(child.name);
    if (!match) continue;
    const n = Number(match[1]);
    const kept = levels.get(n);
    if (kept) {
      warn(`${at}${multi.name}/${child.name} is a second level ${n} (after ${kept.name}); the first is used`);
      continue;
    }
    levels.set(n, child);
    if (child.name.toLowerCase() !== `level${n}`) {
      warn(
        `${at}${multi.name}/${child.name} is read as Level${n}, as Librelancer reads the number after 'level'`,
      );
    }
  }
  return levels;
}

/**
 * Every hardpoint of a fragment. A fragment with several `Hardpoints` directories (a hardpoint editor
 * that added its own beside the exporter's, in its own case) has the hardpoints of all, as Librelancer's
 * `ModelFile` reads each one, with a warning (treewyrm's reader takes the first; before, so did this).
 */
function readHardpoints(dir: UtfEntry, warn: WarningSink, part: string): Hardpoint[] {
  const out: Hardpoint[] = [];
  const roots = findChildren(dir, "Hardpoints");
  if (roots.length > 1) {
    warn(
      `${
        dir.name === "\\" ? "the root" : `fragment '${dir.name}'`
      } has ${roots.length} Hardpoints directories (${roots.map((r) => `'${r.name}'`).join(", ")}); ` +
        "the hardpoints of all are read, as Librelancer reads them (treewyrm's reader takes the first)",
    );
  }
  for (const group of roots.flatMap((root) => root.children ?? [])) {
    const lower = group.name.toLowerCase();
    if (lower === "fixed" || lower === "revolute") {
      for (const hp of group.children ?? []) {
        out.push(readHardpoint(hp, lower === "revolute" ? "rev" : "fix", warn, part));
      }
    } else if (group.children) {
      // LL treats a hardpoint directory directly under Hardpoints as a fixed one.
      out.push(readHardpoint(group, "fix", warn, part));
    }
  }
  return out;
}

/**
 * One hardpoint of part `part`'s fragment; its warnings name the part, as hardpoint names repeat across
 * parts (every turret has its `HpConnect`) and an odd one is found on the part that holds it.
 */
function readHardpoint(dir: UtfEntry, kind: "fix" | "rev", warn: WarningSink, part: string): Hardpoint {
  const label = hardpointLabel(dir.name, part);
  const vector = (name: string, count: number, fallback: number[] | undefined): number[] | undefined => {
    const leaf = findChild(dir, name);
    if (!leaf) return fallback;
    const data = requireLeaf(leaf, `a ${name} leaf`);
    if (data.length >= 4 * count) {
      const values = new Array<number>(count);
      let finite = true;
      for (let i = 0; i < count; i++) finite = Number.isFinite(values[i] = data.f32(4 * i)) && finite;
      if (finite) return values;
    }
    // Librelancer likewise falls back to defaults for garbage hardpoint data.
    warn(
      `${label}: ${name} (byte ${leaf.data?.start ?? leaf.offset}) is short or holds ` +
        `non-finite values; ${fallback ? "default used" : "zero used"}`,
    );
    return fallback ?? new Array(count).fill(0);
  };
  const position = vector("Position", 3, undefined);
  if (!position) warn(`${label} has no Position; placed at the part origin`);
  const hardpoint: Hardpoint = {
    name: dir.name,
    kind,
    position: position ?? [0, 0, 0],
    orientation: vector("Orientation", 9, IDENTITY)!,
  };
  const problem = readRotation(hardpoint.orientation).problem;
  if (problem) {
    const at = findChild(dir, "Orientation")?.data?.start;
    warn(
      `${label}: Orientation${at === undefined ? "" : ` (byte ${at})`} ${problem}, not a rotation; ` +
        "drawn with its nearest rotation and the scale it holds",
    );
  }
  if (kind === "fix") return hardpoint;
  const axis = vector("Axis", 3, [0, 1, 0])!;
  const [min, max] = [vector("Min", 1, [0])![0], vector("Max", 1, [0])![0]];
  return { ...hardpoint, axis, ...checkRevolute(dir, label, axis, min, max, warn) };
}

/**
 * Checks a revolute hardpoint as the resolver checks a joint: an axis not of unit length (it turns
 * about its direction) or of none (kept as stored: nothing can turn about it). Limits stored
 * min > max are read as the range between them, as the resolver reads a joint's, and marked
 * `reversed` for `reversed_limits.ts`, which warns unless another turret explains them.
 */
function checkRevolute(
  dir: UtfEntry,
  label: string,
  axis: readonly number[],
  min: number,
  max: number,
  warn: WarningSink,
): Pick<Hardpoint, "min" | "max" | "reversed" | "degrees"> {
  const at = (name: string) => {
    const leaf = findChild(dir, name);
    return leaf ? ` (byte ${leaf.data?.start ?? leaf.offset})` : "";
  };
  const length = Math.hypot(axis[0], axis[1], axis[2]);
  const shown = `(${axis.join(", ")})`;
  if (!(length > 1e-6)) {
    warn(
      `${label}: Axis${at("Axis")} ${shown} has no direction; kept as stored, nothing can ` +
        "turn about it",
    );
  } else if (Math.abs(length - 1) > 1e-3) {
    warn(
      `${label}: Axis${at("Axis")} ${shown} has length ${
        Math.round(length * 1e4) / 1e4
      }, not 1; it turns about its direction`,
    );
  }
  const typed = degreesTyped([min, max]);
  const degrees = typed
    ? { degrees: { said: `Min${at("Min")}, Max${at("Max")}: ${typed}`, limits: [min, max] } }
    : {};
  if (min <= max) return { min, max, ...degrees };
  return { min: max, max: min, reversed: { min, max, minAt: at("Min"), maxAt: at("Max") }, ...degrees };
}

/** How a warning names a hardpoint: `hardpoint 'HpGun01' (part 'Wing')`. */
export function hardpointLabel(name: string, part: string | undefined): string {
  return `hardpoint '${name}'${part === undefined ? "" : ` (part '${part}')`}`;
}

function readCamera(dir: UtfEntry): FragmentCamera | undefined {
  const camera = findChild(dir, "Camera");
  if (!camera) return undefined;
  const value = (name: string, fallback: number) => {
    const leaf = findChild(camera, name);
    return leaf ? requireLeaf(leaf, `a camera ${name} leaf`).floats(0, 1, `camera ${name}`)[0] : fallback;
  };
  return {
    fovx: value("Fovx", 0.5),
    fovy: value("Fovy", 0.5),
    znear: value("Znear", 1),
    zfar: value("Zfar", 10000),
  };
}
