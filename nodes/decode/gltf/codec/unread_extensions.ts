/**
 * What decoding loses of an extension used but not required that glTF-Transform does not read: most
 * carry data (in `extensions` objects) that is left out of the scene. `GODOT_single_root` (Godot 4.2 on,
 * `GLTFDocument`'s default root node mode) carries none: it marks the file's one root node as the Godot
 * scene's own root, so Godot imports that node as the scene root instead of adding one above it. The mark
 * is not kept: it promises one scene whose one root, node 0, has no transform, and partgraph's output need
 * not keep that promise (a rig adds and moves nodes); the note says what a user sees for it. `MSFT_lod`
 * (Microsoft's glTF-Toolkit, Babylon.js, Windows 3D Viewer and Mixed Reality assets) links a node or
 * material to its lower levels of detail, nodes and materials outside every scene that viewers swap in at
 * a distance: the note names them, as the output keeps them only as unlinked nodes outside every scene, not drawn.
 *
 * @module
 */
import type { Json } from "./checker.ts";

/** The parts of a file's JSON the note reads. */
type Scenes = {
  readonly scenes?: unknown;
  readonly scene?: unknown;
  readonly nodes?: unknown;
  readonly materials?: unknown;
};

/**
 * The note for extension `name`, used but not read, of the file `json` (the source's own JSON), after the
 * file's name: what is lost of it.
 */
export function unreadExtensionNote(json: Scenes, name: string): string {
  if (name === "GODOT_single_root") {
    const root = singleRootName(json);
    const broken = brokenTerms(json);
    return `marks ${root} as the Godot scene's own root (GODOT_single_root, an extension that carries no ` +
      "data: every node is kept); the mark is not, as partgraph's output need not keep its terms " +
      `(one scene whose one root, node 0, has no transform), so Godot imports the output with an extra ` +
      `root node above ${root}` +
      (broken.length
        ? `; the file itself breaks those terms (${broken.join("; ")}): it is read as glTF draws it, ` +
          "every transform applied, which Godot honouring the mark may not do"
        : "");
  }
  if (name === "MSFT_lod") {
    const links = lodLinks(json);
    if (links.length) {
      return `links ${links.slice(0, 3).join("; ")}${
        links.length > 3 ? ` and ${links.length - 3} more` : ""
      } ` +
        "to lower levels of detail (MSFT_lod, which viewers such as Babylon.js swap in at a distance); " +
        "partgraph does not read the extension: the output draws the full detail at every distance, and " +
        "the lower levels stay in it unlinked, outside every scene: not drawn (a rig still hinges their surfaces)";
    }
  }
  return `uses extension '${name}', which partgraph does not read: its data is left out of the scene`;
}

/** Each node or material carrying MSFT_lod, with the lower levels it names: `node 'a' to 'b', 'c'`. */
function lodLinks(json: Scenes & { readonly materials?: unknown }): string[] {
  const list = (value: unknown): unknown[] => Array.isArray(value) ? value : [];
  const out: string[] = [];
  for (const [kind, items] of [["node", list(json.nodes)], ["material", list(json.materials)]] as const) {
    const label = (i: unknown) => {
      const item = typeof i === "number" ? items[i] as Json | undefined : undefined;
      return item && typeof item === "object" && typeof item.name === "string" && item.name
        ? `'${item.name}'`
        : `#${String(i)}`;
    };
    items.forEach((item, i) => {
      const lod = (item as Json | null)?.extensions as Json | undefined;
      const ids = list((lod?.MSFT_lod as Json | undefined)?.ids);
      if (ids.length) {
        out.push(
          `${kind} ${label(i)} to ${ids.slice(0, 4).map(label).join(", ")}${ids.length > 4 ? ", …" : ""}`,
        );
      }
    });
  }
  return out;
}

/** The single root node's name quoted (else its index), as the file's default scene lists it. */
function singleRootName(json: Scenes): string {
  const list = (value: unknown): unknown[] => Array.isArray(value) ? value : [];
  const scene = list(json.scenes)[typeof json.scene === "number" ? json.scene : 0] as Json | undefined;
  const index = list(scene?.nodes)[0];
  const node = typeof index === "number" ? list(json.nodes)[index] as Json | undefined : undefined;
  if (!node || typeof node !== "object") return "its root node";
  return typeof node.name === "string" && node.name ? `node '${node.name}'` : `node ${index}`;
}

/** Where `json` breaks GODOT_single_root's terms: one scene, one root that is node 0, without a transform. */
function brokenTerms(json: Scenes): string[] {
  const list = (value: unknown): unknown[] => Array.isArray(value) ? value : [];
  const scenes = list(json.scenes);
  const out: string[] = [];
  if (scenes.length !== 1) out.push(`${scenes.length} scenes`);
  const roots = list((scenes[typeof json.scene === "number" ? json.scene : 0] as Json | undefined)?.nodes);
  if (roots.length !== 1) out.push(`${roots.length} root nodes`);
  else if (roots[0] !== 0) out.push(`the root is node ${roots[0]}, not node 0`);
  const node = typeof roots[0] === "number" ? list(json.nodes)[roots[0]] as Json | undefined : undefined;
  if (node && typeof node === "object") {
    const moved = (["matrix", "translation", "rotation", "scale"] as const).filter((field) => {
      const value = node[field];
      if (!Array.isArray(value)) return false;
      const identity = field === "matrix"
        ? [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        : field === "rotation"
        ? [0, 0, 0, 1]
        : field === "scale"
        ? [1, 1, 1]
        : [0, 0, 0];
      return value.some((v, k) => v !== identity[k]);
    });
    if (moved.length) out.push(`the root carries a ${moved.join(", ")}`);
  }
  return out;
}
