/**
 * Judges a {@link TransformFile} through `decode.gltf` against its clean twin: each mesh node's vertices
 * in world space and each animation channel's keys (rotations as turns, either sign) compared. A case is
 * `right` when they match, `warned` when every node that differs is named by a warning (by `'name'` or its
 * `/nodes/<i>` path), `silent` when one is not, `refused` on a typed error; `false warnings` are warnings
 * the twin does not give on a file read right, and any warning on a clean file. Run directly, it counts
 * each habit over a range of seeds: `deno run -A tests/nodes/user_gltf/transform_judge.ts 701 760 [-v]`.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { runNode, testContext } from "../../support/context.ts";
import { TRANSFORM_HABITS, type TransformFile, transformFile } from "./transform_files.ts";
import { type HabitJudgement, tallyHabits } from "./habit_tally.ts";

/** Decodes `bytes`: the scene and the warnings, or the error. */
export async function decodeWithWarnings(
  name: string,
  bytes: Uint8Array,
): Promise<{ doc?: Document; warnings: string[]; error?: unknown }> {
  const ctx = testContext();
  try {
    const { scene } = await runNode(decodeGltf, { bytes: { bytes, name } }, {}, ctx);
    return { doc: scene, warnings: ctx.warnings.map((w) => w.message) };
  } catch (error) {
    return { warnings: ctx.warnings.map((w) => w.message), error };
  }
}

/** A mesh node's vertices in world space. */
function worldVertices(node: Node): number[] {
  const m = node.getWorldMatrix();
  const out: number[] = [];
  for (const prim of node.getMesh()?.listPrimitives() ?? []) {
    const a = prim.getAttribute("POSITION");
    if (!a) continue;
    for (let i = 0; i < a.getCount(); i++) {
      const [x, y, z] = a.getElement(i, [] as number[]);
      for (let r = 0; r < 3; r++) out.push(m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r]);
    }
  }
  return out;
}

/** Each node's name → what a viewer shows of it (world vertices; keys per animated path). */
function shown(doc: Document): Map<string, { vertices: number[]; keys: Map<string, number[]> }> {
  const out = new Map<string, { vertices: number[]; keys: Map<string, number[]> }>();
  for (const node of doc.getRoot().listNodes()) {
    out.set(node.getName(), { vertices: worldVertices(node), keys: new Map() });
  }
  for (const animation of doc.getRoot().listAnimations()) {
    for (const channel of animation.listChannels()) {
      const node = channel.getTargetNode();
      const values = channel.getSampler()?.getOutput()?.getArray();
      if (!node || !values) continue;
      out.get(node.getName())?.keys.set(channel.getTargetPath() ?? "", [...values]);
    }
  }
  return out;
}

function sameKeys(
  path: string,
  a: number[] | undefined,
  b: number[] | undefined,
  tolerance: number,
): boolean {
  if (!a || !b) return a === b;
  if (a.length !== b.length) return false;
  if (path !== "rotation") {
    return a.every((v, i) => Math.abs(v - b[i]) <= tolerance * Math.max(1, Math.abs(b[i])));
  }
  for (let i = 0; i < a.length; i += 4) {
    const dot = a[i] * b[i] + a[i + 1] * b[i + 1] + a[i + 2] * b[i + 2] + a[i + 3] * b[i + 3];
    const la = Math.hypot(a[i], a[i + 1], a[i + 2], a[i + 3]),
      lb = Math.hypot(b[i], b[i + 1], b[i + 2], b[i + 3]);
    if (Math.abs(dot) / (la * lb) < 1 - 1e-5) return false;
  }
  return true;
}

/** Whether warning `w` names node `index` (`name`). */
export function names(w: string, name: string, index: number): boolean {
  return w.includes(`'${name}'`) || new RegExp(`/nodes/${index}(?!\\d)`).test(w);
}

/** Decodes `c` and its clean twin and judges the case. */
export async function judgeTransform(c: TransformFile): Promise<HabitJudgement> {
  const twin = await decodeWithWarnings(c.name, c.clean);
  if (!twin.doc) throw new Error(`${c.name}: the clean twin was refused: ${twin.error}`);
  const read = await decodeWithWarnings(c.name, c.bytes);
  const known = new Set(twin.warnings);
  const said = read.warnings.filter((w) => !known.has(w));
  const cleanWarnings = c.habit === "clean" ? read.warnings : twin.warnings;
  if (!read.doc) {
    return { outcome: "refused", said, differ: [], falseWarnings: cleanWarnings, why: String(read.error) };
  }
  const meant = shown(twin.doc), got = shown(read.doc);
  const all = [...meant.values()].flatMap((s) => s.vertices);
  const extent = Math.max(1e-9, ...all.map(Math.abs));
  const tolerance = 2e-3 * extent;
  const nodes = read.doc.getRoot().listNodes();
  const differ: string[] = [];
  const why: string[] = [];
  for (const [name, m] of meant) {
    const g = got.get(name);
    if (!g) {
      differ.push(name);
      why.push(`${name} missing`);
      continue;
    }
    const far = m.vertices.findIndex((v, i) => !(Math.abs(v - g.vertices[i]) <= tolerance));
    if (m.vertices.length !== g.vertices.length || far >= 0) {
      differ.push(name);
      why.push(`${name} vertex ${Math.floor(far / 3)} at ${g.vertices[far]} not ${m.vertices[far]}`);
      continue;
    }
    for (const path of new Set([...m.keys.keys(), ...g.keys.keys()])) {
      if (!sameKeys(path, g.keys.get(path), m.keys.get(path), 2e-3)) {
        differ.push(name);
        why.push(`${name} ${path} keys differ`);
        break;
      }
    }
  }
  // A part is named when it or a node above it is (a subtree's note names its root).
  const namedOrAbove = (name: string) => {
    for (let node = nodes.find((n) => n.getName() === name) ?? null; node; node = node.getParentNode()) {
      if (said.some((w) => names(w, node!.getName(), nodes.indexOf(node!)))) return true;
    }
    return false;
  };
  const silent = differ.filter((name) => !namedOrAbove(name));
  const outcome = !differ.length ? "right" : silent.length ? "silent" : "warned";
  // A repair's warning on a case read right is no false one: the file was not as meant.
  const falseWarnings = cleanWarnings;
  return { outcome, said, differ, falseWarnings, why: why.join("; ") };
}

if (import.meta.main) await tallyHabits(TRANSFORM_HABITS, transformFile, judgeTransform);
