/**
 * Atomic file writes: data goes to a temp file beside the target, then is renamed over it, so no
 * reader ever sees a partial file and a failure leaves the previous file in place. Temp files a
 * killed run left behind are removed the next time a run writes into their folder, and writes into
 * an output directory never pass through a symlink (which could lead outside it).
 *
 * @module
 */
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from "node:path";

let counter = 0;
const madeDirs = new Set<string>();

/** Files up to this size are written with synchronous calls: per-op async overhead dominates them. */
const SYNC_LIMIT = 64 * 1024;

/** Suffix of temp files, `.<pid>-<n>-<random>.tmp-partgraph`. */
const TEMP_SUFFIX = ".tmp-partgraph";

/**
 * Writes `bytes` to `path` atomically, creating parent folders. The temp file is locked while it
 * exists, so a later run can tell a killed writer's leftover (unlocked) from a live one's.
 *
 * @example
 * ```ts
 * import { atomicWrite } from "./fs.ts";
 *
 * await atomicWrite("out/hello.txt", new TextEncoder().encode("hello\n"));
 * ```
 */
export async function atomicWrite(path: string, bytes: Uint8Array): Promise<void> {
  const dir = dirname(path);
  if (!madeDirs.has(dir)) {
    // Synchronous, as the small writes below: an async op costs several times the call itself.
    Deno.mkdirSync(dir, { recursive: true });
    removeOrphanTemps(dir);
    madeDirs.add(dir);
  }
  // Unique per process and call, so concurrent writers never share a temp file.
  const temp = join(dir, `.${Deno.pid}-${counter++}-${crypto.randomUUID().slice(0, 8)}${TEMP_SUFFIX}`);
  let file: Deno.FsFile | undefined;
  try {
    file = Deno.openSync(temp, { write: true, createNew: true });
    file.lockSync(true);
    if (bytes.byteLength <= SYNC_LIMIT) {
      writeAllSync(file, bytes);
      Deno.renameSync(temp, path);
    } else {
      for (let at = 0; at < bytes.byteLength;) at += await file.write(bytes.subarray(at));
      await Deno.rename(temp, path);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) madeDirs.delete(dir); // the folder was removed under us
    await Deno.remove(temp).catch(() => {});
    throw error;
  } finally {
    file?.close();
  }
}

/**
 * Writes all of `bytes` to a file or a standard stream (one `writeSync` may write only part).
 *
 * @example
 * ```ts
 * writeAllSync(Deno.stderr, new TextEncoder().encode("done\n"));
 * ```
 */
export function writeAllSync(target: { writeSync(bytes: Uint8Array): number }, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.byteLength;) at += target.writeSync(bytes.subarray(at));
}

/** A buffer for `size` bytes of `path`, or an error that says the file does not fit in memory. */
function allocate(path: string, size: number): Uint8Array {
  try {
    return new Uint8Array(size);
  } catch (error) {
    // V8 says "Array buffer allocation failed" or "Invalid typed array length", naming neither file nor size.
    throw new RangeError(`'${path}' holds ${size} bytes, more than this process can hold in memory`, {
      cause: error,
    });
  }
}

/**
 * Why a path that was not found may exist all the same: its name holds bytes that are not UTF-8 (a
 * Latin-1 or CP1251 name from an old game's disc, unpacked on Linux). Deno gives such a name to
 * JavaScript with each bad byte as `\uFFFD` and cannot open it by that spelling. Undefined for any
 * other path.
 *
 * @example
 * ```ts
 * import { notUtf8Hint } from "./fs.ts";
 *
 * notUtf8Hint("ships/sch\uFFFDtz.cmp"); // "its name is not UTF-8 …"
 * notUtf8Hint("ships/schütz.cmp"); // undefined
 * ```
 */
export function notUtf8Hint(path: string): string | undefined {
  if (!path.includes("\uFFFD")) return undefined;
  return "its name is not UTF-8 (each byte that is not shows as \uFFFD), and partgraph, as every Deno " +
    "program, opens only UTF-8 names: rename it (`convmv -f cp1252 -t utf-8 --notest <path>`, `-r` for a " +
    "whole tree; `cp1251` for Cyrillic)";
}

/** What {@link readWholeFile} reads at a time past the size the file had when opened. */
const GROWTH_CHUNK = 1 << 16;

/** Bytes per read when a caller takes each part as it arrives (see {@link readWholeFile}). */
const PIPELINED_CHUNK = 4 << 20;

