/**
 * Decodes a {@link MorphGltf} and judges its morph targets against the file's truth (what viewers
 * show): right, refused, or wrong — warned, or silently (the worst outcome). Right also needs a
 * warning naming the mesh or node wherever the file's counts were out of step.
 *
 * @module
 */
import type { Document } from "@gltf-transform/core";
import { decodeGltf } from "../../../nodes/decode/gltf/decode_gltf.ts";
import { runNode, testContext } from "../../support/context.ts";
import type { MorphGltf } from "./morph_files.ts";

/** The judgement of one file. */
export interface MorphJudgement {
  readonly outcome: "right" | "refused" | "wrong-warned" | "wrong-silent";
  readonly why: string;
  readonly warnings: readonly string[];
}

/** Decodes the file and judges the result. */
export async function judgeMorphGltf(file: MorphGltf): Promise<MorphJudgement> {
  const ctx = testContext();
  let scene: Document;
  try {
    ({ scene } = await runNode(decodeGltf, { bytes: { bytes: file.bytes, name: file.name } }, {}, ctx));
  } catch (error) {
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { outcome: "refused", why, warnings: ctx.warnings.map((w) => w.message) };
  }
  const warnings = ctx.warnings.map((w) => w.message);
  const problems = morphProblems(scene, file);
  for (const truth of file.meshes) {
    if (truth.warns && !warnings.some((w) => truth.warns!.test(w))) {
      problems.push(`no warning names ${truth.warns.source}`);
    }
  }
  if (!problems.length) return { outcome: "right", why: "", warnings };
  return { outcome: warnings.length ? "wrong-warned" : "wrong-silent", why: problems.join("; "), warnings };
}

const same = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((v, i) => Math.abs(v - b[i]) <= 1e-6);

/** What the scene gets wrong against the truth (empty when right). */
export function morphProblems(doc: Document, file: MorphGltf): string[] {
  const problems: string[] = [];
  for (const truth of file.meshes) {
    const mesh = doc.getRoot().listMeshes().find((m) => m.getName() === truth.mesh);
    const node = doc.getRoot().listNodes().find((n) => n.getName() === truth.node);
    if (!mesh || !node) {
      problems.push(`${truth.mesh} or its node is gone`);
      continue;
    }
    const weights = mesh.getWeights();
    const want = truth.weights ?? [];
    if (!same(weights, want)) problems.push(`${truth.mesh} weights [${weights}] not [${want}]`);
    const nodeWant = truth.nodeWeights ?? [];
    if (!same(node.getWeights(), nodeWant)) {
      problems.push(`${truth.node} weights [${node.getWeights()}] not [${nodeWant}]`);
    }
    const primitives = mesh.listPrimitives();
    if (primitives.length !== truth.deltas.length) {
      problems.push(`${truth.mesh} has ${primitives.length} primitives, not ${truth.deltas.length}`);
      continue;
    }
    primitives.forEach((primitive, p) => {
      const targets = primitive.listTargets();
      if (targets.length !== truth.deltas[p].length) {
        problems.push(
          `${truth.mesh} primitive ${p} has ${targets.length} targets, not ${truth.deltas[p].length}`,
        );
        return;
      }
      targets.forEach((target, t) => {
        const position = target.getAttribute("POSITION");
        const got: number[] = [];
        for (let i = 0; i < (position?.getCount() ?? 0); i++) got.push(...position!.getElement(i, []));
        if (!same(got, truth.deltas[p][t])) problems.push(`${truth.mesh} primitive ${p} target ${t} moved`);
      });
    });
    const channel = doc.getRoot().listAnimations().flatMap((a) => a.listChannels())
      .find((c) => c.getTargetNode() === node && c.getTargetPath() === "weights");
    const output = channel?.getSampler()?.getOutput();
    const keyed = output
      ? Array.from({ length: output.getCount() }, (_, i) => output.getScalar(i))
      : undefined;
    if (truth.animation && (!keyed || !same(keyed, truth.animation))) {
      problems.push(`${truth.node} keyed [${keyed}] not [${truth.animation}]`);
    } else if (!truth.animation && keyed) problems.push(`${truth.node} keyed, and the file keys it not`);
    const names = (mesh.getExtras() as { targetNames?: unknown }).targetNames;
    if (truth.names) {
      if (!Array.isArray(names) || names.join("\n") !== truth.names.join("\n")) {
        problems.push(
          `${truth.mesh} target names ${JSON.stringify(names)} not ${JSON.stringify(truth.names)}`,
        );
      }
    } else if (names !== undefined) problems.push(`${truth.mesh} has target names ${JSON.stringify(names)}`);
  }
  return problems;
}
