/**
 * Pruning of a cache directory (see `DiskCache.prune`): least recently used actions first, each with
 * the blobs no remaining action refers to, and the file digest memo's rows that can never be trusted
 * again.
 *
 * @module
 */
import { join } from "node:path";
import { ActionStore } from "./action_store.ts";
import type { ActionRecord } from "./disk.ts";
import { fileStat, trustedDigest } from "./file_digests.ts";

/** What a prune removed. */
export interface PruneResult {
  /** Action records. */
  readonly actions: number;
  /** Blobs under `cas/`. */
  readonly blobs: number;
  /**
   * Remembered digests the memo can no longer trust: of files gone or changed since, or hashed too
   * soon after a change (racily clean) to be trusted ever.
   */
  readonly files: number;
  /** Bytes of the records and blobs removed. */
  readonly bytes: number;
}

/**
 * Shrinks the cache in `dir` below `maxBytes`; the remembered digests of files gone or changed go
 * whatever the cache's size.
 */
export async function pruneCache(dir: string, maxBytes: number): Promise<PruneResult> {
  await removeOldLayout(dir);
  const removed = { actions: 0, blobs: 0, files: 0, bytes: 0 };
  const store = await ActionStore.open(dir, false);
  if (store) removed.files = await forgetStaleDigests(store);
  const actions = store?.byLastUse() ?? [];
  const blobs = new Map((await listFiles(join(dir, "cas"))).map((blob) => [blob.name, blob]));
  // Counted as `DiskCache.stats` counts them, the memo's rows included.
  let total = actions.reduce((sum, a) => sum + a.size, store?.fileTotals().bytes ?? 0);
  for (const blob of blobs.values()) total += blob.size;
  if (total <= maxBytes) return removed;
  const outputsOf = (record: string): string[] => {
    try {
      return Object.values((JSON.parse(record) as ActionRecord).outputs).map((out) => out.digest);
    } catch {
      return []; // unreadable records hold nothing
    }
  };
  const users = new Map<string, number>();
  for (const action of actions) {
    for (const digest of outputsOf(action.record)) users.set(digest, (users.get(digest) ?? 0) + 1);
  }
  const removeBlob = async (blob: FileInfo) => {
    await Deno.remove(blob.path).catch(() => {});
    removed.blobs++;
    removed.bytes += blob.size;
    total -= blob.size;
  };
  const settled = Date.now() - 60_000;
  for (const blob of blobs.values()) {
    if (!users.has(blob.name) && blob.mtime < settled) await removeBlob(blob);
  }
  for (const action of actions) {
    if (total <= maxBytes) break;
    store!.delete(action.key);
    removed.actions++;
    removed.bytes += action.size;
    total -= action.size;
    for (const digest of outputsOf(action.record)) {
      const left = users.get(digest)! - 1;
      users.set(digest, left);
      const blob = blobs.get(digest);
      if (left === 0 && blob) await removeBlob(blob);
    }
  }
  store?.shrink();
  return removed;
}

/** Forgets the remembered digests the memo's rule can no longer trust; returns how many. */
async function forgetStaleDigests(store: ActionStore): Promise<number> {
  const stale: string[] = [];
  for (const file of store.listFiles()) {
    const info = await Deno.stat(file.path).catch(() => undefined);
    const now = info && fileStat(info);
    if (!now || !trustedDigest(file, now)) stale.push(file.path);
  }
  store.deleteFiles(stale);
  return stale.length;
}

/** Removes what the layout before `actions.sqlite` kept (a file per action, a counter file), never read now. */
export async function removeOldLayout(dir: string): Promise<void> {
  await Deno.remove(join(dir, "ac"), { recursive: true }).catch(() => {});
  await Deno.remove(join(dir, "stored-since-prune")).catch(() => {});
}

/** A blob file. */
export interface FileInfo {
  path: string;
  name: string;
  size: number;
  mtime: number;
}

/** The blobs under a `cas/` folder (its two-character shards), temp files left out. */
export async function listFiles(dir: string): Promise<FileInfo[]> {
  const out: FileInfo[] = [];
  let shards: Deno.DirEntry[];
  try {
    shards = await Array.fromAsync(Deno.readDir(dir));
  } catch {
    return out;
  }
  for (const shard of shards) {
    if (!shard.isDirectory) continue;
    for await (const entry of Deno.readDir(join(dir, shard.name))) {
      if (!entry.isFile || entry.name.includes(".tmp-")) continue;
      const path = join(dir, shard.name, entry.name);
      const info = await Deno.stat(path).catch(() => undefined);
      if (info) out.push({ path, name: entry.name, size: info.size, mtime: info.mtime?.getTime() ?? 0 });
    }
  }
  return out;
}
