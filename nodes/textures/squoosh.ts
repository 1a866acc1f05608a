/**
 * Loading a Squoosh-built WebAssembly codec (`@jsquash/*`): its module handed the compiled
 * WebAssembly, so it neither fetches nor looks for its file.
 *
 * @module
 */
import { fileURLToPath } from "node:url";

/** A `@jsquash` module: an `init` taking the compiled WebAssembly, and its codec function. */
interface SquooshModule {
  readonly init: unknown;
  readonly default: unknown;
}

/**
 * The codec function of `codec` (an imported `@jsquash/…/decode.js` or `encode.js`), initialised
 * with the WebAssembly at `wasm` (a specifier inside the package).
 *
 * @example
 * ```ts ignore
 * const decode = await loadSquooshCodec<Decode>(import("@jsquash/webp/decode.js"), "@jsquash/webp/codec/dec/webp_dec.wasm");
 * ```
 */
export async function loadSquooshCodec<T>(codec: Promise<SquooshModule>, wasm: string): Promise<T> {
  const module = await codec;
  const compiled = await WebAssembly.compile(await Deno.readFile(fileURLToPath(import.meta.resolve(wasm))));
  await (module.init as (compiled: WebAssembly.Module) => Promise<void>)(compiled);
  return module.default as T;
}
