/**
 * Every ready-made graph in `graphs/` with the inputs it is meant for: code-built fixtures, and
 * corpus files when the shared corpus is present. Tests that must cover every graph on real data
 * (immutability, three.js loading, Blender interop) iterate over {@link GRAPH_CASES}.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runGraph, type RunGraphOptions, type WithBuiltins } from "../../mod.ts";
import type { BytesValue } from "../../runtime/node.ts";
import type { Registry } from "../../runtime/registry.ts";
import { encode3df, encodeCar } from "./carnivores/encode.ts";
import type { Document } from "@gltf-transform/core";
import { demoFighter } from "../../nodes/demo/fighter.ts";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { animatedCar, limbModel } from "../nodes/decode/carnivores/fixtures.ts";
import { buildCompound } from "../nodes/decode/freelancer/fixtures.ts";
import { runNode } from "./context.ts";
import { CORPUS_DIR, corpusFile } from "./corpus.ts";
import { tempDir } from "./temp.ts";

/** One graph run: the graph file, the model it reads (code-built or from the corpus), other inputs. */
export interface GraphCase {
  /** Short label for test names, e.g. `freelancer.json ship.cmp`. */
  readonly label: string;
  /** File name under `graphs/`. */
  readonly graph: string;
  /** The model file: its name, and its bytes (built by code) or corpus path. */
  readonly model?: { readonly name: string; readonly bytes?: () => Uint8Array; readonly corpus?: string };
  /** Further graph inputs. */
  readonly inputs?: Record<string, unknown>;
}

/** Every graph in `graphs/`, each on the inputs it is made for. */
export const GRAPH_CASES: readonly GraphCase[] = [
  { label: "aircraft.json demo fighter", graph: "aircraft.json" },
  {
    label: "aircraft_file.json sketchbook_airplane.glb",
    graph: "aircraft_file.json",
    model: { name: "plane.glb", corpus: "aircraft/sketchbook_airplane.glb" },
    inputs: { forward: "+Z" },
  },
  { label: "rig.json demo fighter", graph: "rig.json" },
  {
    label: "gltf.json sketchbook_airplane.glb",
    graph: "gltf.json",
    model: { name: "plane.glb", corpus: "aircraft/sketchbook_airplane.glb" },
  },
  {
    label: "carnivores.json limb.3df",
    graph: "carnivores.json",
    model: { name: "limb.3df", bytes: () => encode3df(limbModel()) },
  },
  {
    label: "carnivores.json boxes.car",
    graph: "carnivores.json",
    model: { name: "boxes.car", bytes: () => encodeCar(animatedCar()) },
  },
  {
    label: "carnivores.json synthetic_quad.car",
    graph: "carnivores.json",
    model: { name: "quad.car", corpus: "carnivores/synthetic_quad.car" },
  },
  {
    label: "dson.json game_engine_mouth_geograft.duf",
    graph: "dson.json",
    model: { name: "mouth.duf", corpus: "dson/game_engine_mouth_geograft.duf" },
  },
  {
    label: "freelancer.json ship.cmp",
    graph: "freelancer.json",
    model: { name: "ship.cmp", bytes: () => buildCompound().bytes },
  },
  {
    label: "freelancer.json librelancer_monkey.3db",
    graph: "freelancer.json",
    model: { name: "monkey.3db", corpus: "freelancer/librelancer_monkey.3db" },
  },
];

/** Absolute path of a graph file under `graphs/`. */
export function graphPath(name: string): string {
  return fileURLToPath(new URL(`../../graphs/${name}`, import.meta.url));
}

/** The corpus file a case needs, if that file is missing (the case is then skipped). */
export function missingCorpus(c: GraphCase): string | undefined {
  const path = c.model?.corpus;
  return path && !corpusFile(path) ? path : undefined;
}

/** What a case's run gave: its in-memory outputs, and the GLB it wrote. */
export interface CaseRun {
  readonly outputs: Record<string, unknown>;
  /** The exported GLB (`outputs.glb`), or for rig.json its output scene written by export.gltf. */
  readonly glb?: Uint8Array;
}

/**
 * Runs a case in a temporary folder (memory cache only), with an optional registry.
 *
 * @example
 * ```ts
 * const { glb } = await runCase(GRAPH_CASES[0]);
 * ```
 */
export async function runCase(
  c: GraphCase,
  options: Pick<RunGraphOptions, "memory"> & { registry?: Registry } = {},
): Promise<CaseRun> {
  const dir = await tempDir();
  try {
    const inputs: Record<string, unknown> = { ...c.inputs };
    if (c.model) {
      const path = join(dir, c.model.name);
      await Deno.writeFile(
        path,
        c.model.bytes ? c.model.bytes() : await Deno.readFile(CORPUS_DIR + c.model.corpus),
      );
      inputs.model = path;
    }
    if (c.graph === "rig.json") inputs.scene = (await runNode(demoFighter, {})).scene;
    const run: WithBuiltins<RunGraphOptions> = {
      inputs,
      outDir: join(dir, "out"),
      cacheDir: false,
      registry: options.registry,
      memory: options.memory,
    };
    const { outputs } = await runGraph(graphPath(c.graph), run);
    const glb = (outputs.glb as BytesValue | undefined)?.bytes ??
      (outputs.scene
        ? (await runNode(exportGltf, { scene: outputs.scene as Document })).bytes.bytes
        : undefined);
    return { outputs, glb };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
