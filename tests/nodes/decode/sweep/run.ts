/**
 * Runs structure-sweep cases: the seed files (corpus files when present, and real-shaped files made
 * by code), their cases (`carnivores_fields.ts`, `freelancer_fields.ts`, `gltf_fields.ts`,
 * `dson_fields.ts`), and one case through `decode.auto` — with its allocations tracked — then the
 * fuzzer's full pipeline to a validated `export.gltf` output (`tests/fuzz/pipeline.ts`).
 *
 * @module
 */
import { join } from "node:path";
import { decodeAuto } from "../../../../nodes/decode/auto.ts";
import { DecodeError, PartgraphError } from "../../../../runtime/errors.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { CORPUS_DIR } from "../../../support/corpus.ts";
import { runFuzzCase } from "../../../fuzz/pipeline.ts";
import { corpusSeeds, fuzzSeeds } from "../../../fuzz/seeds.ts";
import { encodeRsc } from "../../../support/carnivores/rsc.ts";
import { animation, limbModel } from "../carnivores/fixtures.ts";
import type { Case } from "./cases.ts";
import { cases3df, casesCar, casesRsc } from "./carnivores_fields.ts";
import { casesUtf } from "./freelancer_fields.ts";
import { casesGltf } from "./gltf_fields.ts";
import { casesDson } from "./dson_fields.ts";
import { embeddedView, messyGlb, wingPrimitive } from "../../../support/messy_gltf.ts";
import { dxt1Dds } from "../freelancer/fixtures.ts";
import { dsonBytes, generateFigure } from "../dson/generate.ts";
import { fighterWithAileronAt } from "../../../support/deep_fighter.ts";

/** A file to sweep and its cases. */
export interface SweepSeed {
  readonly format: SweepFormat;
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly cases: readonly Case[];
}

/** The formats swept: the game formats' binary layouts, and glTF (JSON or GLB, 1.0 or 2.0) and DSON. */
export const SWEEP_FORMATS = ["3df", "car", "rsc", "cmp", "gltf", "dson"] as const;

/** One of {@link SWEEP_FORMATS}. */
export type SweepFormat = typeof SWEEP_FORMATS[number];

const CASES = {
  "3df": cases3df,
  car: casesCar,
  rsc: casesRsc,
  cmp: casesUtf,
  gltf: casesGltf,
  dson: casesDson,
} as const;

/**
 * The seeds: the fuzzer's code-made files, a C2 area, glTF files of every kind the glTF fuzz formats
 * cover (a skinned, animated, textured GLB; the fighter as `.gltf` with data: URIs and its aileron
 * deep in a chain; Draco, meshopt, KTX2, DDS, GPU-instanced, Flight Simulator and glTF 1.0 files), a
 * generated DSON figure, and the corpus files of these formats.
 */
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
    { format: "gltf", name: "messy.glb", bytes: await messyGlb(() => {}) },
    { format: "gltf", name: "fighter.gltf", bytes: fuzz.gltf.bytes },
    { format: "gltf", name: "deep.gltf", bytes: (await fighterWithAileronAt(24)).bytes },
    { format: "gltf", name: "draco.glb", bytes: fuzz.draco.bytes },
    { format: "gltf", name: "meshopt.glb", bytes: fuzz.meshopt.bytes },
    { format: "gltf", name: "ktx2.glb", bytes: fuzz.ktx2.bytes },
    { format: "gltf", name: "dds.glb", bytes: await ddsGlb() },
    { format: "gltf", name: "jpeg.glb", bytes: await jpegGlb() },
    { format: "gltf", name: "sparse.glb", bytes: await sparseGlb() },
    { format: "gltf", name: "instanced.glb", bytes: fuzz.instanced.bytes },
    { format: "gltf", name: "msfs.glb", bytes: fuzz.msfs.bytes },
    { format: "gltf", name: "gltf1.gltf", bytes: fuzz.gltf1.bytes },
    { format: "dson", name: "figure.duf", bytes: fuzz.dson.bytes },
    // Its UVs split down a seam (polyvertex_indices), two surfaces, three bones weighting each vertex.
    {
      format: "dson",
      name: "seamed.duf",
      bytes: dsonBytes(generateFigure({ side: 4, bones: 3, seam: true, twoSurfaces: true, influences: 3 })),
    },
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
  // The corpus glTF and DSON files, gzip-wrapped DSON inflated (its JSON is what is swept).
  for (const [set, format] of [["real-glb", "gltf"], ["real-dson", "dson"]] as const) {
    for (const seed of await corpusSeeds(set)) {
      // A preset (a pose, a shape) is no model decode.auto reads: dson.apply_preset applies it to one.
      if (format === "dson" && isPreset(seed.bytes)) continue;
      corpus.push({ format, name: seed.name, bytes: seed.bytes });
    }
  }
  return [...made, ...corpus].map((s) => ({ ...s, cases: CASES[s.format](s.bytes) }));
}

/** The skinned wing GLB with its positions' last vertex moved by a sparse substitution. */
function sparseGlb(): Promise<Uint8Array> {
  return messyGlb((json) => {
    const position = json.accessors[wingPrimitive(json).attributes.POSITION];
    position.sparse = {
      count: 1,
      indices: { bufferView: embeddedView(json, new Uint16Array([3])), componentType: 5123 },
      values: { bufferView: embeddedView(json, new Float32Array([1, 1, 0.5])) },
    };
    position.max = [1, 1, 0.5];
  });
}

/**
 * The skinned wing GLB with its texture a baseline JPEG: 8 × 8 grey pixels, one component, Huffman
 * tables of one code each (a DC difference of 0, then end of block), all written out by hand.
 */
