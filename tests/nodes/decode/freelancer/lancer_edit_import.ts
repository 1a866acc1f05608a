/**
 * What LancerEdit's glTF importer (Librelancer `ContentEdit/Model/ImportedModel.cs`, `FromSimpleMesh`)
 * makes of a scene's node names, written out here so tests can read our output as LancerEdit reads it:
 *
 * - every node with a mesh is a LOD: `<name>$lod<d>` is LOD d of part `<name>`, any other name is LOD 0
 *   of a part of that name; a later node fills a slot an earlier one filled (children come after their
 *   parent, so a `$lod0` child replaces its parent's own mesh);
 * - the part tree: every node but a `$lod1`–`$lod9`, a hull or a hardpoint is a part, a `$lod0` one
 *   named without its suffix (so a `<part>$lod0` child is a second part of the parent's name);
 * - a part's LODs are its filled slots in order, empty ones dropped;
 * - a part's construct is its `construct` extra (none: `fix`), its origin and rotation the node's own
 *   local transform: nothing between two parts is composed, and `export_ignore` drops a whole subtree;
 * - more than one root part is an error ("More than one root model"), as is a root without a mesh.
 *
 * @module
 */
import type { Document, Node } from "@gltf-transform/core";

/** One part as LancerEdit imports it: its name and the triangle count of each LOD it keeps. */
export interface ImportedPart {
  readonly name: string;
  readonly lods: readonly number[];
  /** The part it hangs from (undefined for a root). */
  readonly parent?: string;
  /** Its construct kind, as LancerEdit reads it (`fix` when the node has none). */
  readonly construct: string;
  /** The construct's origin: the node's local translation. */
  readonly origin: readonly number[];
}

/** The error LancerEdit's importer stops with for `parts`, if any. */
export function lancerEditError(parts: readonly ImportedPart[]): string | undefined {
  const roots = parts.filter((p) => p.parent === undefined);
  if (roots.length > 1) return `More than one root model (${roots.length})`;
  if (roots.length === 0) return "Could not find root model";
  if (roots[0].lods.length === 0) return "Model root must be a mesh";
  return undefined;
}

/** The parts LancerEdit's importer builds from `doc`'s default scene, depth first. */
export function lancerEditImport(doc: Document): ImportedPart[] {
  const roots = doc.getRoot().getDefaultScene()?.listChildren() ?? [];
  const slots = new Map<string, (Node | undefined)[]>();
  const lodOf = (node: Node): { part: string; level: number } | undefined => {
    if (!node.getMesh() || isWire(node)) return undefined;
    const match = /^(.*)\$lod(\d)$/.exec(node.getName());
    return match ? { part: match[1], level: Number(match[2]) } : { part: node.getName(), level: 0 };
  };
  const collect = (node: Node) => {
    const lod = lodOf(node);
    if (lod) {
      const key = lod.part.toLowerCase();
      const list = slots.get(key) ?? [];
      list[lod.level] = node;
      slots.set(key, list);
    }
    node.listChildren().forEach(collect);
  };
  roots.forEach(collect);
  const parts: ImportedPart[] = [];
  const tree = (node: Node, parent?: string) => {
    const lod = lodOf(node);
    if (lod && lod.level !== 0) return;
    const extras = node.getExtras() as {
      hull?: unknown;
      hardpoint?: unknown;
      export_ignore?: unknown;
      construct?: unknown;
    };
    if ("export_ignore" in extras) return;
    if (extras.hull || node.getName().endsWith("$hull") || extras.hardpoint) return;
    if (isWire(node)) return;
    const name = node.getName().replace(/\$lod0$/i, "");
    const lods = (slots.get(name.toLowerCase()) ?? []).filter((n): n is Node => !!n).map(triangles);
    const construct = typeof extras.construct === "string" ? extras.construct.toLowerCase() : "fix";
    parts.push({ name, lods, parent, construct, origin: node.getTranslation() });
    node.listChildren().forEach((child) => tree(child, name));
  };
  roots.forEach((root) => tree(root));
  return parts;
}

/** A node drawing lines only (`<part>.vmeshwire`): LancerEdit's wireframe, not a part. */
function isWire(node: Node): boolean {
  const prims = node.getMesh()?.listPrimitives() ?? [];
  return prims.length > 0 && prims.every((p) => p.getMode() === 1);
}

function triangles(node: Node): number {
  let count = 0;
  for (const prim of node.getMesh()?.listPrimitives() ?? []) {
    count += (prim.getIndices()?.getCount() ?? 0) / 3;
  }
  return count;
}
