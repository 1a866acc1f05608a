/**
 * Daz subdivision surfaces. A geometry of `type: "subdivision_surface"` (every Genesis figure, most
 * store clothing) is drawn by Daz Studio subdivided: its `studio_geometry_channels` give the view
 * level ("SubDIALevel", "View SubD Level"), the render minimum ("SubDRenderLevel"), the scheme
 * ("SubDAlgorithmControl": Catmark, Bilinear, Loop, Catmull-Clark (Legacy)) and the edge rule
 * ("SubDEdgeInterpolateLevel", or the geometry's `edge_interpolation_mode`). A `polygon_mesh` with the
 * same channels (the DazToRoblox graft) is drawn at base resolution: its levels mean nothing.
 *
 * The decode draws the cage, the base resolution, as Daz's own exporters do by default and as every
 * rig and morph is authored on; subdividing is left to the consumer, which finds the levels in
 * `extras.partgraph.dson.subdivision`. Since the shape differs from what Daz shows (corners rounded,
 * the surface shrunk towards the limit), the decode names such meshes in one warning (before
 * decode.dson v51 the levels were dropped and nothing said).
 *
 * @module
 */
import type { JsonRecord } from "./read_json.ts";

/** What Daz's channels say of a subdivision surface. */
export interface Subdivision {
  /** The level Daz Studio's viewport subdivides to. */
  readonly view_level: number;
  /** The least level a render subdivides to. */
  readonly render_level: number;
  readonly algorithm?: string;
  readonly edge_interpolation?: string;
}

/**
 * The subdivision a geometry record asks for, or undefined for a polygon mesh. Channel values are
 * read `current_value ?? value`; a missing or malformed channel leaves its default (view level 1, as
 * Daz Studio creates a figure; render level 0).
 *
 * @example
 * ```ts
 * readSubdivision({ type: "subdivision_surface", extra: [] }); // { view_level: 1, render_level: 0 }
 * ```
 */
export function readSubdivision(geometry: JsonRecord): Subdivision | undefined {
  if (geometry.type !== "subdivision_surface") return undefined;
  const channels = new Map<string, JsonRecord>();
  for (const extra of Array.isArray(geometry.extra) ? geometry.extra : []) {
    const list = (extra as JsonRecord | null)?.channels;
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const channel = (entry as JsonRecord | null)?.channel as JsonRecord | undefined;
      if (channel && typeof channel.id === "string") channels.set(channel.id, channel);
    }
  }
  const value = (id: string) => {
    const c = channels.get(id);
    const v = c?.current_value ?? c?.value;
    return typeof v === "number" && Number.isFinite(v) ? v : undefined;
  };
  const named = (id: string) => {
    const c = channels.get(id), v = value(id);
    const names = c?.enum_values;
    return Array.isArray(names) && v !== undefined && typeof names[v] === "string"
      ? names[v] as string
      : undefined;
  };
  const edges = named("SubDEdgeInterpolateLevel") ??
    (typeof geometry.edge_interpolation_mode === "string" ? geometry.edge_interpolation_mode : undefined);
  const algorithm = named("SubDAlgorithmControl");
  return {
    view_level: Math.max(0, Math.round(value("SubDIALevel") ?? 1)),
    render_level: Math.max(0, Math.round(value("SubDRenderLevel") ?? 0)),
    ...(algorithm ? { algorithm } : {}),
    ...(edges ? { edge_interpolation: edges } : {}),
  };
}

/**
 * One warning naming the meshes Daz Studio shows subdivided (view level 1 or more) that are drawn
 * as their cage; undefined when there are none.
 */
export function subdivisionWarning(
  meshes: readonly { name: string; subdivision?: Subdivision }[],
): string | undefined {
  const shown = meshes.filter((m) => (m.subdivision?.view_level ?? 0) > 0);
  if (!shown.length) return undefined;
  const list = shown.slice(0, 5).map((m) => `'${m.name}' (level ${m.subdivision!.view_level})`).join(", ");
  return `dson: ${shown.length} mesh(es) Daz Studio shows subdivided are drawn at base resolution, their cage ` +
    `(${list}${
      shown.length > 5 ? ", …" : ""
    }): corners are sharper and the surface fuller than Daz's view; ` +
    "extras.partgraph.dson.subdivision keeps the levels for a subdivision downstream";
}
