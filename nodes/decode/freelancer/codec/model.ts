/**
 * A whole Freelancer model file in memory: its parts (one for a `.3db`, one per `Cmpnd` entry for a
 * `.cmp`, one per mesh for a bare `.vms`, one generated sphere for a planet or sun's `.sph`), the raw
 * `Cons` records, and the mesh, material and texture libraries gathered from the file and any extra
 * library files. A `.cmp`'s `Cmpnd` is read in `compound.ts`.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import type { ConstraintRecord } from "./constraints.ts";
import { readCompound } from "./compound.ts";
import { readAnimationScripts } from "./animation.ts";
import { FRAGMENT_ENTRIES, type Hardpoint, readFragment } from "./fragment.ts";
import { LIBRARY_ENTRIES, warnMisspeltEntries } from "./entry_names.ts";
import { warnDegreeLimits, warnReversedLimits } from "./reversed_limits.ts";
import { warnLodSwitches } from "./lod_switch.ts";
import { mapMaterial, type MaterialDef, readMaterialLibrary } from "./material.ts";
import { type MaterialMap, RETAIL_MATERIAL_MAP } from "./material_map.ts";
import { readTextureLibrary } from "./texture.ts";
import { findChild, findChildren, readUtf, type UtfEntry } from "./utf.ts";
import type { TrailingBytes, VMeshData } from "./vmesh.ts";
import { describeMeshDamage, readMeshLibrary, warnPadding } from "./mesh_library.ts";
import { describeParts, meshUsers, modelUsers, type PartLods } from "./users.ts";
import { flCrc32 } from "./crc.ts";
import { type MaterialAnimation, type MaterialAnimProblem, readMaterialAnims } from "./material_anim.ts";
import { readSphere, sphereModel, type SphereSpec } from "./sphere.ts";
import type {
  FreelancerModel,
  LibraryContents,
  MeshDamage,
  ModelKind,
  ModelPart,
  ModelReading,
  NamedBytes,
} from "./model_types.ts";

// The scene builder names damaged meshes the way the library reader records them.
export { describeMeshDamage };
export type {
  FreelancerModel,
  LibraryContents,
  LibrarySources,
  MeshDamage,
  ModelKind,
  ModelPart,
  ModelReading,
  NamedBytes,
} from "./model_types.ts";

/**
 * Adds every `VMeshLibrary`, `Material library` and `Texture library` directly under `dir` to
 * `into`; an id already there keeps its first definition. `prefix` is `dir`'s UTF path from the
 * file's root (with a trailing `/`; empty for the root), for the entry paths of damage reports.
 * `warnMesh` hears the warnings about one mesh with its id (see `readMeshLibrary`).
 */
export function gatherLibraries(
  dir: UtfEntry,
  into: LibraryContents,
  warn: WarningSink,
  prefix = "",
  padding?: (bytes: TrailingBytes) => void,
  warnMesh?: (id: number, message: string) => void,
): void {
  const place = `${prefix ? `'${prefix.slice(0, -1)}'` : "the root"}${dir.file ? ` of ${dir.file}` : ""}`;
  warnMisspeltEntries(dir, LIBRARY_ENTRIES, place, warn);
  // Every library directory counts, not just the first of a name: the game merges all it loads.
  for (const vms of findChildren(dir, "VMeshLibrary")) {
    readMeshLibrary(vms, prefix, into, warn, padding, warnMesh);
  }
  for (const mat of findChildren(dir, "Material library")) readMaterialLibrary(mat, into.materials);
  for (const txm of findChildren(dir, "Texture library")) readTextureLibrary(txm, into.textures);
}

/**
 * Decodes a `.cmp`, `.3db` or `.vms` file. `libraries` are extra UTF files (`.vms`, `.mat`, `.txm`)
 * whose meshes, materials and textures are merged after the file's own (the first of a duplicate
 * id wins), since the game resolves ids against every library it has loaded. Every material's type
 * then goes through `materialMap` (the game's `[MaterialMap]`; retail's by default).
 *
 * @example
 * ```ts
 * const model = decodeModel({ bytes, name: "ship.cmp" }, [{ bytes: vms, name: "ship.vms" }], console.warn);
 * ```
 */
export function decodeModel(
  file: NamedBytes,
  libraries: readonly NamedBytes[],
  warn: WarningSink,
  materialMap: MaterialMap = RETAIL_MATERIAL_MAP,
): FreelancerModel {
  return finishModel(readModel(file, libraries, warn), [], warn, materialMap);
}