function jpegGlb(): Promise<Uint8Array> {
  const table = (kind: number) => [0xff, 0xc4, 0, 20, kind, 1, ...new Array(15).fill(0), 0];
  const jpeg = new Uint8Array([
    ...[0xff, 0xd8],
    ...[0xff, 0xdb, 0, 67, 0, ...new Array(64).fill(1)],
    ...[0xff, 0xc0, 0, 11, 8, 0, 8, 0, 8, 1, 1, 0x11, 0],
    ...table(0x00),
    ...table(0x10),
    ...[0xff, 0xda, 0, 8, 1, 1, 0x00, 0, 63, 0],
    // Code 0 (DC difference 0), code 0 (end of block), padded with ones.
    0x3f,
    ...[0xff, 0xd9],
  ]);
  return messyGlb((json) => {
    json.images[0] = { bufferView: embeddedView(json, jpeg), mimeType: "image/jpeg" };
  });
}

/** Whether DSON bytes are a preset file (`asset_info.type` `preset_…`). */
function isPreset(bytes: Uint8Array): boolean {
  try {
    return /^preset_/.test(JSON.parse(new TextDecoder().decode(bytes)).asset_info?.type ?? "");
  } catch {
    return false;
  }
}

/** The skinned wing GLB with its texture a DXT1 DDS by `MSFT_texture_dds`, as Flight Simulator packs it. */
function ddsGlb(): Promise<Uint8Array> {
  return messyGlb((json) => {
    json.extensionsUsed = json.extensionsRequired = ["MSFT_texture_dds"];
    const dds = dxt1Dds(0x07e0, 8, 8);
    const image = json.images.push({ bufferView: embeddedView(json, dds), mimeType: "image/vnd-ms.dds" }) - 1;
    json.textures[0] = { extensions: { MSFT_texture_dds: { source: image } } };
  });
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

/** Every WebAssembly memory an instance made in this process exports, and its size when first seen. */
const wasmMemories = new Map<WebAssembly.Memory, number>();
{
  const instantiate = WebAssembly.instantiate;
  const note = (instance: WebAssembly.Instance) => {
    for (const value of Object.values(instance.exports)) {
      if (value instanceof WebAssembly.Memory && !wasmMemories.has(value)) {
        wasmMemories.set(value, value.buffer.byteLength);
      }
    }
  };
  // deno-lint-ignore no-explicit-any
  (WebAssembly as any).instantiate = async (...args: Parameters<typeof instantiate>) => {
    // deno-lint-ignore no-explicit-any
    const result: any = await (instantiate as any)(...args);
    note(result instanceof WebAssembly.Instance ? result : result.instance);
    return result;
  };
}

/**
 * Runs `body` with the constructors of buffers and arrays wrapped to record the largest single
 * allocation (in bytes; an `Array` of n slots counts 8n), restoring them after. A WebAssembly
 * memory's growth counts too, as one allocation of the bytes added: the Draco decoder's heap grows
 * through `WebAssembly.Memory.prototype.grow` from its JavaScript glue, the meshopt decoder's inside
 * the module (its `sbrk`), seen as the size of the memories instances export (`wasmMemories`).
 */
export async function trackAllocations<T>(
  body: () => Promise<T>,
): Promise<{ value?: T; error?: unknown; largest: number }> {
  const globals = globalThis as unknown as Record<string, unknown>;
  const saved = TRACKED.map((name) => globals[name]);
  let largest = 0;
  const sizes = new Map([...wasmMemories.keys()].map((m) => [m, m.buffer.byteLength]));
  const grown = () => {
    for (const [m, first] of wasmMemories) {
      largest = Math.max(largest, m.buffer.byteLength - (sizes.get(m) ?? first));
    }
  };
  const memory = WebAssembly.Memory.prototype;
  const grow = memory.grow;
  memory.grow = function (this: WebAssembly.Memory, pages: number) {
    largest = Math.max(largest, pages * 65536);
    return grow.call(this, pages);
  };
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
    // What the wrapped constructor makes must still be one (`array.constructor === Float32Array`,
    // as glTF-Transform tells component types apart): else the decode fails only when tracked.
    (real as { prototype: { constructor: unknown } }).prototype.constructor = globals[name];
  });
  try {
    const value = await body();
    grown();
    return { value, largest };
  } catch (error) {
    grown();
    return { error, largest };
  } finally {
    TRACKED.forEach((name, i) => {
      globals[name] = saved[i];
      (saved[i] as { prototype: { constructor: unknown } }).prototype.constructor = saved[i];
    });
    memory.grow = grow;
  }
}

/**
 * Runs one case's bytes: the decode (tracked), then the full pipeline from its scene to a validated
 * output (a decode that failed runs again there, to be classified as the pipeline classifies it).
 */
export async function runSweepCase(bytes: Uint8Array, name: string): Promise<SweepResult> {
  // The pipeline's context: the decode, bone resolver and texture conversion warn into it.
  const piped = testContext();
  const decoded = await trackAllocations(() => runNode(decodeAuto, { bytes: { bytes, name } }, {}, piped));
  const { largest } = decoded;
  if (largest > allocationBudget(bytes.byteLength)) {
    return {
      outcome: "alloc",
      detail: `one ${largest}-byte allocation for a ${bytes.byteLength}-byte file`,
      largest,
    };
  }
  const pipeline = await runFuzzCase(bytes, name, piped, decoded.value?.scene);
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
    const message = error instanceof PartgraphError ? error.message : `a later node's: ${pipeline.detail}`;
    return { outcome: "typed", detail: message, largest };
  }
  return { outcome: pipeline.outcome, detail: pipeline.detail, largest };
}
