/**
 * Running `decode.dson`, `dson.apply_preset` and `export.gltf` on code-made DSON in tests, each run
 * with its own context so its warnings are its own; content files written to a temporary content
 * root; and the small lookups and quaternion product several DSON tests share.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Document, Node } from "@gltf-transform/core";
import { join } from "node:path";
import { dsonApplyPreset } from "../../../../nodes/decode/dson/apply_preset.ts";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { exportGltf } from "../../../../nodes/export/gltf.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { tempDir } from "../../../support/temp.ts";
import { dsonBytes } from "./generate.ts";

/** A scene and the warnings of the run that made it. */
export interface Run {
  readonly scene: Document;
  readonly warnings: string[];
}

/**
 * Decodes DSON `json` as a file called `name` (warnings name it), resolving against `contentRoots`.
 *
 * @example
 * ```ts
 * const { scene, warnings } = await decodeJson(generateFigure({ side: 4, bones: 2 }), "gen.duf");
 * ```
 */
export async function decodeJson(json: unknown, name: string, contentRoots: string[] = []): Promise<Run> {
  const ctx = testContext();
  const bytes = { bytes: dsonBytes(json), name };
  const scene = (await runNode(decodeDson, { bytes }, { content_roots: contentRoots }, ctx))
    .scene as Document;
  return { scene, warnings: ctx.warnings.map((w) => w.message) };
}

/** Applies `preset` to `scene` (a copy: `scene` is left as it was). */
export async function applyPreset(
  scene: Document,
  preset: { bytes: Uint8Array; name: string },
): Promise<Run> {
  const ctx = testContext();
  const out = (await runNode(dsonApplyPreset, { scene, preset }, {}, ctx)).scene as Document;
  return { scene: out, warnings: ctx.warnings.map((w) => w.message) };
}

/** Decodes `json` as `name` and exports the scene to a GLB, the warnings of both together. */
export async function decodeAndExport(json: unknown, name: string): Promise<Run & { glb: Uint8Array }> {
  const ctx = testContext();
  const { scene } = await runNode(decodeDson, { bytes: { bytes: dsonBytes(json), name } }, {}, ctx);
  const glb = (await runNode(exportGltf, { scene }, {}, ctx)).bytes.bytes as Uint8Array;
  return { scene: scene as Document, glb, warnings: ctx.warnings.map((w) => w.message) };
}

/**
 * Writes each `[content path, json]` of `files` (`/data/…/x.dsf`) under a new temporary content
 * root, calls `use` with the root, and removes it afterwards.
 */
export async function withContentFiles<T>(
  files: readonly (readonly [string, unknown])[],
  use: (root: string) => Promise<T>,
): Promise<T> {
  const root = await tempDir();
  try {
    for (const [path, json] of files) {
      const full = join(root, ...path.split("/").filter(Boolean));
      await Deno.mkdir(join(full, ".."), { recursive: true });
      await Deno.writeFile(full, dsonBytes(json));
    }
    return await use(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** The first node of `scene` named `name` (undefined-safe callers assert on it). */
export function nodeNamed(scene: Document, name: string): Node {
  return scene.getRoot().listNodes().find((n) => n.getName() === name)!;
}

/** The quaternion product a·b ([x, y, z, w]). */
export function quatMultiply(a: readonly number[], b: readonly number[]): number[] {
  const [ax, ay, az, aw] = a, [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

/** A judge's word on one generated case: `undefined` when right, else what is wrong and whether a warning said so. */
export type Verdict = { wrong: string; warned: boolean } | undefined;

/**
 * Makes and judges the case of every seed in `from..to`, prints how many were wrong (and how many of
 * those without a warning), and fails listing each wrong seed with its case's `describe`.
 *
 * @example
 * ```ts
 * await sweepSeeds(1, 40, "dson lines, seeds 1-40", lineCase, judge);
 * ```
 */
export async function sweepSeeds<C>(
  from: number,
  to: number,
  label: string,
  make: (seed: number) => C,
  judge: (c: C) => Promise<Verdict>,
  describe: (c: C) => string = () => "",
): Promise<void> {
  const wrong: string[] = [];
  let silent = 0;
  for (let seed = from; seed <= to; seed++) {
    const c = make(seed);
    const result = await judge(c);
    if (!result) continue;
    if (!result.warned) silent++;
    const about = describe(c);
    wrong.push(`seed ${seed}${about ? ` (${about})` : ""}: ${result.wrong}`);
  }
  console.log(`${label}: ${wrong.length} of ${to - from + 1} wrong, ${silent} of them without a warning`);
  assert.deepEqual(wrong, []);
}