/** Adds the libraries directly under `dir` of file `from` to `reading`, naming their sources. */
function gatherInto(
  reading: ModelReading,
  dir: UtfEntry,
  from: string,
  warn: WarningSink,
  prefix = "",
  warnMesh?: (id: number, message: string) => void,
) {
  const { contents, sources, padded } = reading;
  reading.files.add(from);
  const list = padded.get(from) ?? padded.set(from, []).get(from)!;
  gatherLibraries(dir, contents, warn, prefix, (bytes) => list.push(bytes), warnMesh);
  for (const key of ["meshes", "materials", "textures"] as const) {
    const named = sources[key] as Map<number | string, string>;
    // Every id gathered so far is named and none is removed: equal sizes mean nothing new (most
    // fragments of a compound hold no library), with no walk over every id for each fragment.
    if (named.size === contents[key].size) continue;
    for (const id of contents[key].keys()) if (!named.has(id)) named.set(id, from);
  }
}

/**
 * Parses `file`, reads its parts and libraries, then gathers the given `libraries`, as
 * {@link decodeModel} begins; `warn` hears what that finds. Throws the `DecodeError` of a file that is
 * no model.
 */
export function readModel(
  file: NamedBytes,
  libraries: readonly NamedBytes[],
  warn: WarningSink,
): ModelReading {
  // The file's own libraries are read before its parts, so a warning about one mesh cannot yet name
  // the parts drawing it: every warning is held, in order, and told once the parts are read.
  const held: { message: string; meshId?: number }[] = [];
  let reading: ModelReading | undefined;
  try {
    reading = readHeld(
      file,
      libraries,
      (message) => held.push({ message }),
      (meshId, message) => held.push({ message, meshId }),
    );
    return reading;
  } finally {
    // A file that is no model throws: what was warned before is still told, as it was. The parts
    // drawing a mesh are indexed for the first warning about one, not for a file that has none.
    const users = reading && lazyMeshUsers(reading);
    for (const { message, meshId } of held) {
      warn(meshId !== undefined && users ? withMeshUsers(message, users(), meshId) : message);
    }
  }
}

/**
 * The parts and LODs drawing each mesh, for a warning about one, when the parts are the file's own
 * (a compound's or a `.3db`'s), indexed when first asked for; none for a mesh library or a sphere,
 * whose parts are made later.
 */
function lazyMeshUsers(reading: ModelReading): (() => ReadonlyMap<number, PartLods>) | undefined {
  if (reading.kind !== "cmp" && reading.kind !== "3db") return undefined;
  let users: ReadonlyMap<number, PartLods> | undefined;
  return () => users ??= meshUsers(reading.parts);
}

/** A mesh's warning, ending with the parts and LODs drawing it (as the scene's mesh warnings do). */
function withMeshUsers(message: string, users: ReadonlyMap<number, PartLods>, meshId: number): string {
  return `${message}; drawn on ${describeParts(users.get(meshId))}`;
}

/** {@link readModel}'s reading; `warnMesh` hears a mesh's own warnings, with its id. */
function readHeld(
  file: NamedBytes,
  libraries: readonly NamedBytes[],
  warn: WarningSink,
  warnMesh: (meshId: number, message: string) => void,
): ModelReading {
  const root = readUtf(file.bytes, file.name);
  const reading = {
    file,
    root,
    kind: "3db" as ModelKind,
    parts: [] as ModelPart[],
    constraints: [] as ConstraintRecord[],
    sphere: undefined as SphereSpec | undefined,
    contents: emptyLibraryContents(),
    sources: {
      meshes: new Map<number, string>(),
      materials: new Map<number, string>(),
      textures: new Map<string, string>(),
    },
    padded: new Map<string, TrailingBytes[]>(),
    files: new Set<string>(),
  };
  const { meshes, damagedMeshes } = reading.contents;
  gatherInto(reading, root, file.name, warn, "", warnMesh);
  warnMisspeltEntries(
    root,
    ["Cmpnd", "Sphere", "Animation", "MaterialAnim"],
    `the root of ${file.name}`,
    warn,
  );
  const cmpnd = findChild(root, "Cmpnd");
  const sphereDir = findChild(root, "Sphere");
  if (cmpnd) {
    reading.kind = "cmp";
    const { parts, constraints } = readCompound(root, cmpnd, warn);
    if (!parts.length) {
      // Nothing left to convert, and an empty scene would not be valid glTF.
      throw new DecodeError({
        format: "cmp",
        at: { offset: cmpnd.offset },
        expected: "at least one Cmpnd part whose fragment is in the file",
        found: `none of ${(cmpnd.children ?? []).length} Cmpnd entries`,
        file: file.name,
      });
    }
    Object.assign(reading, { parts, constraints });
    // LL also accepts libraries inside a fragment directory. Their warnings (a misspelt library folder)
    // begin with the parts whose fragment it is: exporters name fragments by digits, not by the part.
    const owners = new Map<UtfEntry, string[]>();
    for (const p of parts) {
      const dir = findChild(root, p.fileName!)!;
      (owners.get(dir) ?? owners.set(dir, []).get(dir)!).push(`part '${p.name}'`);
    }
    for (const [part, named] of owners) {
      const fragmentWarn: WarningSink = (message, detail) =>
        warn(named.some((n) => message.includes(n)) ? message : `${named.join(", ")}: ${message}`, detail);
      gatherInto(reading, part, file.name, fragmentWarn, `${part.name}/`, warnMesh);
    }
  } else if (FRAGMENT_ENTRIES.some((name) => findChild(root, name))) {
    reading.parts = [{ name: "Root", fragment: readFragment(root, warn) }];
  } else if (sphereDir?.children) {
    // A planet or sun (after the fragment test, so a .3db keeps its reading): its part is built
    // once every library is in, since the atmosphere's Scale is a material property.
    reading.kind = "sph";
    reading.sphere = readSphere(sphereDir, warn);
  } else if (meshes.size || damagedMeshes.size) {
    reading.kind = "vms";
  } else if ((root.children ?? []).every((c) => IGNORED_ROOT_ENTRIES.includes(c.name.toLowerCase()))) {
    // Retail has models without any mesh (Librelancer issue #114, `m10_navbuoy.3db`): an empty part.
    warn(`${file.name}: no mesh, hardpoints or parts; decoded as an empty .3db`);
    reading.parts = [{ name: "Root", fragment: { lods: [], hardpoints: [] } }];
  } else {
    throw new DecodeError({
      format: "utf",
      at: { offset: root.offset },
      expected: "a model: Cmpnd, VMeshPart, MultiLevel, Hardpoints, Sphere or VMeshLibrary under the root",
      found: JSON.stringify((root.children ?? []).map((c) => c.name)),
      file: file.name,
    });
  }
  for (const library of libraries) {
    gatherInto(reading, readUtf(library.bytes, library.name), library.name, warn, "", warnMesh);
  }
  return reading;
}

