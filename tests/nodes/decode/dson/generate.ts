/**
 * A small DSON generator for tests and benches: a figure made of a flat grid of quads (plus a
 * triangle row), a chain of bones along +Y, a skin binding where every vertex is weighted by up to
 * `influences` bones, a UV set with optional seams, and optional morph and rigidity records.
 * Numbers are chosen so tests can compute expectations independently.
 *
 * @module
 */

/** A JSON object. */
export type Json = Record<string, unknown>;

/** Options of {@link generateFigure}. */
export interface FigureOptions {
  /** Vertices per grid side (the grid has side² vertices). */
  side: number;
  /** Bones in the chain under the figure root. */
  bones: number;
  /** Bones weighting each vertex (weights 1, 2, 3, … before normalisation). */
  influences?: number;
  /** Grid spacing in centimetres. */
  spacing?: number;
  /** Add a UV seam down the middle column (split vertices). */
  seam?: boolean;
  /** Two surfaces (left and right half) instead of one. */
  twoSurfaces?: boolean;
  /** File asset id. */
  assetId?: string;
  /** Figure id (the bones are `<id>_bone<k>`). */
  figureId?: string;
}

/** Position of grid vertex `(i, j)` (column i, row j) in centimetres. */
export function gridPosition(i: number, j: number, spacing = 1): [number, number, number] {
  return [i * spacing, j * spacing, 0];
}

/**
 * Generates a figure `.duf` (with a scene) as a JSON object.
 *
 * @example
 * ```ts
 * const json = generateFigure({ side: 4, bones: 2 });
 * const bytes = new TextEncoder().encode(JSON.stringify(json));
 * ```
 */
