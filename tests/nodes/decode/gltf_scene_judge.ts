/**
 * Judges a {@link SceneFile} through decode.gltf, through `graphs/gltf.json` (decode, export) and through
 * `graphs/aircraft_file.json` (decode, rig, export): every part drawn where and as it is (the exporter
 * judge), its front faces looking the way the source's do and its normals agreeing with its winding
 * (glTF reverses the front of a node whose world matrix mirrors), and what the file carries beside its
 * meshes — material extensions, cameras, lights, morph targets and their names — kept, or named in a
 * warning. A difference nobody was told of is a silent wrong answer.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { mat3, mat4, vec3 } from "gl-matrix";
import { fileURLToPath } from "node:url";
import { runGraph } from "../../../mod.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { tempDir } from "../../support/temp.ts";
import { judgeExporterFile } from "./gltf_exporter_judge.ts";
import { judgeConverterRig, type RigJudgement } from "./gltf_converter_rig.ts";
import { outwardSign, type SceneFile } from "./gltf_scene_exporters.ts";

/** One file's judgement at one stage: refused, what is wrong silently, what is wrong but warned of. */
export interface SceneJudgement {
  readonly refused?: string;
  readonly wrong: string[];
  readonly warned: string[];
  readonly warnings: string[];
}

/** Facing problems of every drawn primitive of `doc` against the file's truth. */
export function facingProblems(doc: Document, file: SceneFile): string[] {
  const out: string[] = [];
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  const shown: Node[] = [];
  scene?.traverse((node) => void shown.push(node));
  for (const node of shown) {
    const mesh = node.getMesh();
    if (!mesh || node.getSkin()) continue;
    const world = node.getWorldMatrix() as unknown as mat4;
    const mirrored = mat4.determinant(world) < 0;
    const normalMatrix = mat3.normalFromMat4(mat3.create(), world);
    for (const primitive of mesh.listPrimitives()) {
      const position = primitive.getAttribute("POSITION");
      if (!position || primitive.getMode() !== 4) continue;
      const normal = primitive.getAttribute("NORMAL");
      const count = position.getCount();
      const positions = new Float32Array(3 * count);
      for (let i = 0; i < count; i++) {
        positions.set(vec3.transformMat4(vec3.create(), position.getElement(i, []) as vec3, world), 3 * i);
      }
      const indices = primitive.getIndices()?.getArray() ?? Array.from({ length: count }, (_, i) => i);
      const name = partAt(file, positions, indices);
      if (!name) continue;
      const sign = outwardSign(positions, indices, mirrored);
      if (sign !== file.facing[name]) {
        out.push(`${name}: front faces look ${sign > 0 ? "outward" : "inward"}, drawn the other way`);
      }
      if (!normal) continue;
      let against = 0, triangles = 0;
      for (let t = 0; t + 2 < indices.length; t += 3) {
        const [a, b, c] = [indices[t], indices[t + 1], indices[t + 2]];
        const p = (i: number) => positions.subarray(3 * i, 3 * i + 3) as unknown as vec3;
        const g = vec3.cross(
          vec3.create(),
          vec3.sub(vec3.create(), p(b), p(a)),
          vec3.sub(vec3.create(), p(c), p(a)),
        );
        if (vec3.length(g) < 1e-12) continue;
        if (mirrored) vec3.negate(g, g);
        const n = vec3.create();
        for (const v of [a, b, c]) {
          vec3.add(n, n, vec3.transformMat3(vec3.create(), normal.getElement(v, []) as vec3, normalMatrix));
        }
        triangles++;
        if (vec3.dot(g, n) < 0) against++;
      }
      if (against > triangles / 2) {
        out.push(`${name}: ${against} of ${triangles} triangles face against their normals`);
      }
    }
  }
  return out;
}

/** The part whose bounds `positions` (drawn through `indices`) fill, by name. */
function partAt(file: SceneFile, positions: Float32Array, indices: ArrayLike<number>): string | undefined {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let t = 0; t < indices.length; t++) {
    for (let k = 0; k < 3; k++) {
      const v = positions[3 * indices[t] + k];
      min[k] = Math.min(min[k], v), max[k] = Math.max(max[k], v);
    }
  }
  const near = (a: number[], b: readonly number[]) => a.every((v, k) => Math.abs(v - b[k]) < 1e-3);
  return file.parts.find((p) => near(min, p.min) && near(max, p.max))?.name;
}

