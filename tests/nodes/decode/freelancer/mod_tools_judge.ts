/**
 * Runs the files of `mod_tools.ts` through `graphs/freelancer.json` and judges the GLB against each
 * file's truth: a crash (anything but a `DecodeError`), a refusal (`DecodeError`), or an output
 * that is right or wrong, each with or without a warning. "Wrong" means a part draws another
 * number of triangles than the file holds for it, a hardpoint is missing or elsewhere, or a
 * turret's range differs.
 *
 * @module
 */
import { join } from "node:path";
import type { Document } from "@gltf-transform/core";
import { runGraph } from "../../../../mod.ts";
import type { BytesValue } from "../../../../runtime/node.ts";
import { DecodeError, RunError } from "../../../../runtime/errors.ts";
import { gltfIO } from "../../../../runtime/scene/gltf_io.ts";
import { graphPath } from "../../../support/graph_runs.ts";
import { tempDir } from "../../../support/temp.ts";
import type { ModToolFile } from "./mod_tools.ts";

/** How one file came out. */
export type Outcome = "crash" | "refused" | "wrong-silent" | "wrong-warned" | "right-warned" | "right";

/** The judgement of one file: its outcome, what was wrong, and the warnings. */
export interface Judgement {
  readonly outcome: Outcome;
  readonly problems: readonly string[];
  readonly warnings: readonly string[];
}

