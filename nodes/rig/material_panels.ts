/**
 * Control surfaces never separated from the part they hang on: one object whose mesh draws the wing
 * and its aileron as two primitives, told apart only by their materials (`Wing_L` drawing materials
 * `Metal` and `Aileron_L`). Low-poly modellers paint a surface with a material of its own before (or
 * instead of) cutting it loose, and exporters keep one mesh per object with a primitive per material.
 * Name search reads node names, so such a surface was never found, and nothing said so. Here each
 * primitive whose material names a surface (read as a node's name is: `Aileron_L`, `M_Elevator_R`,
 * `rudder_mat`) and whose corners lie clear of the rest of the mesh is moved into a mesh and a node of
 * its own, a child of the object at its origin (the
 * world geometry unchanged), named after the material — with the object's name after it where the
 * material names surfaces of several objects (`Aileron` on both wings: `Aileron_Wing_L`) or another
 * node has that name — and the search then finds it as any other. A warning names each, as a material
 * may be paint (a stripe named for the surface it lies on) rather than a surface.
 *
 * @module
 */
import type { Document, Material, Node, Primitive } from "@gltf-transform/core";
import type { RunContext } from "../../runtime/node.ts";
import { isPart } from "./part_extras.ts";
import { matchPanelName } from "./vocabulary.ts";

/** The corners `primitives` draw, as exact coordinates (a vertex split at a seam keeps its place). */
function corners(primitives: readonly Primitive[]): Set<string> {
  const out = new Set<string>(), v = [0, 0, 0];
  for (const primitive of primitives) {
    const position = primitive.getAttribute("POSITION");
    if (!position) continue;
    const indices = primitive.getIndices();
    const count = indices ? indices.getCount() : position.getCount();
    for (let i = 0; i < count; i++) {
      const at = indices ? indices.getScalar(i) : i;
      if (at >= position.getCount()) continue;
      position.getElement(at, v);
      out.add(`${v[0]},${v[1]},${v[2]}`);
    }
  }
  return out;
}

/** True when a corner `primitives` draw lies exactly on one `rest` draws (welded, or split at a seam). */
function sharesCorners(primitives: readonly Primitive[], rest: readonly Primitive[]): boolean {
  const own = corners(primitives);
  for (const corner of corners(rest)) if (own.has(corner)) return true;
  return false;
}

/** glTF's TRIANGLES mode: only a primitive of triangles is a surface. */
const TRIANGLES = 4;

/** One object's primitives of one surface material, to be drawn by a node of their own. */
interface Split {
  readonly node: Node;
  readonly material: Material;
  readonly primitives: Primitive[];
}

/**
 * Moves the primitives of objects whose materials name control surfaces into nodes of their own
 * (see the module's doc), warning for each object; returns the new nodes.
 *
 * A surface whose corners lie on the rest of the mesh's (welded to the wing, or paint on a skin: a
 * stripe named for the surface it lies on) is named in a warning and left whole: the mesh does not
 * say which it is. Left alone too: a material naming the kind the object's own name does (an aileron painted `Aileron`:
 * it is rigged whole), an object declaring a part, a mesh drawn by several nodes, skinned or instanced, or with morph targets (moving a primitive
 * would move it for every user, or off its weights), and a mesh drawing only surface materials that
 * all read as one kind (the object is that surface, whatever its name).
 */
export function separateMaterialPanels(scene: Document, ctx: RunContext): Node[] {
  const splits: Split[] = [];
  for (const node of scene.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh || mesh.listPrimitives().length < 2 || isPart(node) || node.getSkin()) continue;
    if (node.getExtension("EXT_mesh_gpu_instancing")) continue;
    // A surface painted with a material named for its own kind is that surface, drawn whole.
    const own = matchPanelName(node.getName())?.kind ?? matchPanelName(mesh.getName())?.kind;
    if (mesh.listParents().filter((p) => p.propertyType === "Node").length !== 1) continue;
    if (mesh.listPrimitives().some((p) => p.listTargets().length > 0)) continue;
    const byMaterial = new Map<Material, Primitive[]>();
    let others = 0;
    for (const primitive of mesh.listPrimitives()) {
      const material = primitive.getMaterial();
      const match = material && primitive.getMode() === TRIANGLES
        ? matchPanelName(material.getName())
        : undefined;
      // A weak hint (`Stab`) or a word of other scenes (`Volet`) is too little in a material's name.
      if (!material || !match || match.weak || match.contextual || match.kind === own) {
        others++;
        continue;
      }
      byMaterial.set(material, [...(byMaterial.get(material) ?? []), primitive]);
    }
    if (byMaterial.size === 0 || (others === 0 && byMaterial.size === 1 && !own)) continue;
    for (const [material, primitives] of byMaterial) {
      const rest = mesh.listPrimitives().filter((p) => !primitives.includes(p));
      if (!sharesCorners(primitives, rest)) {
        splits.push({ node, material, primitives });
        continue;
      }
      // Welded to the rest of the object: paint on its skin, or a surface never cut loose. The mesh
      // does not say which, so it is named and left whole.
      ctx.warn(
        `'${node.getName()}' draws material '${material.getName()}' (read as ${
          matchPanelName(material.getName())!.kind
        }) welded to the rest of its mesh: not rigged — if it is a surface, cut it loose and make it an ` +
          "object of its own (Blender: P › By Material, then separate its edges from the wing's)",
        { part: node.getName(), material: material.getName() },
      );
    }
  }
  if (splits.length === 0) return [];
  const taken = new Set(scene.getRoot().listNodes().map((n) => n.getName()));
  const uses = new Map<string, number>();
  for (const { material } of splits) uses.set(material.getName(), (uses.get(material.getName()) ?? 0) + 1);
  const made: Node[] = [];
  const byObject = new Map<Node, string[]>();
  for (const { node, material, primitives } of splits) {
    const word = material.getName();
    let name = uses.get(word)! > 1 || taken.has(word) ? `${word}_${node.getName()}` : word;
    for (let n = 1; taken.has(name); n++) name = `${word}_${node.getName()}.${String(n).padStart(3, "0")}`;
    taken.add(name);
    const own = scene.createMesh(name);
    for (const primitive of primitives) {
      node.getMesh()!.removePrimitive(primitive);
      own.addPrimitive(primitive);
    }
    const child = scene.createNode(name).setMesh(own);
    node.addChild(child);
    made.push(child);
    byObject.set(node, [...(byObject.get(node) ?? []), `'${name}'`]);
  }
  for (const [node, names] of byObject) {
    ctx.warn(
      `'${node.getName()}' drew ${names.join(", ")} as ${
        names.length === 1 ? "a primitive" : "primitives"
      } ` +
        "of its own mesh, told apart only by material: moved into nodes of their own (children of " +
        `'${node.getName()}') and rigged — separate them in the file (Blender: P › By Material) to keep ` +
        "it so, or rename the material if it is paint",
      { part: node.getName(), panels: names.map((n) => n.slice(1, -1)) },
    );
  }
  return made;
}
