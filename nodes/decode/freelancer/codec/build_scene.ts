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
import { Document, type Material, type Mesh, type Node, Primitive } from "@gltf-transform/core";
import { DecodeError } from "../../../../runtime/errors.ts";
import type { JsonValue, WarningSink } from "../../../../runtime/node.ts";
import { setPartgraphExtras } from "../../../../runtime/scene/extras.ts";
import { setSourceInfo } from "../../../../runtime/scene/source.ts";
import { formatId } from "./crc.ts";
import type { FragmentCamera, Hardpoint } from "./fragment.ts";
import { describeMeshDamage, type FreelancerModel, type ModelPart } from "./model.ts";
import { isNullMaterial } from "./material.ts";
import { sceneMaterials } from "./scene_materials.ts";
import { packTangents, wantsTangents } from "./tangents.ts";
import { degrees } from "./transform.ts";
import { readRotation } from "./rotation.ts";
import type { VMeshRef } from "./vmesh.ts";
import { refMismatch, type SelectedPrimitive, selectRef, selectWire } from "./vmesh_select.ts";
import { withFiniteVertices } from "./finite_vertices.ts";
import { SceneAccessors } from "../../../../runtime/scene/accessors.ts";

/** What the scene builder keeps per part node under `extras.partgraph.freelancer`. */
export interface PartInfo {
  object_name: string;
  file_name?: string;
  index?: number;
  /** `Switch2` LOD distances. */
  switch_distances?: number[];
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
  // One buffer; every accessor array comes from a few shared slabs.
  const accessors = new SceneAccessors(doc, doc.createBuffer("buffer"));
  const scene = doc.createScene("Scene");
  doc.getRoot().setDefaultScene(scene);
  const material = sceneMaterials(doc, model, warn);
  const meshes = new Map<string, Mesh | null>();
  const selected = new SelectionBudget(model, options.file);
  const primitive = (prim: SelectedPrimitive, label: string, lines: boolean): Primitive => {
    const out = doc.createPrimitive();
    if (lines) out.setMode(Primitive.Mode.LINES); // TRIANGLES is the default
    out.setAttribute("POSITION", accessors.create("VEC3", prim.positions, `${label}.position`))
      .setIndices(accessors.create("SCALAR", prim.indices, `${label}.indices`));
    if (prim.normals) out.setAttribute("NORMAL", accessors.create("VEC3", prim.normals, `${label}.normal`));
    if (prim.colors) out.setAttribute("COLOR_0", accessors.create("VEC4", prim.colors, `${label}.color`));
    let uvs = prim.uvs;
    if (!lines && wantsTangents(uvs.length, !!prim.normals, model.materials.get(prim.materialId))) {
      // The last two UV sets are LancerEdit's tangent (x, y | z, w), which the normal map needs.
      const tangents = packTangents(uvs[uvs.length - 2], uvs[uvs.length - 1], accessors.arena);
      if (typeof tangents === "string") {
        warn(
          `${label}: UV sets ${uvs.length - 2}–${
            uvs.length - 1
          } are not tangents (${tangents}); kept as UV sets`,
        );
      } else {
        out.setAttribute("TANGENT", accessors.create("VEC4", tangents, `${label}.tangent`));
        uvs = uvs.slice(0, -2);
      }
    }
    uvs.forEach((uv, i) =>
      out.setAttribute(`TEXCOORD_${i}`, accessors.create("VEC2", uv, `${label}.uv${i}`))
    );
    if (!lines) {
      const mat = material(prim.materialId);
      out.setMaterial(mat);
      checkUvSets(mat, uvs.length, label);
    }
    return out;
  };
  /** Materials already named for sampling a UV set their mesh lacks, by material and set count. */
  const uvWarned = new Set<string>();
  // A material's sampler flags (0x10: second UV set) are a property of the material, the sets one of
  // the mesh; a mod's material on a mesh with fewer sets samples one that is not there.
  const checkUvSets = (mat: Material | null, sets: number, label: string) => {
    const needed = mat ? sampledUvSets(mat) : [];
    const missing = needed.filter((set) => set >= sets);
    const key = `${mat?.getName()}\u0000${sets}`;
    if (!missing.length || uvWarned.has(key)) return;
    uvWarned.add(key);
    warn(
      `material '${mat!.getName()}' samples UV set ${
        missing.map((s) => s + 1).join(", ")
      } (its texture flags), ` +
        `but mesh '${label}' has ${sets} UV set${sets === 1 ? "" : "s"}; ` +
        (sets
          ? "export.gltf draws those textures with the first set"
          : "its textures cannot be placed on it"),
    );
  };

