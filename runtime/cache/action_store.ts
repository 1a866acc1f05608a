/**
 * The action records of a disk cache, in one SQLite database (`actions.sqlite`, Deno's built-in
 * `node:sqlite`) instead of one file per node: a lookup that misses is an index probe, not a failed
 * `open` (whose error object alone costs more than the probe), and a run's records are written a
 * batch to a transaction, not each to a temp file that is locked and renamed. SQLite's write-ahead
 * log makes each batch atomic and crash-safe (a torn write is rolled back, never served) and lets
 * concurrent runs — other processes, batch workers — read while one writes.
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { join } from "node:path";
import type { RememberedDigest } from "./file_digests.ts";

/** The database's file name inside the cache folder (SQLite adds `-wal` and `-shm` beside it). */
export const ACTIONS_FILE = "actions.sqlite";

/** A hit refreshes a record's last use (for pruning) only when it is older than this. */
const TOUCH_EVERY_MS = 60 * 60 * 1000;

/** Records wait for their batch's transaction until there are this many… */
const BATCH_RECORDS = 256;
/** …or the oldest has waited this long (checked when the next arrives; a run's end writes the rest). */
const BATCH_MS = 100;

/** How long a write waits for another run's write to finish before it gives up. */
const BUSY_TIMEOUT_MS = 10_000;

/** A file digest row's fixed-size columns (six integers), for the size {@link ActionStore.fileTotals} reports. */
const FILE_ROW_BYTES = 6 * 8;

/** SQLite's words for a file that is not a database, or a damaged one. */
const DAMAGED = /file is not a database|database disk image is malformed/;

/** One action's row, as pruning sees it. */
export interface ActionRow {
  /** The action key's 32 bytes. */
  readonly key: Uint8Array;
  /** The record's JSON. */
  readonly record: string;
  /** UTF-8 length of the record, in bytes. */
  readonly size: number;
  /** Last use, in milliseconds since the epoch. */
  readonly used: number;
}

/** Open stores by database path: one connection per file and process, shared by every run in it. */
const open = new Map<string, ActionStore>();

/** The action records of one cache folder. */
export class ActionStore {
  readonly #path: string;
  readonly #sqlite: typeof import("node:sqlite");
  #db!: DatabaseSync;
  #ino: number | null = null;
  #get!: StatementSync;
  #put!: StatementSync;
  #touch!: StatementSync;
  #delete!: StatementSync;
  #getFile!: StatementSync;
  #putFile!: StatementSync;
  /** Why the database was found damaged and replaced, until someone takes the message. */
  #damage: string | undefined;
  /** Records stored and not yet written: key, record, size, time of use. */
  #pending: [Uint8Array, string, number, number][] = [];
  /** File digests remembered and not yet written (they go with the records' next batch). */
  #pendingFiles: [string, number, number, number, number, number, string, number][] = [];

  private constructor(path: string, sqlite: typeof import("node:sqlite")) {
    this.#path = path;
    this.#sqlite = sqlite;
    try {
      this.#connect();
    } catch (error) {
      this.#startAfresh(error);
    }
  }

