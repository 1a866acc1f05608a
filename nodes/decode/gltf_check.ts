/**
 * A structural check of glTF JSON before glTF-Transform reads it: every index a property holds
 * points into its collection, every number has its type and range, every accessor fits its buffer
 * view and every view its buffer, strides are in range, indices address existing vertices, and the
 * node hierarchy is a forest. glTF-Transform trusts its input (a count beyond the buffer is a
 * RangeError, a huge `byteStride` array a near-endless loop); after this check it can't meet such
 * a file. Time and memory are linear in the file's size.
 *
 * @module
 */
import type { JSONDocument } from "@gltf-transform/core";
import { describe, gltfError, type GltfSource } from "./gltf_container.ts";

const COMPONENT_SIZE: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const COMPONENTS: Record<string, number> = {
  SCALAR: 1,
  VEC2: 2,
  VEC3: 3,
  VEC4: 4,
  MAT2: 4,
  MAT3: 9,
  MAT4: 16,
};
const FLOAT = 5126;
const INDEX_TYPES = [5121, 5123, 5125];

/** Accepted accessor types and component types per attribute semantic (glTF 2.0 §3.7.2.1). */
const ATTRIBUTE_RULES: readonly (readonly [RegExp, string[], number[]])[] = [
  [/^POSITION$/, ["VEC3"], [FLOAT]],
  [/^NORMAL$/, ["VEC3"], [FLOAT]],
  [/^TANGENT$/, ["VEC4"], [FLOAT]],
  [/^TEXCOORD_\d+$/, ["VEC2"], [FLOAT, 5121, 5123]],
  [/^COLOR_\d+$/, ["VEC3", "VEC4"], [FLOAT, 5121, 5123]],
  [/^JOINTS_\d+$/, ["VEC4"], [5121, 5123]],
  [/^WEIGHTS_\d+$/, ["VEC4"], [FLOAT, 5121, 5123]],
];

/** The top-level arrays of objects glTF 2.0 defines. */
const COLLECTIONS = [
  "accessors",
  "animations",
  "buffers",
  "bufferViews",
  "cameras",
  "images",
  "materials",
  "meshes",
  "nodes",
  "samplers",
  "scenes",
  "skins",
  "textures",
];

type Json = Record<string, unknown>;

/**
 * Throws a {@link DecodeError} (with the JSON path) at the first structural problem of a glTF
 * document's JSON and resources; returns when glTF-Transform can read it safely.
 *
 * @example
 * ```ts
 * checkGltfStructure(readContainer(bytes, source), source);
 * ```
 */
export function checkGltfStructure(doc: JSONDocument, source: GltfSource): void {
  new Checker(doc, source).run();
}

class Checker {
  readonly json: Json;
  constructor(readonly doc: JSONDocument, readonly source: GltfSource) {
    this.json = doc.json as unknown as Json;
  }

  fail(path: string, expected: string, value: unknown): never {
    throw gltfError(this.source, { jsonPath: path }, expected, describe(value));
  }

  readonly #lists = new Map<string, Json[]>();

  /** The collection's items (each checked to be an object, once), or [] when absent. */
  list(name: string): Json[] {
    const known = this.#lists.get(name);
    if (known) return known;
    const value = this.json[name] ?? [];
    if (!Array.isArray(value)) this.fail(`/${name}`, "an array", value);
    value.forEach((item, i) => this.object(item, `/${name}/${i}`));
    this.#lists.set(name, value);
    return value as Json[];
  }

  object(value: unknown, path: string): Json {
    if (!value || typeof value !== "object" || Array.isArray(value)) this.fail(path, "an object", value);
    return value as Json;
  }

