/**
 * A file partgraph rigged, turned to other axes by a tool since: Blender's exporter with "+Y Up" off
 * writes Z up, yet keeps the scene's custom properties — the frame an earlier run recorded
 * (`extras.partgraph.source`, `extras.partgraph.frame`) — when Include → Custom Properties is on. That
 * frame no longer holds, and new panels would be fitted and sided in the wrong frame. The earlier
 * run's pivots tell: each recorded its hinge's world axis, and its own X is that axis in the file as it
 * is now. When they disagree the recorded frame is dropped, so the frame is found from the geometry.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";
import type { JsonValue, RunContext } from "../../runtime/node.ts";
import { getPartgraphExtras } from "../../runtime/scene/extras.ts";
import { getPart } from "./part_extras.ts";
import { dot, length, normalize, sub, transformDirection } from "./transform.ts";

type JsonObject = { [key: string]: JsonValue };

/** Angle (degrees) between a pivot's recorded and present hinge axis beyond which the axes moved. */
const MOVED_DEGREES = 1;

/** A pivot of the earlier run: its recorded world hinge, and where the file puts its frame now. */
interface Pivot {
  readonly axis: [number[], number[]];
  readonly origin: [number[], number[]];
}

function pivotOf(node: Node): Pivot | undefined {
  const hinge = getPart(node)?.hinge;
  if (!getPart(node)?.panel || !hinge?.axis_world || !hinge.origin_world) return undefined;
  const world = node.getWorldMatrix();
  return {
    axis: [normalize(hinge.axis_world), normalize(transformDirection(world, [1, 0, 0]))],
    origin: [[...hinge.origin_world], [world[12], world[13], world[14]]],
  };
}

/** Angle between two directions, degrees; `sign` false ignores which way they point. */
function degrees(a: ArrayLike<number>, b: ArrayLike<number>, sign: boolean): number {
  const cos = dot(normalize(a), normalize(b));
  return Math.acos(Math.min(1, sign ? cos : Math.abs(cos))) * 180 / Math.PI;
}

/**
 * How far each pivot turned, degrees: its hinge axis (sign ignored), and the line from the first
 * pivot to it (a turn about a hinge's own line leaves the axis alone; a move or scale leaves both).
 */
function turns(pivots: readonly Pivot[]): number[] {
  const [first] = pivots;
  return pivots.map((p) => {
    const before = sub(p.origin[0], first.origin[0]);
    const after = sub(p.origin[1], first.origin[1]);
    const far = length(before) > 1e-6 && length(after) > 1e-6;
    return Math.max(degrees(p.axis[0], p.axis[1], false), far ? degrees(before, after, true) : 0);
  });
}

/**
 * Drops the recorded frame when most of the earlier run's pivots turned since (see the module), with
 * a warning naming the likely cause; returns true when it did.
 */
export function dropMovedFrame(doc: Document, ctx: RunContext): boolean {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  const own = scene ? getPartgraphExtras(scene) : {};
  const source = own.source as JsonObject | undefined;
  const recorded = own.frame !== undefined || (source?.forward !== undefined && source?.up !== undefined);
  if (!scene || !recorded) return false;
  const pivots = doc.getRoot().listNodes().map(pivotOf).filter((p): p is Pivot => p !== undefined);
  const drifts = pivots.length ? turns(pivots).sort((a, b) => a - b) : [];
  const median = drifts[Math.floor(drifts.length / 2)];
  if (median === undefined || median <= MOVED_DEGREES) return false;
  const extras = { ...scene.getExtras() } as Record<string, unknown>;
  const kept: JsonObject = { ...own };
  delete kept.frame;
  if (source) {
    const { forward: _forward, up: _up, ...rest } = source;
    kept.source = rest;
  }
  extras.partgraph = kept;
  scene.setExtras(extras);
  ctx.warn(
    `the file's axes turned since partgraph rigged it (its pivots' hinges are ${median.toFixed(1)}° off ` +
      "the axes they recorded): the frame recorded then is not used but found from the geometry. " +
      "Blender's glTF exporter writes Z up with +Y Up off; leave it on",
    { degrees: median, pivots: drifts.length },
  );
  return true;
}
