/**
 * Rigid followers: a node whose `extra` has type `studio/node/rigid_follow` (a piercing, a button,
 * a prop Daz keeps on a mesh's surface). Its `rigidity_group.reference_vertices` are vertices of the
 * mesh it follows, and its `vertex_count` that mesh's vertex count. The mesh is that of its
 * `Follow Target` channel's node (a `studio_node_channels` extra) when it has one, else of its
 * parent, a bone's figure for a bone — as Diffeomorphic's importer reads it (`node.py` `finalize`,
 * which then makes the prop a Blender vertex parent of the first, middle and last reference vertex).
 *
 * glTF has no vertex parent. A follower is put under the joint that dominates the skin weights of
 * its reference vertices (all of them: Daz fits its transform to all), its world transform kept
 * (see `follow_parent.ts`): posing the figure carries it along. Its node, children and animation
 * stay nodes, which is what Blender's importer (an object parented to a bone) and three.js (a child
 * of a `Bone`) both read. When the vertices blend several joints, the joint alone ignores the others'
 * share: the follower's own meshes are then also skinned with the vertices' averaged weights
 * (`follow_skin.ts`, which says why that, measured, lands nearer Daz's fit).
 * Morphs do not move a joint: a follower whose reference vertices a morph moves is warned about (a
 * viewer dialling it leaves the follower); the decode, a preset and a bake refit it to them as Daz
 * does (`follower_refit.ts`).
 * A follower that cannot follow (no target mesh, counts that disagree, no reference vertex, a cycle)
 * stays under its parent as written, with a warning.
 *
 * @module
 */
import type { ContentLibrary } from "./content.ts";
import type { DsonEntry, DsonFile } from "./dson_file.ts";
import { followerModes } from "./follower_modes.ts";
import { averageWeights, dominantJoint, movingMorphs } from "./follow_joint.ts";
import { figureRoot, type RigidFollower, type SceneMesh, type SceneNode } from "./model.ts";

/** The `extra` type Daz writes on a rigid follower. */
const RIGID_FOLLOW = "studio/node/rigid_follow";

/** Morph names a warning lists before counting the rest. */
const NAMED = 3;

/** A value of a follower's records and where it was written. */
interface Written<T> {
  readonly value: T;
  readonly file: DsonFile;
  readonly path: string;
}

/** A rigid follower as its instance and definition write it (the instance's values first). */
interface WrittenFollower {
  readonly node: number;
  /** The `rigid_follow` extra (its path names the follower in messages). */
  readonly marker: Written<unknown>;
  readonly group?: Written<unknown>;
  readonly vertexCount?: Written<unknown>;
  /** The `Follow Target` channel's node URI. */
  readonly followTarget?: Written<string>;
}

/** What finding the followers reads. */
export interface FollowerInput {
  readonly nodes: readonly SceneNode[];
  /** The library entry node `n` was made from. */
  definitionOf(n: number): DsonEntry | undefined;
  /** The node a URI of the main file names (an instance, or a definition with one). */
  localNode(uri: string): number | undefined;
  /** The main file's scene instances (`/scene/nodes`; node `i` is instance `i`), or none. */
  readonly instances: readonly unknown[];
  /** The load's meshes, grafts not yet merged (reference vertices index the target's own geometry). */
  readonly meshes: readonly SceneMesh[];
  readonly main: DsonFile;
  readonly library: ContentLibrary;
}

/** A follower that stays under its parent: the kind of reason (one warning per kind) and the words. */
interface Stay {
  readonly kind: string;
  readonly reason: string;
}

/**
 * The rigid followers of a load that can follow, each with the joint it goes under, in scene order;
 * the others are warned about (one warning per reason, naming the first's JSON path), as are
 * followers whose reference vertices a morph moves. Malformed values (`vertex_count` or a reference
 * vertex that is not an integer) are a `DecodeError` at their path.
 *
 * @example
 * ```ts
 * const followers = findRigidFollowers({ nodes, definitionOf, localNode, instances, meshes, main, library });
 * ```
 */
