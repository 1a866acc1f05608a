/**
 * The work of `demo.fighter` (declared in `fighter.ts`), loaded on the node's first run.
 *
 * @module
 */
import { Document, type Material, type Mesh } from "@gltf-transform/core";
import type { NodeRun } from "../../runtime/lazy_run.ts";
import { setSourceInfo } from "../../runtime/scene/source.ts";
import { SceneAccessors } from "../../runtime/scene/accessors.ts";
import { fighterLayout, type LayoutNode, type MaterialName, type ShapeSpec } from "./fighter_layout.ts";
import { withCreaseNormals } from "./crease_normals.ts";
import { buildFuselage } from "./fuselage.ts";
import { invert, type Matrix, trsMatrix } from "./layout_transforms.ts";
import type { MeshData } from "./mesh_builder.ts";
import { buildBox, buildCylinder, buildEllipsoid } from "./shapes.ts";
import { buildSlab } from "./slab.ts";
import { DEFAULT_FIGHTER_DETAIL, type demoFighter } from "./fighter.ts";

/** `demo.fighter`: see its declaration. */
export const run: NodeRun<typeof demoFighter> = ({ params }) => ({ scene: buildFighterScene(params.detail) });

/**
 * Builds the demo fighter document at a mesh density (`detail` 1–8).
 *
 * @example
 * ```ts
 * const doc = buildFighterScene(2);
 * doc.getRoot().listNodes().find((n) => n.getName() === "LeftAileron");
 * ```
 */
export function buildFighterScene(detail: number = DEFAULT_FIGHTER_DETAIL): Document {
  if (!Number.isInteger(detail) || detail < 1 || detail > 8) {
    throw new RangeError(`demo.fighter: detail must be an integer from 1 to 8, got ${detail}`);
  }
  const doc = new Document();
  const accessors = new SceneAccessors(doc, doc.createBuffer());
  const scene = doc.createScene("Fighter");
  doc.getRoot().setDefaultScene(scene);
  const materials = createMaterials(doc);
  const meshes = new Map<string, Mesh>();
  const nodes = new Map<string, ReturnType<Document["createNode"]>>();

  for (const spec of fighterLayout()) {
    const node = doc.createNode(spec.name)
      .setTranslation([...spec.trs.translation])
      .setRotation([...spec.trs.rotation])
      .setScale([...spec.trs.scale]);
    if (spec.extras) node.setExtras({ ...spec.extras });
    if (spec.shape) {
      const key = spec.meshKey ?? spec.name;
      let mesh = meshes.get(key);
      if (!mesh) {
        mesh = createMesh(
          accessors,
          key,
          localGeometry(spec, detail),
          materials[spec.material ?? "structure"],
        );
        meshes.set(key, mesh);
      }
      node.setMesh(mesh);
    }
    if (spec.parent === null) scene.addChild(node);
    else nodes.get(spec.parent)!.addChild(node);
    nodes.set(spec.name, node);
  }
  setSourceInfo(doc, { format: "demo", forward: "-Z", up: "+Y", metresPerUnit: 1 });
  return doc;
}

/** The node's shape moved from its parent's space into the node's local space. */
function localGeometry(
  spec: LayoutNode,
  detail: number,
): { positions: Float32Array<ArrayBuffer>; indices: Uint32Array<ArrayBuffer> } {
  const design = buildShape(spec.shape!, detail);
  const toLocal: Matrix = invert(trsMatrix(spec.trs));
  const p = design.positions;
  const positions = new Float32Array(p.length);
  for (let i = 0; i < p.length; i += 3) {
    const x = p[i], y = p[i + 1], z = p[i + 2];
    positions[i] = toLocal[0] * x + toLocal[4] * y + toLocal[8] * z + toLocal[12];
    positions[i + 1] = toLocal[1] * x + toLocal[5] * y + toLocal[9] * z + toLocal[13];
    positions[i + 2] = toLocal[2] * x + toLocal[6] * y + toLocal[10] * z + toLocal[14];
  }
  return { positions, indices: design.indices };
}

function buildShape(shape: ShapeSpec, detail: number): MeshData {
  switch (shape.type) {
    case "slab":
      return buildSlab(shape.slab, { spanStations: 3 * detail + 2, chordDivisions: 2 * detail + 2 });
    case "box":
      return buildBox(shape.min, shape.max);
    case "cylinder":
      return buildCylinder(shape.a, shape.b, shape.radius, 4 * detail + 4);
    case "ellipsoid":
      return buildEllipsoid(shape.centre, shape.radii, 4 * detail + 2, 8 * detail + 8);
    case "fuselage":
      return buildFuselage(detail + 1, 8 * detail + 8);
  }
}

function createMesh(
  accessors: SceneAccessors,
  name: string,
  local: { positions: Float32Array<ArrayBuffer>; indices: Uint32Array<ArrayBuffer> },
  material: Material,
): Mesh {
  const geometry = withCreaseNormals(local.positions, local.indices);
  const vertexCount = geometry.positions.length / 3;
  const indices = vertexCount <= 0xffff ? Uint16Array.from(geometry.indices) : geometry.indices;
  const primitive = accessors.doc.createPrimitive()
    .setAttribute("POSITION", accessors.create("VEC3", geometry.positions, `${name}.position`))
    .setAttribute("NORMAL", accessors.create("VEC3", geometry.normals, `${name}.normal`))
    .setIndices(accessors.create("SCALAR", indices, `${name}.indices`))
    .setMaterial(material);
  return accessors.doc.createMesh(name).addPrimitive(primitive);
}

function createMaterials(doc: Document): Record<MaterialName, Material> {
  return {
    structure: doc.createMaterial("Structure").setBaseColorFactor([0.55, 0.58, 0.62, 1])
      .setMetallicFactor(0.3).setRoughnessFactor(0.6),
    panel: doc.createMaterial("ControlSurface").setBaseColorFactor([0.42, 0.47, 0.55, 1])
      .setMetallicFactor(0.3).setRoughnessFactor(0.55),
    canopy: doc.createMaterial("Canopy").setBaseColorFactor([0.2, 0.3, 0.35, 0.45])
      .setAlphaMode("BLEND").setMetallicFactor(0).setRoughnessFactor(0.1),
    detail: doc.createMaterial("Detail").setBaseColorFactor([0.2, 0.2, 0.22, 1])
      .setMetallicFactor(0.5).setRoughnessFactor(0.5),
  };
}
