/**
 * Fuzz survivors through real clients: a mutated input (`tests/fuzz/pipeline.ts`'s cases) that
 * partgraph decodes is run as its graph runs it (`decode.auto → constraints.resolve → textures.to_png →
 * scene.uninstance → export.gltf`, as `graphs/gltf.json` and `graphs/carnivores.json` do), and the GLB
 * is loaded by Blender 3.4's importer (`scripts/blender_survivors.py`) and three.js's `GLTFLoader`. What a
 * user would meet is a problem: the importer refusing or raising, NaN or infinite transforms or vertices
 * in the client, mesh objects or materials fewer than the file declares, an absurd extent. A problem
 * `export.gltf` (or a node before it) warned of, by the part's name, is told apart from a silent one.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import * as THREE from "three";
import { decodeAuto } from "../../nodes/decode/auto.ts";
import { constraintsResolve } from "../../nodes/constraints/resolve.ts";
import { texturesToPng } from "../../nodes/textures/to_png.ts";
import { sceneUninstance } from "../../nodes/scene/uninstance.ts";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { PartgraphError } from "../../runtime/errors.ts";
import { runNode, testContext } from "../support/context.ts";
import { load, meshes } from "../support/threejs_client.ts";
import { fuzzInput } from "../fuzz/pipeline.ts";
import type { CorpusFormat, FuzzFormat } from "../fuzz/seeds.ts";
import { blenderImports } from "./blender.ts";

const SCRIPT = fileURLToPath(new URL("../../scripts/blender_survivors.py", import.meta.url));
const RESULT = "PARTGRAPH_SURVIVOR ";

/** Larger than any model a user means (100 km): an extent past it is a unit or number gone wrong. */
export const ABSURD_EXTENT = 1e5;

/** One fuzz survivor: the case, its output GLB and the warnings the graph's nodes gave. */
export interface Survivor {
  readonly label: string;
  readonly glb: Uint8Array;
  readonly warnings: string[];
}

/**
 * Case `index` of a seeded fuzz run through the graph; undefined when partgraph refused it with a typed
 * error (not a survivor). An untyped exception is rethrown: the fuzzer's to report.
 */
export async function survivor(
  format: FuzzFormat | CorpusFormat,
  seed: number,
  index: number,
): Promise<Survivor | undefined> {
  const { name, bytes } = await fuzzInput(format, seed, index);
  const ctx = testContext();
  try {
    const { scene } = await runNode(decodeAuto, { bytes: { bytes, name } }, {}, ctx);
    const joined = (await runNode(constraintsResolve, { scene }, {}, ctx)).scene;
    const textured = (await runNode(texturesToPng, { scene: joined }, {}, ctx)).scene;
    const expanded = (await runNode(sceneUninstance, { scene: textured }, {}, ctx)).scene;
    const glb = (await runNode(exportGltf, { scene: expanded }, {}, ctx)).bytes.bytes;
    return {
      label: `${format} seed ${seed} case ${index}`,
      glb,
      warnings: ctx.warnings.map((w) => w.message),
    };
  } catch (error) {
    if (error instanceof PartgraphError) return undefined;
    throw error;
  }
}

/** What Blender made of one file, or its importer's error. */
export type SurvivorCensus = { readonly error: string; readonly last?: string } | {
  readonly mesh_objects: number;
  readonly objects: number;
  readonly materials: string[];
  readonly bones: number;
  readonly bad_matrices: string[];
  readonly bad_vertices: string[];
  readonly extent: number;
};

/** Imports each GLB in one Blender process; a skip reason when Blender cannot run. */
export async function blenderSurvivors(
  glbs: readonly Uint8Array[],
): Promise<{ skip: string } | SurvivorCensus[]> {
  const output = await blenderImports(SCRIPT, glbs, RESULT);
  if ("skip" in output) return output;
  const lines = output.reports;
  // Blender itself died part-way (a segfault in the importer): the rest are reported as that crash.
  const died = `Blender exited with ${output.code} before reporting: ${output.stderrTail.slice(-300)}`;
  while (lines.length < glbs.length) lines.push({ error: died });
  return lines;
}

