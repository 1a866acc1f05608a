/**
 * Files whose every object name an old format cut to its name field, as converters then pass them on
 * to glTF: `.3ds` (10 characters: `L_AILERON0`, `ELEV_L_TAB`), 8 (early game formats, FS9 MDL parts),
 * 8.3 (a part named by its DOS file, `LAILERON.X`), 15 and 16 (Quake MDL frames, Freelancer and old
 * DirectX names), 31 (MilkShape). A file is one aircraft named one way (side word first or last, glued
 * or separated, `LEFT`/`L`/`LT`/`LFT`/`PORT`, `AILERON` or `AILRN`, a 3ds Max counter, an inboard or
 * outboard qualifier) and cut at one width; names that collide after the cut get a converter's `.001`.
 * A name whose cut leaves too little of its kind word to read is dropped (no reader could tell it); a
 * side word cut part-way states no side.
 *
 * Deterministic from a seed.
 *
 * @module
 */
import { prng } from "../../support/prng.ts";
import type { WildKind } from "./wild_names.ts";

/** The name fields cut at, and how the family labels them. */
export const CUT_WIDTHS = ["8", "10", "8.3", "15", "16", "31"] as const;
/** One of {@link CUT_WIDTHS}. */
export type CutWidth = typeof CUT_WIDTHS[number];

/** A name in a cut file and what a reader should make of it. */
export interface CutName {
  readonly name: string;
  /** The name before the cut. */
  readonly full: string;
  readonly kind: WildKind | "trim_tab";
  /** The side the cut name still states (undefined: none, or cut part-way). */
  readonly side?: "left" | "right";
  /** The side of the surface, whatever its name still states. */
  readonly trueSide?: "left" | "right";
}

/** A file's names, all cut at `width`. */
export interface CutFile {
  readonly width: CutWidth;
  readonly style: string;
  readonly names: readonly CutName[];
}

/** Kind words and the fewest of their letters a reader can tell (`AILER`, `ELEVAT`, `AILR`). */
const WORDS: Readonly<
  Record<"aileron" | "elevator" | "rudder" | "flap", readonly (readonly [string, number])[]>
> = {
  aileron: [["AILERON", 5], ["AILRN", 4], ["AIL", 3]],
  elevator: [["ELEVATOR", 6], ["ELEV", 4]],
  rudder: [["RUDDER", 6], ["RUD", 3]],
  flap: [["FLAP", 4]],
};

const SIDES: readonly (readonly [string, string])[] = [
  ["LEFT", "RIGHT"],
  ["L", "R"],
  ["LT", "RT"],
  ["LFT", "RGT"],
  ["LEFT", "RGHT"],
  ["PORT", "STBD"],
];

/** The surfaces of one aircraft: kind, side, and a qualifier when a wing has two of a kind. */
const SURFACES: readonly (readonly [keyof typeof WORDS, "left" | "right" | undefined, string])[] = [
  ["aileron", "left", ""],
  ["aileron", "right", ""],
  ["elevator", "left", ""],
  ["elevator", "right", ""],
  ["rudder", undefined, ""],
  ["flap", "left", "INNER"],
  ["flap", "right", "INNER"],
  ["flap", "left", "OUTER"],
  ["flap", "right", "OUTER"],
];

/** Side words, and the cuts of them that are side words too. */
const READABLE_SIDES = {
  left: ["L", "LT", "LFT", "LEFT", "PORT"],
  right: ["R", "RT", "RGT", "RGHT", "RIGHT", "STB", "STBD"],
};

function cut(full: string, width: CutWidth, ext: string): string {
  if (width === "8.3") return `${full.replace(/[_ ]/g, "").slice(0, 8)}.${ext}`;
  return full.slice(0, Number(width));
}

/** One file from `next`: its convention, its width, its names. */
export function cutFile(next: () => number): CutFile {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const width = pick(CUT_WIDTHS);
  const [left, right] = pick(SIDES);
  const sideFirst = next() < 0.5;
  // Single letters glue only before a word (`LFLAP`); after one they need a separator to read.
  const sep = pick(["_", "_", "", " "]);
  const words = Object.fromEntries(
    Object.entries(WORDS).map(([kind, list]) => [kind, pick(list)]),
  ) as Record<keyof typeof WORDS, readonly [string, number]>;
  const counter = next() < 0.3; // 3ds Max numbers its objects (`RUDDER01`)
  const lower = next() < 0.2;
  const ext = pick(["X", "3DS", "MDL"]);
  const raw: CutName[] = [];
  const counts = new Map<string, number>();
  SURFACES.forEach(([kind, side, qualifier], k) => {
    const [word, least] = words[kind];
    const sideWord = side === "left" ? left : side === "right" ? right : undefined;
    const parts = sideWord ? (sideFirst ? [sideWord, word] : [word, sideWord]) : [word];
    const join = sideWord && sideWord.length === 1 && !sideFirst && sep === "" ? "_" : sep;
    let full = parts.join(join);
    if (qualifier) full += `_${qualifier}`;
    if (counter) full += String(k + 1).padStart(2, "0");
    if (lower) full = full.toLowerCase();
    let name = cut(full, width, ext);
    const flat = width === "8.3" ? full.replace(/[_ ]/g, "") : full;
    const size = width === "8.3" ? 8 : Number(width);
    const kept = (at: number, length: number) => Math.max(0, Math.min(length, size - at));
    const wordAt = flat.toUpperCase().indexOf(word, sideFirst && sideWord ? sideWord.length : 0);
    if (kept(wordAt, word.length) < least) return;
    const sideAt = sideWord ? flat.toUpperCase().indexOf(sideWord, sideFirst ? 0 : wordAt + word.length) : -1;
    // A side word cut to a shorter side word still states it (`LEFT` to `L`, `STBD` to `STB`).
    const sideLeft = sideWord?.slice(0, kept(sideAt, sideWord.length));
    const sideKept = sideLeft !== undefined && READABLE_SIDES[side!].includes(sideLeft);
    // Names the cut made equal: a converter keeps them apart (Blender's `.001`).
    const seen = counts.get(name) ?? 0;
    counts.set(name, seen + 1);
    if (seen > 0) name = `${name}.${String(seen).padStart(3, "0")}`;
    raw.push({ name, full, kind, side: sideKept ? side : undefined, trueSide: side });
  });
  const style = `${width} ${sideFirst ? "side first" : "side last"} '${sep}' ${left}/${right} ${
    Object.values(words).map((w) => w[0]).join("/")
  }${counter ? " numbered" : ""}${lower ? " lower" : ""}`;
  return { width, style, names: raw };
}

