/**
 * Where a graph file went when it is gone from the path the page opened it at: renamed or moved by
 * git (`git mv`, a branch) or a file manager, its bytes unchanged. Save's refusal to write a deleted
 * file again (`save_file.ts`) names the files under the studio's folders with the very digest the page
 * opened, so the page can offer to save there instead of bringing the old path back; and, when no
 * file has those bytes (moved and edited since), the graph files that look like it — the same name, or
 * most of its nodes — which the page only names, to open and compare.
 *
 * @module
 */
import { basename } from "node:path";
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

/** A graph file that may be the one moved and edited since: where, why, and its bytes' digest. */
export interface LikelyMove {
  readonly path: string;
  /** Why it is named: "same name, 12 of 14 nodes alike". */
  readonly why: string;
  /** SHA-256 of its text as read, UTF-8 (its bytes' digest unless it has a BOM or bytes no UTF-8). */
  readonly digest: string;
}

/** Of the node ids two graphs have, the share they have alike (same id and type), 0 to 1. */
function alike(a: Record<string, unknown>, b: Record<string, unknown>): { same: number; of: number } {
  const type = (n: unknown) => (n && typeof n === "object" ? (n as { type?: unknown }).type : undefined);
  const ids = new Set([...Object.keys(a), ...Object.keys(b)]);
  let same = 0;
  for (const id of ids) if (id in a && id in b && type(a[id]) === type(b[id])) same++;
  return { same, of: ids.size };
}

/**
 * The graph files under the sandbox's roots that may be `gone` (absolute) moved and edited since, so
 * not found by its bytes: the same file name with at least a third of its nodes alike, or another
 * name with at least two thirds alike, compared with `graph` (the page's version). Best first, at
 * most {@link MOST}. Only named: the page asks before anything is written there.
 */
export async function likelyMoves(
  sandbox: Sandbox,
  graph: { nodes?: unknown },
  gone: string,
): Promise<LikelyMove[]> {
  const mine = graph.nodes && typeof graph.nodes === "object" ? graph.nodes as Record<string, unknown> : {};
  if (!Object.keys(mine).length) return [];
  const found: (LikelyMove & { score: number })[] = [];
  await walkJsonFiles(sandbox, (file, _folder, text) => {
    if (file === gone) return;
    let other: unknown;
    try {
      other = JSON.parse(text);
    } catch {
      return;
    }
    const nodes = (other as { nodes?: unknown } | null)?.nodes;
    if (!nodes || typeof nodes !== "object" || Array.isArray(nodes)) return;
    const { same, of } = alike(mine, nodes as Record<string, unknown>);
    const sameName = basename(file) === basename(gone);
    if (same / of < (sameName ? 1 / 3 : 2 / 3)) return;
    found.push({
      path: sandbox.display(file),
      why: `${sameName ? "same name, " : ""}${same} of ${of} nodes alike`,
      digest: sha256Hex(new TextEncoder().encode(text)),
      score: same / of + (sameName ? 1 : 0),
    });
  });
  found.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return found.slice(0, MOST).map(({ path, why, digest }) => ({ path, why, digest }));
}