/**
 * The model as {@link finishModel} would complete it with no more libraries, for a library search to
 * read what it uses and lacks: the reading is left as it is (material types mapped on copies, a
 * sphere's mesh generated beside the contents) and nothing is warned. Throws what such a decode
 * would: a mesh library none of whose meshes decodes.
 */
export function modelSoFar(reading: ModelReading, materialMap: MaterialMap): FreelancerModel {
  const { contents } = reading;
  const materials = new Map<number, MaterialDef>();
  for (const [id, def] of contents.materials) materials.set(id, mapMaterial(def, materialMap));
  let { parts } = reading;
  let meshes: ReadonlyMap<number, VMeshData> = contents.meshes;
  let damagedMeshes: ReadonlyMap<number, MeshDamage> = contents.damagedMeshes;
  if (reading.kind === "vms") {
    if (!meshes.size) throw damagedMeshes.values().next().value!.error;
    parts = vmsParts(meshes, damagedMeshes);
  }
  if (reading.sphere) {
    const { mesh, ref, info } = sphereModel(reading.sphere, materials, () => {}, reading.file.name);
    meshes = new Map(meshes).set(ref.meshId, mesh);
    const damaged = new Map(damagedMeshes);
    damaged.delete(ref.meshId);
    damagedMeshes = damaged;
    parts = [{ name: "Root", fragment: { lods: [ref], hardpoints: [] }, sphere: info }];
  }
  return {
    kind: reading.kind,
    parts,
    constraints: reading.constraints,
    animations: [],
    meshes,
    damagedMeshes,
    materials,
    textures: contents.textures,
    materialMap,
    materialAnims: new Map(),
    sources: reading.sources,
  };
}

/**
 * Gathers `libraries` into `reading` and completes the model as {@link decodeModel} ends: padding,
 * limit and LOD-switch warnings, a mesh library's or sphere's parts, animations, and every material
 * through `materialMap`. Runs once per reading (it adds to its contents).
 */
