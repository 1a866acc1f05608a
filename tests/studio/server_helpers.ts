/**
 * The studio server on a temp folder, for the tests that talk to it over HTTP without a browser.
 *
 * @module
 */
import { join } from "node:path";
import { startStudio } from "../../studio/server.ts";
import { sharedPage } from "./page_bundle.ts";

/**
 * Runs `fn` against a studio whose only root is `dir` (outputs in `dir/out`, the cache in `dir/cache`
 * unless `cacheDir` says otherwise), closing it afterwards.
 */
export async function withStudioOn(
  dir: string,
  fn: (url: string) => Promise<void>,
  cacheDir: string | false = join(dir, "cache"),
): Promise<void> {
  const page = (await sharedPage()).files;
  const studio = await startStudio({ port: 0, roots: [dir], outDir: join(dir, "out"), cacheDir, page });
  try {
    await fn(studio.url);
  } finally {
    await studio.close();
  }
}