/** What of the file's extras `doc` lost: each a line naming it. */
export function lostExtras(doc: Document, file: SceneFile): string[] {
  const out: string[] = [];
  const root = doc.getRoot();
  for (const [name, wanted] of Object.entries(file.extras.materialExtensions)) {
    const material = root.listMaterials().find((m) => m.getName() === name);
    if (!material) {
      out.push(`material ${name}: gone`);
      continue;
    }
    const kept = material.listExtensions().map((e) => e.extensionName);
    const lost = wanted.filter((e) => !kept.includes(e));
    if (lost.length) out.push(`material ${name}: ${lost.join(", ")} lost`);
  }
  const nodes = root.listNodes();
  for (const camera of file.extras.cameras) {
    if (!nodes.some((n) => n.getName() === camera && n.getCamera())) out.push(`camera ${camera} lost`);
  }
  for (const [name, type] of Object.entries(file.extras.lights)) {
    const node = nodes.find((n) => n.getName() === name);
    const light = node?.getExtension("KHR_lights_punctual") as { getType(): string } | null | undefined;
    if (!light) out.push(`light ${name} lost`);
    else if (light.getType() !== type) out.push(`light ${name}: a ${light.getType()}, was a ${type}`);
  }
  for (const [name, targets] of Object.entries(file.extras.targets)) {
    const mesh = root.listMeshes().find((m) => m.getName() === name);
    const count = mesh?.listPrimitives()[0]?.listTargets().length ?? 0;
    const names = (mesh?.getExtras() as { targetNames?: string[] } | undefined)?.targetNames;
    if (count !== targets.length) out.push(`mesh ${name}: ${count} morph targets, had ${targets.length}`);
    else if (JSON.stringify(names) !== JSON.stringify(targets)) {
      out.push(`mesh ${name}: morph target names ${JSON.stringify(names)}, had ${JSON.stringify(targets)}`);
    }
    const weights = mesh?.getWeights() ?? [];
    if (count === targets.length && weights.some((w) => w !== 0)) {
      out.push(`mesh ${name}: weights ${weights}`);
    }
  }
  return out;
}

/** Splits problems into silent (no warning names the thing) and warned. */
function sorted(problems: string[], warnings: string[]): Pick<SceneJudgement, "wrong" | "warned"> {
  const wrong: string[] = [], warned: string[] = [];
  for (const problem of problems) {
    const subject = problem.split(":")[0].replace(/^(material|camera|light|mesh) /, "").replace(/ lost$/, "");
    (warnings.some((w) => w.includes(subject)) ? warned : wrong).push(problem);
  }
  return { wrong, warned };
}

/** decode.gltf alone. */
export async function judgeSceneDecode(file: SceneFile): Promise<SceneJudgement> {
  const decoded = await judgeExporterFile(file);
  if (!decoded.scene) return { refused: decoded.refused, wrong: [], warned: [], warnings: decoded.warnings };
  const problems = [
    ...decoded.wrong,
    ...facingProblems(decoded.scene, file),
    ...lostExtras(decoded.scene, file),
  ];
  return { ...sorted(problems, decoded.warnings), warnings: decoded.warnings };
}

const graphPath = (name: string) => fileURLToPath(new URL(`../../../graphs/${name}`, import.meta.url));

/** The output GLB of `graph` run on `file`, with the run's warnings, or the refusal. */
async function throughGraph(
  file: SceneFile,
  graph: string,
): Promise<{ doc?: Document; bytes?: Uint8Array; warnings: string[]; refused?: string }> {
  const dir = await tempDir();
  try {
    await Deno.writeFile(`${dir}/${file.name}`, file.bytes);
    const run = await runGraph(graphPath(graph), {
      outDir: dir,
      cacheDir: false,
      inputs: { model: `${dir}/${file.name}` },
    });
    const glb = run.outputs.glb as { bytes: Uint8Array } | Uint8Array;
    const bytes = glb instanceof Uint8Array ? glb : glb.bytes;
    return { doc: await readGltf(bytes), bytes, warnings: run.warnings.map((w) => w.message) };
  } catch (error) {
    return { refused: String(error), warnings: [] };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** `graphs/gltf.json`: what its GLB draws and keeps. */
export async function judgeSceneGltfGraph(file: SceneFile): Promise<SceneJudgement> {
  const run = await throughGraph(file, "gltf.json");
  if (!run.doc) return { refused: run.refused, wrong: [], warned: [], warnings: run.warnings };
  const again = await judgeExporterFile({ ...file, bytes: run.bytes! });
  const problems = [...again.wrong, ...facingProblems(run.doc, file), ...lostExtras(run.doc, file)];
  return { ...sorted(problems, run.warnings), warnings: run.warnings };
}

/** `graphs/aircraft_file.json`: the hinges (rig judge) and what its GLB draws, faces and keeps. */
export async function judgeSceneAircraft(file: SceneFile): Promise<SceneJudgement & { rig: RigJudgement }> {
  const rig = await judgeConverterRig(file);
  const run = await throughGraph(file, "aircraft_file.json");
  if (!run.doc) {
    return { refused: run.refused ?? rig.refused, wrong: [], warned: [], warnings: run.warnings, rig };
  }
  const problems = [...facingProblems(run.doc, file), ...lostExtras(run.doc, file)];
  const rigWrong = rig.wrong.map((w) => `${w.text} (${w.confidence})`);
  const judged = sorted(problems, run.warnings);
  // A hinge judged good is silent; weak, missing or failed ones told the user.
  return {
    wrong: [...judged.wrong, ...rigWrong.filter((w) => w.endsWith("(good)"))],
    warned: [...judged.warned, ...rigWrong.filter((w) => !w.endsWith("(good)"))],
    warnings: run.warnings,
    rig,
  };
}
