/**
 * DSON `geometry` and `uv_set` records decoded into flat typed arrays, with every index checked
 * against the array it points into. Units stay as authored (centimetres); the scene builder
 * converts.
 *
 * @module
 */
import type { JsonReader, JsonRecord } from "./read_json.ts";
import { decodeRigidity, type DsonRigidity } from "./rigidity.ts";
import { type AuthoredPolys, EAR_CLIP_LIMIT, readPolygon } from "./polygons.ts";
import { readSubdivision, type Subdivision } from "./subdivision.ts";

/** A geograft: the graft mesh is welded onto a target figure whose base mesh has these counts. */
export interface DsonGraft {
  /** Vertex count of the target's base mesh. */
  readonly vertexCount: number;
  /** Polygon count of the target's base mesh. */
  readonly polyCount: number;
  /** Pairs `[graftVertex, targetVertex]`, flat. */
  readonly vertexPairs: Int32Array;
  /** Target polygons the graft replaces (hidden on the target). */
  readonly hiddenPolys: Int32Array;
  /**
   * An index past the counts it must stay under (a graft vertex past the graft's mesh, a target
   * vertex or polygon past the target counts the record gives): where the first is and what it is.
   * Such a graft is not merged (it stays a separate mesh, warned), as a morph naming a vertex past
   * its geometry is left out; before decode.dson v36 it failed the whole scene with a DecodeError.
   */
  readonly damaged?: { readonly path: string; readonly what: string };
}

/** The largest index read from a graft record before it is checked against its counts. */
const MAX_INDEX = 2 ** 31 - 1;

/** A decoded polygon mesh. */
export interface DsonGeometry {
  readonly id: string;
  readonly name: string;
  /** `polygon_mesh` or `subdivision_surface`. */
  readonly type: string;
  /** What Daz's channels say of a subdivision surface (absent for a polygon mesh). */
  readonly subdivision?: Subdivision;
  /** Vertex positions in centimetres, `[x0, y0, z0, …]`. */
  readonly positions: Float64Array;
  readonly vertexCount: number;
  /** Four vertex indices per polygon; the fourth is -1 for a triangle. */
  readonly polyVerts: Int32Array;
  /** Polygons drawn: the file's, but for those cut into triangles or dropped (see `authored`). */
  readonly polyCount: number;
  /**
   * Set when the polygons drawn are not the file's one to one (a polygon of over four corners cut
   * into triangles, a degenerate one dropped): which file polygon each is, for indices the file's
   * records give (seam overrides, hidden polygons).
   */
  readonly authored?: AuthoredPolys;
  /** Face group of each polygon (index into `groupNames`; -1: none, its index was out of range). */
  readonly polyGroup: Int32Array;
  /** Surface of each polygon (index into `materialNames`). */
  readonly polyMaterial: Int32Array;
  readonly groupNames: readonly string[];
  readonly materialNames: readonly string[];
  /** URI of the default UV set, if any. */
  readonly defaultUvSet?: string;
  readonly graft?: DsonGraft;
  readonly rigidity?: DsonRigidity;
  /** JSON pointer of the record, for messages. */
  readonly path: string;
}

/** A decoded UV set. */
export interface DsonUvSet {
  readonly id: string;
  readonly name: string;
  /** Vertex count of the geometry it was made for. */
  readonly vertexCount: number;
  /** UV pairs as authored (v up), `[u0, v0, …]`. */
  readonly uvs: Float64Array;
  /** Seam overrides, flat triples `[polygon, vertex, uvIndex]`. */
  readonly overrides: Int32Array;
}

/**
 * Decodes a `geometry` record.
 *
 * @example
 * ```ts
 * const geometry = decodeGeometry(json.geometry_library[0], "/geometry_library/0", read);
 * geometry.polyCount; // polygons, tris and quads
 * ```
 */
