/**
 * Which nodes a Deno worker's job is in, kept in memory the worker shares with the pool: the pool
 * names them when the job overruns its time limit or the worker dies, without the two messages per
 * node (running, then done) a job posted for it before. A message costs each side about 25 µs of
 * CPU with the wake-up; at 9 nodes an input that was 18 of a job's 21 messages, and with two jobs
 * the pool's share of it takes a core from the workers. A worker process, which shares no memory,
 * posts its running nodes once per node started (`running_posts.ts`).
 *
 * @module
 */
import type { RunEvent } from "../runtime/events.ts";

/** A node whose module is loading, as a failure names it: ``loading the module of node `x` (t)``. */
export const loadingText = (id: string, type: string): string =>
  `loading the module of node \`${id}\` (${type})`;

/** Room for the running nodes' ids and types as JSON; a longer list keeps the nodes that fit. */
const CAPACITY = 16 * 1024;

/** Header: a sequence number, odd while the worker writes, and the length of the JSON after it. */
const HEADER = 8;

/**
 * The running nodes of one worker's job, in a `SharedArrayBuffer`: the worker notes its node events
 * ({@link RunningBoard.note}), the pool reads them ({@link RunningBoard.ids}). A reader never waits:
 * a list being written as it reads is read again, and after a few tries taken as empty.
 *
 * @example
 * ```ts
 * const board = new RunningBoard(); // in the pool; `board.buffer` goes to the worker with each job
 * new RunningBoard(board.buffer).note({ event: "node", id: "rig", type: "rig.parts", state: "running" });
 * console.log(board.ids()); // ["node `rig` (rig.parts)"]
 * ```
 */
export class RunningBoard {
  /** The shared memory: post it to the worker, which makes its own board of it. */
  readonly buffer: SharedArrayBuffer;
  readonly #header: Int32Array;
  readonly #bytes: Uint8Array;
  readonly #running = new Map<string, string>();
  /** Nodes whose implementation modules are loading (a fresh worker, before its first job starts). */
  readonly #loading = new Map<string, string>();

  constructor(buffer: SharedArrayBuffer = new SharedArrayBuffer(HEADER + CAPACITY)) {
    this.buffer = buffer;
    this.#header = new Int32Array(buffer, 0, 2);
    this.#bytes = new Uint8Array(buffer, HEADER);
  }

  /** Starts a job: no node is running. */
  clear(): void {
    this.#running.clear();
    this.#loading.clear();
    this.#write();
  }

  /** Notes a node's module starting (`loaded` false) or ending loading (the worker's side). */
  loading(id: string, type: string, loaded: boolean): void {
    if (loaded) this.#loading.delete(id);
    else this.#loading.set(id, type);
    this.#write();
  }

  /** Takes one event of the job (the worker's side). */
  note(event: RunEvent): void {
    if (event.event !== "node") return;
    if (event.state === "running") this.#running.set(event.id, event.type);
    else if (!this.#running.delete(event.id)) return;
    this.#write();
  }

  /** The running nodes as a failure names them: `` node `rig` (rig.parts) `` (the pool's side). */
  ids(): string[] {
    for (let attempt = 0; attempt < 4; attempt++) {
      const before = Atomics.load(this.#header, 0);
      if (before % 2) continue; // being written
      const length = Atomics.load(this.#header, 1);
      const text = new TextDecoder().decode(this.#bytes.slice(0, length));
      if (Atomics.load(this.#header, 0) !== before) continue;
      try {
        const running = JSON.parse(text || "[]") as [string, string, 1?][];
        return running.map(([id, type, loading]) =>
          loading ? loadingText(id, type) : `node \`${id}\` (${type})`
        );
      } catch {
        return [];
      }
    }
    return [];
  }

  #write(): void {
    let entries: [string, string, 1?][] = [
      ...this.#running,
      ...[...this.#loading].map(([id, type]): [string, string, 1] => [id, type, 1]),
    ];
    let bytes = new TextEncoder().encode(JSON.stringify(entries));
    while (bytes.byteLength > CAPACITY) { // a graph running hundreds of nodes at once: the first that fit
      entries = entries.slice(0, Math.floor(entries.length / 2));
      bytes = new TextEncoder().encode(JSON.stringify(entries));
    }
    Atomics.add(this.#header, 0, 1);
    this.#bytes.set(bytes);
    Atomics.store(this.#header, 1, bytes.byteLength);
    Atomics.add(this.#header, 0, 1);
  }
}
