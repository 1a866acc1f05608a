/**
 * The file digest memo's rule, as git's index, Bazel and ccache keep one: the SHA-256 of a file a
 * run hashed is remembered with the file's stat (device, inode, size, mtime, ctime) and the moment
 * it was hashed, so a later run that finds the same stat knows the digest without reading the file.
 *
 * A remembered digest is trusted only when the stat matches exactly and the file was not "racily
 * clean" (git's term) when it was hashed: its mtime and ctime were at least {@link RACY_MS} before
 * that moment. A change made after the hash then always shows in the stat — the new mtime or ctime
 * is later than the recorded ones, even on a file system with timestamps to the second — and
 * `ctime`, which no program can set, catches a change whose author put the old mtime back. A file
 * changed within the same tick as it was hashed is re-hashed until the memo has seen it settle.
 *
 * @module
 */

/** How long before its hash a file's mtime and ctime must lie for the digest to be trusted. */
export const RACY_MS = 2000;

/** What a file's stat must still say for its remembered digest to hold. */
export interface FileStat {
  /** Device the file is on. */
  readonly dev: number;
  /** Inode number: a file replaced by another (a rename over it) has a new one. */
  readonly ino: number;
  /** Size in bytes. */
  readonly size: number;
  /** Last modification, in milliseconds since the epoch. */
  readonly mtimeMs: number;
  /** Last status change (content, metadata, or a utime call), in milliseconds since the epoch. */
  readonly ctimeMs: number;
}

/** A remembered digest: the stat the file had when it was hashed, the digest, and when. */
export interface RememberedDigest extends FileStat {
  /** SHA-256 (hex) of the file's contents. */
  readonly sha256: string;
  /** When the hash started (before the stat was taken), in milliseconds since the epoch. */
  readonly hashedAtMs: number;
}

/**
 * The stat of a regular file as the memo compares it; undefined where the platform leaves out a
 * field the rule needs (inode, ctime), so such files are always hashed.
 *
 * @example
 * ```ts
 * import { fileStat } from "./file_digests.ts";
 *
 * const stat = fileStat(Deno.statSync(new URL(import.meta.url)));
 * console.log(stat?.size ?? "no memo on this platform");
 * ```
 */
export function fileStat(info: Deno.FileInfo): FileStat | undefined {
  if (!info.isFile || info.ino === null || !info.mtime || !info.ctime) return undefined;
  return {
    dev: info.dev,
    ino: info.ino,
    size: info.size,
    mtimeMs: info.mtime.getTime(),
    ctimeMs: info.ctime.getTime(),
  };
}

/**
 * The remembered digest when it may be trusted for a file whose stat is now `now`: same stat, and
 * mtime and ctime at least {@link RACY_MS} before the hash. Undefined otherwise (hash the file).
 *
 * @example
 * ```ts
 * import { trustedDigest } from "./file_digests.ts";
 *
 * const stat = { dev: 1, ino: 2, size: 3, mtimeMs: 1_000, ctimeMs: 1_000 };
 * const sha256 = "0".repeat(64);
 * console.log(trustedDigest({ ...stat, sha256, hashedAtMs: 5_000 }, stat)); // the digest
 * console.log(trustedDigest({ ...stat, sha256, hashedAtMs: 2_500 }, stat)); // undefined: racily clean
 * ```
 */
export function trustedDigest(remembered: RememberedDigest | undefined, now: FileStat): string | undefined {
  if (!remembered) return undefined;
  const { dev, ino, size, mtimeMs, ctimeMs, hashedAtMs } = remembered;
  const same = dev === now.dev && ino === now.ino && size === now.size && mtimeMs === now.mtimeMs &&
    ctimeMs === now.ctimeMs;
  const settled = mtimeMs <= hashedAtMs - RACY_MS && ctimeMs <= hashedAtMs - RACY_MS;
  return same && settled && /^[0-9a-f]{64}$/.test(remembered.sha256) ? remembered.sha256 : undefined;
}
