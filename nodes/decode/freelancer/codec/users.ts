/**
 * Who uses a model's shared things — which parts and LODs draw a mesh or a material, which materials
 * name a texture — so that a warning about one of them says what it costs: a material missing from
 * every library is seen grey on *these* parts, not somewhere on the ship.
 *
 * @module
 */
import { formatId } from "./crc.ts";
import { textureSlots } from "./material.ts";
import type { FreelancerModel, ModelPart } from "./model.ts";
import { textureKey } from "./texture_names.ts";

/** How many parts (or materials) a warning names before it counts the rest ("and 3 more parts"). */
const NAMED = 4;

/** The parts and LODs drawing one mesh or material, in the order the model lists its parts. */
export type PartLods = ReadonlyMap<string, ReadonlySet<number>>;

/** What uses each of a model's meshes, materials and textures (see {@link modelUsers}). */
export interface ModelUsers {
  /** Per mesh id: the parts and LODs whose `VMeshRef` draws from it. */
  readonly meshes: ReadonlyMap<number, PartLods>;
  /** Per material id: the parts and LODs drawing a mesh group of it, and how many groups. */
  readonly materials: ReadonlyMap<number, { readonly parts: PartLods; readonly groups: number }>;
  /** Per texture key ({@link textureKey}): the material ids drawn that name it, in first-use order. */
  readonly textures: ReadonlyMap<string, readonly number[]>;
}

/**
 * The users of every mesh, material and texture `model` draws: its parts' LOD references, the
 * groups each reference selects (a mesh no library defines has no groups, so its materials are
 * unknown), and the texture slots of the materials those groups name.
 *
 * @example
 * ```ts
 * const users = modelUsers(model);
 * warn(`material 0x1077C687 is missing; ${describeUsers(users.materials.get(0x1077c687)?.parts)}`);
 * ```
 */
export function modelUsers(model: FreelancerModel): ModelUsers {
  // Read by warnings alone: a model that warns about nothing shared is never indexed.
  let index: ModelUsers | undefined;
  const indexed = () => index ??= indexUsers(model);
  return {
    get meshes() {
      return indexed().meshes;
    },
    get materials() {
      return indexed().materials;
    },
    get textures() {
      return indexed().textures;
    },
  };
}

/**
 * Work done for warnings' words since the process started, for tests that count it: indexes made of
 * who uses a model's meshes ({@link meshUsers}) and of who uses its meshes, materials and textures
 * ({@link modelUsers}'s, which makes a {@link meshUsers} too).
 */
export const usersWork = { indexes: 0 };

/** {@link modelUsers}'s index, made when a warning first reads it. */
function indexUsers(model: FreelancerModel): ModelUsers {
  usersWork.indexes++;
  const materials = new Map<number, { parts: Map<string, Set<number>>; groups: number }>();
  const add = (into: Map<string, Set<number>>, part: string, lod: number) => {
    const lods = into.get(part);
    if (lods) lods.add(lod);
    else into.set(part, new Set([lod]));
  };
  const meshes = meshUsers(model.parts);
  for (const part of model.parts) {
    part.fragment.lods.forEach((ref, lod) => {
      if (ref.meshId === 0) return;
      const groups = model.meshes.get(ref.meshId)?.groups ?? [];
      for (const group of groups.slice(ref.groupStart, ref.groupStart + ref.groupCount)) {
        let used = materials.get(group.materialId);
        if (!used) materials.set(group.materialId, used = { parts: new Map(), groups: 0 });
        add(used.parts, part.name, lod);
        used.groups++;
      }
    });
  }
  const textures = new Map<string, number[]>();
  for (const id of materials.keys()) {
    const def = model.materials.get(id);
    for (const slot of def ? textureSlots(def) : []) {
      const key = textureKey(slot.name);
      const list = textures.get(key) ?? textures.set(key, []).get(key)!;
      if (!list.includes(id)) list.push(id);
    }
  }
  return { meshes, materials, textures };
}

