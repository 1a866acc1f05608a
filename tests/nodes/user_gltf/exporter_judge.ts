/**
 * Judges an {@link ExporterGltf} through `io.read` + `decode.gltf`, and through `graphs/gltf.json`
 * (read, decode, export: what the user's GLB keeps): refused (a client reads these files: a refusal is
 * wrong), or each thing the truth lists kept — material extensions and their values, animation channels
 * with their interpolation and keys, node names exactly, every triangle where it was, textures (KTX2
 * ones as KTX2), a missing file named. A difference no warning names is silent.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Document } from "@gltf-transform/core";
import { runGraph } from "../../../mod.ts";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { ioRead } from "../../../nodes/io/read.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";
import { runNode, testContext } from "../../support/context.ts";
import type { ExporterGltf } from "./exporter_files.ts";

/** One stage's judgement. */
export interface ExporterJudgement {
  readonly outcome: "right" | "refused" | "wrong-warned" | "wrong-silent";
  readonly why: string;
  readonly warnings: readonly string[];
}

async function written(file: ExporterGltf, dir: string): Promise<string> {
  for (const [name, bytes] of Object.entries(file.files)) await Deno.writeFile(join(dir, name), bytes);
  return join(dir, file.main);
}

/** `io.read` and `decode.gltf`. */
export async function judgeExporterDecode(file: ExporterGltf, dir: string): Promise<ExporterJudgement> {
  const ctx = testContext();
  try {
    const { bytes } = await runNode(ioRead, {}, { path: await written(file, dir) }, ctx);
    const { scene } = await runNode(decodeGltf, { bytes }, {}, ctx);
    return judged(scene, file, ctx.warnings.map((w) => w.message));
  } catch (error) {
    return { outcome: "refused", why: String(error), warnings: ctx.warnings.map((w) => w.message) };
  }
}

/** `graphs/gltf.json`: what its GLB keeps. */
export async function judgeExporterGraph(file: ExporterGltf, dir: string): Promise<ExporterJudgement> {
  try {
    const run = await runGraph(fileURLToPath(new URL("../../../graphs/gltf.json", import.meta.url)), {
      outDir: dir,
      cacheDir: false,
      inputs: { model: await written(file, dir) },
    });
    const glb = run.outputs.glb as { bytes: Uint8Array } | Uint8Array;
    const doc = await readGltf(glb instanceof Uint8Array ? glb : glb.bytes);
    return judged(doc, file, run.warnings.map((w) => w.message));
  } catch (error) {
    return { outcome: "refused", why: String(error), warnings: [] };
  }
}

function judged(doc: Document, file: ExporterGltf, warnings: string[]): ExporterJudgement {
  const problems = problemsIn(doc, file);
  // A file not beside the model must be named (viewers draw the model without it).
  for (const missing of file.truth.missing) {
    if (!warnings.some((w) => w.includes(`'${missing}'`))) {
      problems.push([missing, `${missing} missing, named nowhere`]);
    }
  }
  // Named as warnings name things, in quotes (a bare name would match the file's own name: `Cube.gltf`).
  const silent = problems.filter(([subject]) => !warnings.some((w) => w.includes(`'${subject}'`)));
  const why = problems.map(([, text]) => text).join("; ");
  if (!problems.length) return { outcome: "right", why, warnings };
  return { outcome: silent.length ? "wrong-silent" : "wrong-warned", why, warnings };
}

const near = (a: unknown, b: number | readonly number[]) =>
  Array.isArray(b)
    ? Array.isArray(a) && a.length === b.length && a.every((v, i) => Math.abs(v - b[i]) < 1e-4)
    : typeof a === "number" && Math.abs(a - (b as number)) < 1e-4;

/** What `doc` gets wrong, each as [subject a warning would name, text]. */
function problemsIn(doc: Document, file: ExporterGltf): [string, string][] {
  const { truth } = file;
  const out: [string, string][] = [];
  const root = doc.getRoot();
  for (const [name, extensions] of Object.entries(truth.materials)) {
    const material = root.listMaterials().find((m) => m.getName() === name);
    if (!material) {
      out.push([name, `material ${name} gone`]);
      continue;
    }
    for (const [extension, values] of Object.entries(extensions)) {
      const kept = material.getExtension(extension) as Record<string, () => unknown> | null;
      if (!kept) {
        out.push([extension, `material ${name}: ${extension} lost`]);
        continue;
      }
      for (const [getter, want] of Object.entries(values)) {
        const got = kept[getter]?.call(kept);
        if (want === "texture") {
          if (!got) out.push([name, `material ${name}: ${extension}.${getter} lost`]);
          continue;
        }
        if (!near(got, want)) {
          out.push([name, `material ${name}: ${extension}.${getter} ${got}, was ${want}`]);
        }
      }
    }
  }
  const channels = root.listAnimations().flatMap((a) => a.listChannels());
  for (const want of truth.animations) {
    const channel = channels.find((c) =>
      c.getTargetNode()?.getName() === want.node && c.getTargetPath() === want.path
    );
    const sampler = channel?.getSampler();
    const what = `${want.node}.${want.path}`;
    if (!sampler) out.push([want.node, `${what} animation lost`]);
    else if (sampler.getInterpolation() !== want.interpolation) {
      out.push([want.node, `${what} ${sampler.getInterpolation()}, was ${want.interpolation}`]);
    } else if (
      sampler.getInput()?.getCount() !== want.keys || sampler.getOutput()?.getCount() !== want.outputs
    ) {
      out.push([
        want.node,
        `${what} ${sampler.getInput()?.getCount()} keys, ${sampler.getOutput()?.getCount()} values`,
      ]);
    }
  }
  const names = new Set(root.listNodes().map((n) => n.getName()));
  const lost = truth.nodes.filter((n) => !names.has(n));
  if (lost.length) {
    out.push([lost[0], `${lost.length} node names lost or changed: ${lost.slice(0, 3).join(", ")}`]);
  }
  let triangles = 0;
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  scene?.traverse((node) => {
    const world = node.getWorldMatrix();
    for (const primitive of node.getMesh()?.listPrimitives() ?? []) {
      const position = primitive.getAttribute("POSITION");
      if (!position) continue;
      triangles += (primitive.getIndices()?.getCount() ?? position.getCount()) / 3;
      for (let i = 0; i < position.getCount(); i++) {
        const [x, y, z] = position.getElement(i, [] as number[]);
        for (let r = 0; r < 3; r++) {
          const v = world[r] * x + world[4 + r] * y + world[8 + r] * z + world[12 + r];
          min[r] = Math.min(min[r], v), max[r] = Math.max(max[r], v);
        }
      }
    }
  });
  if (triangles !== truth.triangles) {
    out.push(["triangles", `${triangles} triangles drawn, not ${truth.triangles}`]);
  }
  if (!near(min, truth.min) || !near(max, truth.max)) {
    out.push(["bounds", `bounds [${min}]..[${max}], not [${truth.min}]..[${truth.max}]`]);
  }
  const textures = root.listTextures();
  // More is right: export.gltf gives a KTX2 image without a fallback a PNG one of its pixels.
  if (textures.length < truth.textures) {
    out.push(["texture", `${textures.length} textures, not ${truth.textures}`]);
  }
  const ktx2 = textures.filter((t) => t.getMimeType() === "image/ktx2").length;
  if (ktx2 !== truth.ktx2) out.push(["ktx2", `${ktx2} KTX2 textures, not ${truth.ktx2}`]);
  return out;
}