export function decodeGeometry(value: JsonRecord, path: string, read: JsonReader): DsonGeometry {
  const id = read.string(value.id, `${path}/id`);
  const positions = read.vec3Array(value.vertices ?? [], `${path}/vertices`);
  const vertexCount = positions.length / 3;
  const groupNames = value.polygon_groups === undefined
    ? ["default"]
    : read.stringArray(value.polygon_groups, `${path}/polygon_groups`);
  const materialNames = value.polygon_material_groups === undefined
    ? ["default"]
    : read.stringArray(value.polygon_material_groups, `${path}/polygon_material_groups`);
  const { items: polys, path: polyPath } = read.values(value.polylist ?? [], `${path}/polylist`);
  const drawn: number[] = [], drawnGroup: number[] = [], drawnSurface: number[] = [], of: number[] = [];
  const strayGroups = new StrayIndices(polyPath, 0);
  const straySurfaces = new StrayIndices(polyPath, 1);
  const repairs = { ngon: new Repairs(), degenerate: new Repairs(), line: new Repairs() };
  // Index 0 into an empty list is out of range too: before, such a polygon was never drawn.
  const groupLimit = groupNames.length, surfaceLimit = materialNames.length;
  for (let p = 0; p < polys.length; p++) {
    const poly = polys[p];
    const at = `${polyPath}/${p}`;
    // Two corners is a line (hair guides, wires, edge-only props some exporters write): read, then
    // dropped below. Fewer is no polygon any tool writes.
    if (!Array.isArray(poly) || poly.length < 4) {
      read.fail(at, "[group, material, v0, v1, v2, …] (a polygon of 3 or more vertices)", poly);
    }
    const group = read.integer(poly[0], `${at}/0`, Number.MIN_SAFE_INTEGER);
    const surface = read.integer(poly[1], `${at}/1`, Number.MIN_SAFE_INTEGER);
    const corners = poly.slice(2).map((v: unknown, k: number) =>
      read.integer(v, `${at}/${k + 2}`, 0, vertexCount - 1)
    );
    // A line's group and surface name nothing drawn: not counted as stray.
    if (corners.length === 2) {
      repairs.line.add(p, corners, 0);
      continue;
    }
    const groupIndex = group >= 0 && group < groupLimit ? group : strayGroups.add(p, group, -1);
    const surfaceIndex = surface >= 0 && surface < surfaceLimit
      ? surface
      : straySurfaces.add(p, surface, materialNames.length);
    const { pieces, repair, fanned } = readPolygon(corners, positions);
    if (repair) repairs[repair].add(p, corners, pieces.length);
    if (fanned) repairs.ngon.fanned++;
    for (const piece of pieces) {
      drawn.push(piece[0], piece[1], piece[2], piece[3] ?? -1);
      drawnGroup.push(groupIndex);
      drawnSurface.push(surfaceIndex);
      of.push(p);
    }
  }
  const polyVerts = Int32Array.from(drawn);
  const polyGroup = Int32Array.from(drawnGroup);
  const polyMaterial = Int32Array.from(drawnSurface);
  // Read one to one unless a polygon was cut or dropped: then the file's polygon indices (UV seam
  // overrides, a graft's hidden polygons) name pieces through `authored`.
  const authored = of.length === polys.length && repairs.ngon.count === 0
    ? undefined
    : { count: polys.length, of: Int32Array.from(of) };
  // Said once per geometry, at its first such polygon (before decode.dson v41 a polygon of over four
  // corners was a DecodeError for the whole scene, and a degenerate one was drawn as slivers).
  const { ngon, degenerate, line } = repairs;
  if (ngon.first) {
    read.repair(
      `${polyPath}/${ngon.first.p}`,
      `${ngon.count} polygon(s) of geometry '${id}' have more than the four corners the DSON spec allows ` +
        `(the first, polygon ${ngon.first.p}: ${ngon.first.corners.length} corners); cut into ${ngon.pieces} ` +
        "triangles in their own planes, as the readers that accept such polygons draw them" +
        (ngon.fanned
          ? ` (${ngon.fanned} of them, not convex and of over ${EAR_CLIP_LIMIT} corners, fanned from their first ` +
            "corner: they may cover past their outline)"
          : ""),
    );
  }
  if (degenerate.first) {
    read.repair(
      `${polyPath}/${degenerate.first.p}`,
      `${degenerate.count} polygon(s) of geometry '${id}' have fewer than three distinct vertices (the ` +
        `first, polygon ${degenerate.first.p}: [${
          degenerate.first.corners.join(", ")
        }]); they cover nothing ` +
        "and are dropped",
    );
  }
  // Before decode.dson v42 a line was a DecodeError for the whole scene; the readers skip them.
  if (line.first) {
    read.repair(
      `${polyPath}/${line.first.p}`,
      `${line.count} polylist entries of geometry '${id}' have two corners (lines: hair guides, wires or ` +
        `edges; the first, entry ${line.first.p}: [${line.first.corners.join(", ")}]); a line covers no ` +
        "surface and is dropped, the faces are kept",
    );
  }
  // Face groups only name polygons (nothing here reads them): a stray index costs no geometry.
  strayGroups.report(
    read,
    `face group (polygon_groups has ${groupNames.length})`,
    "they are in no face group; the mesh is unchanged",
  );
  // A polygon must be drawn with some material: a surface of its own, white, keeps it visible and
  // apart from the named surfaces, as a renderer's default material would.
  if (straySurfaces.count) materialNames.push(unusedName(STRAY_SURFACE, materialNames));
  straySurfaces.report(
    read,
    `surface (polygon_material_groups has ${materialNames.length - 1})`,
    `they are drawn with a default white material, surface '${materialNames.at(-1)}'`,
  );
  const graftJson = read.optObject(value.graft, `${path}/graft`);
  let graft: DsonGraft | undefined;
  if (graftJson) {
    const graftVertexCount = read.integer(graftJson.vertex_count ?? 0, `${path}/graft/vertex_count`);
    const polyCount = read.integer(graftJson.poly_count ?? 0, `${path}/graft/poly_count`);
    const pairsAt = `${path}/graft/vertex_pairs`, hiddenAt = `${path}/graft/hidden_polys`;
    const vertexPairs = read.indexPairs(graftJson.vertex_pairs ?? [], pairsAt, MAX_INDEX, MAX_INDEX);
    const hiddenPolys = read.indexArray(graftJson.hidden_polys ?? [], hiddenAt, MAX_INDEX);
    graft = {
      vertexCount: graftVertexCount,
      polyCount,
      vertexPairs,
      hiddenPolys,
      ...damage(
        read,
        graftJson,
        { vertexPairs, hiddenPolys, vertexCount, graftVertexCount, polyCount },
        path,
      ),
    };
  }
  const rigidityJson = read.optObject(value.rigidity, `${path}/rigidity`);
  return {
    id,
    name: read.optString(value.name, `${path}/name`) ?? id,
    type: read.optString(value.type, `${path}/type`) ?? "polygon_mesh",
    ...subdivisionOf(value),
    positions,
    vertexCount,
    polyVerts,
    polyCount: polyGroup.length,
    ...(authored ? { authored } : {}),
    polyGroup,
    polyMaterial,
    groupNames,
    materialNames,
    defaultUvSet: read.optString(value.default_uv_set, `${path}/default_uv_set`),
    graft,
    rigidity: rigidityJson
      ? decodeRigidity(rigidityJson, `${path}/rigidity`, vertexCount, read, id)
      : undefined,
    path,
  };
}

