/**
 * The decoded scene in DSON terms (centimetres, DSON vertex indices), between loading (references
 * resolved, instances expanded, grafts merged) and building the glTF document.
 *
 * @module
 */
import type { FollowerModes } from "./follower_modes.ts";
import type { AuthoredPolys } from "./polygons.ts";
import type { UnresolvedReference } from "./content.ts";
import type { FormulaGraph, StoredChannel } from "./formula_graph.ts";
import type { ChannelLimit, ChannelLimits } from "./joint_limits.ts";
import type { DsonGraft } from "./geometry.ts";
import type { RigidityGroup } from "./rigidity.ts";
import type { Vec3 } from "./rigid_fit.ts";
import type { Subdivision } from "./subdivision.ts";
import type { InstanceItem } from "./instance_items.ts";

/** DSON lengths are centimetres; glTF's are metres. */
export const METRES_PER_CM = 0.01;

/** One instantiated DSON node (figure, bone, prop node, camera, light). */
export interface SceneNode {
  /** Unique key: the node_instance id, or the definition id when instantiated implicitly. */
  readonly key: string;
  /** Definition id (a bone's name in skin bindings and formulas). */
  readonly id: string;
  readonly name: string;
  readonly label: string;
  /** `node`, `bone`, `figure`, `camera` or `light`. */
  readonly type: string;
  /** Index of the parent in {@link DsonScene.nodes}, or -1. */
  parent: number;
  /** Where the definition came from (`file#id`), or undefined when it did not resolve. */
  readonly definition?: string;
  readonly centerPoint: Vec3;
  readonly endPoint: Vec3;
  readonly orientation: Vec3;
  readonly rotation: Vec3;
  readonly translation: Vec3;
  readonly scale: Vec3;
  readonly generalScale: number;
  /** Joint limits of its channels written `clamped: true` (see `joint_limits.ts`); absent: none. */
  readonly limits?: ChannelLimits;
  readonly rotationOrder: string;
  readonly inheritsScale: boolean;
  /** URI of the figure this one conforms to (clothing, grafts). */
  readonly conformTarget?: string;
  /** `presentation.preferred_base`: the figure a follower is made for, e.g. `/Genesis 9/Mouth`. */
  readonly preferredBase?: string;
  /**
   * A Daz Studio node instance (`extra` of type `studio/node/instance`): the URI its "Instance
   * Target" channel names, the scene node whose content it draws (see `instances.ts`).
   */
  readonly instanceTarget?: string;
  /** An instance whose "Copy Modifiers" channel is off (false or 0); absent when on or unwritten. */
  readonly instanceCopyModifiersOff?: true;
  /**
   * A Daz Studio instance group (`studio/node/group_instance`): each item places the target's content
   * once under this node (`instance_items.ts`); `instanceItemsBad` counts values read as defaults.
   */
  readonly instanceItems?: readonly InstanceItem[];
  readonly instanceItemsBad?: number;
}

/**
 * The figure node `node` belongs to: its nearest `figure` ancestor (itself included), else the
 * root of its hierarchy; -1 stays -1. A figure's bones, skin and meshes all hang off this node.
 *
 * @example
 * ```ts
 * const figure = figureRoot(scene.nodes, mesh.owner);
 * ```
 */
export function figureRoot(nodes: readonly SceneNode[], node: number): number {
  let root = node;
  while (root >= 0 && nodes[root].parent >= 0 && nodes[root].type !== "figure") root = nodes[root].parent;
  return root;
}

