/**
 * Library discovery for `decode.cmp`: finds the UTF libraries that define the meshes, materials and
 * textures a model uses but its file (and the given library inputs) do not, the way the game finds
 * them through the `material_library` lines of its archetype inis and the folder layout that puts
 * a ship family's `.mat` beside its ship folders.
 *
 * Candidates come in the order of `library_candidates.ts` (the model's own archetype libraries, its
 * folder and ancestors nearest first, libraries other archetypes load, the rest of the tree). The
 * first candidate that defines an id wins (a warning names the others read that define it too).
 * Candidates are indexed only while something is still missing, and then the rest of the folder that
 * supplied the last (libraries side by side are ordered only by name, so a ship family's two `.mat`
 * files defining one material differently are named), so a library farther away than everything the
 * model needs is never read. A library that does not decode is a warning naming it.
 *
 * @module
 */
import type { JsonValue, RunContext } from "../../../../runtime/node.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { formatId } from "../codec/crc.ts";
import { mapMaterial, textureSlots } from "../codec/material.ts";
import { candidateLibraries } from "./candidates.ts";
import type { SearchFile } from "./files.ts";
import { indexLibrary, type LibraryIndex } from "./index.ts";
import { modelReferences, refGroups } from "./needs.ts";
import { spelledAlike, textureKey } from "../codec/texture_names.ts";
import { describeParts } from "../codec/users.ts";
import type { FreelancerModel, NamedBytes } from "../codec/model.ts";

/** What to search: `auto` looks beside the model; a list names the library files to consider. */
export interface LibrarySearchOptions {
  /** Path of the model file; the folder search starts in its folder. Empty: no folder to search. */
  readonly modelPath: string;
  /** Top folder of the search (a game `DATA` folder); empty: the nearest ancestor named `DATA`. */
  readonly dataRoot: string;
  /** `auto`, or library paths (relative to `dataRoot` when given, which they may not leave). */
  readonly libraries: "auto" | readonly string[];
}

/** Libraries to load after the model's own, and a JSON account of the search for the reports. */
export interface LibrarySearch {
  /** The candidates that supplied at least one id, in resolution order, named by their label. */
  readonly libraries: NamedBytes[];
  /** Where the search looked, what it read, used, refused and could not decode. */
  readonly report: Record<string, JsonValue>;
  /** The model and the libraries given lacked something, so the tree (or the list) was searched. */
  readonly searched: boolean;
  /**
   * Textures no library read defines, by {@link textureKey}, each with what a library read but not
   * loaded holds spelt alike (`shared.txm has 'x', the same name …`): the decode's one warning about
   * the texture says it (before, the search warned too, so each such texture was named twice).
   */
  readonly nearMisses: ReadonlyMap<string, string>;
}

type Need = { kind: "mesh"; id: number } | { kind: "material"; id: number } | { kind: "texture"; id: string };

/**
 * Finds the libraries that define what `model` (decoded with the libraries given so far) lacks.
 * Throws only when the model lies outside `dataRoot`.
 *
 * @example
 * ```ts
 * const reading = readModel(file, given, warn);
 * const options = { modelPath: "DATA/SHIPS/x/x.cmp", dataRoot: "", libraries: "auto" } as const;
 * const found = await findLibraries(modelSoFar(reading, RETAIL_MATERIAL_MAP), options, ctx);
 * const full = finishModel(reading, found.libraries, warn);
 * ```
 */