/** The geometry's subdivision, as an optional field. */
function subdivisionOf(value: JsonRecord): { subdivision?: Subdivision } {
  const subdivision = readSubdivision(value);
  return subdivision ? { subdivision } : {};
}

/** The surface polygons with an out-of-range surface index are put on. */
export const STRAY_SURFACE = "no surface";

/**
 * Polygons of a polylist whose group or surface index (entry `slot` of each polygon) is out of
 * range: counted, the first remembered, then said in one warning.
 */
class StrayIndices {
  count = 0;
  #first = -1;
  #firstIndex = 0;
  readonly #polyPath: string;
  readonly #slot: number;
  constructor(polyPath: string, slot: number) {
    this.#polyPath = polyPath;
    this.#slot = slot;
  }

  /** Counts polygon `p` with index `index`; returns `replacement`. */
  add(p: number, index: number, replacement: number): number {
    if (this.count++ === 0) {
      this.#first = p;
      this.#firstIndex = index;
    }
    return replacement;
  }

  /** Warns once, at the first stray polygon's index: `what` the index names, `outcome` the repair. */
  report(read: JsonReader, what: string, outcome: string): void {
    if (!this.count) return;
    read.repair(
      `${this.#polyPath}/${this.#first}/${this.#slot}`,
      `${this.count} polygon(s) name a ${what} out of range (the first, polygon ${this.#first}: ` +
        `${this.#firstIndex}); ${outcome}`,
    );
  }
}