  /** An optional non-negative integer field, below `limit` when given. */
  int(item: Json, key: string, path: string, limit = Number.MAX_SAFE_INTEGER, min = 0): number | undefined {
    const value = item[key];
    if (value === undefined) return undefined;
    if (!Number.isInteger(value) || (value as number) < min || (value as number) >= limit) {
      const range = limit === Number.MAX_SAFE_INTEGER
        ? `≥ ${min}`
        : limit > min
        ? `in ${min}..${limit - 1}`
        : `index (there are ${limit})`;
      this.fail(`${path}/${key}`, `an integer ${range}`, value);
    }
    return value as number;
  }

  index(item: Json, key: string, path: string, collection: string): number | undefined {
    return this.int(item, key, path, this.count(collection));
  }

  /** A buffer's bytes: its data URI's, or for the first buffer without one, the GLB chunk's. */
  bufferData(i: number): Uint8Array | undefined {
    const uri = this.list("buffers")[i].uri;
    return typeof uri === "string"
      ? this.doc.resources[uri]
      : i === 0
      ? this.doc.resources["@glb.bin"]
      : undefined;
  }

  count(collection: string): number {
    const value = this.json[collection];
    return Array.isArray(value) ? value.length : 0;
  }

  numbers(item: Json, key: string, path: string, length: number): void {
    const value = item[key];
    if (value === undefined) return;
    if (!Array.isArray(value) || value.length !== length || !value.every(Number.isFinite)) {
      this.fail(`${path}/${key}`, `an array of ${length} finite numbers`, value);
    }
  }

  oneOf(item: Json, key: string, path: string, values: unknown[]): void {
    if (item[key] !== undefined && !values.includes(item[key])) {
      this.fail(`${path}/${key}`, `one of ${values.join(", ")}`, item[key]);
    }
  }

  indexList(item: Json, key: string, path: string, collection: string): number[] {
    const value = item[key];
    if (value === undefined) return [];
    if (!Array.isArray(value)) this.fail(`${path}/${key}`, "an array of indices", value);
    value.forEach((_, i) => this.index(value as unknown as Json, String(i), `${path}/${key}`, collection));
    return value as number[];
  }

  run(): void {
    const asset = this.object(this.json.asset, "/asset");
    if (typeof asset.version !== "string") this.fail("/asset/version", "a version string", asset.version);
    for (const key of ["extensionsUsed", "extensionsRequired"]) {
      const value = this.json[key];
      if (value !== undefined && (!Array.isArray(value) || !value.every((v) => typeof v === "string"))) {
        this.fail(`/${key}`, "an array of strings", value);
      }
    }
    for (const key of COLLECTIONS) {
      this.list(key).forEach((item, i) => {
        if (item.name !== undefined && typeof item.name !== "string") {
          this.fail(`/${key}/${i}/name`, "a string", item.name);
        }
      });
    }
    this.buffers();
    this.accessors();
    this.meshes();
    this.nodes();
    this.references();
    this.textureInfos(this.json, "");
  }

  buffers(): void {
    this.list("buffers").forEach((buffer, i) => {
      const path = `/buffers/${i}`;
      const length = this.int(buffer, "byteLength", path, Number.MAX_SAFE_INTEGER, 1);
      if (length === undefined) this.fail(`${path}/byteLength`, "a byte length", undefined);
      const data = this.bufferData(i);
      // Only a meshopt fallback buffer may be without data (its views are decoded, not read).
      const fallback = (buffer.extensions as Json | undefined)?.EXT_meshopt_compression;
      if (data === undefined && !fallback) {
        const glbChunk = i === 0 && this.source.format === "glb" && buffer.uri === undefined;
        this.fail(
          `${path}${buffer.uri === undefined ? "" : "/uri"}`,
          glbChunk ? "the GLB's binary chunk" : "embedded data",
          buffer.uri ?? "none",
        );
      }
      if (data && data.byteLength < length!) {
        this.fail(`${path}/byteLength`, `at most the ${data.byteLength} bytes present`, length);
      }
    });
    const buffers = this.list("buffers");
    this.list("bufferViews").forEach((view, i) => {
      const path = `/bufferViews/${i}`;
      const buffer = this.index(view, "buffer", path, "buffers");
      if (buffer === undefined) this.fail(`${path}/buffer`, "a buffer index", undefined);
      const available = buffers[buffer!].byteLength as number;
      const offset = this.int(view, "byteOffset", path) ?? 0;
      const length = this.int(view, "byteLength", path, Number.MAX_SAFE_INTEGER, 1);
      if (length === undefined) this.fail(`${path}/byteLength`, "a byte length", undefined);
      if (offset + length! > available) {
        this.fail(`${path}/byteLength`, `offset + length within the buffer's ${available} bytes`, length);
      }
      const stride = this.int(view, "byteStride", path, 253, 4);
      if (stride !== undefined && stride % 4) this.fail(`${path}/byteStride`, "a multiple of 4", stride);
      this.oneOf(view, "target", path, [34962, 34963]);
    });
  }

