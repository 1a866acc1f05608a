/**
 * One look for copies per scene (`copies.ts`): `rig.fit_hinge`, `rig.assign_side` and the `"auto"` frame
 * each asked for the aircraft in the scene, and on 20,000 small panels each look cost ~0.6 s. The three
 * nodes never share a `Document` (each changes a copy), but they share its vertex arrays (`copyScene`'s
 * `shareData`; values are immutable, so a shared array never changes). A look is remembered under a
 * fingerprint of everything it reads — the scene's node tree in order, each node's name, transform and
 * hidden flags (`damage_states.ts`: debris is no copy), each drawn primitive's position array (by
 * identity) with how it is read, and every node's name in the file's order, those in no scene too (the
 * file's words, `file_words.ts`, are read from them: a leftover `Aileron_S` makes `Aileron_P` port, not
 * prawy) — held against the
 * first of those arrays; any change to a name, a transform, a hidden flag, the tree or an array gives
 * another fingerprint, so a remembered answer is never stale. Meshes' names and extras are not read by a
 * look (nodes are named for themselves), so they are not in it. The answer is kept as node positions in
 * the tree and handed back as the asking scene's own nodes.
 *
 * Asked again of the same scene with nothing it reads changed since (no property-graph event on it —
 * every setter, reference and disposal raises one — but extras written that no look reads: the rig's
 * own records between its looks), the last answer is handed back without the fingerprint, which reads
 * every node: a rig on 30,000 nodes fingerprinted them four times. A node's `hide_render` and `visible`
 * extras are read (`damage_states.ts`): extras written on a node holding either, before or after, count.
 *
 * @module
 */
import type { Document, Mesh, Node } from "@gltf-transform/core";
import type { ModelCopy } from "./copies.ts";
import { sceneWords } from "./file_words.ts";
import { defaultSceneTree } from "./scene_order.ts";
import type { FileWords } from "./vocabulary.ts";

/** What a look reads of a scene, node by node in tree order (see the module doc). */
interface Fingerprint {
  /**
   * Every node's name in the file's order, in a scene or not, as JSON: what the file's words are read from
   * (`file_words.ts` sceneWords), by which every name reads.
   */
  readonly fileNames: string;
  readonly names: string[];
  /** Each node's parent's position in the tree, -1 at the top. */
  readonly parents: Int32Array;
  /**
   * Each node's translation, rotation and scale (10 numbers) where `placed` says, packed: a node at rest
   * (the identity, exactly) has none. A million bare nodes' 80 MB were most of a fingerprint, and the
   * memo keeps a few, held by the arrays every copy of the scene shares.
   */
  readonly places: Float64Array;
  /** Each node's offset into `places`, -1 for a node at rest. */
  readonly placed: Int32Array;
  /** Each node's drawn position arrays (by id) with how they are read; "" when it draws nothing. */
  readonly drawn: string[];
  /** Each node's hidden flags as `damage_states.ts` reads them (bits: hide_render, visible, extension). */
  readonly hidden: Uint8Array;
}

/** A remembered look: its fingerprint, and each copy's label and its nodes' positions in the tree. */
interface Remembered {
  readonly seen: Fingerprint;
  readonly copies: { label: string; at: number[]; untold?: boolean | "kinds" }[] | undefined;
}

/** Looks remembered against one array, at most (a few fingerprints per run). */
const KEPT = 4;

const arrayIds = new WeakMap<object, number>();
let nextArrayId = 1;
const looks = new WeakMap<object, Remembered[]>();

/**
 * A scene's changes a look may read, counted since the memo first listened; `flagged`, the nodes whose
 * extras held a key a look reads when the scene was last fingerprinted.
 */
interface ChangeCounter {
  count: number;
  flagged: WeakSet<object>;
}

/** Per scene, its change counter (see {@link ChangeCounter}). */
const changeCounts = new WeakMap<Document, ChangeCounter>();
/** Per scene, its last answer and the change count it was read at. */
const lastAnswers = new WeakMap<Document, { count: number; copies: ModelCopy[] | undefined }>();

