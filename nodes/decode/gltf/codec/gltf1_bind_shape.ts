/**
 * A glTF 1.0 skin's `bindShapeMatrix`, folded into its inverse bind matrices. 1.0 skins a vertex
 * as `Σ weight · jointMatrix · inverseBind · bindShape · v`; 2.0 has no bind shape matrix, so each
 * of the skin's inverse bind matrices becomes `inverseBind · bindShape` — the same product, with
 * the mesh's vertices and any other use of its accessors untouched. The new matrices go into one
 * buffer of their own, each skin's read from its accessor only once checked to lie inside its data.
 *
 * @module
 */
import type { Json } from "./checker.ts";
import type { BindShape } from "./gltf1_nodes.ts";
import type { Gltf1Reader } from "./gltf1_reader.ts";

const FLOAT = 5126;
const MAT4_BYTES = 64;

/** Gives every skin of `bindShapes` inverse bind matrices with its bind shape matrix folded in. */
export function foldBindShapes(
  json: Json,
  resources: Record<string, Uint8Array<ArrayBuffer>>,
  bindShapes: readonly BindShape[],
  r: Gltf1Reader,
): void {
  if (bindShapes.length === 0) return;
  const accessors = (json.accessors ??= []) as Json[];
  const views = (json.bufferViews ??= []) as Json[];
  const buffers = (json.buffers ??= []) as Json[];
  const chunks: Float32Array[] = [];
  let offset = 0;
  for (const { skin: skinIndex, matrix, path } of bindShapes) {
    const skin = (json.skins as Json[])[skinIndex];
    const joints = (skin.joints as number[]).length;
    const inverse = typeof skin.inverseBindMatrices === "number"
      ? readMatrices(accessors[skin.inverseBindMatrices], views, buffers, resources, r, path)
      : undefined;
    const count = inverse ? inverse.length / 16 : joints;
    const out = new Float32Array(count * 16);
    for (let m = 0; m < count; m++) {
      multiply(
        inverse ? inverse.subarray(m * 16, m * 16 + 16) : IDENTITY,
        matrix,
        out.subarray(m * 16, m * 16 + 16),
      );
    }
    views.push({ buffer: buffers.length, byteOffset: offset, byteLength: out.byteLength });
    accessors.push({ bufferView: views.length - 1, componentType: FLOAT, count, type: "MAT4" });
    skin.inverseBindMatrices = accessors.length - 1;
    chunks.push(out);
    offset += out.byteLength;
  }
  const bytes = new Uint8Array(offset);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength), at);
    at += chunk.byteLength;
  }
  const uri = `data:application/octet-stream;base64,${bytes.toBase64()}`;
  buffers.push({ name: "bind shape matrices", byteLength: bytes.byteLength, uri });
  resources[uri] = bytes;
}

const IDENTITY = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

/** The accessor's float matrices, after checking its type and that it lies inside its data. */
function readMatrices(
  accessor: Json,
  views: Json[],
  buffers: Json[],
  resources: Record<string, Uint8Array>,
  r: Gltf1Reader,
  path: string,
): Float32Array {
  const at = path.replace(/\/bindShapeMatrix$/, "/inverseBindMatrices");
  if (accessor.componentType !== FLOAT || accessor.type !== "MAT4") {
    r.fail(
      at,
      "an accessor of FLOAT MAT4 (inverse bind matrices)",
      `${accessor.componentType} ${accessor.type}`,
    );
  }
  const view = views[accessor.bufferView as number];
  const buffer = view && buffers[view.buffer as number];
  const data = buffer && (typeof buffer.uri === "string" ? resources[buffer.uri] : resources["@glb.bin"]);
  const count = accessor.count as number;
  const start = (view?.byteOffset as number ?? 0) + (accessor.byteOffset as number ?? 0);
  const viewEnd = (view?.byteOffset as number ?? 0) + (view?.byteLength as number ?? 0);
  const stride = typeof view?.byteStride === "number" ? view.byteStride : MAT4_BYTES;
  if (
    !data || !Number.isInteger(count) || count < 1 || stride !== MAT4_BYTES ||
    start + count * MAT4_BYTES > Math.min(viewEnd, data.byteLength)
  ) {
    r.fail(at, "inverse bind matrices packed inside their buffer view and its data", `${count} matrices`);
  }
  const view32 = new DataView(data.buffer, data.byteOffset + start, count * MAT4_BYTES);
  const out = new Float32Array(count * 16);
  for (let i = 0; i < out.length; i++) out[i] = view32.getFloat32(i * 4, true);
  return out;
}

/** `out = a · b`, 4×4 column-major. */
function multiply(a: ArrayLike<number>, b: ArrayLike<number>, out: Float32Array): void {
  for (let col = 0; col < 4; col++) {
    for (let row = 0; row < 4; row++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += a[k * 4 + row] * b[col * 4 + k];
      out[col * 4 + row] = sum;
    }
  }
}
