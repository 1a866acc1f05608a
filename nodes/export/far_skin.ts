/**
 * The matrices that draw a skinned mesh, for `far_extent.ts`: each joint's world matrix times its inverse
 * bind matrix, for the joints some vertex weighs only. A joint no vertex weighs (an IK target, a helper,
 * a camera bone) moves nothing, so reading the mesh's bounds through it made a skin that draws near look
 * far.
 *
 * @module
 */
import { mat4 } from "gl-matrix";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** Bytes per component of glTF's component types. */
const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };

/**
 * Each weighted joint's world matrix times its inverse bind matrix (read from `bin`, the GLB's binary
 * chunk). Without inverse bind matrices each is the identity; without readable data, the identity alone.
 *
 * @example
 * const matrices = skinMatrices(json, json.skins[0], json.meshes[0], worlds, bin);
 */
export function skinMatrices(
  json: Json,
  skin: Json,
  mesh: Json | undefined,
  worlds: Map<number, mat4>,
  bin?: Uint8Array,
): mat4[] {
  const joints: number[] = skin.joints ?? [];
  const used = weightedJoints(json, mesh, joints.length, bin);
  const keep = (j: number) => !used || used.has(j);
  // Without inverse bind matrices, each is the identity: the joints' own world matrices draw the skin.
  if (skin.inverseBindMatrices === undefined) {
    return joints.filter((_, j) => keep(j)).map((joint) => worlds.get(joint) ?? mat4.create());
  }
  const data = floats(json, skin.inverseBindMatrices, bin, 16 * joints.length);
  if (!data) return [mat4.create()];
  const out: mat4[] = [];
  joints.forEach((joint, j) => {
    if (!keep(j)) return;
    const inverse = mat4.create();
    for (let k = 0; k < 16; k++) inverse[k] = data[16 * j + k];
    out.push(mat4.multiply(mat4.create(), worlds.get(joint) ?? mat4.create(), inverse));
  });
  return out.length ? out : [mat4.create()];
}

/**
 * The joint slots some vertex of `mesh` weighs above zero (JOINTS_n with WEIGHTS_n), or undefined when
 * the data cannot be read (then every joint counts, as before).
 */
function weightedJoints(
  json: Json,
  mesh: Json | undefined,
  count: number,
  bin?: Uint8Array,
): Set<number> | undefined {
  if (!bin || !mesh) return undefined;
  const used = new Set<number>();
  for (const primitive of mesh.primitives ?? []) {
    const attributes = primitive.attributes ?? {};
    for (let set = 0; attributes[`JOINTS_${set}`] !== undefined; set++) {
      const joints = read(json, attributes[`JOINTS_${set}`], bin);
      const weights = read(json, attributes[`WEIGHTS_${set}`], bin);
      if (!joints || !weights || joints.length !== weights.length) return undefined;
      for (let i = 0; i < joints.length; i++) {
        if (weights[i] > 0 && joints[i] < count) used.add(joints[i]);
      }
    }
  }
  return used;
}

/** An accessor's float32 components, when it is float32, dense and inside `bin`, with `length` of them. */
function floats(
  json: Json,
  index: number,
  bin: Uint8Array | undefined,
  length: number,
): number[] | undefined {
  const accessor = json.accessors?.[index];
  if (accessor?.componentType !== 5126) return undefined;
  const values = read(json, index, bin);
  return values && values.length >= length ? values : undefined;
}

/** An accessor's components as numbers (normalized ones above zero when their integer is), or undefined. */
function read(json: Json, index: number, bin: Uint8Array | undefined): number[] | undefined {
  const accessor = json.accessors?.[index];
  const view = json.bufferViews?.[accessor?.bufferView];
  const size = COMPONENT_BYTES[accessor?.componentType];
  const width = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 }[accessor?.type as string];
  if (!bin || !accessor || !view || !size || !width || accessor.sparse || view.buffer !== 0) return undefined;
  const stride = view.byteStride ?? size * width;
  const start = (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0);
  const count: number = accessor.count ?? 0;
  if (
    count &&
    start + stride * (count - 1) + size * width >
      Math.min(bin.byteLength, (view.byteOffset ?? 0) + view.byteLength)
  ) {
    return undefined;
  }
  const data = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
  const get = {
    5120: (at: number) => data.getInt8(at),
    5121: (at: number) => data.getUint8(at),
    5122: (at: number) => data.getInt16(at, true),
    5123: (at: number) => data.getUint16(at, true),
    5125: (at: number) => data.getUint32(at, true),
    5126: (at: number) => data.getFloat32(at, true),
  }[accessor.componentType as 5120]!;
  const out = new Array<number>(count * width);
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < width; k++) out[i * width + k] = get(start + i * stride + k * size);
  }
  return out;
}
