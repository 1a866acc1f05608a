/**
 * three.js's decoders the preview's loaders fetch: Binomial's Basis Universal transcoder for KTX2
 * textures and Google's Draco decoder (its glTF-only build), from the locked `three` package.
 * meshopt's decoder is bundled into the page (its WebAssembly is inline).
 *
 * They are served under a path that carries a digest of all four (`/decoders/<digest>/<name>`), kept
 * by the browser as they are (`immutable`): they were revalidated on every page load, though they
 * change only when `three` is upgraded — and then the digest, so the path, changes with them. The page
 * learns the path from index.html (`<meta name="decoders">`, filled in as it is served). The plain
 * `/decoders/<name>` is still served, revalidated by its ETag, for a page loaded before a restart.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { answerAsset, type CachedAsset, cachedAsset } from "./http_cache.ts";

/** Each decoder's name as its loader asks for it: the `three` module it is and its content type. */
const DECODERS: Record<string, [specifier: string, type: string]> = {
  "basis_transcoder.js": ["three/examples/jsm/libs/basis/basis_transcoder.js", "text/javascript"],
  "basis_transcoder.wasm": ["three/examples/jsm/libs/basis/basis_transcoder.wasm", "application/wasm"],
  "draco_wasm_wrapper.js": ["three/examples/jsm/libs/draco/gltf/draco_wasm_wrapper.js", "text/javascript"],
  "draco_decoder.wasm": ["three/examples/jsm/libs/draco/gltf/draco_decoder.wasm", "application/wasm"],
};

/** The decoders' bytes, read once per process: the locked `three` package does not change under it. */
let read: Promise<Record<string, Uint8Array<ArrayBuffer>>> | undefined;

function decoderBytes(): Promise<Record<string, Uint8Array<ArrayBuffer>>> {
  read ??= Promise.all(
    Object.entries(DECODERS).map(async ([name, [specifier]]) =>
      [name, await Deno.readFile(fileURLToPath(import.meta.resolve(specifier)))] as const
    ),
  ).then(Object.fromEntries);
  // A failed read is not kept, so the next request tries again.
  read.catch(() => (read = undefined));
  return read;
}

/** The decoders as served: by name (revalidated) and under their digest path (immutable). */
interface Served {
  /** `/decoders/<digest>/`, with its slash: what the page's loaders take as their path. */
  readonly path: string;
  readonly byName: Record<string, CachedAsset>;
  readonly kept: Record<string, CachedAsset>;
}

let served: Promise<Served> | undefined;

function servedDecoders(): Promise<Served> {
  served ??= decoderBytes().then((bytes) => {
    const byName: Record<string, CachedAsset> = {}, kept: Record<string, CachedAsset> = {};
    for (const [name, [, type]] of Object.entries(DECODERS)) {
      byName[name] = cachedAsset(bytes[name], type, "revalidate");
      kept[name] = cachedAsset(bytes[name], type, "immutable");
    }
    // The set's digest: the four ETags (each a digest and length of one file's bytes) in name order.
    const tags = Object.keys(DECODERS).sort().map((name) => byName[name].etag).join(",");
    const digest = cachedAsset(tags, "text/plain", "revalidate").etag.slice(1, 9);
    return { path: `/decoders/${digest}/`, byName, kept };
  });
  served.catch(() => (served = undefined));
  return served;
}

/** The path the preview's loaders fetch the decoders under: `/decoders/<digest>/`. */
export async function decoderPath(): Promise<string> {
  return (await servedDecoders()).path;
}

/**
 * The answer to a request for `pathname` under `/decoders/`: a decoder by its name (revalidated) or
 * under the current digest path (immutable); undefined for anything else (another digest, another
 * file), which the server answers 404.
 */
export async function answerDecoder(request: Request, pathname: string): Promise<Response | undefined> {
  const { path, byName, kept } = await servedDecoders();
  const name = pathname.startsWith(path) ? pathname.slice(path.length) : pathname.slice("/decoders/".length);
  const assets = pathname.startsWith(path) ? kept : byName;
  return Object.hasOwn(assets, name) ? answerAsset(request, assets[name]) : undefined;
}
