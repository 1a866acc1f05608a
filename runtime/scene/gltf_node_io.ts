/**
 * The one glTF-Transform NodeIO partgraph reads and writes glTF with, and the extensions it reads.
 *
 * @module
 */
import { NodeIO } from "@gltf-transform/core";
import { COMPRESSION } from "./decompressors.ts";

let io: Promise<NodeIO> | undefined;

/**
 * The shared NodeIO with all extensions registered (network access off). The extensions are loaded
 * on first use: parsing them is a sixth of the CLI's start-up, and commands like `nodes` never read
 * or write glTF.
 */
export function gltfIO(): Promise<NodeIO> {
  io ??= Promise.all([import("@gltf-transform/extensions"), import("./webp_fallback.ts")]).then((
    [{ ALL_EXTENSIONS }, { FALLBACK_EXTENSIONS }],
  ) =>
    // WebP, AVIF and KTX2 extensions keeping a texture's PNG or JPEG fallback, which glTF-Transform's drop.
    new NodeIO().registerExtensions(
      // deno-lint-ignore no-explicit-any
      ALL_EXTENSIONS.map((extension) => FALLBACK_EXTENSIONS.get(extension as any) ?? extension),
    ).setLogger({
      // Quiet: warnings worth a user's attention are reported by nodes through ctx.warn.
      debug() {},
      info() {},
      warn() {},
      error() {},
    } as unknown as never)
  );
  return io;
}

let readable: Promise<ReadonlySet<string>> | undefined;

/**
 * The glTF extensions {@link readJsonDocument} reads: glTF-Transform's, and
 * `KHR_meshopt_compression` (read as its `EXT_` twin). A file may use others, but their data is lost.
 */
export function readableExtensions(): Promise<ReadonlySet<string>> {
  readable ??= import("@gltf-transform/extensions").then(({ ALL_EXTENSIONS }) =>
    new Set([...ALL_EXTENSIONS.map((e) => e.EXTENSION_NAME), ...COMPRESSION])
  );
  return readable;
}