export function finishModel(
  reading: ModelReading,
  libraries: readonly NamedBytes[],
  warn: WarningSink,
  materialMap: MaterialMap = RETAIL_MATERIAL_MAP,
): FreelancerModel {
  if (reading.finished) throw new Error("finishModel: this reading is already finished");
  reading.finished = true;
  const { file, root, kind, constraints, sphere, contents, sources, padded } = reading;
  const { meshes, damagedMeshes, materials, textures } = contents;
  let parts = reading.parts;
  // The parts are read: a warning about a library's mesh names those drawing it.
  const users = lazyMeshUsers(reading);
  const warnMesh = users &&
    ((meshId: number, message: string) => warn(withMeshUsers(message, users(), meshId)));
  for (const library of libraries) {
    gatherInto(reading, readUtf(library.bytes, library.name), library.name, warn, "", warnMesh);
  }
  if (kind === "vms") {
    // A mesh library is nothing but its meshes: with none readable there is nothing to convert.
    if (!meshes.size) throw damagedMeshes.values().next().value!.error;
    parts = vmsParts(meshes, damagedMeshes);
  }
  // Once the parts are known, each file's padding names those drawing its padded meshes (a sphere's
  // part is generated, from no library mesh: none to name).
  for (const [from, list] of padded) warnPadding(from, list, warn, sphere ? undefined : parts);
  // Each hardpoint named with the part holding it: names repeat across parts (every turret's HpConnect).
  // Made for the first warning about a hardpoint: most models have none.
  let holder: Map<Hardpoint, string> | undefined;
  const partOf = (hp: Hardpoint) =>
    (holder ??= new Map(parts.flatMap((p) => p.fragment.hardpoints.map((hp) => [hp, p.name] as const))))
      .get(hp);
  const hardpoints = parts.flatMap((p) => p.fragment.hardpoints);
  warnReversedLimits(hardpoints, warn, partOf);
  warnDegreeLimits(hardpoints, warn, partOf);
  warnLodSwitches(
    parts.flatMap((p) => p.fragment.lodSwitch ? [{ part: p.name, note: p.fragment.lodSwitch }] : []),
    warn,
  );
  const animations = kind === "cmp" ? readAnimationScripts(root, warn) : [];
  // The file's own texture animations (the root's, then its fragments', as for libraries).
  const materialAnims = new Map<string, MaterialAnimation>();
  const animProblems: MaterialAnimProblem[] = [];
  readMaterialAnims(root, materialAnims, animProblems);
  for (const part of new Set(parts.flatMap((p) => p.fileName ? [findChild(root, p.fileName)!] : []))) {
    readMaterialAnims(part, materialAnims, animProblems);
  }
  // A damaged entry names its material; the parts drawing it say where in the model a modder looks.
  const drawing = animProblems.length
    ? modelUsers({ parts, meshes, materials } as unknown as FreelancerModel)
    : undefined;
  for (const { material, message } of animProblems) {
    warn(
      `${file.name}: ${message}; what reads of it is kept; material '${material}' is drawn on ${
        describeParts(drawing!.materials.get(flCrc32(material))?.parts)
      }`,
    );
  }
  for (const [id, def] of materials) materials.set(id, mapMaterial(def, materialMap));
  if (sphere) {
    const { mesh, ref, info } = sphereModel(sphere, materials, warn, file.name);
    // The generated mesh replaces any library mesh of the same name: the part draws its own.
    meshes.set(ref.meshId, mesh);
    damagedMeshes.delete(ref.meshId);
    parts = [{ name: "Root", fragment: { lods: [ref], hardpoints: [] }, sphere: info }];
  }
  return {
    kind,
    parts,
    constraints,
    animations,
    meshes,
    damagedMeshes,
    materials,
    textures,
    materialMap,
    materialAnims,
    sources,
    librariesRead: [...reading.files],
  };
}

/** Empty {@link LibraryContents}, to gather libraries into. */
export function emptyLibraryContents(): LibraryContents {
  return {
    meshes: new Map(),
    damagedMeshes: new Map(),
    meshCopies: new Map(),
    materials: new Map(),
    textures: new Map(),
  };
}

/** Root entries of a `.3db` that carry nothing we convert (lower case). */
const IGNORED_ROOT_ENTRIES = [
  "exporter version",
  "mass properties",
  "extent tree",
  "rigid body",
  "materialanim",
];

/**
 * A bare mesh library: one part per mesh, drawing all of its groups; a mesh that does not decode
 * is a part without geometry (its reference names the damaged id, so the builder warns).
 */
function vmsParts(
  meshes: ReadonlyMap<number, VMeshData>,
  damaged: ReadonlyMap<number, MeshDamage>,
): ModelPart[] {
  const parts: ModelPart[] = [...meshes].map(([meshId, mesh]) => ({
    name: mesh.name,
    fragment: {
      lods: [{
        meshId,
        vertexStart: 0,
        vertexCount: mesh.vertexCount,
        indexStart: 0,
        indexCount: mesh.indices.length,
        groupStart: 0,
        groupCount: mesh.groups.length,
        offset: mesh.source.start,
      }],
      hardpoints: [],
    },
  }));
  for (const [meshId, damage] of damaged) {
    const offset = "offset" in damage.error.at ? damage.error.at.offset : 0;
    const ref = { meshId, vertexStart: 0, vertexCount: 0, indexStart: 0, indexCount: 0, groupStart: 0 };
    parts.push({
      name: damage.name,
      fragment: { lods: [{ ...ref, groupCount: 0, offset }], hardpoints: [] },
    });
  }
  return parts;
}
