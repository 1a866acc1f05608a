/**
 * Where a graph file went when it is gone from the path the page opened it at: renamed or moved by
 * git (`git mv`, a branch) or a file manager, its bytes unchanged. Save's refusal to write a deleted
 * file again (`save_file.ts`) names the files under the studio's folders with the very digest the page
 * opened, so the page can offer to save there instead of bringing the old path back.
 *
 * @module
 */
import type { Sandbox } from "./paths.ts";
import { sha256Hex } from "../runtime/canonical.ts";
import { walkJsonFiles } from "./users.ts";

/** At most this many same-digest files are named (copies of one template may be many). */
const MOST = 5;

/**
 * The `.json` files under the sandbox's roots whose bytes have digest `digest` (as displayed, sorted,
 * at most {@link MOST}); `gone` (absolute) is left out.
 */
export async function sameDigestFiles(sandbox: Sandbox, digest: string, gone: string): Promise<string[]> {
  const found: string[] = [];
  const encoder = new TextEncoder();
  await walkJsonFiles(sandbox, async (file, _folder, text) => {
    if (file === gone) return;
    // The walk's text is the bytes decoded (a BOM kept, bytes that are no UTF-8 replaced): only a
    // file whose text encodes to the digest is read again as bytes to be sure, not every file twice.
    const could = sha256Hex(encoder.encode(text)) === digest;
    const bytes = could ? await Deno.readFile(file).catch(() => undefined) : undefined;
    if (bytes && sha256Hex(bytes) === digest) found.push(sandbox.display(file));
  });
  return found.sort().slice(0, MOST);
}
