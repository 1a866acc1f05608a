/**
 * Runs the rig nodes in pipeline order for tests, and finds nodes by name.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { AnyNodeDef, JsonValue } from "../../../runtime/node.ts";
import { rigParts } from "../../../nodes/rig/parts.ts";
import { rigDetectPanels } from "../../../nodes/rig/detect_panels.ts";
import { rigFitHinge } from "../../../nodes/rig/fit_hinge.ts";
import { rigAssignSide } from "../../../nodes/rig/assign_side.ts";
import { rigInsertPivot } from "../../../nodes/rig/insert_pivot.ts";
import { rigReport } from "../../../nodes/rig/report.ts";
import { runNode, type TestContext, testContext } from "../../support/context.ts";
import { runHandedOver } from "../../support/hand_over.ts";
import { exportGltf } from "../../../nodes/export/gltf.ts";
import { readGltf } from "../../../runtime/scene/gltf_io.ts";

/** One part of a rig report. */
export interface ReportPart {
  name: string;
  path: string;
  kind: string;
  side: string | null;
  found_by: string;
  ctrl_type: string | null;
  min: number | null;
  max: number | null;
  group: string | null;
  positive: string | null;
  panel: string | null;
  panel_path?: string | null;
  panel_named_by?: "node" | "mesh" | null;
  hinge: {
    world: { origin: [number, number, number]; axis: [number, number, number] };
    aircraft: { origin: [number, number, number]; axis: [number, number, number] };
  } | null;
  fit: {
    bins_filled: number;
    inliers: number;
    residual: number;
    chord: number;
    authored_pivot: { axis: string; degrees: number; offset: number };
  } | null;
}

/** The result of {@link rig}. */
export interface RigResult {
  scene: Document;
  report: { frame: Record<string, JsonValue>; parts: ReportPart[] };
  ctx: TestContext;
}

/**
 * parts → detect_panels → fit_hinge → assign_side → insert_pivot, then report. `handOver`: each node
 * owns the scene it is given, as in `partgraph run` (the caller hands `scene` over and does not use it
 * again; the report, beside the output, owns nothing); by default each node keeps its input and copies.
 */
export async function rig(
  scene: Document,
  frame: Record<string, JsonValue> = {},
  detect: Record<string, JsonValue> = {},
  pivot: Record<string, JsonValue> = {},
  handOver = false,
): Promise<RigResult> {
  const ctx = testContext();
  // An async function keeps its arguments across its awaits: `scene` is let go once handed on, or
  // every rig node would run with the input held besides its own input and output.
  let current = scene;
  scene = undefined as unknown as Document;
  const step = async (node: AnyNodeDef, params: Record<string, JsonValue>) => {
    const input = current;
    current = undefined as unknown as Document; // not held while the node runs
    return (handOver
      ? await runHandedOver(node, input, params, ctx)
      : await runNode(node, { scene: input }, params, ctx)).scene as Document;
  };
  current = await step(rigParts, {});
  current = await step(rigDetectPanels, detect);
  current = await step(rigFitHinge, frame);
  current = await step(rigAssignSide, frame);
  current = await step(rigInsertPivot, pivot);
  const report = (await runNode(rigReport, { scene: current }, frame, ctx)).report;
  return { scene: current, report, ctx };
}

/** The node with this name (throws when absent). */
export function nodeNamed(doc: Document, name: string): Node {
  const node = doc.getRoot().listNodes().find((n) => n.getName() === name);
  if (!node) throw new Error(`no node named ${name}`);
  return node;
}

/** The scene exported and read back as a tool that drops extras (Blender's default) writes it. */
export async function withoutExtras(scene: Document): Promise<Document> {
  const doc = await readGltf((await runNode(exportGltf, { scene }, {})).bytes.bytes);
  for (const node of doc.getRoot().listNodes()) node.setExtras({});
  for (const scene of doc.getRoot().listScenes()) scene.setExtras({});
  return doc;
}

/** Names of the nodes that are pivots of ours (sorted), and how many pivots hang under another. */
export function pivotNames(doc: Document): { names: string[]; nested: number } {
  const all = doc.getRoot().listNodes().filter((n) => /^HINGE_auto_/.test(n.getName()));
  const nested = all.filter((n) => {
    for (let p = n.getParentNode(); p; p = p.getParentNode()) if (all.includes(p)) return true;
    return false;
  });
  return { names: all.map((n) => n.getName()).sort(), nested: nested.length };
}
