/**
 * Judges an {@link AttributeGltf} through `decode.gltf`, mesh by mesh, as a viewer draws it: a closed mesh's
 * triangles facing out, its normals the author's (within 8°), its tangents' signs the UVs' and each ±1, its
 * TEXCOORD_0 sampling the row meant at each triangle's centre under its sampler's V wrap (repeat, clamp or
 * mirror), and a mesh the
 * truth marks as not repairable named in a warning. A clean mesh named in a warning is a false warning.
 *
 * @module
 */
import type { Document, Mesh, Primitive } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { runNode, testContext } from "../../support/context.ts";
import type { AttributeGltf, MeshTruth } from "./attribute_files.ts";

/** One file's judgement: per mesh outcomes, and warnings naming clean meshes. */
export interface AttributeJudgement {
  readonly outcome: "right" | "refused" | "wrong-warned" | "wrong-silent";
  readonly why: string;
  /** Meshes wrong, silently or named; habit meshes right; clean meshes named. */
  readonly silent: number;
  readonly warned: number;
  readonly right: number;
  readonly falseWarnings: number;
  readonly warnings: readonly string[];
}

/** Decodes `file` and judges it. */
export async function judgeAttributes(file: AttributeGltf): Promise<AttributeJudgement> {
  const ctx = testContext();
  let scene: Document;
  try {
    ({ scene } = await runNode(decodeGltf, { bytes: { bytes: file.bytes, name: "aircraft.glb" } }, {}, ctx));
  } catch (error) {
    return {
      outcome: "refused",
      why: String(error),
      silent: 0,
      warned: 0,
      right: 0,
      falseWarnings: 0,
      warnings: ctx.warnings.map((w) => w.message),
    };
  }
  const warnings = ctx.warnings.map((w) => w.message);
  return judgeDocument(scene, file, warnings);
}

/** Judges a decoded document against the file's truth. */
export function judgeDocument(doc: Document, file: AttributeGltf, warnings: string[]): AttributeJudgement {
  const whys: string[] = [];
  let silent = 0, warned = 0, right = 0, falseWarnings = 0;
  const meshes = new Map(doc.getRoot().listMeshes().map((m) => [m.getName(), m]));
  for (const truth of file.meshes) {
    const mesh = meshes.get(truth.name);
    const problems = mesh ? problemsOf(mesh, truth) : ["mesh lost"];
    const named = warnings.some((w) => w.includes(`'${truth.name}'`));
    if (truth.named && !named) problems.push("not named");
    if (!problems.length) {
      right++;
      if (named && !truth.named && !isHabitFixed(file, truth)) falseWarnings++;
      continue;
    }
    whys.push(`${truth.name}: ${problems.join(", ")}`);
    if (named) warned++;
    else silent++;
  }
  const outcome = silent ? "wrong-silent" : warned ? "wrong-warned" : "right";
  return { outcome, why: whys.join("; "), silent, warned, right, falseWarnings, warnings };
}

/** Whether a warning naming `truth`'s mesh is expected: its file's habit is on it (named in the detail). */
function isHabitFixed(file: AttributeGltf, truth: MeshTruth): boolean {
  return file.kind !== "clean" && file.detail.split(";")[0].split(", ").includes(truth.name);
}

function problemsOf(mesh: Mesh, truth: MeshTruth): string[] {
  const problems: string[] = [];
  let volume = 0, normalsOff = 0, signsOff = 0, rowsOff = 0;
  for (const primitive of mesh.listPrimitives()) {
    const position = primitive.getAttribute("POSITION")!.getArray()!;
    const indices = primitive.getIndices()?.getArray() ??
      Uint32Array.from({ length: position.length / 3 }, (_, i) => i);
    volume += signedVolume(position, indices);
    const used = new Set(indices);
    const normal = primitive.getAttribute("NORMAL")?.getArray();
    if (!normal) problems.push("normals lost");
    for (const v of normal ? used : []) {
      const d = [0, 1, 2].reduce((s, k) => s + normal![3 * v + k] * truth.normals[3 * v + k], 0);
      if (!(d > Math.cos(8 * Math.PI / 180))) normalsOff++;
    }
    if (truth.signs) {
      const tangent = primitive.getAttribute("TANGENT")?.getArray();
      if (!tangent) problems.push("tangents lost");
      for (const v of tangent ? used : []) if (tangent![4 * v + 3] !== truth.signs[v]) signsOff++;
    }
    const uv = primitive.getAttribute("TEXCOORD_0")?.getArray();
    const wrap = wrapOf(primitive);
    if (!uv) problems.push("UVs lost");
    // Wrapping applies where fragments sample, between the corners: judged at each triangle's centre.
    for (let f = 0; uv && f + 2 < indices.length; f += 3) {
      const corners = [indices[f], indices[f + 1], indices[f + 2]];
      const drawn = corners.reduce((s, v) => s + uv[2 * v + 1], 0) / 3;
      const meant = corners.reduce((s, v) => s + truth.uv0[2 * v + 1], 0) / 3;
      if (!sameTexel(drawn, meant, wrap)) rowsOff++;
    }
  }
  if (truth.closed && volume <= 0) problems.push("winding faces in");
  if (normalsOff) problems.push(`${normalsOff} normal(s) off`);
  if (signsOff) problems.push(`${signsOff} tangent sign(s) off`);
  if (rowsOff) problems.push(`${rowsOff} triangle(s) sample another row of the texture`);
  return problems;
}

/** The V wrap of the base colour texture's sampler. */
function wrapOf(primitive: Primitive): number {
  return primitive.getMaterial()?.getBaseColorTextureInfo()?.getWrapT() ?? 10497;
}

/** Whether `v` samples where `meant` (in [0, 1]) does under `wrap`. */
function sameTexel(v: number, meant: number, wrap: number): boolean {
  const eps = 1e-4;
  if (wrap === 10497) {
    const d = (((v - meant) % 1) + 1) % 1;
    return d < eps || d > 1 - eps;
  }
  if (wrap === 33071) return Math.abs(Math.min(1, Math.max(0, v)) - meant) < eps;
  // Mirrored repeat: period 2, mirrored about 1.
  const m = ((v % 2) + 2) % 2;
  return Math.abs((m > 1 ? 2 - m : m) - meant) < eps;
}

/** Six times the signed volume the triangles enclose (positive: wound outward). */
export function signedVolume(p: ArrayLike<number>, t: ArrayLike<number>): number {
  let volume = 0;
  for (let f = 0; f + 2 < t.length; f += 3) {
    const [a, b, c] = [3 * t[f], 3 * t[f + 1], 3 * t[f + 2]];
    volume += p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) -
      p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) +
      p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c]);
  }
  return volume;
}