export function generateFigure(options: FigureOptions): Json {
  const { side, bones } = options;
  const influences = Math.min(options.influences ?? 2, bones + 1);
  const spacing = options.spacing ?? 1;
  const figureId = options.figureId ?? "gen_figure";
  const vertices: number[][] = [];
  for (let j = 0; j < side; j++) for (let i = 0; i < side; i++) vertices.push(gridPosition(i, j, spacing));
  const polys: number[][] = [];
  const half = Math.floor((side - 1) / 2);
  for (let j = 0; j < side - 1; j++) {
    for (let i = 0; i < side - 1; i++) {
      const a = j * side + i;
      const material = options.twoSurfaces && i >= half ? 1 : 0;
      // The last row is split into triangles so both polygon kinds are exercised.
      if (j === side - 2) {
        polys.push([0, material, a, a + 1, a + side + 1]);
        polys.push([0, material, a, a + side + 1, a + side]);
      } else {
        polys.push([0, material, a, a + 1, a + side + 1, a + side]);
      }
    }
  }
  const uvs = vertices.map(([x, y]) => [x / ((side - 1) * spacing), y / ((side - 1) * spacing)]);
  const overrides: number[][] = [];
  if (options.seam) {
    // Polygons right of the seam column use a second copy of the seam vertices' UVs.
    const seamColumn = half;
    for (let p = 0; p < polys.length; p++) {
      for (const v of polys[p].slice(2)) {
        const i = v % side;
        const polyColumn = Math.min(...polys[p].slice(2).map((w) => w % side));
        if (i === seamColumn && polyColumn >= seamColumn) {
          overrides.push([p, v, uvs.length + Math.floor(v / side)]);
        }
      }
    }
    for (let j = 0; j < side; j++) {
      uvs.push([uvs[j * side + seamColumn][0] + 0.5, uvs[j * side + seamColumn][1]]);
    }
  }
  const boneIds = Array.from({ length: bones }, (_, k) => `${figureId}_bone${k}`);
  const height = (side - 1) * spacing;
  const nodeLibrary: Json[] = [
    { id: figureId, name: figureId, type: "figure", label: "Generated", rotation_order: "YXZ" },
    ...boneIds.map((id, k) => ({
      id,
      name: id,
      type: "bone",
      label: id,
      parent: `#${k === 0 ? figureId : boneIds[k - 1]}`,
      rotation_order: "YZX",
      center_point: channels("float", [0, (height * k) / Math.max(bones, 1), 0]),
      end_point: channels("float", [0, (height * (k + 1)) / Math.max(bones, 1), 0]),
      orientation: channels("float", [0, 0, k % 2 ? 10 : 0]),
    })),
  ];
  // Vertex v is weighted by bones (row band + m) % bones for m < influences, weight m + 1 out of
  // their sum, so each vertex's weights sum to 1 as Daz writes them (weights above 1 are warned).
  const jointWeights: number[][][] = boneIds.map(() => []);
  const total = (influences * (influences + 1)) / 2;
  for (let v = 0; v < vertices.length; v++) {
    const band = Math.floor((Math.floor(v / side) * bones) / side);
    for (let m = 0; m < influences; m++) jointWeights[(band + m) % bones].push([v, (m + 1) / total]);
  }
  return {
    file_version: "0.6.1.0",
    asset_info: { id: options.assetId ?? "/data/Generated/figure.duf", type: "figure" },
    geometry_library: [{
      id: `${figureId}_geo`,
      name: `${figureId}_geo`,
      type: "polygon_mesh",
      vertices: { count: vertices.length, values: vertices },
      polygon_groups: { count: 1, values: ["body"] },
      polygon_material_groups: {
        count: options.twoSurfaces ? 2 : 1,
        values: options.twoSurfaces ? ["Left", "Right"] : ["Skin"],
      },
      polylist: { count: polys.length, values: polys },
      default_uv_set: "#gen_uvs",
    }],
    uv_set_library: [{
      id: "gen_uvs",
      name: "Generated UVs",
      vertex_count: vertices.length,
      uvs: { count: uvs.length, values: uvs },
      polygon_vertex_indices: overrides,
    }],
    node_library: nodeLibrary,
    modifier_library: [{
      id: "SkinBinding",
      name: "SkinBinding",
      parent: `#${figureId}_geo`,
      skin: {
        node: `#${figureId}`,
        geometry: `#${figureId}_geo`,
        vertex_count: vertices.length,
        joints: boneIds.map((id, k) => ({
          id,
          node: `#${id}`,
          node_weights: { count: jointWeights[k].length, values: jointWeights[k] },
        })),
      },
    }],
    scene: {
      nodes: [
        {
          id: `${figureId}-1`,
          url: `#${figureId}`,
          name: figureId,
          geometries: [{ id: `${figureId}_geo-1`, url: `#${figureId}_geo` }],
        },
      ],
      modifiers: [{ id: "SkinBinding-1", url: "#SkinBinding", parent: `#${figureId}_geo-1` }],
    },
  };
}

/** A DSON channel triple `[{id: "x", value}, …]`. */
export function channels(type: string, values: readonly number[]): Json[] {
  return ["x", "y", "z"].map((id, k) => ({ id, type, value: values[k], current_value: values[k] }));
}

/** What {@link propFile} puts in its one geometry. */
export interface PropGeometry {
  /** The asset id, e.g. `/data/Vendor/Belt/Belt.dsf`. */
  readonly assetId: string;
  /** The node's id (the geometry is `<name>_geo`). */
  readonly name: string;
  readonly vertices: readonly (readonly number[])[];
  /** `polylist` entries: group, surface, corners. */
  readonly polys: readonly (readonly number[])[];
  readonly groups: readonly string[];
  readonly surfaces: readonly string[];
  /** A default UV set `<name>_uvs` with these UVs and `polygon_vertex_indices` overrides. */
  readonly uvs?: {
    readonly values: readonly (readonly number[])[];
    readonly overrides: readonly (readonly number[])[];
  };
  /** More fields of the geometry (`rigidity`, …). */
  readonly extra?: Json;
}