/** `count` cut files from `seed`. */
export function cutFiles(seed: number, count: number): CutFile[] {
  const next = prng(seed);
  return Array.from({ length: count }, () => cutFile(next));
}

/** A surface of a 3ds Max scene and how its modeller may have typed it (`s` the side word). */
const THREE_DS_SURFACES:
  readonly (readonly [WildKind | "trim_tab", "left" | "right" | undefined, string[]])[] = [
    ["aileron", "left", ["Aileron_{s}", "Aileron{s}", "{s}_Aileron", "Aileron {s}"]],
    ["aileron", "right", ["Aileron_{s}", "Aileron{s}", "{s}_Aileron", "Aileron {s}"]],
    ["elevator", "left", ["Elevator_{s}", "Elevator{s}", "{s}_Elevator", "Elev_{s}"]],
    ["elevator", "right", ["Elevator_{s}", "Elevator{s}", "{s}_Elevator", "Elev_{s}"]],
    ["trim_tab", "left", [
      "Elev_{s}_Tab",
      "ElevTab_{s}",
      "Elevator_{s}_Tab",
      "ElevatorTrim_{s}",
      "{s}_ElevTab",
    ]],
    ["trim_tab", "right", [
      "Elev_{s}_Tab",
      "ElevTab_{s}",
      "Elevator_{s}_Tab",
      "ElevatorTrim_{s}",
      "{s}_ElevTab",
    ]],
    ["rudder", undefined, ["Rudder"]],
    ["trim_tab", undefined, ["RudderTrim", "Rudder_Tab", "RudderTrimTab", "Rudder_Trim_Tab"]],
    ["flap", "left", ["Flap_{s}", "Flap{s}", "{s}_Flap"]],
    ["flap", "right", ["Flap_{s}", "Flap{s}", "{s}_Flap"]],
  ];

/**
 * `count` scenes a 3ds Max modeller named (one habit a scene: side word, counter, case), saved as `.3ds`
 * (object names cut to 10 characters; DOS-era tools wrote them in capitals) and converted to glTF
 * (Assimp keeps names the cut made equal; Blender's importer adds `.001`).
 */
export function threeDsFiles(seed: number, count: number): CutFile[] {
  const next = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  return Array.from({ length: count }, () => {
    const [left, right] = pick([["L", "R"], ["Left", "Right"], ["LH", "RH"], ["Port", "Stbd"]]);
    const habit = next();
    const counter = next() < 0.4;
    const upper = next() < 0.4;
    const blender = next() < 0.5;
    const counts = new Map<string, number>();
    const names: CutName[] = [];
    THREE_DS_SURFACES.forEach(([kind, side, templates], k) => {
      const template = templates[Math.floor(habit * templates.length)];
      let full = template.replace("{s}", side === "left" ? left : right);
      if (counter) full += String(k + 1).padStart(2, "0");
      if (upper) full = full.toUpperCase();
      let name = full.slice(0, 10);
      const seen = counts.get(name) ?? 0;
      counts.set(name, seen + 1);
      if (seen > 0 && blender) name = `${name}.${String(seen).padStart(3, "0")}`;
      const sideWord = side === "left" ? left : side === "right" ? right : undefined;
      const at = template.indexOf("{s}");
      const sideKept = sideWord !== undefined && at + sideWord.length <= 10;
      // A surface word cut shorter than a reader can tell (`RIGHT_AILE`: `aile` is French for wing).
      const word = /aileron|elevator|elev|rudder|flap/i.exec(template)!;
      const least = { aileron: 5, elevator: 4, elev: 4, rudder: 3, flap: 4 }[word[0].toLowerCase()]!;
      const wordAt = word.index + (at >= 0 && at < word.index ? (sideWord!.length - 3) : 0);
      if (Math.min(word[0].length, 10 - wordAt) < least) return;
      names.push({ name, full, kind, side: sideKept ? side : undefined, trueSide: side });
    });
    return {
      width: "10",
      style: `3ds ${left}/${right} habit ${habit.toFixed(2)}${counter ? " numbered" : ""}${
        upper ? " upper" : ""
      }${blender ? " blender" : " assimp"}`,
      names,
    };
  });
}
