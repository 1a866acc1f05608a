/**
 * Modifiers for a load: skin bindings and morphs, from the scene's modifier instances and from the
 * library of each geometry's own file, bound to the loaded meshes and their figure's bones. A
 * modifier made for another vertex count is a warning and is left out, as in Daz Studio; so is a
 * morph whose deltas name vertices the geometry does not have, a second morph of an id a mesh
 * already has (a geometry has one morph per id, as a Daz node has one property per name), and a
 * second skin binding of a mesh (a Daz figure has one). Skin weights naming vertices past the
 * geometry are left out, the rest of the binding kept, with one warning (`bind_modifier.ts`). The
 * formulas are evaluated once all are applied (`modifier_formulas.ts`).
 *
 * @module
 */
import type { ContentLibrary } from "./content.ts";
import type { DsonEntry, DsonFile } from "./dson_file.ts";
import type { SceneMeshes } from "./load_meshes.ts";
import type { SceneNodes } from "./load_nodes.ts";
import type { JsonRecord } from "./read_json.ts";
import type { ModifierValue } from "./formula_eval.ts";
import { applyMorph, applySkin, leftOut } from "./bind_modifier.ts";
import { evaluateFormulas } from "./modifier_formulas.ts";
import { passAliasDials } from "./alias_dials.ts";
import { passAliasBoneDials } from "./alias_bones.ts";
import type { TcbSpan } from "./formula_spline.ts";
import { parseDsonUri } from "./uri.ts";
import { describeSmoothing, isSmoothing, type SmoothingUse } from "./smoothing.ts";

const QUIET = { quiet: true } as const;

/** The load state modifiers read and change. */
export interface ModifierTargets {
  readonly library: ContentLibrary;
  /** The file being decoded. */
  readonly main: DsonFile;
  readonly nodes: SceneNodes;
  readonly meshes: SceneMeshes;
  /** Nodes of conforming items that take a target node's pose (node index → target's). */
  readonly follows?: ReadonlyMap<number, number>;
  /** Conforming figures whose target is in the scene (figure node → the target's figure node). */
  readonly fitted?: ReadonlyMap<number, number>;
}

/**
 * Applies the scene's modifier instances (`/scene/modifiers`, their dial values overriding the
 * authored ones), then every library modifier of a mesh's geometry file whose parent is that
 * geometry or its owner's definition (a figure file's skin binding) and that no instance applied
 * to that mesh: a figure instanced twice whose scene instances a modifier for one of them still
 * brings its file's modifiers to the other. Returns the modifier definitions applied, in order.
 *
 * @example
 * ```ts
 * await applyModifiers(scene, { library, main, nodes, meshes });
 * ```
 */
export async function applyModifiers(
  scene: JsonRecord | undefined,
  targets: ModifierTargets,
): Promise<{ applied: DsonEntry[]; evaluated: Set<string>; offKeys: Map<string, TcbSpan> }> {
  const { library, main, meshes } = targets;
  const read = main.read;
  // The meshes each definition went to: a library default is skipped only where the scene put it.
  const applied = new Map<DsonEntry, Set<number>>();
  const state: ModifierState = {
    morphIds: new Map(),
    skins: new Map(),
    values: new Map(),
    dialled: new Map(),
  };
  // Daz's mesh smoothing modifiers (most clothing has one): named, not applied (`smoothing.ts`).
  const smoothing: SmoothingUse[] = [];
  const instances = scene ? read.optArray(scene.modifiers, "/scene/modifiers") : [];
  // Instances whose parent did not load (a figure not installed), by parent: said once each.
  const orphans = new Map<string, { at: string; urls: string[] }>();
  for (const [instance, at] of read.objects(instances, "/scene/modifiers")) {
    const url = read.string(instance.url, `${at}/url`);
    const parentUri = read.optString(instance.parent, `${at}/parent`);
    const mesh = parentUri === undefined ? undefined : meshes.meshFor(parentUri);
    if (mesh === undefined) {
      // Not applied whatever its file holds, so its file is not looked for: before decode.dson v40
      // each morph of a figure that is not installed was one more "not found" warning.
      const key = parentUri ?? url;
      const orphan = orphans.get(key) ?? { at: `${at}/parent`, urls: [] };
      orphans.set(key, orphan);
      orphan.urls.push(url);
      continue;
    }
    const resolved = await library.resolve(url, main, `${at}/url`);
    if (!resolved || resolved.entry.kind !== "modifier") continue;
    if (isSmoothing(resolved.entry.value)) {
      smoothing.push({ mesh, entry: resolved.entry, instance: { record: instance, path: at, file: main } });
    }
    const targeted = applied.get(resolved.entry) ?? new Set<number>();
    applied.set(resolved.entry, targeted.add(mesh));
    const channel = read.optObject(instance.channel, `${at}/channel`);
    // Daz writes a channel attribute the user changed on the instance: "Auto Follow" switched off
    // keeps a body morph off its clothing (and an item's follower its own dial); on, the reverse.
    const follow = channel?.auto_follow;
    applyModifier(
      targets,
      resolved.entry,
      mesh,
      channel ? read.channelNumber(channel, `${at}/channel`, NaN, "the modifier's own value") : NaN,
      state,
      follow === undefined || follow === null
        ? undefined
        : read.optBoolean(follow, `${at}/channel/auto_follow`, false),
    );
  }
  for (const [parent, { at, urls }] of orphans) {
    for (const url of urls) {
      library.miss(url, `its parent '${parent}' is not a loaded geometry`, main, at, QUIET);
    }
    const ids = urls.map((url) => `'${parseDsonUri(url).id}'`);
    const named = ids.length > 5
      ? `${ids.slice(0, 5).join(", ")} and ${ids.length - 5} more`
      : ids.join(", ");
    // Said after the missing figure's file, its cause.
    library.afterMissingFiles(() =>
      library.miss(
        parent,
        `modifier parent is not a loaded geometry: ${urls.length} modifier instance(s) on it not applied (${named})`,
        main,
        at,
        { distinct: true },
      )
    );
  }
  const fromLibrary = new Set<DsonEntry>();
  for (let m = 0; m < meshes.parts.length; m++) {
    const geometryEntry = meshes.geometryEntryOf(m);
    const ownerDefinition = targets.nodes.definitionOf(meshes.parts[m].owner);
    for (const entry of geometryEntry.file.ids.values()) {
      if (entry.kind !== "modifier" || applied.get(entry)?.has(m) || typeof entry.value.parent !== "string") {
        continue;
      }
      const target = entry.file.ids.get(parseDsonUri(entry.value.parent).id);
      if (target === geometryEntry || (target && target === ownerDefinition)) {
        applyModifier(targets, entry, m, NaN, state);
        if (isSmoothing(entry.value)) smoothing.push({ mesh: m, entry });
        if (!applied.has(entry)) fromLibrary.add(entry);
      }
    }
  }
  // A mesh no modifier reached (an item without a skin binding) still takes its body's projected morphs.
  for (let m = 0; m < meshes.parts.length; m++) if (!state.values.has(m)) state.values.set(m, new Map());
  for (const use of smoothing) {
    const owner = targets.nodes.list[meshes.parts[use.mesh].owner];
    const said = describeSmoothing(use, owner.name, owner.key);
    if (said) library.repaired(said.file, said.path, said.message);
  }
  passAliasDials(meshes.parts, state.values, state.dialled, library);
  passAliasBoneDials(targets, state.values, state.dialled);
  const offKeys = new Map<string, TcbSpan>();
  const evaluated = evaluateFormulas(targets, state.values, offKeys);
  return { applied: [...applied.keys(), ...fromLibrary], evaluated, offKeys };
}