  accessors(): void {
    const views = this.list("bufferViews");
    this.list("accessors").forEach((accessor, i) => {
      const path = `/accessors/${i}`;
      this.oneOf(accessor, "componentType", path, Object.keys(COMPONENT_SIZE).map(Number));
      this.oneOf(accessor, "type", path, Object.keys(COMPONENTS));
      if (accessor.componentType === undefined) {
        this.fail(`${path}/componentType`, "a component type", undefined);
      }
      if (accessor.type === undefined) this.fail(`${path}/type`, "an accessor type", undefined);
      const count = this.int(accessor, "count", path, Number.MAX_SAFE_INTEGER, 1);
      if (count === undefined) this.fail(`${path}/count`, "an element count", undefined);
      if (accessor.normalized !== undefined && typeof accessor.normalized !== "boolean") {
        this.fail(`${path}/normalized`, "a boolean", accessor.normalized);
      }
      const size = COMPONENT_SIZE[accessor.componentType as number];
      const components = COMPONENTS[accessor.type as string];
      for (const key of ["min", "max"]) {
        const value = accessor[key];
        if (value !== undefined && (!Array.isArray(value) || value.length !== components)) {
          this.fail(`${path}/${key}`, `an array of ${components} numbers`, value);
        }
        this.numbers(accessor, key, path, components);
      }
      const element = size * components;
      const view = this.index(accessor, "bufferView", path, "bufferViews");
      const offset = this.int(accessor, "byteOffset", path) ?? 0;
      if (view === undefined) {
        // No view: glTF-Transform allocates zeros; keep that in proportion to the file.
        if (count! * element > this.budget()) {
          this.fail(
            `${path}/count`,
            `at most ${Math.floor(this.budget() / element)} elements without data`,
            count,
          );
        }
      } else {
        this.fits(views[view], `${path}`, offset, count!, element, size);
      }
      if (accessor.sparse !== undefined) this.sparse(accessor, path, count!, element);
    });
  }

  /** Bytes an accessor without data may claim: a generous multiple of the file's own size. */
  budget(): number {
    const data = Object.values(this.doc.resources).reduce((sum, r) => sum + r.byteLength, 0);
    return 16 * data + (1 << 20);
  }

  fits(view: Json, path: string, offset: number, count: number, element: number, size: number): void {
    const stride = (view.byteStride as number | undefined) ?? element;
    if (stride < element) this.fail(`${path}/bufferView`, `a view stride of at least ${element}`, stride);
    const viewOffset = (view.byteOffset as number | undefined) ?? 0;
    if ((viewOffset + offset) % size) this.fail(`${path}/byteOffset`, `a multiple of ${size}`, offset);
    const needed = offset + stride * (count - 1) + element;
    if (needed > (view.byteLength as number)) {
      this.fail(`${path}/count`, `a count whose data fits the view's ${view.byteLength} bytes`, count);
    }
  }