  /** Per mesh key: why its reference cannot be drawn, when it cannot. */
  const refProblems = new Map<string, string>();
  /** Per damaged mesh id: what loses its geometry (one warning per mesh, after the parts). */
  const lost = new Map<number, string[]>();
  const lose = (meshId: number, what: string) => {
    const users = lost.get(meshId);
    if (users) users.push(what);
    else lost.set(meshId, [what]);
  };
  const refMesh = (ref: VMeshRef, nodeName: string, where: () => string): Mesh | null => {
    if (ref.meshId === 0) return null;
    if (model.damagedMeshes.has(ref.meshId)) {
      lose(ref.meshId, where());
      return null;
    }
    const key = `${ref.meshId}:${ref.vertexStart}:${ref.groupStart}:${ref.groupCount}`;
    if (meshes.has(key)) {
      const problem = refProblems.get(key);
      if (problem) warn(`${where()}: ${problem}`);
      return meshes.get(key)!;
    }
    const data = model.meshes.get(ref.meshId);
    let mesh: Mesh | null = null;
    if (!data) {
      warn(
        `mesh ${
          formatId(ref.meshId)
        } (VMeshRef at byte ${ref.offset}) is in no loaded library; give its .vms as 'library'`,
      );
    } else {
      // Not when every group drawn reads its last two sets as tangents (a normal-mapped material).
      const groups = data.groups.slice(ref.groupStart, ref.groupStart + ref.groupCount);
      const allTangents = groups.length > 0 &&
        groups.every((g) =>
          wantsTangents(data.layout.uvCount, data.layout.normal >= 0, model.materials.get(g.materialId))
        );
      if (data.layout.uvCount > 2 && !allTangents) {
        warn(
          `mesh '${data.name}' has ${data.layout.uvCount} UV sets (FVF 0x${
            data.layout.fvf.toString(16)
          }); mods store tangents there`,
        );
      }
      let prims: SelectedPrimitive[];
      try {
        prims = selectRef(data, ref, accessors.arena);
        const mismatch = refMismatch(data, ref);
        if (mismatch) warn(`${where()}: ${mismatch}`);
      } catch (error) {
        // A reference that does not fit its mesh (groups or vertices past it) costs its own
        // geometry, not the model: the part node stays, with its hardpoints and attached parts.
        if (!(error instanceof DecodeError)) throw error;
        const problem = `${error.message}; this geometry is left out (the part, its hardpoints and ` +
          "the parts attached to it are kept)";
        refProblems.set(key, problem);
        warn(`${where()}: ${problem}`);
        prims = [];
      }
      prims = withoutNullMaterial(prims, model, (what) =>
        warn(
          `${where()}: ${what} of mesh '${data.name}' left out: the game draws a NullMaterial as ` +
            "nothing (plain transparent)",
        ));
      prims = withFiniteVertices(prims, (what) => warn(`${where()}: mesh '${data.name}': ${what}`));
      selected.add(prims, ref);
      if (prims.length) {
        mesh = doc.createMesh(`${nodeName}.mesh`);
        prims.forEach((p, i) => mesh!.addPrimitive(primitive(p, `${nodeName}.${i}`, false)));
        setPartgraphExtras(mesh, { freelancer: { mesh: data.name, mesh_id: ref.meshId } });
      }
    }
    meshes.set(key, mesh);
    return mesh;
  };

