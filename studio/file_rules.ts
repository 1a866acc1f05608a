/**
 * Which files the page may read through `/api/file`, `/api/graph` and `/api/model`, beyond the
 * sandbox's "inside an allowed folder": never a hidden folder's (`.git`, `.partgraph-cache`) or
 * `node_modules`' files, and `/api/file` serves only what the studio shows — run outputs (inside
 * `--out`), model files a decoder reads with their companions (buffers, textures), and graph files.
 * A process on the loopback (or a page that got past the Host check) reads no `.git/config`,
 * `deno.json` or key file through it. Each refusal is HTTP 403 naming the rule.
 *
 * @module
 */
import { extname, relative } from "node:path";
import { type ApiContext, HttpError } from "./api_context.ts";

/**
 * Files a model references that the preview and a run's downloads need beside the models: glTF's
 * buffers and the image formats glTF, Freelancer, Carnivores and Daz files name.
 */
const COMPANIONS = ["bin", "png", "jpg", "jpeg", "webp", "ktx2", "dds", "tga", "bmp", "tif", "tiff"];

/**
 * The hidden folder (or `node_modules`) that holds `abs`, or the hidden file it is, if any: the
 * studio neither serves nor writes such files.
 *
 * @example
 * ```ts
 * hiddenPart(ctx, "/project/.git/config"); // ".git"
 * ```
 */
export function hiddenPart(ctx: ApiContext, abs: string): string | undefined {
  return ctx.sandbox.segments(abs).find((s) => s.startsWith(".") || s === "node_modules");
}

/** Refuses (HTTP 403) a file inside a hidden folder or `node_modules`, saying which; `what` names the API. */
export function refuseHidden(ctx: ApiContext, abs: string, what: string): void {
  const hidden = hiddenPart(ctx, abs);
  if (hidden !== undefined) {
    throw new HttpError(403, `${what} refused: '${ctx.sandbox.display(abs)}' is inside '${hidden}'`);
  }
}

/**
 * Refuses (HTTP 403) a file `/api/file` does not serve: anything hidden, and anything that is not a
 * run output (inside `--out`), a model file (an extension a registered decoder reads) or its
 * companion, or a graph file (`.json` holding a `"nodes"` object).
 */
export async function refuseUnservedFile(ctx: ApiContext, abs: string): Promise<void> {
  refuseHidden(ctx, abs, "/api/file");
  const rel = relative(ctx.outDir, abs);
  if (rel !== "" && !rel.startsWith("..") && !rel.startsWith("/")) return; // a run output
  const ext = extname(abs).slice(1).toLowerCase();
  const models = ctx.registry.decoders.flatMap((d) => d.extensions);
  if (models.includes(ext) || COMPANIONS.includes(ext)) return;
  if (ext === "json" && await isGraphFile(abs)) return;
  throw new HttpError(
    403,
    `/api/file refused: '${ctx.sandbox.display(abs)}' is not a file the studio shows ` +
      `(run outputs inside '${ctx.sandbox.display(ctx.outDir)}', model files .${
        [...new Set(models)].join(" .")
      }, their buffers and textures, and graph files)`,
  );
}

/**
 * True when the file at `abs` is JSON with a `"nodes"` object (a graph file, possibly a flawed one);
 * false when it is not, or cannot be read (the route then says why).
 */
export async function isGraphFile(abs: string): Promise<boolean> {
  const bytes = await Deno.readFile(abs).catch(() => undefined);
  return bytes !== undefined && isGraphBytes(bytes);
}

/** True when `bytes` are JSON with a `"nodes"` object: a graph file, which the studio may show and replace. */
export function isGraphBytes(bytes: Uint8Array): boolean {
  try {
    const json = JSON.parse(new TextDecoder().decode(bytes));
    return !!json && typeof json === "object" && !Array.isArray(json) && typeof json.nodes === "object" &&
      json.nodes !== null;
  } catch {
    return false;
  }
}