  sparse(accessor: Json, path: string, count: number, element: number): void {
    const sparse = this.object(accessor.sparse, `${path}/sparse`);
    const n = this.int(sparse, "count", `${path}/sparse`, count + 1, 1);
    if (n === undefined) this.fail(`${path}/sparse/count`, "a count", undefined);
    const views = this.list("bufferViews");
    for (const part of ["indices", "values"]) {
      const at = `${path}/sparse/${part}`;
      const item = this.object(sparse[part], at);
      const view = this.index(item, "bufferView", at, "bufferViews");
      if (view === undefined) this.fail(`${at}/bufferView`, "a buffer view index", undefined);
      if (part === "indices") this.oneOf(item, "componentType", at, INDEX_TYPES);
      const size = part === "indices" ? COMPONENT_SIZE[item.componentType as number] : element;
      if (size === undefined) this.fail(`${at}/componentType`, "an index component type", undefined);
      const offset = this.int(item, "byteOffset", at) ?? 0;
      this.fits({ ...views[view!], byteStride: undefined }, at, offset, n!, size, Math.min(size, 4));
    }
  }

  meshes(): void {
    const accessors = this.list("accessors");
    this.list("meshes").forEach((mesh, m) => {
      const primitives = mesh.primitives;
      if (!Array.isArray(primitives) || !primitives.length) {
        this.fail(`/meshes/${m}/primitives`, "a non-empty array", primitives);
      }
      primitives.forEach((value, p) => {
        const path = `/meshes/${m}/primitives/${p}`;
        const primitive = this.object(value, path);
        this.oneOf(primitive, "mode", path, [0, 1, 2, 3, 4, 5, 6]);
        this.index(primitive, "material", path, "materials");
        const sets = [this.object(primitive.attributes, `${path}/attributes`)];
        if (primitive.targets !== undefined) {
          if (!Array.isArray(primitive.targets)) this.fail(`${path}/targets`, "an array", primitive.targets);
          primitive.targets.forEach((t, i) => sets.push(this.object(t, `${path}/targets/${i}`)));
        }
        let vertices: number | undefined;
        sets.forEach((set, s) => {
          const base = s === 0 ? `${path}/attributes` : `${path}/targets/${s - 1}`;
          for (const semantic of Object.keys(set)) {
            const a = this.index(set, semantic, base, "accessors")!;
            const accessor = accessors[a];
            const rule = ATTRIBUTE_RULES.find(([pattern]) => pattern.test(semantic));
            // Morph targets hold displacements: signed and float components are allowed.
            const types = s === 0
              ? rule
              : rule && [rule[0], rule[1], [FLOAT, 5120, 5121, 5122, 5123] as number[]] as const;
            if (
              types && (!types[1].includes(accessor.type as string) ||
                !types[2].includes(accessor.componentType as number))
            ) {
              this.fail(`${base}/${semantic}`, `an accessor of type ${types[1]} / ${types[2]}`, a);
            }
            if (vertices !== undefined && accessor.count !== vertices) {
              this.fail(`${base}/${semantic}`, `an accessor of ${vertices} elements like the others`, a);
            }
            vertices = accessor.count as number;
          }
        });
        const indices = this.index(primitive, "indices", path, "accessors");
        if (indices !== undefined) this.indexRange(indices, `${path}/indices`, vertices ?? 0);
      });
    });
  }

  /** Every index value addresses a vertex (read through the accessor's view). */
  indexRange(a: number, path: string, vertices: number): void {
    const accessor = this.list("accessors")[a];
    if (accessor.type !== "SCALAR" || !INDEX_TYPES.includes(accessor.componentType as number)) {
      this.fail(path, "an accessor of unsigned integer scalars", a);
    }
    if (accessor.bufferView === undefined || accessor.sparse !== undefined) return;
    const view = this.list("bufferViews")[accessor.bufferView as number];
    const data = this.bufferData(view.buffer as number);
    if (!data) return;
    const size = COMPONENT_SIZE[accessor.componentType as number];
    const stride = (view.byteStride as number | undefined) ?? size;
    const start = data.byteOffset + ((view.byteOffset as number) ?? 0) +
      ((accessor.byteOffset as number) ?? 0);
    const dv = new DataView(data.buffer, start);
    for (let i = 0; i < (accessor.count as number); i++) {
      const at = i * stride;
      const index = size === 1
        ? dv.getUint8(at)
        : size === 2
        ? dv.getUint16(at, true)
        : dv.getUint32(at, true);
      if (index >= vertices) {
        this.fail(path, `index values below the ${vertices} vertices`, `${index} at element ${i}`);
      }
    }
  }

