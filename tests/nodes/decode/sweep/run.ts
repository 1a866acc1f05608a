/**
 * Runs structure-sweep cases: the seed files (corpus files when present, and real-shaped files made
 * by code), their cases (`carnivores_fields.ts`, `freelancer_fields.ts`), and one case through
 * `decode.auto` — with its allocations tracked — then the fuzzer's full pipeline to a validated
 * `export.gltf` output (`tests/fuzz/pipeline.ts`).
 *
 * @module
 */
import { join } from "node:path";
import { decodeAuto } from "../../../../nodes/decode/auto.ts";
import { DecodeError, PartgraphError } from "../../../../runtime/errors.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { CORPUS_DIR } from "../../../support/corpus.ts";
import { runFuzzCase } from "../../../fuzz/pipeline.ts";
import { fuzzSeeds } from "../../../fuzz/seeds.ts";
import { encodeRsc } from "../../../support/carnivores/rsc.ts";
import { animation, limbModel } from "../carnivores/fixtures.ts";
import type { Case } from "./cases.ts";
import { cases3df, casesCar, casesRsc } from "./carnivores_fields.ts";
import { casesUtf } from "./freelancer_fields.ts";

/** A file to sweep and its cases. */
export interface SweepSeed {
  readonly format: "3df" | "car" | "rsc" | "cmp";
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly cases: readonly Case[];
}

const CASES = { "3df": cases3df, car: casesCar, rsc: casesRsc, cmp: casesUtf } as const;

/** The seeds: the fuzzer's code-made files, a C2 area, and the corpus files of these formats. */
export async function sweepSeeds(): Promise<SweepSeed[]> {
  const fuzz = await fuzzSeeds();
  const model = limbModel();
  const made: Omit<SweepSeed, "cases">[] = [
    { format: "3df", name: fuzz["3df"].name, bytes: fuzz["3df"].bytes },
    { format: "car", name: fuzz.car.name, bytes: fuzz.car.bytes },
    { format: "rsc", name: "c1.rsc", bytes: fuzz.rsc.bytes },
    {
      // A C2 area: far billboards, an animated object, waters.
      format: "rsc",
      name: "c2.rsc",
      bytes: encodeRsc({
        version: "c2",
        textures: 1,
        objects: [
          { model },
          { model, animation: animation("", 10, 3, model.points, 0), billboardWord: 0x7c00 },
        ],
        fogs: 1,
        randomSounds: [2],
        ambientSounds: [2],
        waters: 1,
      }),
    },
    { format: "cmp", name: fuzz.cmp.name, bytes: fuzz.cmp.bytes },
  ];
  const corpus: Omit<SweepSeed, "cases">[] = [];
  for (
    const [dir, pattern, format] of [
      ["carnivores", /\.3df$/i, "3df"],
      ["carnivores", /\.car$/i, "car"],
      ["freelancer", /\.(cmp|3db)$/i, "cmp"],
    ] as const
  ) {
    const folder = join(CORPUS_DIR, dir);
    const names = await Array.fromAsync(Deno.readDir(folder)).then(
      (list) => list.filter((e) => e.isFile && pattern.test(e.name)).map((e) => e.name).sort(),
      () => [] as string[],
    );
    for (const name of names) corpus.push({ format, name, bytes: await Deno.readFile(join(folder, name)) });
  }
  return [...made, ...corpus].map((s) => ({ ...s, cases: CASES[s.format](s.bytes) }));
}

/** How a case ended: the acceptable three, or a failure. */
export type SweepOutcome = "typed" | "warning" | "success" | "crash" | "invalid" | "disagree" | "alloc";

/** One case's result. */
export interface SweepResult {
  readonly outcome: SweepOutcome;
  readonly detail?: string;
  /** The largest single buffer the decode allocated, in bytes. */
  readonly largest: number;
}

/** Bytes a decode may allocate in one buffer for a file of `size` bytes before it counts as unjustified. */
export function allocationBudget(size: number): number {
  return 4 * 1024 * 1024 + 64 * size;
}

const TRACKED = [
  "ArrayBuffer",
  "Uint8Array",
  "Int8Array",
  "Uint16Array",
  "Int16Array",
  "Uint32Array",
  "Int32Array",
  "Float32Array",
  "Float64Array",
  "Array",
] as const;

/**
 * Runs `body` with the constructors of buffers and arrays wrapped to record the largest single
 * allocation (in bytes; an `Array` of n slots counts 8n), restoring them after.
 */
async function trackAllocations<T>(
  body: () => Promise<T>,
): Promise<{ value?: T; error?: unknown; largest: number }> {
  const globals = globalThis as unknown as Record<string, unknown>;
  const saved = TRACKED.map((name) => globals[name]);
  let largest = 0;
  TRACKED.forEach((name, i) => {
    const real = saved[i] as { new (...args: unknown[]): unknown; BYTES_PER_ELEMENT?: number };
    const unit = name === "ArrayBuffer" ? 1 : name === "Array" ? 8 : real.BYTES_PER_ELEMENT!;
    globals[name] = new Proxy(real, {
      construct(target, args, newTarget) {
        if (typeof args[0] === "number") largest = Math.max(largest, args[0] * unit);
        return Reflect.construct(target, args, newTarget === globals[name] ? target : newTarget);
      },
      apply(target, self, args) {
        if (typeof args[0] === "number" && args.length === 1) largest = Math.max(largest, args[0] * unit);
        return Reflect.apply(target as never, self, args);
      },
    });
  });
  try {
    return { value: await body(), largest };
  } catch (error) {
    return { error, largest };
  } finally {
    TRACKED.forEach((name, i) => (globals[name] = saved[i]));
  }
}

/** Runs one case's bytes: the decode (tracked), then the full pipeline to a validated output. */
export async function runSweepCase(bytes: Uint8Array, name: string): Promise<SweepResult> {
  const ctx = testContext();
  const decoded = await trackAllocations(() => runNode(decodeAuto, { bytes: { bytes, name } }, {}, ctx));
  const { largest } = decoded;
  if (largest > allocationBudget(bytes.byteLength)) {
    return {
      outcome: "alloc",
      detail: `one ${largest}-byte allocation for a ${bytes.byteLength}-byte file`,
      largest,
    };
  }
  // The pipeline's own context: the decode, bone resolver and texture conversion warn into it.
  const piped = testContext();
  const pipeline = await runFuzzCase(bytes, name, piped);
  if (pipeline.outcome === "ok") {
    return piped.warnings.length
      ? { outcome: "warning", detail: piped.warnings.map((w) => w.message).join("\n"), largest }
      : { outcome: "success", largest };
  }
  if (pipeline.outcome === "typed") {
    const error = decoded.error;
    // A typed error must say where: a decode error its byte offset (or JSON path).
    if (error instanceof DecodeError && !("offset" in error.at || "jsonPath" in error.at)) {
      return { outcome: "crash", detail: `a DecodeError without a location: ${error.message}`, largest };
    }
    const message = error instanceof PartgraphError ? error.message : "a later node's typed error";
    return { outcome: "typed", detail: message, largest };
  }
  return { outcome: pipeline.outcome, detail: pipeline.detail, largest };
}