/** Polygons read other than as written, of one kind: counted, the first remembered. */
class Repairs {
  count = 0;
  pieces = 0;
  fanned = 0;
  first?: { p: number; corners: readonly number[] };
  add(p: number, corners: readonly number[], pieces: number): void {
    if (this.count++ === 0) this.first = { p, corners };
    this.pieces += pieces;
  }
}

/** `name`, or `name (2)`, `name (3)`… — the first not in `taken`. */
function unusedName(name: string, taken: readonly string[]): string {
  let candidate = name;
  for (let k = 2; taken.includes(candidate); k++) candidate = `${name} (${k})`;
  return candidate;
}

/**
 * Decodes a `uv_set` record. Override polygon and UV indices are checked against `polyCount` and
 * the UV count.
 */
export function decodeUvSet(value: JsonRecord, path: string, read: JsonReader, polyCount: number): DsonUvSet {
  const id = read.string(value.id, `${path}/id`);
  const uvs = read.vec2Array(value.uvs ?? [], `${path}/uvs`);
  const uvCount = uvs.length / 2;
  const { items, path: at } = read.values(
    value.polygon_vertex_indices ?? [],
    `${path}/polygon_vertex_indices`,
  );
  const overrides = new Int32Array(items.length * 3);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (!Array.isArray(item) || item.length < 3) read.fail(`${at}/${i}`, "[polygon, vertex, uv]", item);
    overrides[i * 3] = read.integer(item[0], `${at}/${i}/0`, 0, polyCount - 1);
    // Held in 32 bits: a larger vertex would wrap round to another (2³² + v to vertex v, silently).
    overrides[i * 3 + 1] = read.integer(item[1], `${at}/${i}/1`, 0, 0x7fffffff);
    overrides[i * 3 + 2] = read.integer(item[2], `${at}/${i}/2`, 0, uvCount - 1);
  }
  return {
    id,
    name: read.optString(value.name, `${path}/name`) ?? id,
    vertexCount: read.integer(value.vertex_count ?? uvCount, `${path}/vertex_count`),
    uvs,
    overrides,
  };
}

/** The first index of a graft record past its counts, if any (see {@link DsonGraft.damaged}). */
function damage(
  read: JsonReader,
  graftJson: JsonRecord,
  g: {
    vertexPairs: Int32Array;
    hiddenPolys: Int32Array;
    vertexCount: number;
    graftVertexCount: number;
    polyCount: number;
  },
  path: string,
): { damaged?: DsonGraft["damaged"] } {
  for (let k = 0; k < g.vertexPairs.length; k += 2) {
    const [own, target] = [g.vertexPairs[k], g.vertexPairs[k + 1]];
    if (own < g.vertexCount && target < g.graftVertexCount) continue;
    const at = read.values(graftJson.vertex_pairs, `${path}/graft/vertex_pairs`).path;
    const what = own >= g.vertexCount
      ? `its vertex_pairs weld graft vertex ${own}, but the graft's mesh has ${g.vertexCount} vertices`
      : `its vertex_pairs weld onto target vertex ${target}, but the target's vertex_count is ${g.graftVertexCount}`;
    return { damaged: { path: `${at}/${k / 2}/${own >= g.vertexCount ? 0 : 1}`, what } };
  }
  const beyond = g.hiddenPolys.findIndex((p) => p >= g.polyCount);
  if (beyond < 0) return {};
  const at = read.values(graftJson.hidden_polys, `${path}/graft/hidden_polys`).path;
  return {
    damaged: {
      path: `${at}/${beyond}`,
      what: `its hidden_polys name polygon ${
        g.hiddenPolys[beyond]
      }, but the target's poly_count is ${g.polyCount}`,
    },
  };
}