  nodes(): void {
    const nodes = this.list("nodes");
    const parent = new Array<number>(nodes.length).fill(-1);
    nodes.forEach((node, i) => {
      const path = `/nodes/${i}`;
      this.numbers(node, "translation", path, 3);
      this.numbers(node, "rotation", path, 4);
      const q = node.rotation as number[] | undefined;
      if (q && Math.abs(Math.hypot(...q) - 1) > 0.0005) this.fail(`${path}/rotation`, "a unit quaternion", q);
      this.numbers(node, "scale", path, 3);
      this.numbers(node, "matrix", path, 16);
      this.index(node, "mesh", path, "meshes");
      this.index(node, "skin", path, "skins");
      this.index(node, "camera", path, "cameras");
      if (
        node.weights !== undefined && (!Array.isArray(node.weights) || !node.weights.every(Number.isFinite))
      ) {
        this.fail(`${path}/weights`, "an array of finite numbers", node.weights);
      }
      for (const child of this.indexList(node, "children", path, "nodes")) {
        if (parent[child] !== -1 || child === i) {
          this.fail(`${path}/children`, "each node with one parent", child);
        }
        parent[child] = i;
      }
    });
    // A parent chain longer than the node count is a cycle.
    parent.forEach((_, start) => {
      let steps = 0;
      for (let at = parent[start]; at !== -1; at = parent[at]) {
        if (++steps > nodes.length) {
          this.fail(`/nodes/${start}`, "a node hierarchy without cycles", "a cycle");
        }
      }
    });
  }

  references(): void {
    this.index(this.json, "scene", "", "scenes");
    this.list("scenes").forEach((scene, i) => this.indexList(scene, "nodes", `/scenes/${i}`, "nodes"));
    this.list("skins").forEach((skin, i) => {
      const path = `/skins/${i}`;
      this.indexList(skin, "joints", path, "nodes");
      this.index(skin, "skeleton", path, "nodes");
      const ibm = this.index(skin, "inverseBindMatrices", path, "accessors");
      const accessor = ibm === undefined ? undefined : this.list("accessors")[ibm];
      if (accessor && (accessor.type !== "MAT4" || accessor.componentType !== FLOAT)) {
        this.fail(`${path}/inverseBindMatrices`, "a MAT4 float accessor", ibm);
      }
    });
    this.list("textures").forEach((texture, i) => {
      this.index(texture, "source", `/textures/${i}`, "images");
      this.index(texture, "sampler", `/textures/${i}`, "samplers");
    });
    this.list("images").forEach((image, i) => {
      this.index(image, "bufferView", `/images/${i}`, "bufferViews");
      if (image.uri !== undefined && typeof image.uri !== "string") {
        this.fail(`/images/${i}/uri`, "a string", image.uri);
      }
    });
    this.list("samplers").forEach((sampler, i) => {
      const path = `/samplers/${i}`;
      this.oneOf(sampler, "magFilter", path, [9728, 9729]);
      this.oneOf(sampler, "minFilter", path, [9728, 9729, 9984, 9985, 9986, 9987]);
      for (const key of ["wrapS", "wrapT"]) this.oneOf(sampler, key, path, [33071, 33648, 10497]);
    });
    this.list("materials").forEach((material, i) => this.material(material, `/materials/${i}`));
    this.list("cameras").forEach((camera, i) =>
      this.oneOf(camera, "type", `/cameras/${i}`, ["perspective", "orthographic"])
    );
    this.list("animations").forEach((animation, a) => {
      const path = `/animations/${a}`;
      const samplers = Array.isArray(animation.samplers)
        ? animation.samplers
        : this.fail(`${path}/samplers`, "an array", animation.samplers);
      samplers.forEach((value, s) => {
        const sampler = this.object(value, `${path}/samplers/${s}`);
        for (const key of ["input", "output"]) {
          if (this.index(sampler, key, `${path}/samplers/${s}`, "accessors") === undefined) {
            this.fail(`${path}/samplers/${s}/${key}`, "an accessor index", undefined);
          }
        }
        this.oneOf(sampler, "interpolation", `${path}/samplers/${s}`, ["LINEAR", "STEP", "CUBICSPLINE"]);
      });
      const channels = Array.isArray(animation.channels)
        ? animation.channels
        : this.fail(`${path}/channels`, "an array", animation.channels);
      channels.forEach((value, c) => {
        const at = `${path}/channels/${c}`;
        const channel = this.object(value, at);
        this.int(channel, "sampler", at, samplers.length);
        const target = this.object(channel.target, `${at}/target`);
        this.index(target, "node", `${at}/target`, "nodes");
        this.oneOf(target, "path", `${at}/target`, [
          "translation",
          "rotation",
          "scale",
          "weights",
          "pointer",
        ]);
      });
    });
  }