/** A `.dsf` as a prop is saved: one polygon mesh, one node drawing it, the scene instancing both. */
export function propFile(prop: PropGeometry): Json {
  const { name, vertices, polys, groups, surfaces, uvs } = prop;
  return {
    file_version: "0.6.0.0",
    asset_info: { id: prop.assetId, type: "prop" },
    geometry_library: [{
      id: `${name}_geo`,
      name: `${name}_geo`,
      type: "polygon_mesh",
      vertices: { count: vertices.length, values: vertices },
      polygon_groups: { count: groups.length, values: groups },
      polygon_material_groups: { count: surfaces.length, values: surfaces },
      polylist: { count: polys.length, values: polys },
      ...(uvs && { default_uv_set: `#${name}_uvs` }),
      ...prop.extra,
    }],
    ...(uvs && {
      uv_set_library: [{
        id: `${name}_uvs`,
        name: "Default UVs",
        vertex_count: vertices.length,
        uvs: { count: uvs.values.length, values: uvs.values },
        polygon_vertex_indices: uvs.overrides,
      }],
    }),
    node_library: [{ id: name, name, type: "node", label: name }],
    scene: {
      nodes: [{
        id: `${name}-1`,
        url: `#${name}`,
        geometries: [{ id: `${name}_geo-1`, url: `#${name}_geo` }],
      }],
    },
  };
}

/** JSON text bytes of a DSON object. */
export function dsonBytes(json: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(json));
}

/** A pose preset `pose.duf` setting each `[node, channel, value]` (`rotation/z`, degrees) at frame 0. */
export function posePreset(
  settings: readonly (readonly [string, string, number])[],
): { bytes: Uint8Array; name: string } {
  return {
    bytes: dsonBytes({
      file_version: "0.6.1.0",
      asset_info: { id: "/code/preset.duf", type: "preset_pose" },
      scene: {
        animations: settings.map(([node, channel, value]) => ({
          url: `name://@selection/${node}:?${channel}/value`,
          keys: [[0, value]],
        })),
      },
    }),
    name: "pose.duf",
  };
}

/** A shape preset `shape.duf` setting each modifier `[id, value]` at frame 0, as Daz writes one. */
export function shapePreset(
  values: readonly (readonly [string, number])[],
): { bytes: Uint8Array; name: string } {
  return {
    bytes: dsonBytes({
      file_version: "0.6.1.0",
      asset_info: { id: "/code/shape.duf", type: "preset_shape" },
      scene: {
        animations: values.map(([id, value]) => ({
          url: `name://@selection#${id}:?value/value`,
          keys: [[0, value]],
        })),
      },
    }),
    name: "shape.duf",
  };
}