export async function findLibraries(
  model: FreelancerModel,
  options: LibrarySearchOptions,
  ctx: RunContext,
): Promise<LibrarySearch> {
  const report: Record<string, JsonValue> = { mode: options.libraries === "auto" ? "auto" : "list" };
  const pending = new Map<string, Need>();
  const refs = modelReferences(model);
  const known = (need: Need) => defines(model, need);
  for (const id of refs.meshes.keys()) addIfMissing({ kind: "mesh", id });
  for (const id of refs.materials) addIfMissing({ kind: "material", id });
  for (const id of refs.textures.keys()) addIfMissing({ kind: "texture", id });
  function addIfMissing(need: Need) {
    if (!known(need)) pending.set(keyOf(need), need);
  }
  if (!pending.size) {
    return {
      libraries: [],
      report: { ...report, searched: [], read: [], used: [] },
      searched: false,
      nearMisses: new Map(),
    };
  }

  const refused: string[] = [];
  const candidates = candidateLibraries(options, ctx, refused, report);
  const indexed: { file: SearchFile; bytes: Uint8Array; index: LibraryIndex }[] = [];
  const failed: JsonValue[] = [];
  const winners = new Map<string, { need: Need; at: number }>();

  const win = (need: Need, at: number) => {
    winners.set(keyOf(need), { need, at });
    const { index } = indexed[at];
    if (need.kind === "mesh") {
      const materials = index.meshes.get(need.id)!;
      for (const ref of refs.meshes.get(need.id) ?? []) {
        for (const id of refGroups(materials, ref)) demand({ kind: "material", id });
      }
    } else if (need.kind === "material") {
      // The textures it draws as the game draws it (a nomad material reads a default ramp).
      const def = mapMaterial(index.materials.get(need.id)!, model.materialMap);
      for (const slot of textureSlots(def)) demand({ kind: "texture", id: textureKey(slot.name) });
    }
  };
  // A dependency of something just found: resolved by the earliest library read so far, or pending.
  const demand = (need: Need) => {
    const key = keyOf(need);
    if (known(need) || winners.has(key) || pending.has(key)) return;
    const at = indexed.findIndex((c) => defines(c.index, need));
    if (at >= 0) win(need, at);
    else pending.set(key, need);
  };

  // Libraries that do not decode, told after the search, when what the model still lacks is known.
  const unreadable: string[] = [];
  // Set once nothing is pending, when the library that supplied the last id came from a folder: its
  // neighbours there are read too (they would be the game's pick in another load order), and only they.
  let finishing: string | undefined;
  for await (const file of candidates) {
    if (finishing !== undefined && file.folder !== finishing) break;
    let bytes: Uint8Array, index: LibraryIndex;
    try {
      bytes = await ctx.readFile(file.path);
      index = indexLibrary(bytes, file.label);
    } catch (error) {
      if (!(error instanceof DecodeError || error instanceof Deno.errors.NotFound)) throw error;
      const message = error instanceof DecodeError ? error.message : "not found";
      unreadable.push(`library '${file.label}' could not be read (${message}); skipped`);
      failed.push({ library: file.label, error: message });
      continue;
    }
    indexed.push({ file, bytes, index });
    for (const [key, need] of [...pending]) {
      if (!defines(index, need)) continue;
      pending.delete(key);
      win(need, indexed.length - 1);
    }
    if (!pending.size && finishing === undefined) {
      if (file.folder === undefined) break;
      finishing = file.folder;
    }
  }

  const using = partsUsing(model, winners, indexed);
  if (unreadable.length) {
    // Whether skipping it costs anything: what no library read supplies, and the parts drawing it.
    const lacking = [...pending.values()];
    const cost = lacking.length
      ? `; no library read defines ${describeNeeds(lacking)} (on ${describeParts(using(lacking))}): it may ` +
        "have held them"
      : "; every mesh, material and texture the model uses was found in the libraries read";
    for (const said of unreadable) ctx.warn(`${said}${cost}`);
  }
  warnDuplicates(winners, indexed, ctx, using);
  // A mesh no library defines readably: the first library read that holds a damaged copy is loaded
  // anyway, so the decode names the damage (entry, byte offset) instead of calling the mesh missing.
  const damagedAt = [...pending.values()].flatMap((need) =>
    need.kind === "mesh" ? [indexed.findIndex((c) => c.index.damagedMeshes.has(need.id))] : []
  ).filter((at) => at >= 0);
  const usedAt = new Set([...[...winners.values()].map((w) => w.at), ...damagedAt]);
  const used = [...usedAt].sort((a, b) => a - b).map((at) => indexed[at]);
  return {
    nearMisses: nearMisses(pending, refs.textures, indexed.filter((_, at) => !usedAt.has(at))),
    libraries: used.map((c) => ({ bytes: c.bytes, name: c.file.label })),
    report: {
      ...report,
      read: indexed.map((c) => c.file.label),
      used: used.map((c) => c.file.label),
      failed,
      refused: [...new Set(refused)],
    },
    searched: true,
  };
}

/**
 * The parts and LODs drawing what a need names, as far as the model and the winning libraries tell: a
 * mesh's references, a material's groups (in the model's meshes or a winner's), a texture's materials'.
 */
