/**
 * Store-product habits (`store_habits.ts`) on seeded scenes: each decoded case is compared with
 * what the generator worked out, and the wrong ones counted, with those no warning flagged (a
 * silent wrong answer, the worst outcome). Seeds 1–40 were the ones looked at while fixing; seeds
 * 1001–1040 are held out and must come out right as well. Measured on decode.dson v38 (before the
 * alias and raw-'#' fixes): 15 of 40 wrong, 10 silent; held out, 16 of 40 wrong, 10 silent.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Document } from "@gltf-transform/core";
import { decodeDson } from "../../../../nodes/decode/dson/decode_dson.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { tempDir } from "../../../support/temp.ts";
import { dsonBytes } from "./generate.ts";
import { type HabitCase, habitCase } from "./store_habits.ts";

/** What went wrong in one case (empty: right), and its warnings. */
async function judge(c: HabitCase): Promise<{ wrong: string[]; warnings: string[] }> {
  const roots: string[] = [];
  for (const files of c.roots) {
    const root = await tempDir();
    roots.push(root);
    for (const [path, json] of files) {
      const full = join(root, ...path.split("/").filter(Boolean));
      await Deno.mkdir(join(full, ".."), { recursive: true });
      await Deno.writeFile(full, dsonBytes(json));
    }
  }
  const ctx = testContext();
  let scene: Document | undefined;
  let error: unknown;
  try {
    scene = (await runNode(decodeDson, { bytes: { bytes: dsonBytes(c.scene), name: "habits.duf" } }, {
      content_roots: roots,
    }, ctx)).scene as Document;
  } catch (e) {
    error = e;
  }
  const warnings = ctx.warnings.map((w) => w.message);
  const wrong: string[] = [];
  const meshes = scene?.getRoot().listMeshes() ?? [];
  if (c.expected.error) {
    const message = error instanceof DecodeError ? error.message : String(error);
    if (!c.expected.error.test(message)) wrong.push(`no DecodeError ${c.expected.error}: ${message}`);
    return { wrong, warnings: error ? [message, ...warnings] : warnings };
  }
  if (!c.expected.figure) {
    // Nothing drawn from the same-named file of another product; the scene says what is missing.
    if (meshes.length) wrong.push(`drew ${meshes.length} mesh(es) for a missing file`);
  } else if (error || meshes.length !== 1) {
    wrong.push(error ? `failed: ${(error as Error).message}` : `${meshes.length} meshes`);
  } else {
    const mesh = meshes[0];
    const triangles = mesh.listPrimitives().reduce((n, p) => n + p.getIndices()!.getCount() / 3, 0);
    if (triangles !== c.expected.triangles) wrong.push(`${triangles} triangles, not ${c.expected.triangles}`);
    const uvs = mesh.listPrimitives().every((p) => p.getAttribute("TEXCOORD_0") !== null);
    if (uvs !== c.expected.uvs) wrong.push(uvs ? "took a foreign UV set" : "lost its UVs");
    const names = (mesh.getExtras().targetNames ?? []) as string[];
    for (const [name, weight] of Object.entries(c.expected.weights)) {
      const got = mesh.getWeights()[names.indexOf(name)] ?? 0;
      if (Math.abs(got - weight) > 1e-6) wrong.push(`${name} ${got}, not ${weight}`);
    }
  }
  for (const pattern of c.expected.warnings) {
    if (!warnings.some((w) => pattern.test(w))) wrong.push(`no warning ${pattern}`);
  }
  return { wrong, warnings };
}

/** Counts over `seeds`: wrong cases, and wrong ones without any warning. */
async function measure(seeds: number[]): Promise<{ wrong: number; silent: number; lines: string[] }> {
  let wrong = 0, silent = 0;
  const lines: string[] = [];
  for (const seed of seeds) {
    const c = habitCase(seed);
    const result = await judge(c);
    if (!result.wrong.length) continue;
    wrong++;
    if (!result.warnings.length) silent++;
    lines.push(
      `seed ${seed} [${c.habits.join(", ")}]: ${result.wrong.join("; ")} | ${result.warnings.join(" / ")}`,
    );
  }
  return { wrong, silent, lines };
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, k) => from + k);

for (
  const [what, seeds] of [["seeds 1-40", range(1, 40)], [
    "held-out seeds 1001-1040",
    range(1001, 40),
  ]] as const
) {
  Deno.test(`dson store habits, ${what}: every case decodes as worked out, warned where Daz refuses`, async () => {
    const { wrong, silent, lines } = await measure([...seeds]);
    console.log(`dson store habits, ${what}: ${wrong} of ${seeds.length} wrong, ${silent} of them silent`);
    assert.equal(wrong, 0, lines.join("\n"));
  });
}