/** Runs `file` through `graphs/freelancer.json` (no library search) and judges the GLB. */
export async function judge(file: ModToolFile): Promise<Judgement> {
  const dir = await tempDir();
  try {
    const model = join(dir, file.name);
    await Deno.writeFile(model, file.bytes);
    for (const sibling of file.siblings ?? []) await Deno.writeFile(join(dir, sibling.name), sibling.bytes);
    let run;
    try {
      run = await runGraph(graphPath("freelancer.json"), {
        // Library search only where the file has its libraries beside it, as a mod ships them.
        inputs: { model, libraries: file.siblings ? "auto" : "none" },
        outDir: join(dir, "out"),
        cacheDir: false,
      });
    } catch (error) {
      const failures = error instanceof RunError ? error.failures : [];
      const decode = failures.length > 0 && failures.every((f) => f.cause instanceof DecodeError);
      return { outcome: decode ? "refused" : "crash", problems: [String(error)], warnings: [] };
    }
    const warnings = run.warnings.map((w) => w.message);
    const glb = (run.outputs.glb as BytesValue).bytes;
    const doc = await (await gltfIO()).readBinary(glb);
    const problems = compare(doc, file);
    for (const pattern of file.truth.named ?? []) {
      if (!warnings.some((w) => new RegExp(pattern).test(w))) problems.push(`no warning names ${pattern}`);
    }
    const outcome: Outcome = problems.length
      ? (warnings.length ? "wrong-warned" : "wrong-silent")
      : (warnings.length ? "right-warned" : "right");
    return { outcome, problems, warnings };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** What in `doc` differs from the file's truth. */
export function compare(doc: Document, file: ModToolFile): string[] {
  const problems: string[] = [];
  const nodes = doc.getRoot().listNodes();
  for (const [part, expected] of Object.entries(file.truth.triangles)) {
    const node = nodes.find((n) =>
      n.getName() === part && !(n.getExtras() as { hardpoint?: boolean }).hardpoint
    );
    if (!node) {
      problems.push(`part '${part}' missing`);
      continue;
    }
    let drawn = 0;
    for (const prim of node.getMesh()?.listPrimitives() ?? []) {
      drawn += (prim.getIndices()?.getCount() ?? 0) / 3;
    }
    if (drawn !== expected) problems.push(`part '${part}' draws ${drawn} triangles, not ${expected}`);
  }
  for (const [name, position] of Object.entries(file.truth.hardpoints)) {
    const node = nodes.find((n) => n.getName() === name);
    if (!node) {
      problems.push(`hardpoint '${name}' missing`);
      continue;
    }
    const world = node.getWorldMatrix();
    const off = [12, 13, 14].map((i, k) => Math.abs(world[i] - position[k]));
    if (Math.max(...off) > (file.truth.hardpointTolerance ?? 1e-4)) {
      problems.push(`hardpoint '${name}' at ${world.slice(12, 15)}, not ${position}`);
    }
  }
  for (const name of file.truth.absent ?? []) {
    if (nodes.some((n) => n.getName() === name)) {
      problems.push(`hardpoint '${name}' read where the game reads none`);
    }
  }
  for (const [name, [min, max]] of Object.entries(file.truth.limits)) {
    const extras = nodes.find((n) => n.getName() === name)?.getExtras() as
      | { min?: number; max?: number }
      | undefined;
    if (!extras) continue;
    if (Math.abs((extras.min ?? NaN) - min) > 1e-3 || Math.abs((extras.max ?? NaN) - max) > 1e-3) {
      problems.push(`turret '${name}' turns ${extras.min}..${extras.max}°, not ${min}..${max}°`);
    }
  }
  for (const [name, [min, max]] of Object.entries(file.truth.joints ?? {})) {
    const extras = nodes.find((n) => n.getName() === name)?.getExtras() as
      | { min?: number; max?: number }
      | undefined;
    if (!extras) problems.push(`joint pivot '${name}' missing`);
    else if (Math.abs((extras.min ?? NaN) - min) > 1e-3 || Math.abs((extras.max ?? NaN) - max) > 1e-3) {
      problems.push(`joint pivot '${name}' moves ${extras.min}..${extras.max}, not ${min}..${max}`);
    }
  }
  for (const [name, textured] of Object.entries(file.truth.textured ?? {})) {
    const material = doc.getRoot().listMaterials().find((m) => m.getName() === name);
    const extras = (material?.getExtras().partgraph as { freelancer?: { placeholder?: boolean } } | undefined)
      ?.freelancer;
    if (!material || extras?.placeholder) problems.push(`material '${name}' missing or a placeholder`);
    else if (!!material.getBaseColorTexture() !== textured) {
      problems.push(`material '${name}' ${textured ? "untextured" : "textured"}`);
    }
  }
  problems.push(...int32Problems(doc));
  return problems;
}

const INT32 = [-(2 ** 31), 2 ** 31 - 1];

/**
 * Integers in the output's extras that a client storing custom properties as int32 cannot hold:
 * Blender 3.4 then turns the whole property (all of `partgraph`) into one text value.
 */
export function int32Problems(doc: Document): string[] {
  const root = doc.getRoot();
  const owners = [
    ...root.listScenes(),
    ...root.listNodes(),
    ...root.listMeshes(),
    ...root.listMaterials(),
    ...root.listTextures(),
    ...root.listAnimations(),
  ];
  const problems: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (typeof value === "number") {
      if (Number.isInteger(value) && (value < INT32[0] || value > INT32[1])) {
        problems.push(`${path} is ${value}, beyond int32 (Blender makes the property text)`);
      }
    } else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`);
    }
  };
  for (const owner of owners) walk(owner.getExtras(), `${owner.propertyType} '${owner.getName()}' extras`);
  return problems;
}

/** Outcome counts over `files`, with the judgements of the files that were not right. */
export async function measure(files: readonly ModToolFile[]) {
  const counts: Record<string, Record<Outcome, number>> = {};
  const notRight: { file: ModToolFile; judgement: Judgement }[] = [];
  for (const file of files) {
    const judgement = await judge(file);
    const row = counts[file.quirk] ??= {
      crash: 0,
      refused: 0,
      "wrong-silent": 0,
      "wrong-warned": 0,
      "right-warned": 0,
      right: 0,
    };
    row[judgement.outcome]++;
    if (judgement.outcome !== "right" && judgement.outcome !== "right-warned") {
      notRight.push({ file, judgement });
    }
  }
  return { counts, notRight };
}
