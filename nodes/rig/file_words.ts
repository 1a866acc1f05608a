/**
 * The file's words for every reader of part names: a name is read with the scene's other names
 * (`vocabulary.ts` {@link partneredWords}: `Aileron_P` is port beside `Aileron_S` but prawy beside
 * `Aileron_L`, `Aleron_D` right beside `Aleron_I`), as `rig.assign_side` reads them. Read once per scene
 * by each reader, never once per panel: 2,000 panels read each other's names 2,000 times over otherwise.
 *
 * @example
 * ```ts
 * import { Document } from "@gltf-transform/core";
 * import { sideFromName } from "./vocabulary.ts";
 *
 * const doc = new Document();
 * doc.createNode("Lotka_L");
 * doc.createNode("Lotka_P");
 * sideFromName("Lotka_P", sceneWords(doc)); // "right"
 * ```
 *
 * @module
 */
import type { Document, Node, Root } from "@gltf-transform/core";
import { type FileWords, partneredWords } from "./vocabulary.ts";

/** The file's words of every node name in `doc` (as `rig.assign_side` reads them). */
export function sceneWords(doc: Document): FileWords {
  return rootWords(doc.getRoot());
}

function rootWords(root: Root): FileWords {
  return partneredWords(root.listNodes().map((n) => n.getName()));
}

/**
 * The file's words of the scene holding `nodes` (the first's document: nodes of one rig run share it),
 * or none when there are no nodes or they belong to no document's root.
 */
export function wordsAround(nodes: Iterable<Node>): FileWords | undefined {
  for (const node of nodes) {
    const root = node.listParents().find((p) => p.propertyType === "Root") as Root | undefined;
    return root ? rootWords(root) : undefined;
  }
  return undefined;
}

/**
 * A string naming what `words` make of names, for remembering readings per file: two files whose words
 * read every name alike share it. Empty for no words, and for words that change no reading.
 */
export function wordsKey(words: FileWords | undefined): string {
  if (!words) return "";
  let key = keys.get(words);
  if (key === undefined) {
    const pairs = (letters?: ReadonlyMap<string, string>) =>
      [...letters ?? []].map(([l, side]) => `${l}${side[0]}`).sort().join("");
    const letters = pairs(words.letters);
    // Each kind's own pairing (a kit-bashed file's) reads names too.
    const kinds = [...words.kindLetters ?? []].map(([kind, l]) => `${kind}:${pairs(l)}`).join(";");
    const glued = [...words].sort().join(",");
    keys.set(words, key = letters || glued || kinds ? `${letters}|${glued}|${kinds}` : "");
  }
  return key;
}

const keys = new WeakMap<FileWords, string>();