function partsUsing(
  model: FreelancerModel,
  winners: ReadonlyMap<string, { need: Need; at: number }>,
  indexed: readonly { index: LibraryIndex }[],
): (needs: readonly Need[]) => Map<string, Set<number>> {
  const winner = (need: Need) => {
    const won = winners.get(keyOf(need));
    return won === undefined ? undefined : indexed[won.at].index;
  };
  const groupMaterials = (meshId: number): readonly number[] =>
    model.meshes.get(meshId)?.groups.map((g) => g.materialId) ??
      winner({ kind: "mesh", id: meshId })?.meshes.get(meshId) ?? [];
  const materialTextures = (id: number): string[] => {
    const def = model.materials.get(id) ?? winner({ kind: "material", id })?.materials.get(id);
    return def ? textureSlots(mapMaterial(def, model.materialMap)).map((slot) => textureKey(slot.name)) : [];
  };
  // In the model's part order, as the decode's own warnings name them.
  return (needs) => {
    const out = new Map<string, Set<number>>();
    for (const part of model.parts) {
      part.fragment.lods.forEach((ref, lod) => {
        if (ref.meshId === 0) return;
        const materials = refGroups(groupMaterials(ref.meshId), ref);
        const uses = needs.some((need) =>
          need.kind === "mesh"
            ? ref.meshId === need.id
            : need.kind === "material"
            ? materials.includes(need.id)
            : materials.some((id) => materialTextures(id).includes(need.id))
        );
        if (uses) (out.get(part.name) ?? out.set(part.name, new Set()).get(part.name)!).add(lod);
      });
    }
    return out;
  };
}

/** Needs in a warning's words: `material 0x1077C687, texture 'hull.dds' and 3 more` (the first five). */
function describeNeeds(needs: readonly Need[]): string {
  const named = needs.slice(0, 5).map((need) =>
    `${need.kind} ${typeof need.id === "number" ? formatId(need.id) : `'${need.id}'`}`
  );
  const rest = needs.length - named.length;
  if (rest > 0) return `${named.join(", ")} and ${rest} more`;
  return named.length === 1 ? named[0] : `${named.slice(0, -1).join(", ")} and ${named[named.length - 1]}`;
}

/**
 * One warning per (winner, others) pair of libraries that define the same ids, naming the parts that
 * draw them (which part looks otherwise when the copies differ).
 */
function warnDuplicates(
  winners: ReadonlyMap<string, { need: Need; at: number }>,
  indexed: readonly { file: SearchFile; index: LibraryIndex }[],
  ctx: RunContext,
  using: (needs: readonly Need[]) => Map<string, Set<number>>,
): void {
  const groups = new Map<
    string,
    { winner: string; others: string[]; ids: string[]; needs: Need[] }
  >();
  for (const { need, at } of winners.values()) {
    const others = indexed.filter((c, i) => i !== at && defines(c.index, need)).map((c) => c.file.label);
    if (!others.length) continue;
    const winner = indexed[at].file.label;
    const key = JSON.stringify([winner, others]);
    let group = groups.get(key);
    if (!group) groups.set(key, group = { winner, others, ids: [], needs: [] });
    group.needs.push(need);
    // A material by its name where the winner has it (an id alone tells a modder nothing).
    const name = need.kind === "material" ? indexed[at].index.materials.get(need.id)?.name : undefined;
    group.ids.push(
      `${need.kind} ${name ? `'${name}'` : typeof need.id === "number" ? formatId(need.id) : `'${need.id}'`}`,
    );
  }
  for (const { winner, others, ids, needs } of groups.values()) {
    const parts = using(needs);
    const shown = ids.slice(0, 5).join(", ") + (ids.length > 5 ? ` and ${ids.length - 5} more` : "");
    ctx.warn(
      `${shown} defined by ${
        [winner, ...others].join(" and ")
      }; the first in search order, ${winner}, is used${parts.size ? `, on ${describeParts(parts)}` : ""}`,
    );
  }
}

/**
 * A texture no library defines, when a library read (and not loaded: a loaded one's entries the decode
 * sees itself) holds one spelt alike but for separators or a leading `.\` (the game keys them apart,
 * so it is not loaded for it): what that library has, by texture key.
 */
function nearMisses(
  pending: ReadonlyMap<string, Need>,
  written: ReadonlyMap<string, string>,
  unloaded: readonly { file: SearchFile; index: LibraryIndex }[],
): Map<string, string> {
  const out = new Map<string, string>();
  for (const need of pending.values()) {
    if (need.kind !== "texture") continue;
    for (const { file, index } of unloaded) {
      const near = spelledAlike(written.get(need.id) ?? need.id, index.textureNames);
      if (!near) continue;
      out.set(need.id, `${file.label}, searched but not loaded for it, has ${near}`);
      break;
    }
  }
  return out;
}

/** Anything with id sets shaped like a {@link LibraryIndex}'s: an index, or a decoded model's maps. */
interface IdSets {
  readonly meshes: { has(id: number): boolean };
  readonly materials: { has(id: number): boolean };
  readonly textures: { has(name: string): boolean };
}

function defines(index: IdSets, need: Need): boolean {
  return need.kind === "mesh"
    ? index.meshes.has(need.id)
    : need.kind === "material"
    ? index.materials.has(need.id)
    : index.textures.has(need.id);
}

function keyOf(need: Need): string {
  return `${need.kind}:${need.id}`;
}
