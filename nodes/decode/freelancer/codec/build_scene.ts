/**
 * Builds the glTF scene of a decoded Freelancer model, in LancerEdit's conventions so LancerEdit's
 * importer can read our output back: one root-level node per part named by its Object name (LOD 0
 * mesh), `<part>$lod<n>` and `<part>.vmeshwire` (line) meshes — as child nodes with `lods: "all"`, on
 * no node by default so that viewers draw one LOD and no outline —, hardpoint children with
 * `hardpoint`/`hptype` extras, meshes named `<node>.mesh`, materials by name (placeholders
 * `material_0x%08X`). The raw `Cons` records are kept in the scene's `extras.partgraph.constraints`
 * for `constraints.resolve`. Geometry that cannot be drawn (a reference past its mesh, a mesh whose
 * `VMeshData` does not decode) is left out with a warning; the parts stay.
 *
 * @module
 */
import { Document, type Mesh, type Node, type Scene } from "@gltf-transform/core";
import { DecodeError } from "../../../../runtime/errors.ts";
import type { JsonValue, WarningSink } from "../../../../runtime/node.ts";
import { setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import {
  addFreshChildQuietly,
  addRefQuietly,
  setQuietly,
  setRefQuietly,
} from "../../../../runtime/scene/quiet_refs.ts";
import { setSourceInfo } from "../../../../runtime/scene/source.ts";
import { formatId } from "./crc.ts";
import type { FreelancerModel, ModelPart } from "./model.ts";
import { sceneMaterials } from "./scene_materials.ts";
import { scenePrimitives } from "./scene_primitive.ts";
import { refMeshes } from "./scene_ref_meshes.ts";
import { attachCamera, hardpointNode } from "./scene_hardpoints.ts";
import { type SelectedPrimitive, selectWire } from "./vmesh_select.ts";
import { withFiniteVertices } from "./finite_vertices.ts";
import { SceneAccessors } from "../../../../runtime/scene/accessors.ts";
import { withQuietRootLists } from "../../../../runtime/scene/quiet_root.ts";
import { modelUsers } from "./users.ts";
import { sortedCopy } from "./sorted_keys.ts";

/** What the scene builder keeps per part node under `extras.partgraph.freelancer`. */
export interface PartInfo {
  object_name: string;
  file_name?: string;
  index?: number;
  /** `Switch2` LOD distances. */
  switch_distances?: number[];
  /**
   * The level the game draws nearest the camera, when `Switch2` gives LOD 0 no distance (absent: 0). The
   * part's node still draws LOD 0, as LancerEdit shows and exports it.
   */
  near_lod?: number;
  /**
   * With `lods: "first"`: names of the part's LOD n ≥ 1 (`<part>$lod<n>.mesh`) and wireframe
   * (`<part>.vmeshwire.mesh`) meshes, which are in the file but on no node, so viewers do not draw them.
   */
  kept_meshes?: string[];
  /** A `.sph` planet or sun: its radius, side materials (`M0`, …) and atmosphere scale when drawn. */
  sphere?: { radius: number; sides: string[]; atmosphere_scale?: number };
}

/** How LODs n ≥ 1 and `VMeshWire` outlines are laid out. */
export type LodLayout = "first" | "all";

/** Options of {@link buildScene}. */
export interface SceneOptions {
  /**
   * `"first"` (default): each part node draws LOD 0; the other LODs and the wireframe are kept as
   * meshes on no node (listed in `kept_meshes`). `"all"`: LancerEdit's layout, `<part>$lod<n>` and
   * `<part>.vmeshwire` child nodes, which every viewer draws on top of LOD 0.
   */
  readonly lods: LodLayout;
  /** The model's file name, for errors. */
  readonly file?: string;
}

/**
 * Turns a decoded model into a glTF document. Parts sit at the scene root with identity transforms;
 * `constraints.resolve` builds the hierarchy from the kept records. LODs n ≥ 1 and wireframes are
 * laid out per {@link SceneOptions.lods}.
 *
 * @example
 * ```ts
 * const doc = buildScene(decodeModel(file, [], warn), warn);
 * ```
 */
export function buildScene(
  model: FreelancerModel,
  warn: WarningSink,
  options: SceneOptions = { lods: "first" },
): Document {
  const doc = new Document();
  // The root lists every property made without a change event to no listener (`quiet_root.ts`).
  return withQuietRootLists(doc, () => buildInto(doc, model, warn, options));
}

/** {@link buildScene} in `doc`, a new document. */
function buildInto(
  doc: Document,
  model: FreelancerModel,
  warn: WarningSink,
  options: SceneOptions,
): Document {
  // One buffer; every accessor array comes from a few shared slabs.
  const accessors = new SceneAccessors(doc, doc.createBuffer("buffer"));
  const scene = doc.createScene("Scene");
  doc.getRoot().setDefaultScene(scene);
  // Who draws each mesh, material and texture: warnings about one name the parts it costs.
  const users = modelUsers(model);
  const primitive = scenePrimitives(doc, accessors, model, sceneMaterials(doc, model, warn, users), warn);
  const { refMesh, lose, reportLost } = refMeshes(
    doc,
    accessors,
    model,
    primitive,
    warn,
    options.file,
    users,
  );
  // Nodes and meshes made here are linked without glTF-Transform's change events (`quiet_refs.ts`).
  const addChild = (parent: Node | Scene, child: Node) => {
    if (!addFreshChildQuietly(parent, child)) parent.addChild(child);
  };
  const meshNode = (name: string, mesh: Mesh) => {
    const node = doc.createNode(name);
    if (!setRefQuietly(node, "mesh", mesh)) node.setMesh(mesh);
    return node;
  };
  const partNode = (part: ModelPart): Node => {
    const node = doc.createNode(part.name);
    const { fragment } = part;
    // Meshes a viewer should not draw by default: with lods "first" they stay in the file unattached.
    const kept: Mesh[] = [];
    const attach = (name: string, mesh: Mesh) => {
      if (options.lods === "all") addChild(node, meshNode(name, mesh));
      else kept.push(mesh);
    };
    // LOD 0 is the part's mesh whatever Switch2 says, as LancerEdit shows and exports it: its importer
    // reads a `<part>$lod0` child as a second part of the same name and drops the LOD on the node.
    fragment.lods.forEach((ref, level) => {
      const where = () => {
        const entry = [part.fileName, fragment.lodEntries?.[level]].filter((e) => e).join("/");
        const place = [entry, options.file].filter((e) => e).join(" in ");
        return `part '${part.name}' LOD ${level}${place ? ` (${place})` : ""}`;
      };
      if (level === 0) {
        const mesh = refMesh(ref, part.name, where);
        if (mesh && !setRefQuietly(node, "mesh", mesh)) node.setMesh(mesh);
      } else {
        const name = `${part.name}$lod${level}`;
        const mesh = refMesh(ref, name, where);
        if (mesh) attach(name, mesh);
      }
    });
    if (fragment.wire) {
      const data = model.meshes.get(fragment.wire.meshId);
      if (model.damagedMeshes.has(fragment.wire.meshId)) {
        const entry = [part.fileName, "VMeshWire/VWireData"].filter((e) => e).join("/");
        lose(
          fragment.wire.meshId,
          `the wireframe of part '${part.name}' (${entry}${options.file ? ` in ${options.file}` : ""})`,
        );
      } else if (!data) {
        warn(
          `wireframe mesh ${formatId(fragment.wire.meshId)} of part '${part.name}' is in no loaded library`,
        );
      } else if (fragment.wire.indices.length) {
        const name = `${part.name}.vmeshwire`;
        let lines: SelectedPrimitive | undefined;
        try {
          lines = selectWire(data, fragment.wire, accessors.arena);
        } catch (error) {
          if (!(error instanceof DecodeError)) throw error;
          const entry = [part.fileName, "VMeshWire/VWireData"].filter((e) => e).join("/");
          warn(
            `wireframe of part '${part.name}' (${entry}${options.file ? ` in ${options.file}` : ""}): ` +
              `${error.message}; the wireframe is left out`,
          );
        }
        if (lines) {
          [lines] = withFiniteVertices(
            [lines],
            (what) => warn(`wireframe of part '${part.name}': ${what}`),
            2,
          );
        }
        if (lines) {
          const mesh = doc.createMesh(`${name}.mesh`), made = primitive(lines, name, true);
          if (!addRefQuietly(mesh, "primitives", made)) mesh.addPrimitive(made);
          attach(name, mesh);
        }
      }
    }
    for (const hp of fragment.hardpoints) addChild(node, hardpointNode(doc, hp));
    if (fragment.camera) attachCamera(doc, node, fragment.camera, warn);
    // Keys set in the written file's (sorted) order, so the export writes this very object (`sorted_keys.ts`).
    const info = {} as PartInfo;
    if (part.fileName !== undefined) info.file_name = part.fileName;
    if (part.index !== undefined) info.index = part.index;
    if (kept.length) info.kept_meshes = kept.map((mesh) => mesh.getName());
    if (fragment.nearLevel) info.near_lod = fragment.nearLevel;
    info.object_name = part.name;
    if (part.sphere) info.sphere = sortedCopy({ ...part.sphere, sides: [...part.sphere.sides] });
    if (fragment.switchDistances) info.switch_distances = [...fragment.switchDistances];
    // The node is new, its extras empty: what setPartgraphExtras would merge, stored at once.
    const extras = { partgraph: { freelancer: info as unknown as JsonValue } };
    if (!setQuietly(node, "extras", extras)) setPartgraphExtras(node, extras.partgraph);
    return node;
  };

  for (const part of model.parts) addChild(scene, partNode(part));
  reportLost();
  primitive.reportUvSets();
  // The scene's partgraph keys in sorted order too (`source` is set last, and sorts last of these).
  setPartgraphExtras(scene, {
    // Played by constraints.resolve on the joints it builds; absent when the model has none.
    ...(model.animations.length ? { animations: model.animations as unknown as JsonValue } : {}),
    constraints: model.constraints.map(sortedCopy) as unknown as JsonValue,
  });
  setSourceInfo(doc, {
    format: model.kind,
    forward: "-Z",
    metresPerUnit: 1,
    notes: { convention: "LancerEdit: positions and transforms verbatim, no axis swap or mirror" },
    up: "+Y",
  });
  return doc;
}