export function findRigidFollowers(input: FollowerInput): RigidFollower[] {
  const { nodes, library } = input;
  // The hierarchy as the followers found so far will leave it, for the cycle check.
  const parents = nodes.map((node) => node.parent);
  const followers: RigidFollower[] = [];
  const stays = new Map<string, { first: WrittenFollower; reason: string; count: number }>();
  const morphed: { follower: WrittenFollower; joint: number; mesh: SceneMesh; names: string[] }[] = [];
  for (const written of writtenFollowers(input)) {
    const found = follow(input, written, parents);
    if ("kind" in found) {
      const seen = stays.get(found.kind);
      if (seen) seen.count++;
      else stays.set(found.kind, { first: written, reason: found.reason, count: 1 });
      continue;
    }
    parents[written.node] = found.follower.joint;
    followers.push(found.follower);
    if (found.morphs.length) {
      morphed.push({ follower: written, joint: found.follower.joint, mesh: found.mesh, names: found.morphs });
    }
  }
  for (const { first, reason, count } of stays.values()) {
    library.repaired(
      first.marker.file,
      first.marker.path,
      `${count} rigid follower(s) (the first '${
        nodes[first.node].key
      }': ${reason}) stay under their parents ` +
        "as written: Daz keeps them on a mesh's surface as it is posed or morphed, so a posed or morphed " +
        "figure leaves them behind",
    );
  }
  if (morphed.length) warnMorphed(input, morphed);
  return followers;
}

/** The followers among the nodes: a `rigid_follow` extra on the instance or the definition. */
function writtenFollowers(input: FollowerInput): WrittenFollower[] {
  const out: WrittenFollower[] = [];
  input.nodes.forEach((_, n) => {
    const sources: { record: unknown; file: DsonFile; path: string }[] = [];
    if (n < input.instances.length) {
      sources.push({ record: input.instances[n], file: input.main, path: `/scene/nodes/${n}` });
    }
    const definition = input.definitionOf(n);
    if (definition) sources.push({ record: definition.value, file: definition.file, path: definition.path });
    let marker: Written<unknown> | undefined, group: Written<unknown> | undefined;
    let vertexCount: Written<unknown> | undefined, followTarget: Written<string> | undefined;
    for (const { record, file, path } of sources) {
      const extra = (record as { extra?: unknown } | undefined)?.extra;
      if (!Array.isArray(extra)) continue;
      extra.forEach((e, k) => {
        if (!e || typeof e !== "object") return;
        const entry = e as {
          type?: unknown;
          rigidity_group?: unknown;
          vertex_count?: unknown;
          channels?: unknown;
        };
        const at = `${path}/extra/${k}`;
        if (entry.type === RIGID_FOLLOW) {
          marker ??= { value: entry, file, path: at };
          if (entry.rigidity_group !== undefined) {
            group ??= { value: entry.rigidity_group, file, path: `${at}/rigidity_group` };
          }
          if (entry.vertex_count !== undefined) {
            vertexCount ??= { value: entry.vertex_count, file, path: `${at}/vertex_count` };
          }
        } else if (entry.type === "studio_node_channels" && Array.isArray(entry.channels)) {
          entry.channels.forEach((c, j) => {
            const channel = (c as { channel?: { id?: unknown; node?: unknown } } | undefined)?.channel;
            if (channel?.id !== "Follow Target" || typeof channel.node !== "string" || channel.node === "") {
              return;
            }
            followTarget ??= { value: channel.node, file, path: `${at}/channels/${j}/channel/node` };
          });
        }
      });
    }
    if (marker) out.push({ node: n, marker, group, vertexCount, followTarget });
  });
  return out;
}

/** Where one follower goes, or why it stays (see {@link findRigidFollowers}). */
function follow(
  input: FollowerInput,
  written: WrittenFollower,
  parents: readonly number[],
): { follower: RigidFollower; mesh: SceneMesh; morphs: string[] } | Stay {
  const { nodes, library } = input;
  const target = followedNode(input, written);
  if (target < 0) {
    return { kind: "no target", reason: "it has no parent and no Follow Target, so no mesh to follow" };
  }
  const mesh = input.meshes.find((m) => m.owner === target);
  if (!mesh) return { kind: "no mesh", reason: `what it follows, '${nodes[target].key}', has no mesh` };
  if (written.vertexCount) {
    const { value, file, path } = written.vertexCount;
    const count = file.read.integer(value, path);
    if (count !== mesh.vertexCount) {
      return {
        kind: "vertex count",
        reason: `it was made for a mesh of ${count} vertices, '${mesh.key}' has ${mesh.vertexCount}`,
      };
    }
  }
  const references = referenceVertices(written, mesh, library);
  if (typeof references === "string") return { kind: "no reference vertex", reason: references };
  const dominant = dominantJoint(mesh, references) ?? { joint: mesh.owner, share: 1 };
  if (dominant.joint === written.node || isBelow(dominant.joint, written.node, parents)) {
    return {
      kind: "cycle",
      reason: `the joint its reference vertices follow, '${nodes[dominant.joint].key}', is the follower or ` +
        "below it (a cycle)",
    };
  }
  return {
    follower: {
      node: written.node,
      joint: dominant.joint,
      target: mesh.key,
      referenceVertices: references.length,
      vertices: [...references],
      share: dominant.share,
      blend: dominant.share < 1 ? averageWeights(mesh, references) : [{ joint: dominant.joint, weight: 1 }],
      modes: followerModes(written.group!.value, written.group!.file, written.group!.path, library),
    },
    mesh,
    morphs: movingMorphs(mesh, references).map((m) => m.name),
  };
}