  /**
   * The store of a cache folder, creating the folder and database when `create` is set; undefined
   * when there is none and `create` is not set. Throws when it cannot be opened (a read-only folder).
   */
  static async open(dir: string, create = true): Promise<ActionStore | undefined> {
    const path = join(dir, ACTIONS_FILE);
    const known = open.get(path);
    // The same file as when it was opened (not removed or replaced by another process since).
    if (known && known.#ino === inode(path)) return known;
    // Else the old connection is left to the runs still using it (on the file they started with).
    open.delete(path);
    if (!create && inode(path) === null) return undefined;
    // Asked first: at a terminal Deno would stop a script to prompt for it, and a cache is optional
    // (a lookup that throws is a miss, a store a "result not cached" warning).
    if (Deno.permissions.querySync({ name: "write", path: dir }).state !== "granted") {
      throw new Deno.errors.NotCapable(
        `no write access to the cache folder '${dir}': grant --allow-write=${dir}, or use no disk cache`,
      );
    }
    Deno.mkdirSync(dir, { recursive: true });
    const store = new ActionStore(path, await import("node:sqlite"));
    open.set(path, store);
    return store;
  }

  #connect(): void {
    const created = inode(this.#path) === null;
    const db = new this.#sqlite.DatabaseSync(this.#path);
    try {
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      // Only a new database takes it (and asking an existing one costs milliseconds).
      if (created) db.exec("PRAGMA auto_vacuum = INCREMENTAL");
      db.exec("PRAGMA journal_mode = WAL"); // kept in the file from then on
      // With the log, NORMAL loses no committed write when a process dies (only on power loss).
      db.exec("PRAGMA synchronous = NORMAL");
      // Rows in insertion order (a run's records share pages) and a separate index of the keys
      // (their 32 bytes, not 64 hex digits), whose random order would otherwise scatter every batch
      // over the whole file.
      db.exec(
        "CREATE TABLE IF NOT EXISTS actions (key BLOB NOT NULL UNIQUE, record TEXT NOT NULL, " +
          "size INTEGER NOT NULL, used INTEGER NOT NULL)",
      );
      // Bytes stored since the last prune (see DiskCache.noteStored).
      db.exec("CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)");
      // The file digest memo (see file_digests.ts): a file's digest by absolute path, with its stat.
      db.exec(
        "CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, dev INTEGER NOT NULL, " +
          "ino INTEGER NOT NULL, size INTEGER NOT NULL, mtime_ms INTEGER NOT NULL, " +
          "ctime_ms INTEGER NOT NULL, sha256 TEXT NOT NULL, hashed_at_ms INTEGER NOT NULL) WITHOUT ROWID",
      );
      this.#get = db.prepare("SELECT record, used FROM actions WHERE key = ?");
      this.#put = db.prepare("INSERT OR REPLACE INTO actions (key, record, size, used) VALUES (?, ?, ?, ?)");
      this.#touch = db.prepare("UPDATE actions SET used = ? WHERE key = ?");
      this.#delete = db.prepare("DELETE FROM actions WHERE key = ?");
      this.#getFile = db.prepare(
        "SELECT dev, ino, size, mtime_ms AS mtimeMs, ctime_ms AS ctimeMs, sha256, " +
          "hashed_at_ms AS hashedAtMs FROM files WHERE path = ?",
      );
      this.#putFile = db.prepare("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    } catch (error) {
      db.close();
      throw error;
    }
    this.#db = db;
    this.#ino = inode(this.#path);
  }