  material(material: Json, path: string): void {
    const unitRange = (item: Json, key: string, at: string, length?: number) => {
      const value = item[key];
      if (value === undefined) return;
      const list = length === undefined ? [value] : value;
      if (
        !Array.isArray(list) || list.length !== (length ?? 1) ||
        !list.every((v) => typeof v === "number" && v >= 0 && v <= 1)
      ) {
        this.fail(`${at}/${key}`, length ? `${length} numbers in 0..1` : "a number in 0..1", value);
      }
    };
    const pbr = material.pbrMetallicRoughness === undefined
      ? {}
      : this.object(material.pbrMetallicRoughness, `${path}/pbrMetallicRoughness`);
    unitRange(pbr, "baseColorFactor", `${path}/pbrMetallicRoughness`, 4);
    unitRange(pbr, "metallicFactor", `${path}/pbrMetallicRoughness`);
    unitRange(pbr, "roughnessFactor", `${path}/pbrMetallicRoughness`);
    unitRange(material, "emissiveFactor", path, 3);
    this.oneOf(material, "alphaMode", path, ["OPAQUE", "MASK", "BLEND"]);
    const cutoff = material.alphaCutoff;
    if (cutoff !== undefined && !(typeof cutoff === "number" && cutoff >= 0)) {
      this.fail(`${path}/alphaCutoff`, "a number ≥ 0", cutoff);
    }
    if (material.doubleSided !== undefined && typeof material.doubleSided !== "boolean") {
      this.fail(`${path}/doubleSided`, "a boolean", material.doubleSided);
    }
    for (const [key, field] of [["normalTexture", "scale"], ["occlusionTexture", "strength"]]) {
      const info = material[key];
      const value = info && typeof info === "object" ? (info as Json)[field] : undefined;
      if (value !== undefined && !Number.isFinite(value)) {
        this.fail(`${path}/${key}/${field}`, "a finite number", value);
      }
    }
  }

  /** Every `…Texture` object (core materials and extensions alike) names an existing texture. */
  textureInfos(value: unknown, path: string): void {
    const stack: [unknown, string][] = [[value, path]];
    while (stack.length) {
      const [item, at] = stack.pop()!;
      if (!item || typeof item !== "object") continue;
      for (const [key, child] of Object.entries(item)) {
        if (key === "extras") continue;
        if (/Texture$/.test(key) && !Array.isArray(item)) {
          const info = this.object(child, `${at}/${key}`);
          if (this.index(info, "index", `${at}/${key}`, "textures") === undefined) {
            this.fail(`${at}/${key}/index`, "a texture index", undefined);
          }
          this.int(info, "texCoord", `${at}/${key}`);
        }
        stack.push([child, `${at}/${key}`]);
      }
    }
  }
}
