/**
 * Side habits of a kit-bashed file: the wings from one author (`AileronP`/`AileronS`, port and starboard),
 * the tail from another (`Elevator_L`/`Elevator_P`, lewy and prawy). The file's letters pair neither (L, P
 * and S together); each kind of surface's names pair their own (`vocabulary_pairs.ts` `kindPairedLetters`).
 * `rig.assign_side` takes such a reading where the kind's panels lie on the sides it says, and says so
 * when one letter names both sides in the one file.
 *
 * @module
 */
import type { Node } from "@gltf-transform/core";
import { type FileWords, type Side, sideFromName, tokenize } from "./vocabulary.ts";
import { getPart } from "./part_extras.ts";

const fileOnly = new WeakMap<FileWords, FileWords>();

/** `words` without each kind's own pairing: what the file's letters alone say. */
function withoutKinds(words: FileWords): FileWords {
  let out = fileOnly.get(words);
  if (!out) fileOnly.set(words, out = Object.assign(new Set(words), { letters: words.letters }));
  return out;
}

/**
 * True when `name`'s side is read by its kind's own pairing, not by the file's letters (`AileronP` beside
 * `AileronS` in a file whose tail writes `Elevator_L`/`Elevator_P`).
 */
export function readByOwnHabit(name: string, words: FileWords): boolean {
  if (!words.kindLetters?.size) return false;
  return sideFromName(name, words) !== sideFromName(name, withoutKinds(words));
}

/** A letter that names the left in some kinds' names and the right in others', with those kinds. */
export interface HabitConflict {
  readonly letter: string;
  readonly left: readonly string[];
  readonly right: readonly string[];
}

/** Letters the file's kinds of surface pair to both sides (`P` port in ailerons, prawy in elevators). */
export function habitConflicts(words: FileWords): HabitConflict[] {
  const sides = new Map<string, { left: string[]; right: string[] }>();
  for (const [kind, letters] of words.kindLetters ?? []) {
    for (const [letter, side] of letters) {
      const entry = sides.get(letter) ?? { left: [], right: [] };
      entry[side].push(kind);
      sides.set(letter, entry);
    }
  }
  return [...sides].filter(([, s]) => s.left.length > 0 && s.right.length > 0)
    .map(([letter, s]) => ({ letter, ...s }));
}

/** The nodes of `nodes` whose names write `letter` as a word of its own or glued to a kind word. */
export function writingLetter(nodes: readonly Node[], letter: string, words: FileWords): Node[] {
  return nodes.filter((n) => tokenize(n.getName(), words).includes(letter));
}

/** How `settleHabits` warns (the run's `ctx.warn`). */
type Warn = (message: string, data: Record<string, string | string[]>) => void;

/**
 * Settles the panels `own` whose sides their kind's own habit read (`readByOwnHabit`): a kind whose panels
 * lie otherwise — any wholly on the side against its reading, per `contradicted` — reads no side from its
 * letters, and every panel of it takes its geometry's side (`geometric`), warned naming them. Then each
 * letter naming both sides in the file (`habitConflicts`) is warned of, naming the panels writing it and the
 * sides they got. `sides` and `contradicted` are updated in place.
 */
export function settleHabits(
  own: readonly Node[],
  all: readonly Node[],
  words: FileWords,
  sides: Map<Node, Side>,
  contradicted: Map<Node, Side>,
  geometric: (node: Node) => Side,
  warn: Warn,
): void {
  const byKind = new Map<string, Node[]>();
  for (const node of own) {
    const kind = getPart(node)?.kind ?? "";
    byKind.set(kind, [...byKind.get(kind) ?? [], node]);
  }
  for (const [kind, list] of byKind) {
    if (!list.some((n) => contradicted.has(n))) continue;
    for (const node of list) {
      sides.set(node, contradicted.get(node) ?? geometric(node));
      contradicted.delete(node);
    }
    warn(
      `${list.map((n) => `'${n.getName()}' (${sides.get(n)})`).join(", ")}: their side letters pair only ` +
        `among the ${kind} names (a second side habit in the file?), but the panels do not lie on the sides ` +
        "that reading gives: sided by geometry; rename with L/R or give ctrl_type extras if wrong",
      { panels: list.map((n) => n.getName()) },
    );
  }
  for (const { letter, left, right } of habitConflicts(words)) {
    const writers = writingLetter(all, letter, words).filter((n) => sides.get(n) !== "centre");
    if (writers.length === 0) continue;
    const upper = letter.toUpperCase();
    warn(
      `${writers.map((n) => `'${n.getName()}' (${sides.get(n)})`).join(", ")}: ${upper} names the left ` +
        `among the ${left.join(", ")} names and the right among the ${right.join(", ")} names (two side ` +
        "habits in one file, parts from different authors?): each kind read its own way where its panels " +
        "lie on those sides; rename with L/R or give ctrl_type extras if wrong",
      { panels: writers.map((n) => n.getName()), letter: upper },
    );
  }
}