/** Gzip-compressed JSON bytes of a DSON object (as Daz writes them). */
export async function gzipDsonBytes(json: unknown): Promise<Uint8Array> {
  const stream = new Blob([dsonBytes(json) as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new CompressionStream("gzip"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Reads a (possibly gzip) DSON file from disk into JSON, independently of the decoder. */
export async function readJsonFile(path: string): Promise<Json> {
  const bytes = await Deno.readFile(path);
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return JSON.parse(new TextDecoder().decode(bytes));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

/** A scene `.duf` that instances a figure living in a library file under `path`. */
export function sceneReferencing(path: string, figureId = "gen_figure"): Json {
  const encoded = path.split("/").map(encodeURIComponent).join("/");
  return {
    file_version: "0.6.1.0",
    asset_info: { id: "/scenes/user.duf", type: "scene" },
    scene: {
      nodes: [{
        id: `${figureId}-1`,
        url: `${encoded}#${figureId}`,
        geometries: [{ id: "geo-1", url: `${encoded}#${figureId}_geo` }],
      }],
    },
  };
}

/**
 * A figure library file: the generated figure without its scene (Daz .dsf files have none), its
 * modifier library given `modifiers` too.
 */
export function libraryFigure(
  figureId = "gen_figure",
  assetId = "/data/Gen/Figure.dsf",
  modifiers: readonly Json[] = [],
): Json {
  const json = generateFigure({ side: 4, bones: 3, figureId, assetId });
  delete json.scene;
  (json.modifier_library as Json[]).push(...modifiers);
  return json;
}

/**
 * A body's shape controller `ctrl` on `figure` (in `file`), adding half its value to the body's
 * `morph`, as Daz's body controllers drive their shapes.
 */
export function halfController(figure: string, file: string, ctrl: string, morph: string): Json {
  return {
    id: ctrl,
    name: ctrl,
    parent: `#${figure}_geo`,
    channel: { id: "value", type: "float", value: 0, min: 0, max: 1, clamped: true },
    formulas: [{
      output: `${figure}:${encodeURI(file)}#${morph}?value`,
      operations: [{ op: "push", url: `#${ctrl}?value` }, { op: "push", val: 0.5 }, { op: "mult" }],
    }],
  };
}

/** What {@link splineCorrective} makes. */
export interface CorrectiveOptions {
  /** The modifier's id and name. */
  id: string;
  /** The geometry it morphs (`#Figure_geo`). */
  parent: string;
  /** Its formula's output URL (`Figure:/data/…#id?value`). */
  output: string;
  /** The bone channel URL the formula reads (`bone:#bone?rotation/z/value`). */
  input: string;
  /** The spline's keys, `[x, y]` each. */
  keys: number[][];
  /** The DSON vertex it moves, and by how much (cm). */
  vertex: number;
  delta: [number, number, number];
  /** Whether its value channel is clamped to 0..1, as Daz's correctives are (default true). */
  clamped?: boolean;
}

/**
 * A joint corrective modifier as Daz wires one (a "pJCM" morph): its value read from a bone
 * channel through a `spline_linear` of `keys`, moving one vertex of the generated 16-vertex grid.
 */
export function splineCorrective(options: CorrectiveOptions): Json {
  const { id, parent, output, input, keys, vertex, delta } = options;
  const range = options.clamped === false ? {} : { min: 0, max: 1, clamped: true };
  return {
    id,
    name: id,
    parent,
    channel: { id: "value", type: "float", value: 0, ...range },
    formulas: [{
      output,
      operations: [
        { op: "push", url: input },
        ...keys.map((key) => ({ op: "push", val: key })),
        { op: "push", val: keys.length },
        { op: "spline_linear" },
      ],
    }],
    morph: { vertex_count: 16, deltas: { count: 1, values: [[vertex, ...delta]] } },
  };
}

/** Morph `M` of figure `F` (from `generateFigure({ figureId: "F" })`): vertex 5 up 1 cm, at 0; `extra` merged. */
export function morphM(extra: Json = {}): Json {
  return {
    id: "M",
    name: "M",
    parent: "#F_geo",
    channel: { id: "value", type: "float", value: 0 },
    morph: { vertex_count: 16, deltas: { count: 1, values: [[5, 0, 1, 0]] } },
    ...extra,
  };
}

/** Figure `F` with morph `M` at 0 and a controller `CTRL` dialled to `dial` carrying `formulas`, both in its scene. */
export function controlledFigure(formulas: unknown[], dial = 1): Json {
  const json = generateFigure({ side: 4, bones: 2, figureId: "F" });
  (json.modifier_library as Json[]).push(morphM(), {
    id: "CTRL",
    name: "CTRL",
    parent: "#F_geo",
    channel: { id: "value", type: "float", value: 0, current_value: dial },
    formulas,
  });
  ((json.scene as Json).modifiers as Json[]).push(
    { id: "M-1", url: "#M", parent: "#F_geo-1" },
    { id: "CTRL-1", url: "#CTRL", parent: "#F_geo-1" },
  );
  return json;
}