  const partNode = (part: ModelPart): Node => {
    const node = doc.createNode(part.name);
    const { fragment } = part;
    // Meshes a viewer should not draw by default: with lods "first" they stay in the file unattached.
    const kept: Mesh[] = [];
    const attach = (name: string, mesh: Mesh) => {
      if (options.lods === "all") node.addChild(doc.createNode(name).setMesh(mesh));
      else kept.push(mesh);
    };
    fragment.lods.forEach((ref, level) => {
      const where = () => {
        const entry = [part.fileName, fragment.lodEntries?.[level]].filter((e) => e).join("/");
        const place = [entry, options.file].filter((e) => e).join(" in ");
        return `part '${part.name}' LOD ${level}${place ? ` (${place})` : ""}`;
      };
      if (level === 0) {
        const mesh = refMesh(ref, part.name, where);
        if (mesh) node.setMesh(mesh);
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
        if (lines) attach(name, doc.createMesh(`${name}.mesh`).addPrimitive(primitive(lines, name, true)));
      }
    }
    for (const hp of fragment.hardpoints) node.addChild(hardpointNode(doc, hp));
    if (fragment.camera) attachCamera(doc, node, fragment.camera, warn);
    const info: PartInfo = { object_name: part.name };
    if (part.fileName !== undefined) info.file_name = part.fileName;
    if (part.index !== undefined) info.index = part.index;
    if (fragment.switchDistances) info.switch_distances = [...fragment.switchDistances];
    if (kept.length) info.kept_meshes = kept.map((mesh) => mesh.getName());
    if (part.sphere) info.sphere = { ...part.sphere, sides: [...part.sphere.sides] };
    setPartgraphExtras(node, { freelancer: info as unknown as JsonValue });
    return node;
  };

  for (const part of model.parts) scene.addChild(partNode(part));
  for (const [meshId, users] of lost) {
    const damage = model.damagedMeshes.get(meshId)!;
    const shown = users.slice(0, 8).join(", ") + (users.length > 8 ? `, … (${users.length} in all)` : "");
    warn(
      `mesh '${damage.name}': ${describeMeshDamage(damage)}; the geometry drawn from it is left out ` +
        `(${shown}); the parts, their hardpoints and the parts attached to them are kept`,
    );
  }
  setPartgraphExtras(scene, {
    constraints: model.constraints.map((c) => ({ ...c })) as unknown as JsonValue,
    // Played by constraints.resolve on the joints it builds; absent when the model has none.
    ...(model.animations.length ? { animations: model.animations as unknown as JsonValue } : {}),
  });
  setSourceInfo(doc, {
    format: model.kind,
    forward: "-Z",
    up: "+Y",
    metresPerUnit: 1,
    notes: { convention: "LancerEdit: positions and transforms verbatim, no axis swap or mirror" },
  });
  return doc;
}

/**
 * The primitives of a reference without those of `NullMaterial` groups, which the game does not draw;
 * `leftOut` hears what was dropped (`2 triangles of material 'null' (NullMaterial)`).
 */
function withoutNullMaterial(
  prims: SelectedPrimitive[],
  model: FreelancerModel,
  leftOut: (what: string) => void,
): SelectedPrimitive[] {
  const kept = prims.filter((p) => !isNullMaterial(model.materials.get(p.materialId)));
  if (kept.length === prims.length) return prims;
  const triangles = new Map<string, number>();
  for (const p of prims) {
    const def = model.materials.get(p.materialId);
    if (!isNullMaterial(def)) continue;
    const label = `'${def!.name}'`;
    triangles.set(label, (triangles.get(label) ?? 0) + p.indices.length / 3);
  }
  const count = [...triangles.values()].reduce((a, b) => a + b, 0);
  leftOut(
    `${count} triangle${count === 1 ? "" : "s"} of material${triangles.size === 1 ? "" : "s"} ` +
      `${[...triangles.keys()].join(", ")} (NullMaterial)`,
  );
  return kept;
}

/** The UV sets a material's textures sample (glTF `texCoord`), in ascending order. */
function sampledUvSets(material: Material): number[] {
  const infos = [
    material.getBaseColorTextureInfo(),
    material.getEmissiveTextureInfo(),
    material.getNormalTextureInfo(),
    material.getOcclusionTextureInfo(),
    material.getMetallicRoughnessTextureInfo(),
  ];
  return [...new Set(infos.filter((info) => info !== null).map((info) => info.getTexCoord()))].sort((a, b) =>
    a - b
  );
}

function hardpointNode(doc: Document, hp: Hardpoint): Node {
  // A scaled or mirrored Orientation (a hand edit) keeps its scale, as the game uses the matrix as stored.
  const { rotation, scale, problem } = readRotation(hp.orientation);
  const node = doc.createNode(hp.name)
    .setTranslation(hp.position.slice(0, 3) as [number, number, number])
    .setRotation(rotation);
  if (problem) node.setScale(scale);
  const extras: Record<string, JsonValue> = { hardpoint: true, hptype: hp.kind };
  if (hp.kind === "rev") {
    extras.min = degrees(hp.min!);
    extras.max = degrees(hp.max!);
    extras.axis = [...hp.axis!];
  }
  // A new node has no extras to merge with: one setter instead of two (each dispatches events).
  extras.partgraph = { hardpoint: { kind: hp.kind } };
  return node.setExtras(extras);
}

function attachCamera(doc: Document, node: Node, camera: FragmentCamera, warn: WarningSink): void {
  const { fovx, fovy, znear, zfar } = camera;
  if (!(fovy > 0 && fovy < Math.PI / 2 && fovx > 0 && fovx < Math.PI / 2 && znear > 0 && zfar > znear)) {
    warn(`camera of part '${node.getName()}' has unusable values ${JSON.stringify(camera)}; skipped`);
    return;
  }
  // Freelancer stores half-angles; glTF wants the full vertical field of view.
  node.setCamera(
    doc.createCamera(`${node.getName()}.camera`).setType("perspective")
      .setYFov(2 * fovy).setAspectRatio(Math.tan(fovx) / Math.tan(fovy)).setZNear(znear).setZFar(zfar),
  );
}

/**
 * Bytes the primitives selected from mesh references may hold in all: 16 × the loaded meshes' own
 * bytes, + 1 MiB. Every distinct reference is its own copy of the vertices it draws, so 2,000 parts
 * drawing a 65,535-vertex mesh from 97 start vertices made a 2 MB `.cmp` an 89 MB GLB (from 2,000
 * starts, 1.8 GB); retail references select disjoint ranges, about once the mesh.
 */
class SelectionBudget {
  readonly #limit: number;
  readonly #kind: string;
  #used = 0;
  constructor(model: FreelancerModel, private readonly file: string | undefined) {
    let meshBytes = 0;
    for (const mesh of model.meshes.values()) meshBytes += mesh.vertices.byteLength + mesh.indices.byteLength;
    this.#limit = 16 * meshBytes + (1 << 20);
    this.#kind = model.kind;
  }

  /** Counts a reference's primitives; past the budget, a DecodeError at the reference. */
  add(prims: readonly SelectedPrimitive[], ref: VMeshRef): void {
    for (const p of prims) {
      this.#used += p.positions.byteLength + p.indices.byteLength + (p.normals?.byteLength ?? 0) +
        (p.colors?.byteLength ?? 0) + p.uvs.reduce((sum, uv) => sum + uv.byteLength, 0);
    }
    if (this.#used <= this.#limit) return;
    throw new DecodeError({
      format: this.#kind,
      at: { offset: ref.offset },
      expected: `mesh references selecting at most ${this.#limit} bytes of geometry in all ` +
        "(16 × the meshes' own bytes + 1 MiB; each distinct reference is a copy of what it draws)",
      found: `${this.#used} bytes up to this VMeshRef`,
      file: this.file,
    });
  }
}
