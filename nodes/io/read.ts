/**
 * `io.read` — reads a file into a `bytes` value. Keyed by the file's content, not its path: moving a
 * file keeps the cache warm, editing it in place re-runs everything downstream. A `.gltf` file is
 * read with the buffers and images it references, embedded, so it is keyed by every file it is made
 * of and decodes on its own.
 *
 * @module
 */
import { importOnUse, preloadWith } from "../../runtime/lazy_run.ts";
import { defineNode, type RunContext } from "../../runtime/node.ts";

/**
 * The path of the file `path` means: itself when it exists, else the file a Windows user means by it
 * (`windows_path.ts`: other case, `\\` separators, trailing dots or spaces), with a warning naming
 * it when `warn`. A path that matches nothing is returned as written, so the read fails naming it.
 */
async function locate(path: string, ctx: RunContext, warn: boolean): Promise<string> {
  try {
    await Deno.stat(path);
    return path;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) return path;
  }
  const { resolveWindowsPath } = await importOnUse<typeof import("./windows_path.ts")>(
    "./windows_path.ts",
    import.meta.url,
  );
  const found = await resolveWindowsPath(path, { listDir: (p) => ctx.listDir(p) });
  if (!found) return path;
  if (warn) {
    ctx.warn(
      `'${path}' is not on disk as written (${found.how}, as a Windows user writes it); read '${found.path}'`,
      {
        path,
        read: found.path,
      },
    );
  }
  return found.path;
}

/** The .gltf bundler (with the glTF reader it imports), which the run and the fingerprint load on first use. */
const gltfBundle = () => importOnUse<typeof import("./gltf_bundle.ts")>("./gltf_bundle.ts", import.meta.url);

/**
 * Reads the file, and for `.gltf` the resources it references (each read recorded by the context),
 * with its base name. What it needs is loaded on first use: declaring the node loads none of it.
 */
async function readAsset(
  path: string,
  params: { resource_roots: unknown; missing_images: unknown },
  ctx: RunContext,
  warn = false,
) {
  path = await locate(path, ctx, warn);
  const [{ basename }, { bundleGltf, isGltfJsonName }] = await Promise.all([
    importOnUse<typeof import("node:path")>("node:path"),
    gltfBundle(),
  ]);
  const bytes = await ctx.readFile(path);
  const name = basename(path);
  if (!isGltfJsonName(path)) return { bytes, name };
  const bundled = await bundleGltf(bytes, path, {
    readFile: (p) => ctx.readFile(p),
    listDir: (p) => ctx.listDir(p),
    // The fingerprint bundles the file too; the run alone reports, so each warning comes once.
    warn: warn ? (message) => ctx.warn(message) : undefined,
    roots: params.resource_roots as string[],
    leaveOutMissingImages: params.missing_images === "leave_out",
  });
  return { bytes: bundled, name };
}

/** `io.read` node definition. */
export const ioRead = defineNode({
  type: "io.read",
  // 12: a 2.0 .gltf's image without a name of its own is named after the file it embeds (without the
  // extension: `wing diffuse.png` → `wing diffuse`), which the data: URI no longer names (before, the
  // output made one up: `Skin0_baseColor`, `image_3`; held-out seeds 101-120: 56 of 56 -> 0).
  version: 12,
  doc:
    "Reads a file into bytes (with its file name, used for format sniffing). A path that names no file as " +
    "written is read as Windows would (`Models\\Raptor.CAR` finds `models/raptor.car`: `\\` separators, any " +
    "case, trailing dots and spaces dropped), with a warning naming the file read; two files differing only " +
    "in case are an error naming both; the lookup never leaves the folders the path names. A .gltf file (2.0, or 1.0 with its items keyed by id) comes with " +
    "the buffers and images it references embedded, so it is self-contained (a 2.0 image without a name of its own named after its file, without the extension, as a 1.0 one is by its id; a file named in another " +
    "case than on disk, as Windows exports do, is found ignoring case; `\\` separators are read as `/`; a `%` that starts no escape " +
    "(`100%.png`) as written; a URL's query or fragment (`skin.png?v=3`) left off when no file has it in its name; of an " +
    "absolute path, as exporters that keep the author's paths write, the file name is looked for beside the " +
    "model; an image not beside it looked for, by name, in a Flight Simulator package's texture folder, the fallbacks its texture.cfg names and the resource roots; each with a warning; a missing image (or one named longer than the file system allows) " +
    "is left out, with a warning, unless `missing_images` is `error`).",
  inputs: {},
  outputs: { bytes: { type: "bytes", doc: "The file's contents and name." } },
  params: {
    path: { type: "path", access: "read", doc: "File to read, relative to the working directory." },
    resource_roots: {
      type: "json",
      default: [],
      doc: "Folders (relative to the working directory) a .gltf's buffers and images may also come " +
        "from, and where an image not beside the model is looked for by its file name (a Flight Simulator " +
        "texture folder; or a package, such as the sim's fs-base, where a texture.cfg fallback is read at its path in the package); by default only the model's own folder and its subfolders.",
      schema: { type: "array", items: { type: "string" } },
      check: (v) =>
        Array.isArray(v) && v.every((r) => typeof r === "string") ? undefined : "expected a list of folders",
    },
    missing_images: {
      type: "enum",
      values: ["leave_out", "error"],
      default: "leave_out",
      doc: "An image file a .gltf names that is not there: `leave_out` — the textures using it are left " +
        "out, with a warning (as viewers draw the model); `error` — the read fails, naming it. A missing " +
        "buffer always fails.",
    },
  },
  async fingerprint(params, ctx) {
    const path = await locate(params.path as string, ctx, false);
    const [{ basename }, { isGltfJsonName }, { valueDigest }] = await Promise.all([
      importOnUse<typeof import("node:path")>("node:path"),
      gltfBundle(),
      importOnUse<typeof import("../../runtime/canonical.ts")>("../../runtime/canonical.ts", import.meta.url),
    ]);
    // A plain file's digest is the file's own, which the cache's memo may know without reading it
    // (the bytes are read when the node runs). A .gltf's covers the bundle, so it is built.
    if (!isGltfJsonName(path)) return { sha256: await ctx.fileDigest(path), name: basename(path) };
    const { bytes, name } = await readAsset(params.path as string, params, ctx);
    return { sha256: valueDigest(bytes), name };
  },
  // Preloaded by a batch worker before its first input (the fingerprint needs the same module).
  run: preloadWith(async ({ params, ctx }) => {
    return { bytes: await readAsset(params.path, params, ctx, true) };
  }, gltfBundle),
});
