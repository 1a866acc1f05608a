/**
 * Runs a {@link UserGltf} through `io.read` and `decode.gltf` and judges the scene against the file's
 * truth: right, refused (a typed error), or wrong — with a warning, or silently (the worst outcome).
 *
 * @module
 */
import { join } from "node:path";
import type { Document, Texture } from "@gltf-transform/core";
import type { Transform } from "@gltf-transform/extensions";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { ioRead } from "../../../nodes/io/read.ts";
import { runNode, testContext } from "../../support/context.ts";
import type { UserGltf } from "./files.ts";

/** The judgement of one file. */
export interface Judgement {
  readonly outcome: "right" | "refused" | "wrong-warned" | "wrong-silent";
  readonly why: string;
  readonly warnings: readonly string[];
}

/** Writes the file's folder under `dir`, reads and decodes it, and judges the result. */
export async function judgeUserGltf(file: UserGltf, dir: string): Promise<Judgement> {
  for (const [name, bytes] of Object.entries(file.files)) {
    await Deno.mkdir(join(dir, name, ".."), { recursive: true });
    await Deno.writeFile(join(dir, name), bytes);
  }
  const ctx = testContext();
  let scene: Document;
  try {
    const { bytes } = await runNode(ioRead, {}, { path: join(dir, file.main) }, ctx);
    ({ scene } = await runNode(decodeGltf, { bytes }, {}, ctx));
  } catch (error) {
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { outcome: "refused", why, warnings: ctx.warnings.map((w) => w.message) };
  }
  const warnings = ctx.warnings.map((w) => w.message);
  const problems = wrongIn(scene, file);
  if (file.truth.warns && !warnings.some((w) => file.truth.warns!.test(w))) {
    problems.push(`no warning matches ${file.truth.warns}`);
  }
  if (!problems.length) return { outcome: "right", why: "", warnings };
  return { outcome: warnings.length ? "wrong-warned" : "wrong-silent", why: problems.join("; "), warnings };
}

const close = (a: readonly number[], b: readonly number[], tolerance: number) =>
  a.length === b.length && a.every((v, i) => Math.abs(v - b[i]) <= tolerance * Math.max(1, Math.abs(b[i])));

/** What the scene gets wrong against the truth (empty when right). */
function wrongIn(doc: Document, file: UserGltf): string[] {
  const { truth } = file;
  const problems: string[] = [];
  const root = doc.getRoot();
  const quad = root.listNodes().find((n) => n.getName() === "quad");
  const primitive = quad?.getMesh()?.listPrimitives()[0];
  if (!quad || !primitive) return ["the quad's node or primitive is gone"];
  const matrix = quad.getWorldMatrix();
  const position = primitive.getAttribute("POSITION");
  const world: number[] = [];
  for (let i = 0; i < (position?.getCount() ?? 0); i++) {
    const [x, y, z] = position!.getElement(i, [] as number[]);
    for (let r = 0; r < 3; r++) {
      world.push(matrix[r] * x + matrix[4 + r] * y + matrix[8 + r] * z + matrix[12 + r]);
    }
  }
  if (!close(world, truth.positions, 1e-5)) {
    problems.push(`positions ${fmt(world)} not ${fmt(truth.positions)}`);
  }
  const material = primitive.getMaterial();
  const texture: Texture | null | undefined = material?.getBaseColorTexture();
  const info = material?.getBaseColorTextureInfo();
  if (!texture) problems.push("the base colour texture is gone");
  else {
    const image = texture.getImage();
    if (!image || image.byteLength < 8 || image[1] !== 0x50) {
      problems.push("the texture's image is not its PNG");
    }
    if (texture.getMimeType() !== "image/png") problems.push(`texture type ${texture.getMimeType()}`);
  }
  // KHR_texture_transform's texCoord, when set, is the one sampled.
  const transformed = info?.getExtension<Transform>("KHR_texture_transform")?.getTexCoord();
  const texCoord = transformed ?? info?.getTexCoord() ?? 0;
  if (texCoord !== truth.texCoord) problems.push(`texCoord ${texCoord} not ${truth.texCoord}`);
  const uv = primitive.getAttribute(`TEXCOORD_${truth.texCoord}`);
  const uvs: number[] = [];
  for (let i = 0; i < (uv?.getCount() ?? 0); i++) uvs.push(...uv!.getElement(i, []));
  if (!close(uvs, truth.uvs, 1e-4)) problems.push(`uvs ${fmt(uvs)} not ${fmt(truth.uvs)}`);
  if (truth.rotation !== undefined) {
    const transform = info?.getExtension<Transform>("KHR_texture_transform");
    if (!transform) problems.push("KHR_texture_transform is gone");
    else if (Math.abs(transform.getRotation() - truth.rotation) > 1e-6) {
      problems.push(`rotation ${transform.getRotation()} not ${truth.rotation}`);
    }
  }
  if (truth.target) {
    const target = primitive.listTargets()[0]?.getAttribute("POSITION");
    const deltas: number[] = [];
    for (let i = 0; i < (target?.getCount() ?? 0); i++) deltas.push(...target!.getElement(i, []));
    if (!close(deltas, truth.target, 1e-5)) {
      problems.push(`target deltas ${fmt(deltas)} not ${fmt(truth.target)}`);
    }
  }
  if (truth.scenes) {
    const names = root.listScenes().map((s) => s.listChildren().map((n) => n.getName()));
    if (JSON.stringify(names) !== JSON.stringify(truth.scenes.names)) {
      problems.push(`scenes ${JSON.stringify(names)} not ${JSON.stringify(truth.scenes.names)}`);
    }
    // No `scene` index: viewers (and every partgraph node) show the first.
    const chosen = root.getDefaultScene() ?? root.listScenes()[0];
    const index = chosen ? root.listScenes().indexOf(chosen) : -1;
    if (index !== truth.scenes.scene) problems.push(`default scene ${index} not ${truth.scenes.scene}`);
  }
  return problems;
}

const fmt = (values: readonly number[]) =>
  `[${values.slice(0, 6).map((v) => +v.toFixed(4)).join(",")}${values.length > 6 ? ",…" : ""}]`;