/** The extras keys a look reads (`damage_states.ts`' hidden flag). */
function flagsHidden(extras: unknown): boolean {
  return !!extras && typeof extras === "object" && ("hide_render" in extras || "visible" in extras);
}

/** `doc`'s change counter, listening from the first ask (the listener holds the counter, not the scene). */
function changeCounter(doc: Document): ChangeCounter {
  let counter = changeCounts.get(doc);
  if (!counter) {
    const mine: ChangeCounter = { count: 0, flagged: new WeakSet() };
    const changed = (event: { attribute?: string; target?: unknown }) => {
      const target = event.target as { getExtras?(): unknown } | undefined;
      // The rig's own records: extras on a node holding no hidden flag, now or when last fingerprinted.
      const unread = event.attribute === "extras" && !!target && !mine.flagged.has(target) &&
        !flagsHidden(target.getExtras?.());
      if (!unread) mine.count++;
    };
    doc.getGraph().addEventListener("node:change", changed).addEventListener("node:dispose", changed);
    changeCounts.set(doc, counter = mine);
  }
  return counter;
}

/**
 * How many changes a look for copies may read `doc` has had (see the module doc), counted from the first
 * ask: equal counts, nothing such changed between. For readings of the scene that read what a look reads
 * and no extras (`copy_untold.ts`' groups), remembered per scene as the look is.
 */
export function sceneChanges(doc: Document): number {
  return changeCounter(doc).count;
}

/** `copies` as the memo hands them out: each caller its own array and sets. */
function handedOut(copies: readonly ModelCopy[] | undefined): ModelCopy[] | undefined {
  return copies?.map(({ label, nodes, untold }) => ({
    label,
    nodes: new Set(nodes),
    ...untold ? { untold } : {},
  }));
}

function same(a: Fingerprint, b: Fingerprint): boolean {
  const n = a.names.length;
  if (b.names.length !== n || a.fileNames !== b.fileNames) return false;
  for (let i = 0; i < n; i++) {
    if (a.names[i] !== b.names[i] || a.parents[i] !== b.parents[i] || a.drawn[i] !== b.drawn[i]) return false;
    if (a.hidden[i] !== b.hidden[i] || (a.placed[i] < 0) !== (b.placed[i] < 0)) return false;
    // Object.is: `-0` apart from `0` (a mirrored axis's sign reaches the boxes), NaN equal to itself.
    const p = a.placed[i], q = b.placed[i];
    for (let k = 0; p >= 0 && k < 10; k++) if (!Object.is(a.places[p + k], b.places[q + k])) return false;
  }
  return true;
}

/**
 * `look(doc, words)`, remembered for scenes of the same tree, names (in a scene or not), transforms and
 * vertex arrays (see the module doc), handed the file's words (`file_words.ts` sceneWords); scenes drawing nothing are looked at every time (there is no array to hold the look against).
 */
export function rememberedCopies(
  doc: Document,
  look: (doc: Document, words: FileWords) => ModelCopy[] | undefined,
): ModelCopy[] | undefined {
  const counter = changeCounter(doc), count = counter.count;
  const last = lastAnswers.get(doc);
  if (last?.count === count) return handedOut(last.copies);
  const copies = fingerprinted(doc, look, counter.flagged);
  // Read at the count before the look: a look that changed the scene (none does) is not trusted again.
  lastAnswers.set(doc, { count, copies: handedOut(copies) });
  return copies;
}

/**
 * `look(doc, words)`, remembered under the scene's fingerprint (see the module doc); the nodes whose extras
 * hold a hidden flag are added to `flagged`.
 */
