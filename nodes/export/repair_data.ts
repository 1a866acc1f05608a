/**
 * Export repairs of skin and animation data: what real exporters write that viewers play but the
 * Khronos glTF validator (2.0.0-dev.3.10) refuses — vertex weights that do not sum to 1 (or are
 * negative, or all zero), a joint listed twice for one vertex, rotation keys that are not unit
 * quaternions, channels no viewer can play as written, key times before 0 or repeated where a baker
 * wrote two keys at one frame, and inverse bind matrices written row-major or with a last row other
 * than (0, 0, 0, 1); and through `repair_attributes.ts`, tangents and vertex colours out of range.
 *
 * Each function follows `repair.ts`: it reports what needs repair, and repairs it when `apply`.
 * `repairForExport` applies them to its copy of the scene, which shares the input's arrays: a repair
 * writes into an accessor's array only once it has given it one of its own (`ownArray` of
 * `repair_arrays.ts`), so the caller's scene is never touched and unrepaired arrays are not copied.
 *
 * @module
 */
import type { Accessor, Document, Skin, TypedArray } from "@gltf-transform/core";
import { channelRepairs, negativeTimeRepairs, rotationRepairs, timeRepairs } from "./repair_animation.ts";
import { influenceRepairs } from "./repair_weights.ts";
import { colourRepairs, tangentRepairs } from "./repair_attributes.ts";
import { writtenNames } from "../../runtime/scene/unique_names.ts";
import { ownArray } from "./repair_arrays.ts";
import { attributeReader, type AttributesOf } from "./primitive_attributes.ts";

const FLOAT = 5126;

/**
 * Every skin and animation data repair `doc` needs, pushed onto `messages` (one per repaired mesh,
 * skin or animation sampler); made in place when `apply` is true, which only the repair's copy of a
 * scene may be given (see the module comment).
 *
 * @example
 * ```ts
 * const messages: string[] = [];
 * dataRepairs(doc, false, messages); // messages says what a repair would change; doc is unchanged
 * ```
 */
export function dataRepairs(
  doc: Document,
  apply: boolean,
  messages: string[],
  attributes: AttributesOf = attributeReader(apply),
): void {
  const root = doc.getRoot();
  const meshes = root.listMeshes();
  // Accessors shared by several primitives or meshes are counted and repaired once, by the first.
  const seen = new Set<Accessor>();
  // Warnings name an unnamed mesh or clip as the written file will, not `''`.
  const name = writtenNames(doc);
  for (let m = 0; m < meshes.length; m++) {
    influenceRepairs(meshes[m], apply, messages, seen, name, attributes);
    tangentRepairs(meshes[m], apply, messages, seen, name, attributes);
    colourRepairs(meshes[m], apply, messages, seen, name, attributes);
  }
  const skins = root.listSkins();
  for (let s = 0; s < skins.length; s++) inverseBindRepair(skins[s], apply, messages, seen);
  const animations = channelRepairs(doc, apply, messages, name);
  for (let a = 0; a < animations.length; a++) rotationRepairs(animations[a], apply, messages, seen, name);
  negativeTimeRepairs(doc, animations, apply, messages, name);
  // Last: a sampler given new accessors for its kept keys copies rotations already normalised, and
  // times already slid (sliding can make two nearly equal times equal).
  timeRepairs(doc, animations, apply, messages, name);
}

function inverseBindRepair(skin: Skin, apply: boolean, messages: string[], seen: Set<Accessor>): void {
  const accessor = skin.getInverseBindMatrices();
  let array = accessor?.getArray();
  if (!accessor || !array || seen.has(accessor)) return;
  seen.add(accessor);
  if (accessor.getElementSize() !== 16 || accessor.getComponentType() !== FLOAT) return;
  let transposed = 0, reset = 0;
  for (let at = 0; at + 15 < array.length; at += 16) {
    const kind = inverseBindDamage(array, at);
    if (kind === 1) transposed++;
    if (kind === 2) reset++;
    // Copy on write (`repair_arrays.ts`): the input's array is copied once a matrix needs repair.
    if (kind && apply) array = ownArray(accessor);
    if (kind === 1 && apply) transposeMatrix(array, at);
    if (kind === 2 && apply) resetLastRow(array, at);
  }
  const fixes: string[] = [];
  if (transposed) fixes.push(`${transposed} written row-major, transposed`);
  if (reset) fixes.push(`${reset} given the last row (0, 0, 0, 1)`);
  if (fixes.length) {
    messages.push(`inverse bind matrices of skin '${skin.getName()}': ${fixes.join("; ")}`);
  }
}

/**
 * 0 for a matrix whose last row (elements 3, 7, 11, 15 of glTF's column-major order) is
 * (0, 0, 0, 1) exactly (ACCESSOR_INVALID_IBM); 1 for one an exporter wrote row-major — its
 * translation in the last row (3, 7, 11), zeros where the translation belongs (12, 13, 14), and 15
 * still 1; 2 for any other last row, which is set to (0, 0, 0, 1).
 */
function inverseBindDamage(m: TypedArray, at: number): number {
  if (m[at + 3] === 0 && m[at + 7] === 0 && m[at + 11] === 0 && m[at + 15] === 1) return 0;
  const rowMajor = m[at + 12] === 0 && m[at + 13] === 0 && m[at + 14] === 0 && m[at + 15] === 1;
  return rowMajor ? 1 : 2;
}

function resetLastRow(m: TypedArray, at: number): void {
  m[at + 3] = 0;
  m[at + 7] = 0;
  m[at + 11] = 0;
  m[at + 15] = 1;
}

function transposeMatrix(m: TypedArray, at: number): void {
  for (let row = 0; row < 4; row++) {
    for (let col = row + 1; col < 4; col++) {
      const a = at + col * 4 + row, b = at + row * 4 + col;
      const value = m[a];
      m[a] = m[b];
      m[b] = value;
    }
  }
}
