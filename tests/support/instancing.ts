/**
 * GLBs with GPU instancing (`EXT_mesh_gpu_instancing`, required) as glTF-Transform's `optimize` and
 * gltfpack `-mi` write them, built by code: a rotated, scaled parent whose child draws one small mesh
 * `count` times, each instance with its own translation, rotation and scale.
 *
 * @module
 */
import { Document, NodeIO } from "@gltf-transform/core";
import { ALL_EXTENSIONS, EXTMeshGPUInstancing } from "@gltf-transform/extensions";

/** Options of {@link instancedGlb}. */
export interface InstancedOptions {
  /** How many instances (default 5). */
  readonly count?: number;
  /** Store rotations as normalized shorts, as quantizing optimisers do (default false: floats). */
  readonly quantized?: boolean;
  /** A further instance attribute with no node transform equivalent, e.g. `_ID`. */
  readonly custom?: string;
}

/** Instance `i`'s translation, rotation (unit quaternion) and scale. */
export function instanceTransform(i: number): { t: number[]; r: number[]; s: number[] } {
  const angle = 0.3 + 0.4 * i;
  return {
    t: [2 * i, 0.5 * i, -i],
    r: [0, Math.sin(angle / 2), 0, Math.cos(angle / 2)],
    s: [1 + 0.1 * i, 1, 1 - 0.05 * i],
  };
}

/** The GLB: `Wing` (turned and scaled) holding `Rivets`, whose mesh `rivet` is drawn per instance. */
export async function instancedGlb(options: InstancedOptions = {}): Promise<Uint8Array> {
  const count = options.count ?? 5;
  const doc = new Document();
  const buffer = doc.createBuffer();
  const extension = doc.createExtension(EXTMeshGPUInstancing).setRequired(true);
  const accessor = (
    type: "VEC3" | "VEC4" | "SCALAR",
    array: Float32Array<ArrayBuffer> | Int16Array<ArrayBuffer>,
  ) => doc.createAccessor("", buffer).setType(type).setArray(array);
  const prim = doc.createPrimitive()
    .setAttribute("POSITION", accessor("VEC3", new Float32Array([0, 0, 0, 0.2, 0, 0, 0, 0, 0.2, 0, 0.2, 0])))
    .setIndices(
      doc.createAccessor("", buffer).setType("SCALAR").setArray(new Uint16Array([0, 1, 2, 0, 2, 3])),
    );
  const mesh = doc.createMesh("rivet").addPrimitive(prim);
  const columns = (pick: (i: number) => number[]) => Array.from({ length: count }, (_, i) => pick(i)).flat();
  const rotations = columns((i) => instanceTransform(i).r);
  const batch = extension.createInstancedMesh()
    .setAttribute("TRANSLATION", accessor("VEC3", new Float32Array(columns((i) => instanceTransform(i).t))))
    .setAttribute("SCALE", accessor("VEC3", new Float32Array(columns((i) => instanceTransform(i).s))))
    .setAttribute(
      "ROTATION",
      options.quantized
        ? accessor("VEC4", new Int16Array(rotations.map((v) => Math.round(v * 32767)))).setNormalized(true)
        : accessor("VEC4", new Float32Array(rotations)),
    );
  if (options.custom) batch.setAttribute(options.custom, accessor("SCALAR", new Float32Array(count)));
  const rivets = doc.createNode("Rivets").setMesh(mesh).setExtension("EXT_mesh_gpu_instancing", batch);
  const wing = doc.createNode("Wing").setTranslation([1, 2, 3]).setRotation([
    0,
    0,
    Math.SQRT1_2,
    Math.SQRT1_2,
  ])
    .setScale([2, 2, 2]).addChild(rivets);
  doc.createScene("s").addChild(wing);
  return await new NodeIO().registerExtensions(ALL_EXTENSIONS).writeBinary(doc);
}
