/**
 * Judges what `decode.gltf` made of an {@link ExporterFile} against what a viewer draws: every part
 * found where it is (its primitive's world bounds), under its name, in its colour (base colour factor ×
 * texture, as a metal-rough viewer draws it), lit or unlit, glowing as it did.
 *
 * @module
 */
import type { Document, Material, Node, Primitive, Skin, TextureInfo } from "@gltf-transform/core";
import { decode } from "fast-png";
import { mat4, vec3 } from "gl-matrix";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { runNode, testContext } from "../../support/context.ts";
import type { ExporterFile, PartTruth } from "./gltf_exporters.ts";

/** What was wrong with one file: refused, or each part drawn wrong; and the warnings given. */
export interface Judgement {
  readonly refused?: string;
  readonly wrong: string[];
  readonly warnings: string[];
}

/** A drawn primitive: where, in what colour, under which names. */
interface Drawn {
  min: number[];
  max: number[];
  colour: number[];
  unlit: boolean;
  emissive: number[];
  names: string[];
  /** The base colour texture's coordinates: its set and transform. */
  uv: string;
}

/** The solid colour of a texture's first pixel, 0–255 RGBA. */
function pixel(image: Uint8Array): number[] {
  const png = decode(image);
  const c = png.channels, v = Array.from(png.data.slice(0, c));
  if (png.palette) return [...png.palette[v[0]], 255].slice(0, 4);
  return c === 4 ? v : c === 3 ? [...v, 255] : c === 2 ? [v[0], v[0], v[0], v[1]] : [v[0], v[0], v[0], 255];
}

function look(material: Material | null): Pick<Drawn, "colour" | "unlit" | "emissive" | "uv"> {
  if (!material) return { colour: [1, 1, 1, 1], unlit: false, emissive: [0, 0, 0], uv: "" };
  const texture = material.getBaseColorTexture()?.getImage();
  const t = texture ? pixel(texture) : [255, 255, 255, 255];
  const strength = (material.getExtension("KHR_materials_emissive_strength") as
    | { getEmissiveStrength(): number }
    | null)?.getEmissiveStrength() ?? 1;
  return {
    colour: material.getBaseColorFactor().map((f, k) => f * t[k] / 255),
    unlit: material.getExtension("KHR_materials_unlit") !== null,
    emissive: material.getEmissiveFactor().map((e) => e * strength),
    uv: texture ? uvOf(material.getBaseColorTextureInfo()!) : "",
  };
}

/** A texture's coordinates as `<set>` and `scale s,t offset u,v` when transformed. */
export function uvOf(info: TextureInfo): string {
  const transform = info.getExtension("KHR_texture_transform") as
    | { getScale(): number[]; getOffset(): number[]; getRotation(): number; getTexCoord(): number | null }
    | null;
  const set = transform?.getTexCoord() ?? info.getTexCoord();
  // A transform at identity draws as none.
  const identity = transform && transform.getRotation() === 0 &&
    `${transform.getScale()} ${transform.getOffset()}` === "1,1 0,0";
  if (!transform || identity) return `${set}`;
  return `${set} scale ${transform.getScale().join(",")} offset ${transform.getOffset().join(",")}`;
}

function drawnOf(doc: Document): Drawn[] {
  const out: Drawn[] = [];
  // What viewers show: the default scene's nodes (the first scene's when none is).
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  const shown: Node[] = [];
  scene?.traverse((node) => void shown.push(node));
  for (const node of shown) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const skin = node.getSkin();
    const world = node.getWorldMatrix() as unknown as mat4;
    for (const primitive of mesh.listPrimitives()) {
      const at = skinned(primitive, skin) ?? ((v: vec3) => vec3.transformMat4(vec3.create(), v, world));
      // A skinned part is named by its bone (the first vertex's strongest joint), as viewers move it.
      const joints = primitive.getAttribute("JOINTS_0"), weights = primitive.getAttribute("WEIGHTS_0");
      let named: Node = node;
      if (skin && joints && weights) {
        const w = weights.getElement(0, [] as number[]);
        named = skin.listJoints()[joints.getElement(0, [])[w.indexOf(Math.max(...w))]];
      }
      const names: string[] = [];
      for (let n: Node | null = named, k = 0; n && k < 4; n = n.getParentNode(), k++) names.push(n.getName());
      const position = primitive.getAttribute("POSITION");
      if (!position) continue;
      const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
      // Only the vertices drawn: primitives may share one vertex list, each drawing its own range.
      const indices = primitive.getIndices()?.getArray() ??
        Array.from({ length: position.getCount() }, (_, i) => i);
      const colour = primitive.getAttribute("COLOR_0");
      const tint = [0, 0, 0, 0];
      for (const i of indices) {
        const v = at(position.getElement(i, []) as vec3, i);
        for (let k = 0; k < 3; k++) min[k] = Math.min(min[k], v[k]), max[k] = Math.max(max[k], v[k]);
        const c = colour ? colour.getElement(i, []) : [1, 1, 1, 1];
        for (let k = 0; k < 4; k++) tint[k] += (c[k] ?? 1) / indices.length;
      }
      const drawn = look(primitive.getMaterial());
      out.push({ min, max, names, ...drawn, colour: drawn.colour.map((v, k) => v * tint[k]) });
    }
  }
  return out;
}