  /**
   * Runs `work` against the database. A database found damaged (not SQLite, or a malformed page) is
   * removed and started afresh — its records are only a cache — and `work` is tried once more.
   */
  #guard<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      this.#startAfresh(error);
      return work();
    }
  }

  /** Rethrows `error` unless it says the database is damaged; then replaces the file with a new one. */
  #startAfresh(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (!DAMAGED.test(message)) throw error;
    this.#damage = `cache: damaged record database ${ACTIONS_FILE} discarded (${message}); ` +
      "its results are recomputed";
    try {
      if (this.#db) this.#db.close(); // none yet when the damage was found while connecting
    } catch { /* closing a damaged file may fail too */ }
    for (const suffix of ["", "-wal", "-shm"]) {
      try {
        Deno.removeSync(this.#path + suffix);
      } catch { /* not there */ }
    }
    this.#connect();
  }

  /** The message of a damaged database replaced since the last call, once. */
  takeDamage(): string | undefined {
    const message = this.#damage;
    this.#damage = undefined;
    return message;
  }

  /** The record JSON of an action (its key in hex), or undefined; a hit marks it used (to the hour). */
  get(key: string): string | undefined {
    const id = Uint8Array.fromHex(key);
    return this.#guard(() => {
      const row = this.#get.get(id) as { record: string; used: number } | undefined;
      if (!row) return undefined;
      const now = Date.now();
      if (now - row.used > TOUCH_EVERY_MS) this.#touch.run(now, id);
      return row.record;
    });
  }

  /**
   * Stores (or replaces) an action's record. It is written with the batch it joins, atomically, when
   * the batch is full or old enough, or by {@link flush}; a lookup sees it only then.
   */
  put(key: string, record: string, size: number): void {
    const now = Date.now();
    this.#pending.push([Uint8Array.fromHex(key), record, size, now]);
    this.#flushWhenDue(now);
  }

  /** The digest remembered for a file (its absolute path), with the stat it had; undefined when none. */
  getFile(path: string): RememberedDigest | undefined {
    return this.#guard(() => this.#getFile.get(path) as RememberedDigest | undefined);
  }

  /** Remembers a file's digest; it is written with the records' batch (see {@link put}). */
  putFile(path: string, file: RememberedDigest): void {
    const { dev, ino, size, mtimeMs, ctimeMs, sha256, hashedAtMs } = file;
    this.#pendingFiles.push([path, dev, ino, size, mtimeMs, ctimeMs, sha256, hashedAtMs]);
    this.#flushWhenDue(Date.now());
  }

  #flushWhenDue(now: number): void {
    const oldest = this.#pending[0]?.[3] ?? now;
    if (this.#pending.length + this.#pendingFiles.length >= BATCH_RECORDS || now - oldest >= BATCH_MS) {
      this.flush();
    }
  }

  /**
   * Writes the records and file digests stored so far, in one transaction. Throws (they are
   * dropped) when it cannot.
   */
  flush(): void {
    const batch = this.#pending, files = this.#pendingFiles;
    if (!batch.length && !files.length) return;
    this.#pending = [];
    this.#pendingFiles = [];
    this.#guard(() =>
      this.#transaction(() => {
        for (const row of batch) this.#put.run(...row);
        for (const row of files) this.#putFile.run(...row);
      })
    );
  }

  /** Forgets an action (its key in hex, or its bytes). */
  delete(key: string | Uint8Array): void {
    this.#guard(() => this.#delete.run(typeof key === "string" ? Uint8Array.fromHex(key) : key));
  }

  /**
   * Adds to the bytes stored since the counter was last reset and says whether they reach `limit`
   * (then resets it), in one transaction, so concurrent runs count each other's bytes.
   */
  addStored(bytes: number, limit: number): boolean {
    return this.#guard(() =>
      this.#transaction(() => {
        const row = this.#db.prepare("SELECT value FROM counters WHERE name = 'stored'").get();
        const total = Number(row?.value ?? 0) + bytes;
        this.#db.prepare("INSERT OR REPLACE INTO counters VALUES ('stored', ?)").run(
          total >= limit ? 0 : total,
        );
        return total >= limit;
      })
    );
  }

  /** Runs `work` in a write transaction: all of it is written, or none. */
  #transaction<T>(work: () => T): T {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      const result = work();
      this.#db.exec("COMMIT");
      return result;
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
  }

  /** Number of actions and their records' total size in bytes. */
  totals(): { actions: number; bytes: number } {
    return this.#guard(() =>
      this.#db.prepare("SELECT count(*) AS actions, total(size) AS bytes FROM actions").get() as {
        actions: number;
        bytes: number;
      }
    );
  }

  /** How many file digests are remembered, and about how many bytes their rows take. */
  fileTotals(): { files: number; bytes: number } {
    return this.#guard(() =>
      this.#db.prepare(
        `SELECT count(*) AS files, total(length(path) + length(sha256) + ${FILE_ROW_BYTES}) AS bytes FROM files`,
      ).get() as { files: number; bytes: number }
    );
  }

  /** Every remembered file digest with its path, for pruning. */
  listFiles(): (RememberedDigest & { path: string })[] {
    return this.#guard(() =>
      this.#db.prepare(
        "SELECT path, dev, ino, size, mtime_ms AS mtimeMs, ctime_ms AS ctimeMs, sha256, " +
          "hashed_at_ms AS hashedAtMs FROM files ORDER BY path",
      ).all() as unknown as (RememberedDigest & { path: string })[]
    );
  }

  /** Forgets the remembered digests of these files. */
  deleteFiles(paths: readonly string[]): void {
    if (!paths.length) return;
    this.#guard(() => {
      const remove = this.#db.prepare("DELETE FROM files WHERE path = ?");
      this.#transaction(() => paths.forEach((path) => remove.run(path)));
    });
  }

  /** Every action, least recently used first (ties by key), for pruning. */
  byLastUse(): ActionRow[] {
    return this.#guard(() =>
      this.#db.prepare("SELECT key, record, size, used FROM actions ORDER BY used, key")
        .all() as unknown as ActionRow[]
    );
  }

  /** Forgets every action and every remembered file digest. */
  deleteAll(): void {
    this.#guard(() => this.#db.exec("DELETE FROM actions; DELETE FROM files"));
  }

  /** Gives the pages of forgotten records back to the file system. */
  shrink(): void {
    this.#guard(() => this.#db.exec("PRAGMA incremental_vacuum"));
  }
}

/** A file's inode number, or null when it does not exist. */
function inode(path: string): number | null {
  try {
    return Deno.statSync(path).ino;
  } catch {
    return null;
  }
}
