/**
 * `KHR_mesh_quantization` files as real quantizers and the tools after them leave them, on the file's
 * JSON before the structure check refuses what the extension's rules do not allow:
 *
 * - attributes in the integer formats only the extension allows (positions or texture coordinates in
 *   8- or 16-bit integers, normals in normalized ones) where `extensionsUsed` does not list it (a tool
 *   that rewrote the list from the extension objects it knew: the extension has none): listed, as
 *   three.js reads such files;
 * - NORMAL or TANGENT in signed bytes or shorts without `normalized: true` (the extension allows them
 *   normalized only: 127 is a unit length): read normalized, the direction the values give.
 *
 * A quantizer's byte-aligned interleaving (a stride not a multiple of 4) is read by check_buffers.ts.
 * What the file cannot settle — integer positions no node scales back, integer UVs no texture
 * transform scales back — is named once read (quantized_notes.ts).
 *
 * @module
 */
import { isMsfsPacked } from "./msfs_attributes.ts";

// The file as parsed, before any check: every field may be anything, and is tested before use.
// deno-lint-ignore no-explicit-any
type Json = any;

const EXTENSION = "KHR_mesh_quantization";
const INTEGER_NAMES: Record<number, string> = {
  5120: "signed bytes",
  5121: "unsigned bytes",
  5122: "signed shorts",
  5123: "unsigned shorts",
};

/** Whether core glTF allows `accessor` for `semantic` (its formats table); unknown semantics are allowed. */
function coreAllows(semantic: string, accessor: Json): boolean {
  const type = accessor.componentType, normalized = accessor.normalized === true;
  if (type === 5126) return true;
  if (/^(POSITION|NORMAL|TANGENT)$/.test(semantic)) return false;
  if (/^TEXCOORD_\d+$/.test(semantic)) return normalized && (type === 5121 || type === 5123);
  return true;
}

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Mends the habits above in `file`'s JSON; a repair per change as `<JSON path>: text`. */
export function alignQuantizedAttributes(file: object): string[] {
  const json = file as Json;
  const repairs: string[] = [];
  // A packed Flight Simulator model's formats are its own (msfs_attributes.ts).
  if (isMsfsPacked(json)) return repairs;
  const accessors: Json[] = Array.isArray(json.accessors) ? json.accessors : [];
  const uses: { mesh: number; semantic: string; accessor: number }[] = [];
  (Array.isArray(json.meshes) ? json.meshes : []).forEach((mesh: Json, m: number) => {
    if (!isObject(mesh) || !Array.isArray(mesh.primitives)) return;
    for (const primitive of mesh.primitives) {
      if (!isObject(primitive) || !isObject(primitive.attributes)) continue;
      for (const [semantic, a] of Object.entries(primitive.attributes)) {
        if (Number.isInteger(a) && isObject(accessors[a as number])) {
          uses.push({ mesh: m, semantic, accessor: a as number });
        }
      }
    }
  });
  const meshName = (m: number) => {
    const mesh = json.meshes[m];
    return typeof mesh.name === "string" && mesh.name ? `mesh '${mesh.name}'` : `mesh ${m}`;
  };
  const used: unknown[] = Array.isArray(json.extensionsUsed) ? json.extensionsUsed : [];
  if (!used.includes(EXTENSION)) {
    const quantized = uses.filter((u) =>
      INTEGER_NAMES[accessors[u.accessor].componentType] && !coreAllows(u.semantic, accessors[u.accessor])
    );
    if (!quantized.length) return repairs;
    if (json.extensionsUsed !== undefined && !Array.isArray(json.extensionsUsed)) return repairs;
    (json.extensionsUsed ??= []).push(EXTENSION);
    const first = quantized[0];
    const meshes = [...new Set(quantized.map((u) => u.mesh))];
    repairs.push(
      `/extensionsUsed: '${EXTENSION}' added: ${meshName(first.mesh)}'s ${first.semantic} is in ${
        INTEGER_NAMES[accessors[first.accessor].componentType]
      }${accessors[first.accessor].normalized === true ? " (normalized)" : ""}, which only it allows${
        meshes.length > 1 ? ` (and ${meshes.length - 1} more mesh${meshes.length > 2 ? "es" : ""})` : ""
      }; its list of extensions left it out (a tool that rebuilt the list from extension objects: this one has none)`,
    );
  }
  const turned = new Set<number>();
  for (const u of uses) {
    const accessor = accessors[u.accessor];
    if (!/^(NORMAL|TANGENT)$/.test(u.semantic) || turned.has(u.accessor)) continue;
    if (
      (accessor.componentType !== 5120 && accessor.componentType !== 5122) || accessor.normalized === true
    ) {
      continue;
    }
    if (accessor.normalized !== undefined && accessor.normalized !== false) continue;
    turned.add(u.accessor);
    accessor.normalized = true;
    const unit = accessor.componentType === 5120 ? 127 : 32767;
    repairs.push(
      `/accessors/${u.accessor}/normalized: ${meshName(u.mesh)}'s ${u.semantic} in ${
        INTEGER_NAMES[accessor.componentType]
      } without normalized: true (${EXTENSION} allows them normalized only; a quantizer's flag lost): ` +
        `read normalized, ${unit} a unit length`,
    );
  }
  return repairs;
}
