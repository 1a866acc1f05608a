/**
 * Temp folders for tests, removed when their test module ends (its `unload` event), whether its
 * tests passed or failed, so a test run leaves nothing behind in the system's temp folder.
 *
 * @module
 */

const made: string[] = [];

/** `Deno.makeTempDir`, with the folder removed when the test module ends. */
export async function tempDir(options?: Deno.MakeTempOptions): Promise<string> {
  const dir = await Deno.makeTempDir(options);
  if (!made.length) globalThis.addEventListener("unload", removeAll, { once: true });
  made.push(dir);
  return dir;
}

function removeAll(): void {
  for (const dir of made.splice(0)) {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch { /* a test removed it already */ }
  }
}