/**
 * Reads a whole file, as `Deno.readFile` does but into one buffer of the size the file has when
 * opened: for a big model that is half the time (Deno.readFile's bytes take a second copy on their
 * way to JavaScript). A file that grows or shrinks while it is read is read to its end all the same.
 * A file found longer than `maxBytes` (a cache blob whose record says its size) is a RangeError before
 * anything that size is allocated.
 *
 * With `onRead`, the file is read in parts of a few MB and each is handed to it, in order, while the
 * next is being read: a caller that hashes the bytes does so as the disk (or the page cache's copy)
 * works, rather than after it. The parts together are the bytes returned.
 *
 * @example
 * ```ts
 * import { readWholeFile } from "./fs.ts";
 *
 * const bytes = await readWholeFile("deno.json");
 * let seen = 0;
 * await readWholeFile("deno.json", Infinity, (part) => seen += part.byteLength);
 * ```
 */
export async function readWholeFile(
  path: string,
  maxBytes = Infinity,
  onRead?: (part: Uint8Array) => void,
): Promise<Uint8Array> {
  using file = await Deno.open(path, { read: true }).catch((error) => {
    const hint = error instanceof Deno.errors.NotFound && notUtf8Hint(path);
    throw hint ? new Deno.errors.NotFound(`${error.message}: ${hint}`) : error;
  });
  const size = (await file.stat()).size;
  const tooLong = (found: number) => new RangeError(`'${path}' holds ${found} bytes, more than ${maxBytes}`);
  if (size > maxBytes) throw tooLong(size);
  const chunk = onRead ? PIPELINED_CHUNK : Infinity;
  let bytes = allocate(path, size);
  let at = 0;
  let next: Promise<number | null> | undefined; // a read already asked for, into bytes at `at`
  for (;;) {
    if (at > maxBytes) throw tooLong(at);
    if (at === bytes.byteLength) {
      // At the size it had (or a size stat cannot tell, as for a pipe): more only if it grew.
      const more = new Uint8Array(GROWTH_CHUNK);
      const read = await file.read(more);
      if (read === null) return bytes;
      const grown = allocate(path, Math.max(2 * bytes.byteLength, at + read));
      grown.set(bytes.subarray(0, at));
      grown.set(more.subarray(0, read), at);
      bytes = grown;
      onRead?.(bytes.subarray(at, at + read));
      at += read;
      continue;
    }
    const read = await (next ?? file.read(bytes.subarray(at, at + chunk)));
    next = undefined;
    if (read === null) return bytes.slice(0, at); // it shrank, or grew into a buffer made bigger
    const part = bytes.subarray(at, at + read);
    at += read;
    if (onRead) {
      if (at < bytes.byteLength) next = file.read(bytes.subarray(at, at + chunk));
      onRead(part);
    }
  }
}

/**
 * Resolves a path relative to an output directory for writing, or throws before anything is
 * written: the path must name a file strictly inside `root`, and no folder on the way (nor the
 * file) may be a symlink, so a link planted in the output directory cannot redirect a write.
 *
 * @example
 * ```ts
 * const target = await outputPath("/abs/out", "models/plane.glb"); // "/abs/out/models/plane.glb"
 * ```
 */
export function outputPath(root: string, path: string): Promise<string> {
  try {
    return Promise.resolve(checkedOutputPath(root, path));
  } catch (error) {
    return Promise.reject(error); // a path refused is a rejection, as it always was
  }
}

/** {@link outputPath}'s check, with synchronous calls (one of a few µs per write: see below). */
function checkedOutputPath(root: string, path: string): string {
  const target = resolve(root, path);
  const inside = relative(root, target);
  if (isAbsolute(path) || inside === "" || inside.startsWith("..") || isAbsolute(inside)) {
    throw new Error(`write path '${path}' must name a file inside the output directory`);
  }
  let at = root;
  for (const part of normalize(inside).split(sep)) {
    at = join(at, part);
    // Synchronous: the async op cost several times the call (its hand-off to another thread and the
    // wake-up back), paid for each file every batch input writes.
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(at);
    } catch {
      break; // the rest does not exist yet: it will be created as real folders
    }
    if (info.isSymlink) throw new Error(`write path '${path}' passes through the symlink '${at}'`);
  }
  return target;
}

/**
 * A temp file younger than this is never taken for an orphan: a writer in another thread or process
 * may have created it and not locked it yet (`openSync` and `lockSync` are two calls).
 */
const ORPHAN_MIN_AGE_MS = 60_000;

/**
 * Removes temp files in `dir` that no live writer holds: a writer keeps its temp file locked until
 * it is renamed, and the lock dies with the process, so an unlocked one that is not brand new is a
 * killed run's orphan.
 */
function removeOrphanTemps(dir: string): void {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.isFile || !entry.name.startsWith(".") || !entry.name.endsWith(TEMP_SUFFIX)) continue;
    const path = join(dir, entry.name);
    try {
      using file = Deno.openSync(path, { read: true });
      const modified = file.statSync().mtime?.getTime() ?? 0;
      if (Date.now() - modified < ORPHAN_MIN_AGE_MS) continue;
      if (file.tryLockSync(true)) Deno.removeSync(path);
    } catch { /* gone already, or not ours to remove */ }
  }
}
