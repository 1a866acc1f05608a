/**
 * The model `gltf_exporters.ts` writes as each tool would: its parts (boxes, each its own colour, some
 * textured), what a viewer draws of each, and a writer of one GLB's views, accessors, images and nodes.
 *
 * @module
 */
import { mat4, vec3 } from "gl-matrix";
import { encodeRgbaPng } from "../../../runtime/scene/png.ts";
import { glbOf } from "../../support/shapes.ts";

// deno-lint-ignore no-explicit-any
export type Json = Record<string, any>;
export type Rgba = [number, number, number, number];

/** What a viewer draws for one part: where, in what colour, lit or not, glowing how much. */
export interface PartTruth {
  /** The name the part's node carries (on the mesh node or an ancestor two levels up at most). */
  readonly name: string;
  /** World-space bounds of its vertices. */
  readonly min: number[];
  readonly max: number[];
  /** Base colour drawn: factor × the texture's solid colour. */
  readonly colour: Rgba;
  readonly unlit: boolean;
  /** Emissive colour × strength. */
  readonly emissive: number[];
  /** The base colour texture's coordinates: `<set>`, and its transform; "" untextured. */
  readonly uv: string;
}

/** One exporter's file and its truth. */
export interface ExporterFile {
  readonly tool: string;
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly parts: readonly PartTruth[];
}

/** A part of the model before any tool writes it. */
export interface Part {
  name: string;
  centre: [number, number, number];
  size: [number, number, number];
  factor: Rgba;
  /** The solid colour of its texture, if textured. */
  texture?: Rgba;
  unlit: boolean;
  emissive: [number, number, number];
  strength: number;
  /** The UV set its texture reads, and its KHR_texture_transform. */
  texCoord: number;
  transform?: { scale: number[]; offset: number[] };
  /** Its vertex colour (0–255), if it has one. */
  tint?: Rgba;
}

const PART_NAMES = ["Fuselage", "Wing", "Aileron_L", "Aileron_R", "Elevator", "Rudder", "Flap_L", "Flap_R"];

/** The model's parts for `seed`: placed, coloured, a few textured, unlit or glowing. */
export function partsOf(next: () => number): Part[] {
  const count = 4 + Math.floor(next() * 5);
  const round = (v: number) => Math.round(v * 255) / 255;
  return PART_NAMES.slice(0, count).map((name, i) => ({
    name,
    centre: [round(next() * 8 - 4), round(next() * 2), round(next() * 8 - 4)],
    size: [0.2 + round(next() * 2), 0.05 + round(next() * 0.3), 0.2 + round(next() * 1.5)],
    factor: next() < 0.5 ? [1, 1, 1, 1] : [round(next()), round(next()), round(next()), 1],
    texture: next() < 0.5
      ? [16 + i * 20, Math.floor(next() * 256), Math.floor(next() * 256), 255]
      : undefined,
    unlit: false,
    emissive: [0, 0, 0],
    strength: 1,
    texCoord: 0,
  }));
}

/** The colour a part draws: factor × texture. */
function drawn(part: Part): Rgba {
  const t = part.texture ?? [255, 255, 255, 255], tint = part.tint ?? [255, 255, 255, 255];
  return part.factor.map((f, k) => f * t[k] / 255 * tint[k] / 255) as Rgba;
}

/** A box's 24 vertices (4 per face) and 36 indices about the origin. */
export function box(
  size: readonly number[],
): { positions: Float32Array; normals: Float32Array; uvs: Float32Array; indices: number[] } {
  const positions: number[] = [], normals: number[] = [], uvs: number[] = [], indices: number[] = [];
  for (let axis = 0; axis < 3; axis++) {
    for (const sign of [-1, 1]) {
      const u = (axis + 1) % 3, v = (axis + 2) % 3, base = positions.length / 3;
      for (const [a, b] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
        const p = [0, 0, 0], n = [0, 0, 0];
        p[axis] = sign * size[axis] / 2, p[u] = a * size[u] / 2, p[v] = b * size[v] / 2 * sign;
        n[axis] = sign;
        positions.push(...p), normals.push(...n), uvs.push((a + 1) / 2, (b + 1) / 2);
      }
      indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
    }
  }
  return {
    positions: new Float32Array(positions),
    normals: new Float32Array(normals),
    uvs: new Float32Array(uvs),
    indices,
  };
}

/** Appends data to one binary buffer and describes it as views and accessors. */
export class Writer {
  readonly json: Json = {
    asset: { version: "2.0" },
    scenes: [{ nodes: [] }],
    scene: 0,
    nodes: [],
    meshes: [],
    accessors: [],
    bufferViews: [],
    buffers: [{ byteLength: 0 }],
  };
  private chunks: Uint8Array[] = [];
  private length = 0;

  /** A view of `bytes` (padded to 4), its index. */
  view(bytes: Uint8Array, extra: Json = {}): number {
    const at = this.length;
    this.chunks.push(bytes);
    this.length += bytes.length;
    const pad = (4 - (this.length % 4)) % 4;
    if (pad) this.chunks.push(new Uint8Array(pad)), this.length += pad;
    return this.json.bufferViews.push({ buffer: 0, byteOffset: at, byteLength: bytes.length, ...extra }) - 1;
  }

  accessor(def: Json): number {
    return this.json.accessors.push(def) - 1;
  }

