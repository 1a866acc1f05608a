/**
 * Where an image a `.gltf` names by file name lives when it is not beside the model. Microsoft
 * Flight Simulator packages keep a model's textures apart from it — `SimObjects/…/model/x.gltf`
 * beside `…/texture/` (or, per livery, `model.AAL` beside `texture.AAL`) — and name them in the
 * glTF by file name alone, or by the author's absolute path, sometimes without the `.DDS` the
 * packaged file carries (`X_ALBD.PNG` for `X_ALBD.PNG.DDS`); a livery may fall back on another
 * aircraft's folder (`texture.cfg`), which the user names as a resource root. Blender and three.js
 * find none of them, and the model comes out grey.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";

/** The folders an image missing beside the model is looked for in, in order, and a note when a choice was unclear. */
export interface TextureFolders {
  readonly folders: readonly string[];
  /** Set when the model sits in an MSFS `model` folder beside several texture folders, none of them its own. */
  readonly ambiguous?: string;
}

/**
 * The texture folders for a model in `folder`: its own MSFS texture folder when `folder` is named
 * `model` or `model.<suffix>` (`texture.<suffix>` first, then `texture`, matched ignoring case), then
 * the resource roots. Several texture folders and none the model's own is ambiguous: none is taken.
 */
export async function textureFolders(
  folder: string,
  roots: readonly string[],
  listDir: (path: string) => Promise<string[]>,
): Promise<TextureFolders> {
  const own = /^model(\.(.+))?$/i.exec(basename(folder));
  if (!own) return { folders: roots };
  const parent = dirname(folder);
  const siblings = (await listDir(parent)).filter((name) => /^texture(\..+)?$/i.test(name));
  const named = (wanted: string) => siblings.find((name) => name.toLowerCase() === wanted.toLowerCase());
  const chosen = [own[2] && named(`texture.${own[2]}`), named("texture")].filter((name) =>
    name !== undefined
  );
  if (chosen.length || siblings.length <= 1) {
    const folders = (chosen.length ? chosen : siblings).map((name) => join(parent, name as string));
    return { folders: [...folders, ...roots] };
  }
  return { folders: roots, ambiguous: siblings.join(", ") };
}

/**
 * The path of image file `name` in the first of `folders` that holds it — by its name ignoring case,
 * or that name with `.dds` after it — or undefined.
 */
export async function findInFolders(
  name: string,
  folders: readonly string[],
  listDir: (path: string) => Promise<string[]>,
): Promise<string | undefined> {
  const wanted = [name.toLowerCase(), `${name.toLowerCase()}.dds`];
  for (const folder of folders) {
    const names = await listDir(folder);
    for (const candidate of wanted) {
      const found = names.find((n) => n.toLowerCase() === candidate);
      if (found) return join(folder, found);
    }
  }
  return undefined;
}
