/**
 * Access to the shared corpus of real third-party files (`../shared/corpus/` beside the checkout).
 * The corpus is never copied into the repository; tests that need it skip with a clear message
 * when it is absent (users' clones do not have it; CI does).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { existsSync } from "node:fs";

/** Absolute path of the shared corpus folder. */
export const CORPUS_DIR: string = fileURLToPath(new URL("../../../shared/corpus/", import.meta.url));

/** Absolute path of a corpus file, or undefined (with a note on stderr) when it is absent. */
export function corpusFile(relative: string): string | undefined {
  const path = CORPUS_DIR + relative;
  if (existsSync(path)) return path;
  console.warn(`skipped: corpus file ${relative} not found under ${CORPUS_DIR} (shared corpus absent)`);
  return undefined;
}

/** `ignore` option for Deno.test: true (skip) when the corpus file is absent. */
export function withoutCorpus(relative: string): boolean {
  return corpusFile(relative) === undefined;
}
