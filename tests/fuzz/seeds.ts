/**
 * Seed files for fuzzing, one per format, all made by code from the encoders and fixtures the
 * format tests use: nothing is read from disk, so a fuzz case is reproducible from its seed alone.
 *
 * @module
 */
import { buildCompound, CONSTRAINTS } from "../nodes/decode/freelancer/fixtures.ts";
import { animatedCar, limbModel } from "../nodes/decode/carnivores/fixtures.ts";
import { encode3df, encodeCar } from "../../nodes/decode/carnivores/encode.ts";
import { dsonBytes, generateFigure } from "../nodes/decode/dson/generate.ts";
import { buildFighterScene } from "../../nodes/demo/fighter.ts";
import { writeGlb, writeGltfJson } from "../../nodes/scene/gltf_io.ts";

/** The formats the fuzzer covers. */
export const FUZZ_FORMATS = ["cmp", "3df", "car", "dson", "glb", "gltf"] as const;

/** One of {@link FUZZ_FORMATS}. */
export type FuzzFormat = typeof FUZZ_FORMATS[number];

/** A valid file of one format to mutate. */
export interface FuzzSeed {
  readonly format: FuzzFormat;
  /** File name handed to the decoder (its extension matters for sniffing). */
  readonly name: string;
  readonly bytes: Uint8Array;
}

let seeds: Promise<Record<FuzzFormat, FuzzSeed>> | undefined;

/** The seed of every format (built once per process). */
export function fuzzSeeds(): Promise<Record<FuzzFormat, FuzzSeed>> {
  seeds ??= (async () => {
    const fighter = buildFighterScene(1);
    const options = { generator: "partgraph fuzz" };
    const small = CONSTRAINTS.filter((c) => ["TURRET", "Barrel"].includes(c.child));
    const list: FuzzSeed[] = [
      { format: "cmp", name: "fuzz.cmp", bytes: buildCompound({ constraints: small }).bytes },
      { format: "3df", name: "fuzz.3df", bytes: encode3df(limbModel()) },
      { format: "car", name: "fuzz.car", bytes: encodeCar(animatedCar()) },
      { format: "dson", name: "fuzz.duf", bytes: dsonBytes(generateFigure({ side: 4, bones: 2 })) },
      { format: "glb", name: "fuzz.glb", bytes: await writeGlb(fighter, options) },
      { format: "gltf", name: "fuzz.gltf", bytes: await writeGltfJson(fighter, options) },
    ];
    return Object.fromEntries(list.map((s) => [s.format, s])) as Record<FuzzFormat, FuzzSeed>;
  })();
  return seeds;
}
