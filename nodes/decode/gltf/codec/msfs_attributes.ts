/**
 * Vertex attributes as Microsoft Flight Simulator's exporters pack them (Asobo's packing, in every
 * model of an MSFS package and scenery library): normals and tangents in signed bytes, texture
 * coordinates and colours in 16-bit IEEE half floats, all flagged `normalized: false` and filed under
 * `BYTE` and `SHORT`/`UNSIGNED_SHORT`, which glTF has no name for. Read as the sim reads them —
 * normals and tangents as signed-normalised bytes (a normal's fourth byte is padding), the 16-bit
 * values as half floats — they come out unit length and in 0–1 on real models; read as glTF says,
 * the texture coordinates would be integers in the tens of thousands. Khronos tools refuse such a
 * file (Blender's importer, the validator), three.js draws it with garbage UVs. Skinned vertices
 * (`ASOBO_primitive` VertexType `BLEND4`, `BLEND1`: Asobo's Blender exporter's 48- and 44-byte
 * vertices) add joints as unsigned shorts (glTF's own), weights as four half floats filed as
 * unnormalized `UNSIGNED_SHORT` (BLEND4) or one float filed as `SCALAR` (BLEND1: the first joint's),
 * and colours as unsigned bytes filed as `BYTE`.
 *
 * Only a file that says it is packed so ({@link isMsfsPacked}) is read this way: elsewhere the same
 * formats are refused as glTF's.
 *
 * @module
 */
import type { Accessor, Document, TypedArray } from "@gltf-transform/core";
import type { Json } from "./checker.ts";

const BYTE = 5120, SHORT = 5122, UNSIGNED_SHORT = 5123, FLOAT = 5126;

/**
 * True when the file carries Asobo's packing: an `ASOBO_` extension used, or a primitive with the
 * `ASOBO_primitive` extras the packing adds. A file quantized by `KHR_mesh_quantization` is not: there
 * the same formats are quantized integers.
 */