/**
 * The node whose mesh a follower follows: its `Follow Target` when that names a node of the scene
 * (one that does not is a warning, and the parent is taken, as Diffeomorphic does), else its
 * parent; a bone stands for its figure, which owns the mesh. -1: none.
 */
function followedNode(input: FollowerInput, written: WrittenFollower): number {
  const { nodes } = input;
  let target = nodes[written.node].parent;
  const named = written.followTarget;
  if (named) {
    const found = input.localNode(named.value);
    if (found === undefined) {
      input.library.miss(
        named.value,
        `the Follow Target of rigid follower '${nodes[written.node].key}' names no node of the scene; ` +
          "it follows its parent's mesh instead",
        named.file,
        named.path,
      );
    } else target = found;
  }
  return target >= 0 && nodes[target].type === "bone" ? figureRoot(nodes, target) : target;
}

/**
 * The follower's reference vertices that are vertices of `mesh` (each once, in written order), or
 * why there are none. Those out of range are dropped with a warning naming the first.
 */
function referenceVertices(
  written: WrittenFollower,
  mesh: SceneMesh,
  library: ContentLibrary,
): Int32Array | string {
  if (!written.group) return "it has no rigidity_group, so no reference vertex";
  const { value, file, path } = written.group;
  const read = file.read;
  const group = read.object(value, path);
  const { items, path: at } = read.values(group.reference_vertices ?? [], `${path}/reference_vertices`);
  if (!items.length) return "its rigidity_group names no reference vertex";
  const kept = new Set<number>();
  let outside = 0, first = -1;
  items.forEach((item, i) => {
    const v = read.integer(item, `${at}/${i}`, Number.MIN_SAFE_INTEGER);
    if (v >= 0 && v < mesh.vertexCount) kept.add(v);
    else if (outside++ === 0) first = i;
  });
  if (!kept.size) {
    return `none of its ${items.length} reference vertices is a vertex of '${mesh.key}' (${mesh.vertexCount} vertices)`;
  }
  if (outside) {
    library.repaired(
      file,
      `${at}/${first}`,
      `${outside} of the ${items.length} reference vertices of a rigid follower are not vertices of ` +
        `'${mesh.key}' (${mesh.vertexCount} vertices; the first is ${String(items[first])}); ignored, ` +
        "it follows the others",
    );
  }
  return Int32Array.from(kept);
}

/** Whether `node` is below `ancestor` in `parents` (a bounded walk: parents may not loop, but cheap). */
function isBelow(node: number, ancestor: number, parents: readonly number[]): boolean {
  for (let n = parents[node], steps = 0; n >= 0 && steps <= parents.length; n = parents[n], steps++) {
    if (n === ancestor) return true;
  }
  return false;
}

/**
 * One warning for the followers whose reference vertices morphs move: a joint follows the pose, not
 * a morph. Morphs dialled up in the file are named too: Daz moves the follower with them.
 */
function warnMorphed(
  input: FollowerInput,
  morphed: readonly { follower: WrittenFollower; joint: number; mesh: SceneMesh; names: string[] }[],
): void {
  const { nodes, library } = input;
  const [{ follower, joint, mesh, names }] = morphed;
  const listed = names.slice(0, NAMED).map((n) => `'${n}'`).join(", ") +
    (names.length > NAMED ? ` and ${names.length - NAMED} more` : "");
  const dialled = mesh.morphs.filter((m) => m.weight !== 0 && names.includes(m.name));
  const now = dialled.length
    ? `; '${dialled[0].name}' is at ${dialled[0].weight} in this file: the follower is fitted to where the ` +
      "file's dials put them, as Daz places it"
    : "";
  library.repaired(
    follower.marker.file,
    follower.marker.path,
    `${morphed.length} rigid follower(s) (the first '${nodes[follower.node].key}', put under ` +
      `'${nodes[joint].key}') follow the pose, not morphs: ${names.length} morph(s) of '${mesh.key}' move ` +
      `its reference vertices (${listed}), and a viewer dialling one moves the surface but not them ` +
      `(dson.apply_preset and dson.bake_morph refit it)${now}`,
  );
}
