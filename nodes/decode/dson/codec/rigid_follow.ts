/**
 * Rigid followers (a node `extra` of type `studio/node/rigid_follow`: a piercing, a button, a prop
 * Daz keeps on a mesh's surface through three reference vertices) are not made to follow: glTF has no
 * such constraint, and the node stays under its parent as written. Posing or morphing the figure in
 * Daz carries it along the surface; here it stays behind. So each such node is said in a warning,
 * not left silent (Diffeomorphic makes it a vertex parent; zDsonImport lists it unsupported).
 *
 * @module
 */
import type { ContentLibrary } from "./content.ts";
import type { DsonEntry, DsonFile } from "./dson_file.ts";

/** The `extra` type Daz writes on a rigid follower. */
const RIGID_FOLLOW = "studio/node/rigid_follow";

/**
 * Warns once of the rigid followers among the decoded nodes' definitions and the main file's scene
 * instances, naming the first's JSON path and how many there are.
 *
 * @example
 * ```ts
 * warnRigidFollowers(definitions, main, library);
 * ```
 */
export function warnRigidFollowers(
  definitions: Iterable<DsonEntry>,
  main: DsonFile,
  library: ContentLibrary,
): void {
  const found: { file: DsonFile; path: string; name: string }[] = [];
  const look = (record: unknown, file: DsonFile, path: string) => {
    if (!record || typeof record !== "object") return;
    const { extra, id, name } = record as { extra?: unknown; id?: unknown; name?: unknown };
    if (!Array.isArray(extra)) return;
    const k = extra.findIndex((e) =>
      e && typeof e === "object" && (e as { type?: unknown }).type === RIGID_FOLLOW
    );
    if (k >= 0) found.push({ file, path: `${path}/extra/${k}`, name: String(name ?? id ?? "?") });
  };
  for (const entry of new Set(definitions)) look(entry.value, entry.file, entry.path);
  const scene = main.json.scene as { nodes?: unknown } | undefined;
  if (Array.isArray(scene?.nodes)) scene.nodes.forEach((node, i) => look(node, main, `/scene/nodes/${i}`));
  if (!found.length) return;
  const [first] = found;
  library.repaired(
    first.file,
    first.path,
    `${found.length} rigid follower(s) (the first '${first.name}') stay under their parents as written: ` +
      "Daz keeps them on a mesh's surface as it is posed or morphed, glTF has no such constraint, so a " +
      "posed or morphed figure leaves them behind",
  );
}
