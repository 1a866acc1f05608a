/**
 * The fast output check of `export.gltf`: decides, for the files glTF-Transform's writer produces
 * from partgraph's scenes, whether the Khronos glTF validator would report any error — in one pass
 * over the JSON and one typed-array loop per accessor and rule, where the validator steps
 * through every element with generators (and needs about a second of JIT warm-up per process).
 *
 * **The subset it covers** (anything else is "outside", and the Khronos validator decides): a GLB
 * of JSON and BIN chunks, or `.gltf` JSON whose buffer and images are base64 data URIs; glTF 2.0
 * core only (no `extensionsUsed`, no `extensions` object, no other URIs); one buffer; PNG or JPEG images (in buffer views, or data URIs in `.gltf`); the
 * shapes, enums and ranges glTF-Transform writes. Inside it, every Khronos *error* of
 * `gltf-validator` 2.0.0-dev.3.10 is either impossible by construction of the writer, made
 * impossible by `repair.ts`, or tested here on the data — see `docs/export-check.md` for the list.
 * Whatever the check is unsure of (an odd shape, a rule whose exact reading it does not reproduce)
 * is "outside" too: it never answers "valid" for a file the validator would reject.
 *
 * @module
 */
import { splitGlb } from "./glb.ts";
import { type Json, keys, object, shaped } from "./json.ts";
import { readAccessors, readViews } from "./layout.ts";
import { readMeshes } from "./mesh.ts";
import { readMaterials } from "./material.ts";
import { readNodes } from "./nodes.ts";
import { readAnimations } from "./animation.ts";
import { readCameras } from "./cameras.ts";
import { emptyPlan, Usages } from "./plan.ts";
import { checkData } from "./data.ts";
import type { TypedArray } from "@gltf-transform/core";
import { checkImage } from "./images.ts";
import { readDataUri } from "./data_uri.ts";
import { jsonInHand } from "./in_hand.ts";
import { CheckStop, outside, type Verdict } from "./verdict.ts";

export type { Verdict } from "./verdict.ts";

const ROOT_KEYS = keys(
  "asset",
  "scene",
  "scenes",
  "nodes",
  "meshes",
  "accessors",
  "bufferViews",
  "buffers",
  "materials",
  "textures",
  "images",
  "samplers",
  "skins",
  "animations",
  "cameras",
);
const ASSET_KEYS = keys("version", "generator", "copyright");
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The fast check's verdict on a written file. `written`, when given, is the JSON value the file's
 * JSON text was serialised from (`writtenJson` of `gltf_io.ts`): read instead of parsing the text
 * where `in_hand.ts` proves the two the same, with the same verdict either way. `sources`, when given
 * for a GLB, is the array each accessor was written from (`writtenArrays` of `gltf_io.ts`): the data
 * rules then read what they can from those arrays' remembered passes (`array_facts.ts`) rather than
 * the binary chunk, with the same verdict.
 *
 * @example
 * ```ts ignore
 * const verdict = checkOutput(glb, "glb", writtenJson(glb));
 * if (verdict.kind === "outside") await runKhronosValidator(glb);
 * ```
 */
export function checkOutput(
  bytes: Uint8Array,
  format: "glb" | "gltf",
  written?: unknown,
  sources?: readonly (TypedArray | null)[],
): Verdict {
  try {
    check(bytes, format, written, sources);
    return { kind: "valid" };
  } catch (error) {
    if (error instanceof CheckStop) return error.verdict;
    // A failure of the check itself (a bug, or memory) must not fail the export: the validator decides.
    return { kind: "outside", reason: `the fast check failed: ${error}`, pointer: "/" };
  }
}

function check(
  bytes: Uint8Array,
  format: "glb" | "gltf",
  written: unknown,
  sources: readonly (TypedArray | null)[] | undefined,
): void {
  // Typed arrays over the binary data read the platform's byte order; glTF's is little-endian.
  if (!LITTLE_ENDIAN) outside("big-endian platform", "/");
  const parts = format === "glb" ? splitGlb(bytes) : { json: bytes, bin: undefined };
  const root = (written !== undefined && jsonInHand(written)) || parseJson(parts.json);
  shaped(root, "", ROOT_KEYS);
  const asset = shaped(root.asset, "/asset", ASSET_KEYS);
  if (asset.version !== "2.0") outside("asset version other than 2.0", "/asset/version");
  for (const key of ["generator", "copyright"]) {
    if (asset[key] !== undefined && typeof asset[key] !== "string") outside("asset string", `/asset/${key}`);
  }
  // Typed arrays need the binary data at a 4-byte boundary of its ArrayBuffer; a copy makes it so.
  const data = format === "glb" ? parts.bin : embeddedBuffer(root);
  const bin = data && data.byteOffset % 4 !== 0 ? data.slice() : data;
  const views = readViews(root, bin, format);
  const accessors = readAccessors(root, views);
  const usages = new Usages();
  const plan = emptyPlan();
  const meshes = readMeshes(root, accessors, views, usages, plan);
  readMaterials(root, meshes, views, usages, plan);
  const nodes = readNodes(root, meshes, accessors, readCameras(root), usages, plan);
  readAnimations(root, nodes, meshes, accessors, usages, plan);
  // Animation, skin and unused accessors' views: no stride and no target, as the validator wants.
  views.forEach((view, i) => {
    const content = usages.content(i);
    if (content !== "vertex" && content !== "index" && content !== "image") {
      if (view.byteStride !== undefined || view.target !== undefined) {
        outside("stride or target", `/bufferViews/${i}`);
      }
    }
  });
  if (bin) checkData(bin, accessors, plan, format === "glb" ? sources : undefined);
  for (const { view, bytes, mimeType, pointer } of plan.images) {
    const at = view === undefined ? undefined : views[view];
    checkImage(bytes ?? bin!.subarray(at!.byteOffset, at!.byteOffset + at!.byteLength), mimeType, pointer);
  }
}

/** The glTF JSON: UTF-8 (no byte-order mark) and parseable, else outside. */
function parseJson(text: Uint8Array): Json {
  if (text[0] === 0xef) outside("JSON with a byte-order mark", "/");
  try {
    return object(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(text)), "/");
  } catch (error) {
    if (error instanceof CheckStop) throw error;
    outside("not UTF-8 JSON", "/");
  }
}

/** A `.gltf`'s one buffer, decoded from its data URI (undefined when there is no buffer). */
function embeddedBuffer(root: Json): Uint8Array | undefined {
  const buffers = root.buffers;
  if (!Array.isArray(buffers) || buffers.length !== 1) return undefined; // readViews judges the rest
  const { mediaType, bytes } = readDataUri(object(buffers[0], "/buffers/0").uri, "/buffers/0/uri");
  if (mediaType !== "application/octet-stream" && mediaType !== "application/gltf-buffer") {
    outside("buffer data URI of another media type", "/buffers/0/uri");
  }
  return bytes;
}