/**
 * Where a skinned primitive's vertex `i` is drawn: Σ weight × joint's world × its inverse bind matrix
 * (the mesh node's own transform ignored, as glTF says); undefined when not skinned.
 */
function skinned(primitive: Primitive, skin: Skin | null): ((v: vec3, i: number) => vec3) | undefined {
  const joints = primitive.getAttribute("JOINTS_0"), weights = primitive.getAttribute("WEIGHTS_0");
  if (!skin || !joints || !weights) return undefined;
  const inverse = skin.getInverseBindMatrices();
  const matrices = skin.listJoints().map((joint, j) => {
    const ibm = inverse ? inverse.getElement(j, []) as unknown as mat4 : mat4.create();
    return mat4.multiply(mat4.create(), joint.getWorldMatrix() as unknown as mat4, ibm);
  });
  return (v, i) => {
    const j = joints.getElement(i, []), w = weights.getElement(i, []);
    const out = vec3.create();
    for (let k = 0; k < 4; k++) {
      if (!w[k]) continue;
      vec3.scaleAndAdd(out, out, vec3.transformMat4(vec3.create(), v, matrices[j[k]]), w[k]);
    }
    return out;
  };
}

const near = (a: readonly number[], b: readonly number[], tolerance: number) =>
  a.length === b.length && a.every((v, k) => Math.abs(v - b[k]) <= tolerance);
const fmt = (v: readonly number[]) => `[${v.map((x) => +x.toFixed(3)).join(", ")}]`;

/** What is wrong with how `doc` draws `part`, or nothing. */
function partProblems(part: PartTruth, drawn: Drawn[]): string[] {
  const size = Math.max(...part.max.map((v, k) => v - part.min[k]));
  const found = drawn.filter((d) => near(d.min, part.min, 1e-4 * size) && near(d.max, part.max, 1e-4 * size));
  if (found.length === 0) return [`${part.name}: no primitive where it is ${fmt(part.min)}–${fmt(part.max)}`];
  // Two parts may share bounds only by chance; the first whose colour fits is it.
  const d = found.find((d) => near(d.colour, part.colour, 2.5 / 255)) ?? found[0];
  const problems: string[] = [];
  if (!d.names.includes(part.name)) problems.push(`${part.name}: named ${d.names.join(" < ")}`);
  if (!near(d.colour, part.colour, 2.5 / 255)) {
    problems.push(`${part.name}: colour ${fmt(d.colour)}, drawn ${fmt(part.colour)}`);
  }
  if (d.unlit !== part.unlit) problems.push(`${part.name}: ${d.unlit ? "unlit" : "lit"}, drawn the other`);
  if (d.uv !== part.uv) {
    problems.push(`${part.name}: texture coordinates ${d.uv || "none"}, drawn ${part.uv || "none"}`);
  }
  if (!near(d.emissive, part.emissive, 1e-3)) {
    problems.push(`${part.name}: emissive ${fmt(d.emissive)}, drawn ${fmt(part.emissive)}`);
  }
  return problems;
}

/** Decodes `file` and judges every part. */
export async function judgeExporterFile(file: ExporterFile): Promise<Judgement & { scene?: Document }> {
  const ctx = testContext();
  let scene: Document;
  try {
    scene = (await runNode(decodeGltf, { bytes: { bytes: file.bytes, name: file.name } }, {}, ctx))
      .scene as Document;
  } catch (error) {
    return { refused: String(error), wrong: [], warnings: ctx.warnings.map((w) => w.message) };
  }
  const drawn = drawnOf(scene);
  const wrong = file.parts.flatMap((part) => partProblems(part, drawn));
  if (drawn.length !== file.parts.length) {
    wrong.push(`${drawn.length} primitives drawn, ${file.parts.length} parts`);
  }
  return { scene, wrong, warnings: ctx.warnings.map((w) => w.message) };
}

/** Judges `file` decoded, exported by `export.gltf` and decoded again: what the pipeline's output draws. */
export async function judgeExported(file: ExporterFile): Promise<Judgement> {
  const first = await judgeExporterFile(file);
  if (!first.scene) return first;
  const { exportGltf } = await import("../../../nodes/export/gltf.ts");
  let bytes: Uint8Array;
  try {
    bytes = (await runNode(exportGltf, { scene: first.scene }, {})).bytes.bytes;
  } catch (error) {
    return { refused: `export: ${error}`, wrong: [], warnings: first.warnings };
  }
  const again = await judgeExporterFile({ ...file, bytes });
  return { ...again, warnings: [...first.warnings, ...again.warnings] };
}