/** A morph target in DSON vertex indices. */
export interface Morph {
  readonly id: string;
  readonly name: string;
  readonly label: string;
  /** Vertices moved and their deltas (cm), flat xyz. */
  readonly index: Int32Array;
  readonly delta: Float64Array;
  /** Current dial value (the glTF default weight). */
  readonly weight: number;
  /** The range of a `clamped: true` channel (`morph_clamp.ts`); absent: unlimited. */
  readonly limit?: ChannelLimit;
  /**
   * A merged graft's own morph of a name its body's mesh also has, that follows no channel of the
   * body (no auto-follow, no formula reading it): the body's formulas do not set it (`graft.ts`).
   */
  readonly graftOwn?: true;
  /**
   * Its channel says `auto_follow: true` (or Daz made it by projection, `auto_project.ts`): Daz
   * projects it onto an item fitted to its figure that lacks a morph of its name, also when a preset
   * dials it later (`preset_project.ts`).
   */
  readonly autoFollow?: true;
  /**
   * Daz made it by projecting its body's morph onto this fitted item (`auto_project.ts`): the only
   * kind of morph Daz applies the item's rigidity to, which `dson.apply_preset` fits in once it sets
   * the dial (`preset_rigidity.ts`).
   */
  readonly projected?: true;
  /**
   * A projected morph into which the item's rigidity was fitted at the scene's dial (decode.dson
   * v72): the weight, the participants' DSON vertices and their plain deltas (m), as
   * `dson.apply_preset` keeps them (`preset_rigidity.ts`).
   */
  readonly rigid?: {
    readonly weight: number;
    readonly vertices: readonly number[];
    readonly plain: readonly number[];
  };
  /**
   * A merged graft's morph: the merged grafts (indices in the mesh's `mergedGrafts`) whose vertices
   * it came with, so dson.apply_preset projects a body morph onto the others only.
   */
  readonly grafts?: readonly number[];
  /**
   * Ids of the alias channels (DSON `channel_alias`) that stand for it, through chains: a preset
   * dialling one dials this morph (`alias_dials.ts`).
   */
  readonly aliases?: readonly string[];
}

/** A surface's material. */
export interface Surface {
  readonly name: string;
  readonly color: [number, number, number];
  readonly image?: { readonly uri: string; readonly bytes: Uint8Array; readonly mimeType: string };
  /** The image path as written, also when it could not be loaded. */
  readonly imageUri?: string;
}

/** A geometry instance ready to build, in DSON vertex indices. */
export interface SceneMesh {
  readonly key: string;
  readonly name: string;
  /** Node that owns the geometry (the figure for a figure mesh). */
  readonly owner: number;
  readonly geometryId: string;
  readonly geometryType: string;
  /** A subdivision surface's levels (absent for a polygon mesh): drawn as its cage. */
  readonly subdivision?: Subdivision;
  /** JSON pointer of the geometry record (in the file that defines it). */
  readonly geometryPath: string;
  /** The file that defines the geometry (its `source`: a content path, or the input's name). */
  readonly geometrySource: string;
  /** Positions in centimetres. */
  readonly positions: Float64Array;
  readonly vertexCount: number;
  readonly polyVerts: Int32Array;
  readonly polyMaterial: Int32Array;
  readonly polyCount: number;
  /** Which polygon of the file each is, when not one to one (see `DsonGeometry.authored`). */
  readonly authored?: AuthoredPolys;
  readonly surfaces: readonly string[];
  /**
   * UVs (authored v-up) and the UV index of each polygon corner (4 per polygon, -1 unused). `name`
   * is the default set's; `surfaceSets` names each surface's set when surfaces use several (their
   * UVs are concatenated in `coords`).
   */
  readonly uv?: {
    readonly name: string;
    readonly coords: Float64Array;
    readonly cornerUv: Int32Array;
    readonly surfaceSets?: readonly string[];
  };
  /** Skin slots (4 per vertex): scene node index and weight. */
  readonly skin?: { readonly slotNode: Int32Array; readonly slotWeight: Float32Array };
  readonly morphs: readonly Morph[];
  /** The ERC formulas driving its morphs, kept for `dson.apply_preset` (see `formula_graph.ts`). */
  readonly formulas?: FormulaGraph;
  /**
   * The modifier values (by id) joint centres its formulas move were worked out at
   * (`rig_formulas.ts`): dson.apply_preset says when a preset changes one, the joints staying put.
   */
  readonly rigDials?: Readonly<Record<string, number>>;
  /**
   * The joint rest-frame channels its formulas moved, by `nodeKey?center_point/x`: written value
   * and formulas (`rig_formulas.ts`), which dson.apply_preset and dson.bake_morph evaluate again.
   */
  readonly rigCentres?: Readonly<Record<string, StoredChannel>>;
  /**
   * Its alias channels (DSON channel_alias) standing for a bone channel: alias id → the bone's node
   * id and channel (`rotation/x`). dson.apply_preset poses the bone when a preset dials the alias.
   */
  readonly boneAliases?: Readonly<Record<string, BoneAlias>>;
  /** Per-vertex rigidity weight (undefined: no map) and the groups. */
  readonly rigidity?: { readonly weights?: Float64Array; readonly groups: readonly RigidityGroup[] };
  /** The graft record, and whether it was merged into its target. */
  readonly graft?: DsonGraft & { readonly merged: boolean; readonly target?: string };
  /** Grafts merged into this mesh (geometry ids). */
  readonly mergedGrafts: readonly string[];
  /**
   * With merged grafts: the body's own vertex count (the grafts' own vertices follow it) and the
   * body polygons they hide (4 vertex indices each, -1: triangle), for dson.apply_preset, which
   * projects a body morph onto the grafts from the body's whole surface as the decode does; and
   * where each merged graft's own vertices end (in `mergedGrafts` order), so a body morph is
   * projected onto the grafts lacking it only.
   */
  readonly graftBody?: GraftBodyRecord;
  /** Materials by surface name. */
  readonly materials: ReadonlyMap<string, Surface>;
}

