/**
 * Runs the client models (`client_models.ts`) through `graphs/carnivores.json` and judges what three.js
 * (`GLTFLoader`) and Blender 3.4's importer (`blender_clients.py`) make of the GLBs against what each
 * source model means: triangles per draw class and sidedness, texel 0 cut out where the engine cuts it,
 * clip lengths.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as THREE from "three";
import { runGraph } from "../../../../mod.ts";
import type { BytesValue } from "../../../../runtime/node.ts";
import { tempDir } from "../../../support/temp.ts";
import { load } from "../../../support/threejs_client.ts";
import { blenderReports as scriptReports } from "../../../clients/blender.ts";
import type { ClientModel, ClientTruth } from "./client_models.ts";

const GRAPH = fileURLToPath(new URL("../../../../graphs/carnivores.json", import.meta.url));
const SCRIPT = fileURLToPath(new URL("./blender_clients.py", import.meta.url));
const RESULT = "PARTGRAPH_CARNIVORES ";
/** Texels probed for the colour key, at most. */
const PROBES = 24;

/** A model through `graphs/carnivores.json`: its GLB, or the error the run stopped with. */
export async function throughGraph(m: ClientModel): Promise<{ glb?: Uint8Array; error?: string }> {
  const dir = await tempDir();
  try {
    const model = join(dir, `model.${m.format}`);
    await Deno.writeFile(model, m.bytes);
    // File units (scale 1), so positions compare with the file's numbers as they are.
    const inputs = { model, options: { scale: 1 } };
    const run = await runGraph(GRAPH, { inputs, outDir: join(dir, "out"), cacheDir: false });
    return { glb: (run.outputs.glb as BytesValue).bytes };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Differences between two tallies of triangles per draw key. */
function tallyProblems(client: string, got: Record<string, number>, want: Record<string, number>): string[] {
  const keys = [...new Set([...Object.keys(got), ...Object.keys(want)])].sort();
  return keys.filter((k) => (got[k] ?? 0) !== (want[k] ?? 0)).map((k) =>
    `${client}: ${got[k] ?? 0} triangles draw ${k}, the model's faces say ${want[k] ?? 0}`
  );
}

/** Differences between clip lengths (sorted, seconds). */
function clipProblems(client: string, got: number[], truth: ClientTruth, tolerance: number): string[] {
  const want = truth.clips.map((c) => c.seconds).sort((a, b) => a - b);
  got.sort((a, b) => a - b);
  if (got.length !== want.length) {
    return [`${client}: ${got.length} clips (${got}), the model has ${want.length}`];
  }
  return got.flatMap((s, i) =>
    Math.abs(s - want[i]) > tolerance + 1e-4 * want[i]
      ? [`${client}: a clip lasts ${s} s, the model's ${want[i]} s`]
      : []
  );
}

/** What three.js shows of `glb` that disagrees with the model. */
export async function threeProblems(m: ClientModel, glb: Uint8Array): Promise<string[]> {
  let loaded;
  try {
    loaded = await load(glb);
  } catch (error) {
    return [`three.js: GLTFLoader failed: ${error}`];
  }
  const root = m.format === "rsc" ? loaded.byName.get("obj_00") : loaded.scene;
  if (!root) return ["three.js: no obj_00"];
  const tally: Record<string, number> = {};
  root.traverse((o: THREE.Object3D) => {
    const mesh = o as THREE.Mesh;
    if (!mesh.isMesh) return;
    const material = mesh.material as THREE.Material;
    const cls = material.transparent ? "blend" : material.alphaTest > 0 ? "mask" : "opaque";
    const key = cls + (material.side === THREE.DoubleSide ? "_double_sided" : "");
    const geometry = mesh.geometry;
    tally[key] = (tally[key] ?? 0) + (geometry.index?.count ?? geometry.getAttribute("position").count) / 3;
  });
  return [
    ...tallyProblems("three.js", tally, m.truth.triangles),
    ...clipProblems("three.js", loaded.animations.map((a) => a.duration), m.truth, 1e-6),
  ];
}

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** Each GLB through Blender (one process); per file its report, or a skip reason. */
export async function blenderReports(glbs: readonly Uint8Array[], truths: readonly ClientTruth[]) {
  const dir = await tempDir();
  try {
    const args: string[] = [];
    for (const [i, glb] of glbs.entries()) {
      const texels = truths[i].keyTexels.filter((_, k, all) =>
        k % Math.max(1, Math.ceil(all.length / PROBES)) === 0
      );
      await Deno.writeFile(join(dir, `${i}.glb`), glb);
      await Deno.writeTextFile(
        join(dir, `${i}.json`),
        JSON.stringify({ texels, poses: poseTimes(truths[i]) }),
      );
      args.push(join(dir, `${i}.glb`), join(dir, `${i}.json`));
    }
    const output = await scriptReports(SCRIPT, args, RESULT);
    if ("skip" in output) return output;
    const lines: Json[] = output.reports;
    if (lines.length !== glbs.length) {
      throw new Error(`Blender reported ${lines.length} of ${glbs.length}:\n${output.stderrTail}`);
    }
    return { reports: lines };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The stored frames each clip is posed at (first, middle, last). */
function posedFrames(frameCount: number): number[] {
  return [...new Set([0, Math.floor(frameCount / 2), frameCount - 1])];
}

/** For each named clip, the times of its {@link posedFrames} (frame k at k·length/(F − 1), as the game). */
function poseTimes(truth: ClientTruth): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const { name, seconds, clip } of truth.clips) {
    if (!name) continue;
    const f = clip.frameCount;
    out[name] = posedFrames(f).map((k) => (f > 1 ? (k * seconds) / (f - 1) : 0));
  }
  return out;
}

/** Posed vertices that are not where the clip's stored frame puts their point (Blender: x, z, y of the file). */
function poseProblems(truth: ClientTruth, poses: Json[]): string[] {
  const problems: string[] = [];
  const { points } = truth;
  const count = points.length / 3;
  const named = truth.clips.filter((c) => c.name);
  if (named.length && !poses.length) return ["Blender: no shape-keyed mesh with a clip"];
  for (const object of poses) {
    // Each Blender vertex is a point of the file, told by its rest position.
    const pointOf = (object.rest as number[][]).map(([x, y, z]) =>
      Array.from({ length: count }, (_, p) => p).find((p) =>
        Math.abs(points[p * 3] - x) < 1e-4 && Math.abs(points[p * 3 + 2] - y) < 1e-4 &&
        Math.abs(points[p * 3 + 1] - z) < 1e-4
      ) ?? -1
    );
    if (pointOf.includes(-1)) problems.push(`Blender: '${object.name}' has a vertex at no point of the file`);
    for (const { name, clip } of named) {
      const posed = object.clips[name] as number[][][] | undefined;
      if (!posed) {
        problems.push(`Blender: clip '${name}' has no action on '${object.name}'`);
        continue;
      }
      posedFrames(clip.frameCount).forEach((k, i) => {
        let worst = 0;
        (posed[i] ?? []).forEach(([x, y, z], v) => {
          const at = (k * count + pointOf[v]) * 3;
          const [fx, fy, fz] = [0, 1, 2].map((c) => clip.positions[at + c] / 16);
          worst = Math.max(worst, Math.abs(x - fx), Math.abs(y - fz), Math.abs(z - fy));
        });
        if (worst > 1e-3) {
          problems.push(`Blender: clip '${name}' frame ${k} is ${worst} off the stored positions`);
        }
      });
    }
  }
  return problems;
}

const BLEND_CLASS: Record<string, string> = {
  OPAQUE: "opaque",
  CLIP: "mask",
  HASHED: "mask",
  BLEND: "blend",
};

/** What Blender shows (its report) that disagrees with the model. */
export function blenderProblems(m: ClientModel, report: Json): string[] {
  if (report.error) return [`Blender: import failed: ${report.error}`];
  const tally: Record<string, number> = {};
  for (const object of report.objects as Json[]) {
    if (m.format === "rsc" && !object.chain.includes("obj_00")) continue;
    for (const [name, count] of Object.entries(object.polys as Record<string, number>)) {
      const material = report.materials[name];
      const key = material
        ? (BLEND_CLASS[material.blend] ?? material.blend) + (material.cull ? "" : "_double_sided")
        : "no material";
      tally[key] = (tally[key] ?? 0) + count;
    }
  }
  const problems = tallyProblems("Blender", tally, m.truth.triangles);
  const seconds = (report.actions as Json[]).map((a) => (a.range[1] - a.range[0]) / report.fps);
  problems.push(...clipProblems("Blender", seconds, m.truth, 1e-4));
  if (m.format === "car") problems.push(...poseProblems(m.truth, report.poses ?? []));
  const { keyTexels, colourKey, height } = m.truth;
  if (keyTexels.length) {
    const image = (report.images as Json[]).find((i) => i.size[0] === 256 && i.size[1] === height);
    const wrong = image?.alpha.filter((a: number) => colourKey ? a > 0.01 : a < 0.99).length;
    if (!image) problems.push(`Blender: no 256×${height} image`);
    else if (wrong) {
      problems.push(
        `Blender: ${wrong} of ${image.alpha.length} probed 0x0000 texels are ${
          colourKey ? "opaque" : "transparent"
        }; ` +
          `the engine ${
            colourKey ? "cuts them out (a face has sfOpacity)" : "draws them (no face has sfOpacity)"
          }`,
      );
    }
  }
  return problems;
}