function fingerprinted(
  doc: Document,
  look: (doc: Document, words: FileWords) => ModelCopy[] | undefined,
  flagged: WeakSet<object>,
): ModelCopy[] | undefined {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  if (!scene) return look(doc, sceneWords(doc));
  // The walk shared with the rig's other readings of the scene in this state (`scene_order.ts`).
  const { nodes, parents } = defaultSceneTree(doc);
  let anchor: object | undefined;
  // A mesh drawn by many nodes is read once (its arrays cannot change during the walk).
  const meshes = new Map<Mesh, string>();
  const seen: Fingerprint = {
    // As JSON (no name can run into the next), not read into words: 2,000 names' cost ~0.1 s a fingerprint.
    fileNames: JSON.stringify(doc.getRoot().listNodes().map((n) => n.getName())),
    names: [],
    parents: new Int32Array(nodes.length),
    places: new Float64Array(0),
    placed: new Int32Array(nodes.length),
    drawn: [],
    hidden: new Uint8Array(nodes.length),
  };
  // The places packed as they come, the array doubled when full (see Fingerprint.places).
  let places = new Float64Array(Math.min(nodes.length * 10, 1024)), used = 0;
  const place = (t: readonly number[], r: readonly number[], s: readonly number[]): number => {
    if (atRest(t, r, s)) return -1;
    if (used + 10 > places.length) {
      const more = new Float64Array(Math.max(places.length * 2, used + 10));
      more.set(places);
      places = more;
    }
    places.set(t, used), places.set(r, used + 3), places.set(s, used + 7);
    return (used += 10) - 10;
  };
  nodes.forEach((node, i) => {
    seen.names.push(node.getName());
    const extras = node.getExtras() as Record<string, unknown>;
    if (flagsHidden(extras)) flagged.add(node);
    const visibility = node.getExtension("KHR_node_visibility") as { getVisible?(): boolean } | null;
    seen.hidden[i] = (extras?.hide_render === true ? 1 : 0) | (extras?.visible === false ? 2 : 0) |
      (visibility?.getVisible?.() === false ? 4 : 0);
    seen.parents[i] = parents[i];
    seen.placed[i] = place(node.getTranslation(), node.getRotation(), node.getScale());
    const mesh = node.getMesh();
    let drawn = mesh ? meshes.get(mesh) : "";
    if (drawn === undefined) {
      drawn = mesh!.listPrimitives().map((p) => {
        const a = p.getAttribute("POSITION");
        const array = a?.getArray();
        if (!a || !array) return "-";
        anchor ??= array;
        if (!arrayIds.has(array)) arrayIds.set(array, nextArrayId++);
        return `${
          arrayIds.get(array)
        }:${a.getType()}:${a.getComponentType()}:${a.getNormalized()}:${a.getCount()}`;
      }).join(";");
      meshes.set(mesh!, drawn);
    }
    seen.drawn.push(drawn);
  });
  if (!anchor) return look(doc, sceneWords(doc));
  (seen as { places: Float64Array }).places = places.slice(0, used);
  const kept = looks.get(anchor) ?? looks.set(anchor, []).get(anchor)!;
  const hit = kept.find((r) => same(r.seen, seen));
  if (hit) {
    return hit.copies?.map(({ label, at, untold }) => ({
      label,
      nodes: new Set(at.map((i) => nodes[i])),
      ...untold ? { untold } : {},
    }));
  }
  const copies = look(doc, sceneWords(doc));
  const index = new Map<Node, number>();
  nodes.forEach((n, i) => index.has(n) || index.set(n, i));
  // Every node of a copy lies in the tree walked; were one not to, the look is not remembered.
  if (copies?.some((c) => [...c.nodes].some((n) => !index.has(n)))) return copies;
  if (kept.length >= KEPT) kept.shift();
  kept.push({
    seen,
    copies: copies?.map(({ label, nodes, untold }) => ({
      label,
      at: [...nodes].map((n) => index.get(n)!),
      untold,
    })),
  });
  return copies;
}

/** Whether a node's transform is the identity exactly (`-0` is not 0 here: see `same`). */
function atRest(t: readonly number[], r: readonly number[], s: readonly number[]): boolean {
  return Object.is(t[0], 0) && Object.is(t[1], 0) && Object.is(t[2], 0) &&
    Object.is(r[0], 0) && Object.is(r[1], 0) && Object.is(r[2], 0) && Object.is(r[3], 1) &&
    Object.is(s[0], 1) && Object.is(s[1], 1) && Object.is(s[2], 1);
}