/**
 * A rigid follower (a node with a `studio/node/rigid_follow` extra: a piercing, a button, a prop Daz
 * keeps on a mesh's surface) made to follow: it goes under {@link RigidFollower.joint}, the joint
 * that dominates the skin weights of its reference vertices, with its world transform kept.
 */
export interface RigidFollower {
  /** The follower's node. */
  readonly node: number;
  /** The node it goes under: the dominant joint, or the target's own node for an unskinned target. */
  readonly joint: number;
  /** The key of the mesh whose reference vertices it follows. */
  readonly target: string;
  /** Reference vertices used (those that are vertices of the target). */
  readonly referenceVertices: number;
  /** Those vertices (the target's own DSON vertex indices), which presets and bakes refit it to. */
  readonly vertices: readonly number[];
  /** The joint's share of the reference vertices' summed skin weight (1 for an unskinned target). */
  readonly share: number;
  /**
   * The reference vertices' skin weights averaged (at most 4 joints, summing to 1, strongest first):
   * `[{ joint, weight: 1 }]` when they follow the joint alone; more, and the follower's meshes are
   * skinned with it (`follow_skin.ts`).
   */
  readonly blend: readonly { readonly joint: number; readonly weight: number }[];
  /** Its group's `rotation_mode` and `scale_modes` (`follower_modes.ts`), which the refit follows. */
  readonly modes: FollowerModes;
}

/**
 * A conforming figure (`conform_target`: clothing, hair, armour fitted to a body) and the nodes that
 * follow its target's: each takes the pose of its pair, so the item's skin deforms as the body's
 * does (`conform_match.ts` finds them, `conform_follow.ts` moves them).
 */
export interface Conformer {
  /** The conforming figure's node. */
  readonly figure: number;
  /** The target's figure node. */
  readonly target: number;
  /**
   * `[follower, target]` node pairs: the figure roots first, then the item's bones with a target
   * bone of the same name (else id), each after its ancestors. Bones without one ride their parent.
   */
  readonly pairs: readonly (readonly [number, number])[];
  /** JSON path of its `conform_target` in the decoded file, for warnings. */
  readonly path: string;
}

/** A whole decoded DSON scene. */
export interface DsonScene {
  /** `asset_info.id` of the decoded file. */
  readonly assetId: string;
  /** `asset_info.type`. */
  readonly assetType: string;
  readonly nodes: SceneNode[];
  readonly meshes: SceneMesh[];
  readonly unresolved: readonly UnresolvedReference[];
  /** Rigid followers to put under the joint they follow, in scene order (see {@link RigidFollower}). */
  readonly followers: readonly RigidFollower[];
  /** Conforming figures whose target is in the scene, each after any item it is fitted to. */
  readonly conformers: readonly Conformer[];
}

/** A mesh's merged grafts' body (see {@link SceneMesh.graftBody}). */
export interface GraftBodyRecord {
  readonly vertexCount: number;
  readonly hiddenPolyVerts: Int32Array;
  /** The end (exclusive) of each merged graft's own vertices; the first starts at `vertexCount`. */
  readonly graftEnds: readonly number[];
  /** How many of the merged polygons, the first, are the body's (the grafts' follow). */
  readonly bodyPolys: number;
}

/** A bone channel an alias channel stands for: the bone's node id and the channel (`rotation/x`). */
export interface BoneAlias {
  readonly node: string;
  readonly channel: string;
}