/** One thing a user would meet in a client, and whether partgraph's warnings named it. */
export interface ClientProblem {
  readonly client: "blender" | "three.js";
  readonly kind: "refused" | "nan" | "lost mesh" | "lost material" | "absurd scale";
  readonly detail: string;
  /** Names that a warning naming this problem would hold (any one will do). */
  readonly names: string[];
}

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** The JSON chunk of a GLB. */
export function glbJson(glb: Uint8Array): Json {
  const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

/** What the file declares that a client should show: mesh nodes, and the materials their meshes use. */
function declared(json: Json) {
  const meshNodes = (json.nodes ?? []).filter((n: Json) => n.mesh !== undefined);
  const used = new Set<number>();
  for (const node of meshNodes) {
    for (const p of json.meshes[node.mesh].primitives ?? []) {
      if (p.material !== undefined) used.add(p.material);
    }
  }
  return { meshNodes, materials: [...used].map((i) => json.materials[i]) };
}

/** Problems Blender showed with one file. */
export function blenderProblems(json: Json, census: SurvivorCensus): ClientProblem[] {
  const client = "blender";
  if ("error" in census) return [{ client, kind: "refused", detail: census.error, names: [] }];
  const out: ClientProblem[] = [];
  const { meshNodes, materials } = declared(json);
  if (census.bad_matrices.length || census.bad_vertices.length) {
    const names = [...census.bad_matrices, ...census.bad_vertices];
    out.push({ client, kind: "nan", detail: `non-finite in Blender: ${names.join(", ")}`, names });
  }
  if (census.mesh_objects < meshNodes.length) {
    out.push({
      client,
      kind: "lost mesh",
      detail: `${census.mesh_objects} mesh objects of ${meshNodes.length}`,
      names: meshNodes.map((n: Json) => n.name).filter(Boolean),
    });
  }
  if (census.materials.length < materials.length) {
    out.push({
      client,
      kind: "lost material",
      detail: `${census.materials.length} materials of ${materials.length}`,
      names: materials.map((m: Json) => m.name).filter(Boolean),
    });
  }
  if (census.extent > ABSURD_EXTENT) {
    out.push({ client, kind: "absurd scale", detail: `extent ${census.extent.toPrecision(3)} m`, names: [] });
  }
  return out;
}

/** Problems three.js's `GLTFLoader` showed with one file. */
export async function threeProblems(glb: Uint8Array): Promise<ClientProblem[]> {
  const client = "three.js";
  const json = glbJson(glb);
  let loaded;
  try {
    loaded = await load(glb);
  } catch (error) {
    // A KTX2 texture needs the app's KTX2Loader, which a Deno harness has none of: not judged.
    if (/setKTX2Loader/.test(String(error))) return [];
    return [{ client, kind: "refused", detail: String(error).slice(0, 300), names: [] }];
  }
  const out: ClientProblem[] = [];
  loaded.scene.updateMatrixWorld(true);
  const bad: string[] = [];
  const box = new THREE.Box3();
  const v = new THREE.Vector3();
  const drawn = meshes(loaded.scene);
  for (const mesh of drawn) {
    const finite = (x: number) => Number.isFinite(x);
    let ok = mesh.matrixWorld.elements.every(finite);
    const position = mesh.geometry.getAttribute("position");
    for (let i = 0; ok && i < (position?.count ?? 0); i++) {
      mesh.getVertexPosition(i, v).applyMatrix4(mesh.matrixWorld);
      if (!finite(v.x) || !finite(v.y) || !finite(v.z)) ok = false;
      else box.expandByPoint(v);
    }
    if (!ok) bad.push(mesh.name);
  }
  if (bad.length) {
    out.push({ client, kind: "nan", detail: `non-finite in three.js: ${bad.join(", ")}`, names: bad });
  }
  // three.js makes one Mesh per primitive: a node's meshes come in as a group of them. A primitive of
  // points or lines (mode 0-3) comes in as Points or Line(Segments): drawn as the file says, not lost.
  const sparse: THREE.Object3D[] = [];
  loaded.scene.traverse((o) => {
    if ((o as THREE.Points).isPoints || (o as THREE.Line).isLine) sparse.push(o);
  });
  const objects = new Set(
    [...drawn, ...sparse].map((m) =>
      loaded.parser.associations.get(m)?.nodes ??
        (m.parent && loaded.parser.associations.get(m.parent)?.nodes)
    ),
  );
  const { meshNodes } = declared(json);
  if (objects.size < meshNodes.length) {
    out.push({
      client,
      kind: "lost mesh",
      detail: `${objects.size} mesh nodes of ${meshNodes.length}`,
      names: meshNodes.map((n: Json) => n.name).filter(Boolean),
    });
  }
  const size = box.isEmpty() ? 0 : Math.max(...box.getSize(new THREE.Vector3()).toArray());
  if (size > ABSURD_EXTENT) {
    out.push({ client, kind: "absurd scale", detail: `extent ${size.toPrecision(3)} m`, names: [] });
  }
  return out;
}

/** Whether a warning names the problem's part (or, for a problem without names, says anything of it). */
export function warnedOf(problem: ClientProblem, warnings: readonly string[]): boolean {
  // export.gltf's far-mesh warning (`nodes/export/far_extent.ts`) says how far a named mesh reaches.
  if (problem.kind === "absurd scale") return warnings.some((w) => / m from the origin/.test(w));
  if (problem.kind === "nan") return warnings.some((w) => /NaN|infinite|non-finite/i.test(w));
  return problem.names.some((name) => warnings.some((w) => w.includes(name)));
}