  /** A float attribute in its own view, with min/max for POSITION. */
  floats(data: Float32Array, type: string, stride?: number, position = false): number {
    const size = type === "VEC2" ? 2 : type === "VEC3" ? 3 : 4;
    const view = this.view(new Uint8Array(data.buffer.slice(0)), {
      target: 34962,
      ...(stride ? { byteStride: stride } : {}),
    });
    return this.accessor({
      bufferView: view,
      componentType: 5126,
      count: data.length / size,
      type,
      ...(position ? bounds(data) : {}),
    });
  }

  indices(values: number[]): number {
    const view = this.view(new Uint8Array(new Uint16Array(values).buffer), { target: 34963 });
    return this.accessor({ bufferView: view, componentType: 5123, count: values.length, type: "SCALAR" });
  }

  /** An embedded PNG image of one colour, its index. */
  image(colour: Rgba, name?: string): number {
    const pixels = new Uint8Array(4 * 4 * 4);
    for (let i = 0; i < 16; i++) pixels.set(colour, 4 * i);
    const view = this.view(encodeRgbaPng(4, 4, pixels));
    this.json.images ??= [];
    return this.json.images.push({ bufferView: view, mimeType: "image/png", ...(name ? { name } : {}) }) - 1;
  }

  texture(image: number, sampler = true): number {
    this.json.textures ??= [];
    if (sampler) this.json.samplers ??= [{ magFilter: 9729, minFilter: 9987, wrapS: 10497, wrapT: 10497 }];
    return this.json.textures.push({ source: image, ...(sampler ? { sampler: 0 } : {}) }) - 1;
  }

  material(def: Json): number {
    this.json.materials ??= [];
    return this.json.materials.push(def) - 1;
  }

  node(def: Json, parent?: number): number {
    const i = this.json.nodes.push(def) - 1;
    if (parent === undefined) this.json.scenes[0].nodes.push(i);
    else (this.json.nodes[parent].children ??= []).push(i);
    return i;
  }

  use(...names: string[]): void {
    this.json.extensionsUsed ??= [];
    for (const name of names) {
      if (!this.json.extensionsUsed.includes(name)) this.json.extensionsUsed.push(name);
    }
  }

  glb(generator: string): Uint8Array {
    this.json.asset.generator = generator;
    const bin = new Uint8Array(this.length);
    let at = 0;
    for (const chunk of this.chunks) bin.set(chunk, at), at += chunk.length;
    this.json.buffers[0].byteLength = bin.length;
    return glbOf(this.json, bin);
  }
}

export function bounds(positions: Float32Array): Json {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    min[i % 3] = Math.min(min[i % 3], positions[i]), max[i % 3] = Math.max(max[i % 3], positions[i]);
  }
  return { min, max };
}

/** The truth of `part` placed by `world` (its box about the origin). */
export function truthOf(part: Part, world: mat4, name = part.name): PartTruth {
  const { positions } = box(part.size);
  const p = new Float32Array(positions.length);
  for (let i = 0; i < positions.length; i += 3) {
    const v = vec3.transformMat4(vec3.create(), [positions[i], positions[i + 1], positions[i + 2]], world);
    p.set(v, i);
  }
  const { min, max } = bounds(p);
  return {
    name,
    min,
    max,
    colour: drawn(part),
    unlit: part.unlit,
    emissive: part.emissive.map((e) => e * part.strength),
    uv: !part.texture
      ? ""
      : part.transform
      ? `${part.texCoord} scale ${part.transform.scale.join(",")} offset ${part.transform.offset.join(",")}`
      : `${part.texCoord}`,
  };
}

export const translation = (part: Part) => mat4.fromTranslation(mat4.create(), part.centre);

/** The base-colour texture info of `part` (an image of its colour, a texture per call: tools repeat them). */
export function baseTexture(w: Writer, part: Part, image?: number): Json | undefined {
  if (!part.texture) return undefined;
  return {
    index: w.texture(image ?? w.image(part.texture)),
    ...(part.texCoord ? { texCoord: part.texCoord } : {}),
    ...(part.transform ? { extensions: { KHR_texture_transform: part.transform } } : {}),
  };
}

/** `part`'s glow past 1 as a material writes it with `KHR_materials_emissive_strength`; nothing at 1. */
export function emissiveStrength(part: Part): Json {
  if (part.strength === 1) return {};
  return {
    emissiveFactor: part.emissive,
    extensions: { KHR_materials_emissive_strength: { emissiveStrength: part.strength } },
  };
}

/** A primitive of `part`'s box with plain views, material `material`. */
export function plainPrimitive(w: Writer, part: Part, material: number): Json {
  const b = box(part.size);
  return {
    attributes: {
      POSITION: w.floats(b.positions, "VEC3", undefined, true),
      NORMAL: w.floats(b.normals, "VEC3"),
      TEXCOORD_0: w.floats(b.uvs, "VEC2"),
      ...(part.texCoord ? { TEXCOORD_1: w.floats(b.uvs.map((v) => 1 - v), "VEC2") } : {}),
    },
    indices: w.indices(b.indices),
    material,
  };
}

/** Bytes of `count` elements of `size` bytes each, `stride` apart, from `element(i, view, at)`. */
export function strided(
  count: number,
  stride: number,
  write: (i: number, view: DataView, at: number) => void,
): Uint8Array {
  const out = new Uint8Array(count * stride);
  const view = new DataView(out.buffer);
  for (let i = 0; i < count; i++) write(i, view, i * stride);
  return out;
}