/**
 * Per mesh id, the parts and LODs whose `VMeshRef` draws from it: known once the parts are read, before
 * the libraries' contents are (a warning given while a library is read names them).
 */
export function meshUsers(parts: readonly ModelPart[]): ReadonlyMap<number, PartLods> {
  usersWork.indexes++;
  const meshes = new Map<number, Map<string, Set<number>>>();
  for (const part of parts) {
    part.fragment.lods.forEach((ref, lod) => {
      if (ref.meshId === 0) return;
      const users = meshes.get(ref.meshId) ?? meshes.set(ref.meshId, new Map()).get(ref.meshId)!;
      const lods = users.get(part.name);
      if (lods) lods.add(lod);
      else users.set(part.name, new Set([lod]));
    });
  }
  return meshes;
}

/**
 * The parts and LODs of `parts` in a warning's words: `part 'Hull' LODs 0–2, part 'Wing' LOD 0 and
 * 3 more parts`; `no part` when nothing draws it (a material only a library's other meshes use).
 */
export function describeParts(parts: PartLods | undefined): string {
  if (!parts?.size) return "no part";
  const named = [...parts].slice(0, NAMED).map(([part, lods]) => `part '${part}' ${describeLods(lods)}`);
  const rest = parts.size - named.length;
  return joinNamed(named, rest, rest === 1 ? "part" : "parts");
}

/** A material's users in a warning's words: `3 groups of part 'Hull' LOD 0 and part 'Wing' LODs 0, 1`. */
export function describeMaterialUsers(users: ModelUsers, id: number): string {
  const used = users.materials.get(id);
  if (!used) return "no part";
  return `${used.groups} group${used.groups === 1 ? "" : "s"} of ${describeParts(used.parts)}`;
}

/**
 * The materials naming one texture, each with its parts: `material 'hull' (part 'Hull' LOD 0) and
 * material 'trim' (part 'Gun' LODs 0–1)`; `a material no part draws` when none is known.
 */
export function describeTextureUsers(model: FreelancerModel, users: ModelUsers, textureName: string): string {
  const ids = users.textures.get(textureKey(textureName)) ?? [];
  if (!ids.length) return "no material any part draws";
  const named = ids.slice(0, NAMED).map((id) => {
    const name = model.materials.get(id)?.name;
    return `material ${name === undefined ? formatId(id) : `'${name}'`} (${
      describeParts(users.materials.get(id)?.parts)
    })`;
  });
  const rest = ids.length - named.length;
  return joinNamed(named, rest, rest === 1 ? "material" : "materials");
}

/**
 * The files whose libraries a decode looked in, for a warning about what none of them defines:
 * `ship.cmp, ship.mat, shared.mat and 2 more libraries`.
 */
export function describeLibraries(model: FreelancerModel): string {
  const files = model.librariesRead ?? [];
  if (!files.length) return "no library";
  const named = files.slice(0, NAMED);
  const rest = files.length - named.length;
  return joinNamed(named, rest, rest === 1 ? "library" : "libraries");
}

/** `LOD 0`, `LODs 0–2`, `LODs 0, 2`: the levels in order, a run of three or more as a range. */
function describeLods(lods: ReadonlySet<number>): string {
  const sorted = [...lods].sort((a, b) => a - b);
  if (sorted.length === 1) return `LOD ${sorted[0]}`;
  const contiguous = sorted[sorted.length - 1] - sorted[0] === sorted.length - 1;
  return `LODs ${
    contiguous && sorted.length > 2 ? `${sorted[0]}–${sorted[sorted.length - 1]}` : sorted.join(", ")
  }`;
}

/** `a`, `a and b`, `a, b and c`, or `a, b, c, d and 3 more parts`. */
function joinNamed(named: readonly string[], rest: number, noun: string): string {
  if (rest > 0) return `${named.join(", ")} and ${rest} more ${noun}`;
  return named.length === 1 ? named[0] : `${named.slice(0, -1).join(", ")} and ${named[named.length - 1]}`;
}
