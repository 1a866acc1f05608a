/**
 * The stages the Freelancer realistic bench times, shared by the bench
 * (`freelancer_realistic_bench.ts`, best of five, stage after stage) and the interleaved script
 * (`scripts/bench_interleaved.ts`, the anchor and each stage in turns, ratios per round): the sets of
 * compounds, one pass of a stage over a set, and the anchor (glTF-Transform alone building the same
 * meshes, primitives and accessors).
 *
 * @module
 */
import { type Accessor, Document } from "@gltf-transform/core";
import { constraintsResolve } from "../../nodes/constraints/resolve.ts";
import { decodeCmp } from "../../nodes/decode/freelancer/decode_cmp.ts";
import { exportGltf } from "../../nodes/export/gltf.ts";
import { runNode, testContext } from "../support/context.ts";
import { buildLargeCompound } from "../support/large_cmp.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";
import { forgetPngEncodings } from "../../runtime/scene/png.ts";
import { settleExtras } from "../../runtime/scene/copy.ts";

/** A named set of files. */
export interface BenchSet {
  readonly label: string;
  readonly files: readonly Uint8Array[];
}

/** The 16 retail-shaped compounds. */
export const REALISTIC: BenchSet = {
  label: "realistic (16 compounds)",
  files: Array.from({ length: 16 }, (_, i) => realisticCmp(i + 1, { parts: 8 + (i * 7) % 24 })),
};
/** The one large single-mesh compound. */
export const SINGLE_MESH: BenchSet = { label: "single-mesh (1 compound)", files: [buildLargeCompound()] };

/**
 * How a pass treats textures and what it runs. "handed over" runs `constraints.resolve` on a scene it
 * owns, as a CLI or batch run hands each decoded scene to its one consumer (extras settled first, as
 * the runtime does); the plain stage has it copy the scene, as a caller's memory tier (the studio) does.
 */
export type Stage =
  | "decode"
  | "decode, textures seen"
  | "decode + resolve + export"
  | "the same, scene handed over";

/**
 * Runs the set through decode.cmp (and resolve + export); returns the decoded scenes when `keep`.
 * Timed passes keep none, as the anchor keeps none of its documents: garbage collection costs more
 * the more a pass keeps alive.
 */
export async function runSet(set: BenchSet, stage: Stage, keep = false): Promise<Document[]> {
  if (stage !== "decode, textures seen") forgetPngEncodings();
  const scenes: Document[] = [];
  const withExport = stage === "decode + resolve + export" || stage === "the same, scene handed over";
  const ctx = testContext("bench");
  const owner = { ...ctx, owns: () => true };
  for (const [i, bytes] of set.files.entries()) {
    const decoded = await runNode(
      decodeCmp,
      { bytes: { bytes, name: `m${i}.cmp` } },
      { libraries: "none" },
      ctx,
    );
    const scene = decoded.scene as Document;
    if (keep) scenes.push(scene);
    if (!withExport) continue;
    const handOver = stage === "the same, scene handed over";
    if (handOver) settleExtras(scene);
    const resolved = await runNode(constraintsResolve, { scene }, {}, handOver ? owner : ctx);
    await runNode(exportGltf, { scene: resolved.scene }, {}, ctx);
  }
  return scenes;
}

/** One accessor as the anchor re-creates it. */
interface AccessorShape {
  readonly name: string;
  readonly type: ReturnType<Accessor["getType"]>;
  readonly array: NonNullable<ReturnType<Accessor["getArray"]>>;
}

/** The meshes of decoded scenes, as primitives of (semantic, accessor) pairs plus indices. */
export type MeshShapes = {
  name: string;
  primitives: { attributes: [string, AccessorShape][]; indices: AccessorShape }[];
}[];

/** The meshes of `scenes` as the anchor re-creates them. */
export function meshShapes(scenes: readonly Document[]): MeshShapes[] {
  const shape = (a: Accessor): AccessorShape => ({
    name: a.getName(),
    type: a.getType(),
    array: a.getArray()!,
  });
  return scenes.map((scene) =>
    scene.getRoot().listMeshes().map((mesh) => ({
      name: mesh.getName(),
      primitives: mesh.listPrimitives().map((p) => ({
        attributes: p.listSemantics().map((s) => [s, shape(p.getAttribute(s)!)] as [string, AccessorShape]),
        indices: shape(p.getIndices()!),
      })),
    }))
  );
}

/** glTF-Transform alone: the same meshes, primitives and accessors, the fewest calls each. */
export function glTFTransformFloor(sets: readonly MeshShapes[]): void {
  for (const meshes of sets) {
    const doc = new Document();
    const buffer = doc.createBuffer("buffer");
    const accessor = ({ name, type, array }: AccessorShape) => {
      const out = doc.createAccessor(name, buffer).setArray(array);
      return type === "SCALAR" ? out : out.setType(type);
    };
    for (const { name, primitives } of meshes) {
      const mesh = doc.createMesh(name);
      for (const { attributes, indices } of primitives) {
        const primitive = doc.createPrimitive();
        for (const [semantic, shape] of attributes) primitive.setAttribute(semantic, accessor(shape));
        mesh.addPrimitive(primitive.setIndices(accessor(indices)));
      }
    }
  }
}

/** The stages a set is timed through, in the order they are reported. */
export const STAGES: readonly Stage[] = [
  "decode",
  "decode, textures seen",
  "decode + resolve + export",
  "the same, scene handed over",
];