/** What the modifiers applied so far gave each mesh (by mesh index), as `file at path`. */
interface ModifierState {
  /** Per mesh, where each morph id applied came from. */
  readonly morphIds: Map<number, Map<string, string>>;
  /** Per mesh, where its skin binding came from. */
  readonly skins: Map<number, string>;
  /** Per mesh, each modifier id applied (the first of an id) and its value there, for formulas. */
  readonly values: Map<number, Map<string, ModifierValue>>;
  /** Per mesh, the ids whose value a scene instance dialled (for aliases, `alias_dials.ts`). */
  readonly dialled: Map<number, Set<string>>;
}

/**
 * Applies one modifier's skin and morph to mesh `mesh`; `dial` (NaN: none) overrides the morph weight.
 * `state` records, per mesh, where its skin and each morph id applied came from (`file at path`).
 * `autoFollow`: the scene instance's switch, where it writes one.
 */
function applyModifier(
  targets: ModifierTargets,
  entry: DsonEntry,
  mesh: number,
  dial: number,
  state: ModifierState,
  autoFollow?: boolean,
): void {
  const { library } = targets;
  const { read } = entry.file;
  const vertexCount = targets.meshes.parts[mesh].geometry.vertexCount;
  const id = read.string(entry.value.id, `${entry.path}/id`);
  const values = state.values.get(mesh) ?? new Map<string, ModifierValue>();
  state.values.set(mesh, values);
  if (!values.has(id)) {
    const channel = read.optObject(entry.value.channel, `${entry.path}/channel`);
    const authored = channel ? read.channelNumber(channel, `${entry.path}/channel`, 0) : 0;
    values.set(id, {
      entry,
      value: Number.isNaN(dial) ? authored : dial,
      ...(autoFollow === undefined ? {} : { autoFollow }),
    });
    if (!Number.isNaN(dial)) state.dialled.set(mesh, (state.dialled.get(mesh) ?? new Set()).add(id));
  }
  // Daz refuses a skin or morph made for another vertex count (another figure generation, say)
  // and carries on; so do we, rather than failing the scene on its first out-of-range index.
  const fits = (key: "skin" | "morph") => {
    const record = entry.value[key];
    const raw = record && typeof record === "object" ? (record as JsonRecord).vertex_count : undefined;
    if (raw === undefined || raw === null) return true; // null: Qt's NaN, read as absent like a channel's
    // A count written as a string ("16") is refused like any number so written: taken as absent,
    // another figure's morph would be applied whenever its indices happened to fit.
    const count = read.integer(raw, `${entry.path}/${key}/vertex_count`);
    if (count === vertexCount) return true;
    library.miss(
      `${entry.file.key}#${id}`,
      `${key} is for ${count} vertices, the geometry has ${vertexCount}; not applied`,
      entry.file,
      `${entry.path}/${key}/vertex_count`,
    );
    return false;
  };
  if (entry.value.skin === undefined && entry.value.legacy_skin !== undefined) {
    // An older generation's binding (Poser-style figures in DSON). Diffeomorphic reads it as a skin
    // but finds its vertex groups missing and tells the user to convert the figure to a prop in
    // Daz; its layout is not specified. Before, it was passed over silently: the mesh stood still
    // while its bones moved, and nothing said why.
    const why = `skin binding '${id}' is a legacy_skin (an older figure generation's), which is not ` +
      "decoded: the mesh is not skinned and does not follow its bones";
    leftOut(library, entry.file, `${entry.path}/legacy_skin`, `${entry.file.key}#${id}`, why);
  }
  if (entry.value.skin !== undefined && fits("skin")) applySkin(targets, entry, id, mesh, state.skins);
  if (entry.value.morph !== undefined && fits("morph")) {
    applyMorph(targets, entry, id, mesh, dial, state.morphIds, autoFollow);
  }
}
