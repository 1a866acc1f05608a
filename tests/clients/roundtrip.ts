/**
 * Round trips of partgraph's rigged output through the tools users edit it in (Blender, three.js's
 * `GLTFExporter`): rig a file, pass the output through the tool, rig what the tool wrote again, and
 * compare the two rigs on what a user relies on — the parts, their kinds, sides and interop extras,
 * and their hinge lines (angle and offset, measured).
 *
 * @module
 */
import { join } from "node:path";
import { runGraph } from "../../mod.ts";
import type { BytesValue } from "../../runtime/node.ts";

import { graphPath } from "../support/graph_runs.ts";
import { tempDir } from "../support/temp.ts";

/** One part of a rig report (the fields compared). */
export interface ReportPart {
  name: string;
  path: string;
  kind: string;
  side: string | null;
  found_by: string;
  ctrl_type: string;
  min: number | null;
  max: number | null;
  rest: number;
  group: string | null;
  positive: string | null;
  panel: string | null;
  hinge: { world: { origin: number[]; axis: number[] } } | null;
}

/** What one run of `graphs/aircraft_file.json` gave. */
export interface Rigged {
  readonly glb: Uint8Array;
  readonly parts: ReportPart[];
  /** The report's aircraft frame (signed axes of the file). */
  readonly frame: { forward: string; up: string };
  readonly warnings: string[];
}

/** Runs `graphs/aircraft_file.json` on a GLB (memory cache only). */
export async function rigGlb(glb: Uint8Array, inputs: Record<string, unknown> = {}): Promise<Rigged> {
  const dir = await tempDir();
  try {
    const model = join(dir, "model.glb");
    await Deno.writeFile(model, glb);
    const run = await runGraph(graphPath("aircraft_file.json"), {
      inputs: { ...inputs, model },
      outDir: join(dir, "out"),
      cacheDir: false,
    });
    const report = run.outputs.report as { parts: ReportPart[]; frame: { forward: string; up: string } };
    return {
      glb: (run.outputs.glb as BytesValue).bytes,
      parts: report.parts,
      frame: { forward: report.frame.forward, up: report.frame.up },
      warnings: run.warnings.map((w) => w.message),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The fields of a part that must come back the same. */
export const SAME_FIELDS = ["kind", "side", "ctrl_type", "min", "max", "rest", "group", "positive"] as const;

/** How a second rig differs from the first. */
export interface RigDifference {
  /** Parts of the first rig the second does not have (by name). */
  lost: string[];
  /** Parts only the second has. */
  added: string[];
  /** `part.field: first → second` for every differing field of {@link SAME_FIELDS}, and the panel. */
  changed: string[];
  /** Largest angle between a part's hinge axes, degrees. */
  worstAngle: number;
  /** Largest distance of the second hinge's origin from the first hinge line, scene units. */
  worstOffset: number;
  /** Parts compared. */
  compared: number;
}

/** Compares two rig reports part by part (matched by name). */
export function compareRigs(first: readonly ReportPart[], second: readonly ReportPart[]): RigDifference {
  const byName = new Map(second.map((p) => [p.name, p]));
  const names = new Set(first.map((p) => p.name));
  const out: RigDifference = {
    lost: first.filter((p) => !byName.has(p.name)).map((p) => p.name),
    added: second.filter((p) => !names.has(p.name)).map((p) => p.name),
    changed: [],
    worstAngle: 0,
    worstOffset: 0,
    compared: 0,
  };
  for (const a of first) {
    const b = byName.get(a.name);
    if (!b) continue;
    out.compared++;
    for (const field of [...SAME_FIELDS, "panel"] as const) {
      if (a[field] !== b[field]) out.changed.push(`${a.name}.${field}: ${a[field]} → ${b[field]}`);
    }
    if (!a.hinge || !b.hinge) {
      if (a.hinge || b.hinge) out.changed.push(`${a.name}.hinge: ${!!a.hinge} → ${!!b.hinge}`);
      continue;
    }
    const [u, v] = [a.hinge.world.axis, b.hinge.world.axis];
    const cos = Math.min(1, Math.max(-1, u[0] * v[0] + u[1] * v[1] + u[2] * v[2]));
    out.worstAngle = Math.max(out.worstAngle, Math.acos(cos) * 180 / Math.PI);
    const d = a.hinge.world.origin.map((x, i) => b.hinge!.world.origin[i] - x);
    const along = d[0] * u[0] + d[1] * u[1] + d[2] * u[2];
    out.worstOffset = Math.max(
      out.worstOffset,
      Math.sqrt(Math.max(0, d[0] ** 2 + d[1] ** 2 + d[2] ** 2 - along ** 2)),
    );
  }
  return out;
}

/** The JSON chunk of a GLB. */
// deno-lint-ignore no-explicit-any
export function glbJson(glb: Uint8Array): any {
  const length = new DataView(glb.buffer, glb.byteOffset + 12, 4).getUint32(0, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
}

/** The interop extras a user's runtime reads, by node name, for every node of the GLB declaring a part. */
export function interopExtras(glb: Uint8Array): Map<string, Record<string, unknown>> {
  const keys = ["ctrl_type", "axis", "unit", "min", "max", "rest", "group", "positive"];
  const out = new Map<string, Record<string, unknown>>();
  for (const node of glbJson(glb).nodes ?? []) {
    if (!node.extras?.ctrl_type) continue;
    out.set(
      node.name,
      Object.fromEntries(keys.filter((k) => k in node.extras).map((k) => [k, node.extras[k]])),
    );
  }
  return out;
}

/**
 * Pivots inserted under a pivot of the same panel: a node `HINGE_auto_<x>_<n>` or a `HINGE_auto_`
 * node with a `HINGE_auto_` turning ancestor that is not its own `_rest`/`_unscale` helper.
 */
export function nestedPivots(glb: Uint8Array): string[] {
  const json = glbJson(glb);
  // deno-lint-ignore no-explicit-any
  const nodes: any[] = json.nodes ?? [];
  const parent = new Map<number, number>();
  nodes.forEach((n, i) => (n.children ?? []).forEach((c: number) => parent.set(c, i)));
  const out: string[] = [];
  nodes.forEach((node, i) => {
    if (!node.extras?.ctrl_type || !String(node.name).startsWith("HINGE_auto_")) return;
    for (let p = parent.get(i); p !== undefined; p = parent.get(p)) {
      if (nodes[p].extras?.ctrl_type) out.push(`${node.name} under ${nodes[p].name}`);
    }
  });
  return out;
}