export function isMsfsPacked(file: object): boolean {
  const json = file as Json;
  // Read before the structure check: any field may be of any type yet.
  const used = Array.isArray(json.extensionsUsed) ? json.extensionsUsed as unknown[] : [];
  if (used.includes("KHR_mesh_quantization")) return false;
  if (used.some((name) => typeof name === "string" && name.startsWith("ASOBO_"))) return true;
  const meshes = Array.isArray(json.meshes) ? json.meshes as Json[] : [];
  return meshes.some((mesh) =>
    Array.isArray(mesh?.primitives) &&
    (mesh.primitives as Json[]).some((primitive) => isObject((primitive?.extras as Json)?.ASOBO_primitive))
  );
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What an attribute of semantic `semantic` in `accessor` holds under Asobo's packing, or undefined. */
function packedKind(semantic: string, type: unknown, code: unknown, normalized: boolean) {
  // Normalized 16-bit texture coordinates, colours and weights are glTF's own; bytes for normals are
  // not, flagged or not (a file using KHR_mesh_quantization is never packed).
  const sixteen = (code === SHORT || code === UNSIGNED_SHORT) && !normalized;
  if (/^(TEXCOORD|COLOR)_\d+$/.test(semantic) && sixteen) {
    const types = semantic.startsWith("T") ? ["VEC2"] : ["VEC3", "VEC4"];
    return types.includes(type as string) ? "half" as const : undefined;
  }
  if (/^WEIGHTS_\d+$/.test(semantic)) {
    if (sixteen && type === "VEC4") return "halfWeights" as const;
    return code === FLOAT && type === "SCALAR" ? "oneWeight" as const : undefined;
  }
  // Skinned vertices' colours: unsigned bytes, whatever the flag says (glTF has no signed colour).
  if (/^COLOR_\d+$/.test(semantic) && code === BYTE && (type === "VEC3" || type === "VEC4")) {
    return "byteColour" as const;
  }
  if (code !== BYTE) return undefined;
  if (semantic === "NORMAL" && (type === "VEC3" || type === "VEC4")) return "normal" as const;
  if (semantic === "TANGENT" && type === "VEC4") return "tangent" as const;
  return undefined;
}

/**
 * True when an attribute accessor outside glTF's formats is one the packing writes, in a packed file
 * (`packed`, from {@link isMsfsPacked}): the structure check lets it through, for
 * {@link convertMsfsAttributes} to read.
 */
export function isMsfsPackedAttribute(semantic: string, accessor: Json, packed: boolean): boolean {
  return packed &&
    packedKind(semantic, accessor.type, accessor.componentType, accessor.normalized === true) !== undefined;
}

/** What {@link convertMsfsAttributes} read: accessors by kind, and values that were not finite. */
export interface MsfsAttributeCounts {
  /** Accessors of half floats (texture coordinates, colours). */
  readonly half: number;
  /** Accessors of signed bytes (normals, tangents). */
  readonly bytes: number;
  /** Accessors of skin weights: four half floats (BLEND4 vertices). */
  readonly halfWeights: number;
  /** Accessors of skin weights: one float, the first joint's (BLEND1 vertices). */
  readonly oneWeight: number;
  /** Accessors of colours in unsigned bytes filed as `BYTE` (skinned vertices). */
  readonly byteColours: number;
  /** Half-float values that were infinities or NaNs, read as 0 (glTF allows neither in an attribute). */
  readonly nonFinite: number;
}

/**
 * Converts, in the decoded scene of a packed file, the attributes {@link isMsfsPackedAttribute} let
 * through to floats, and says how many.
 */
export function convertMsfsAttributes(doc: Document): MsfsAttributeCounts {
  const done = new Set<Accessor>();
  let nonFinite = 0, half = 0, halfWeights = 0, oneWeight = 0, byteColours = 0;
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      for (const semantic of primitive.listSemantics()) {
        const accessor = primitive.getAttribute(semantic)!;
        const array = accessor.getArray();
        const kind = array &&
          packedKind(semantic, accessor.getType(), accessor.getComponentType(), accessor.getNormalized());
        if (!kind || done.has(accessor)) continue;
        done.add(accessor);
        const count = accessor.getCount();
        if (kind === "half" || kind === "halfWeights") {
          if (kind === "half") half++;
          else halfWeights++;
          const bits = new Uint16Array(array.buffer, array.byteOffset, array.length);
          const floats = new Float32Array(array.length);
          for (let i = 0; i < bits.length; i++) {
            const value = halfToFloat(bits[i]);
            if (Number.isFinite(value)) floats[i] = value;
            else nonFinite++;
          }
          accessor.setArray(floats);
        } else if (kind === "oneWeight") {
          oneWeight++;
          const weights = new Float32Array(count * 4);
          for (let i = 0; i < count; i++) weights[4 * i] = array[i];
          accessor.setType("VEC4").setArray(weights);
        } else if (kind === "byteColour") {
          byteColours++;
          const bytes = new Uint8Array(array.buffer, array.byteOffset, array.length);
          accessor.setArray(Uint8Array.from(bytes)).setNormalized(true);
        } else if (kind === "normal") {
          const size = accessor.getElementSize();
          const normals = new Float32Array(count * 3);
          for (let i = 0; i < count; i++) {
            for (let k = 0; k < 3; k++) normals[3 * i + k] = snorm8(array, size * i + k);
          }
          accessor.setType("VEC3").setArray(normals).setNormalized(false);
        } else {
          const tangents = new Float32Array(count * 4);
          for (let i = 0; i < count; i++) {
            for (let k = 0; k < 3; k++) tangents[4 * i + k] = snorm8(array, 4 * i + k);
            // The handedness is a sign; as a byte it reads ±1 only at ±127.
            tangents[4 * i + 3] = array[4 * i + 3] < 0 ? -1 : 1;
          }
          accessor.setArray(tangents).setNormalized(false);
        }
      }
    }
  }
  const bytes = done.size - half - halfWeights - oneWeight - byteColours;
  return { half, bytes, halfWeights, oneWeight, byteColours, nonFinite };
}

/** A signed-normalised byte as glTF reads one: value / 127, at least −1. */
function snorm8(array: TypedArray, at: number): number {
  return Math.max(array[at] / 127, -1);
}

/** An IEEE 754 half float's value, from its 16 bits. */
export function halfToFloat(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}
