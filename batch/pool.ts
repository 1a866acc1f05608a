/**
 * The members of a batch's pool, each running one job at a time: Deno workers in this process (the
 * default), or worker processes, which cost a Deno start-up each but give every member a heap and a
 * crash of its own, so an input that exhausts memory or takes Deno down fails alone.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { fromLine, type JobMessage, MESSAGE_PREFIX, toLine, type WorkerMessage } from "./messages.ts";
import { Member, MemberDied, type MemberHandlers, type SpawnMember } from "./member.ts";
import { WorkerMember } from "./worker_member.ts";

export { MemberDied } from "./member.ts";
export type { MemberHandlers, PoolMember, SpawnMember } from "./member.ts";

/** Worker processes' options: heap limit, and what each may read, write and reach. */
export interface ProcessPoolOptions {
  /** V8 heap limit of each process in MB (default: V8's own). */
  readonly heapMb?: number;
  /** Paths to read and write and hosts to reach, granted to a process only where this one has them. */
  readonly read: readonly string[];
  readonly write: readonly string[];
  readonly net: readonly string[];
  /**
   * The batch handles interruption itself (it was given a signal): each process then runs in a
   * session of its own, out of reach of the SIGINT, SIGTERM and SIGHUP a terminal or a job runner
   * sends the batch's process group, so that an input running is given up by the batch (which kills
   * its process), not failed by a process that died first. Without it they are in the batch's group
   * and end on those signals with it.
   */
  readonly interruptible?: boolean;
}

/** The module a worker process runs. */
const WORKER_ENTRY = new URL("./process_worker.ts", import.meta.url);

/** Members that are Deno workers of this process. */
export const spawnWorker: SpawnMember = (handlers) => new WorkerMember(handlers);

/**
 * Members that are Deno processes of their own, or why there can be none here: this process may not
 * start Deno, or partgraph is not loaded from local files a process could load.
 */
export function processSpawner(options: ProcessPoolOptions): SpawnMember | string {
  const unavailable = whyNoWorkerProcesses();
  if (unavailable) return unavailable;
  const config = fileURLToPath(new URL("../deno.json", import.meta.url));
  const args = [
    "run",
    "--no-prompt",
    "--quiet",
    ...(isFile(config) ? [`--config=${config}`] : []),
    ...permissionFlags(options),
    ...(options.heapMb ? [`--v8-flags=--max-old-space-size=${options.heapMb}`] : []),
    fileURLToPath(WORKER_ENTRY),
  ];
  const detached = options.interruptible === true;
  return (handlers) => new ProcessMember(args, { heapMb: options.heapMb, detached }, handlers);
}

/**
 * Why this process cannot start worker processes (it may not run Deno itself, or partgraph is not
 * loaded from local files a process could load), or undefined when it can.
 */
export function whyNoWorkerProcesses(): string | undefined {
  if (Deno.permissions.querySync({ name: "run", command: Deno.execPath() }).state !== "granted") {
    return `worker processes need permission to run Deno itself (--allow-run=${Deno.execPath()})`;
  }
  if (WORKER_ENTRY.protocol !== "file:") {
    return `worker processes need partgraph as local files, not ${WORKER_ENTRY.origin}`;
  }
  return undefined;
}

/**
 * A worker process's permissions: each that this process has without limits, the same; read, write
 * and net limited to what the batch needs, and only where this process has them, so a worker process
 * can never do what the batch itself could not.
 */
function permissionFlags(options: ProcessPoolOptions): string[] {
  const flags: string[] = ["read", "write", "net", "env", "sys", "run", "ffi"]
    .filter((name) => granted({ name } as Deno.PermissionDescriptor))
    .map((name) => `--allow-${name}`);
  const limited = (name: "read" | "write" | "net", items: readonly string[]) => {
    if (flags.includes(`--allow-${name}`)) return;
    const mine = [...new Set(items)].filter((item) =>
      granted(name === "net" ? { name, host: item } : { name, path: item })
    );
    // A comma inside a path is written twice, as Deno's flag lists expect.
    if (mine.length) flags.push(`--allow-${name}=${mine.map((i) => i.replaceAll(",", ",,")).join(",")}`);
  };
  limited("read", options.read);
  limited("write", options.write);
  limited("net", options.net);
  return flags;
}

/**
 * Whether `path` is a file. Not `node:fs`'s `existsSync`: importing `node:fs` cost the batch's main
 * thread 50–70 ms (at load 13) of loading Node's stream modules before its first worker could start.
 */
function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

const granted = (descriptor: Deno.PermissionDescriptor) =>
  Deno.permissions.querySync(descriptor).state === "granted";

/** How much of a worker process's stderr is kept for the message of its death. */
const STDERR_KEPT = 64 * 1024;

/** How long a worker process told to stop when idle may take to end before it is killed. */
const STOP_GRACE_MS = 5_000;

/**
 * How long a worker process's output is read on after it ended: a process a node started may hold
 * the pipes open (a `sleep 3600` given them); the batch waited for it before.
 */
const PIPE_GRACE_MS = 1_000;

/**
 * A Deno process running `process_worker.ts`. Its stderr is held until the job in hand ends, then
 * passed on: when the process dies instead, that text (V8's out-of-memory report, say) is what its
 * job's failure is made from, rather than noise on the user's terminal.
 */
class ProcessMember extends Member {
  readonly #child: Deno.ChildProcess;
  readonly #stdin: WritableStreamDefaultWriter<Uint8Array>;
  readonly #ended: Promise<void>;
  readonly #encoder = new TextEncoder();
  #stderr = "";
  /** Why the process ended, once it has. */
  #ending?: MemberDied;

  readonly #heapMb: number | undefined;
  readonly #detached: boolean;
  /** Stops reading its output (see {@link PIPE_GRACE_MS}). */
  readonly #stopReading = new AbortController();

  /** `detached`: in a session of its own (see {@link ProcessPoolOptions.interruptible}). */
  constructor(
    args: readonly string[],
    { heapMb, detached }: { heapMb: number | undefined; detached: boolean },
    handlers: MemberHandlers,
  ) {
    super(handlers);
    this.#heapMb = heapMb;
    this.#detached = detached;
    this.#child = new Deno.Command(Deno.execPath(), {
      args: [...args],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" }, // its errors become messages: plain text
      detached,
    }).spawn();
    this.#stdin = this.#child.stdin.getWriter();
    const read = Promise.all([this.#readStdout(), this.#readStderr()]);
    read.catch(() => {}); // awaited below, once the process has ended
    this.#ended = this.#child.status.then(async (status) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([read, new Promise((done) => timer = setTimeout(done, PIPE_GRACE_MS))]);
      clearTimeout(timer);
      this.#stopReading.abort();
      await read;
      this.#ending = this.#death(status);
      // A job in hand fails with what the process said last, which is then not passed on.
      if (this.fail(this.#ending)) this.#stderr = "";
    });
  }

  protected send(message: JobMessage): void {
    // A process that ended before its first job (it could not start, say) fails the job at once.
    if (this.#ending !== undefined) return void this.fail(this.#ending);
    this.#stdin.write(this.#encoder.encode(toLine(message) + "\n")).catch(() => {
      // The process is gone; its end fails the job.
    });
  }

  protected override receive(data: WorkerMessage): void {
    if (data.kind === "done") this.#passOnStderr();
    super.receive(data);
  }

  get ended(): boolean {
    return this.#ending !== undefined;
  }

  async stop(now = false): Promise<void> {
    this.forget();
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (now) this.#kill();
    else {
      await this.#stdin.close().catch(() => {}); // the process ends once its job loop has no more input
      timer = setTimeout(() => this.#kill(), STOP_GRACE_MS);
    }
    await this.#ended;
    clearTimeout(timer);
    this.#passOnStderr();
  }

  #kill(): void {
    if (this.#detached) {
      try {
        // In a session of its own, the process leads its group: what its nodes started goes with it.
        Deno.kill(-this.#child.pid, "SIGKILL");
      } catch {
        // Without --allow-run (the CLI's own permissions) the process alone is killed, below.
      }
    }
    try {
      this.#child.kill("SIGKILL");
    } catch {
      // It has ended already.
    }
  }

  /**
   * Reads the process's stdout line by line: its messages, and what its nodes print. A reader and one
   * decoder, not two piped transform streams: each stage cost the batch's main thread promise and
   * queue work per chunk, a few lines per input.
   */
  async #readStdout(): Promise<void> {
    const signal = this.#stopReading.signal;
    const reader = this.#child.stdout.getReader();
    const cancel = () => reader.cancel().catch(() => {});
    signal.addEventListener("abort", cancel, { once: true });
    const decoder = new TextDecoder();
    let rest = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (signal.aborted) return; // given up on (see PIPE_GRACE_MS): what is left is not read
        const lines = (rest + (done ? decoder.decode() : decoder.decode(value, { stream: true }))).split(
          "\n",
        );
        rest = lines.pop()!;
        for (const line of lines) this.#line(line);
        if (done) break;
      }
      if (rest) this.#line(rest); // a last line without its end of line
    } catch (error) {
      if (!signal.aborted) throw error;
    } finally {
      signal.removeEventListener("abort", cancel);
    }
  }

  /** One line of stdout: a message, or a node's own output. */
  #line(line: string): void {
    if (line.startsWith(MESSAGE_PREFIX)) this.receive(fromLine(line.slice(MESSAGE_PREFIX.length)));
    else this.handlers.onOutput("stdout", line); // a node's own output
  }

  /**
   * Reads the process's stderr, keeping its last {@link STDERR_KEPT} characters. A reader and a decoder
   * as for stdout, not a `TextDecoderStream`: making the first one loaded Deno's encoding streams on
   * the batch's main thread (2-11 ms), and each chunk went through a transform stage.
   */
  async #readStderr(): Promise<void> {
    const signal = this.#stopReading.signal;
    const reader = this.#child.stderr.getReader();
    const cancel = () => reader.cancel().catch(() => {});
    signal.addEventListener("abort", cancel, { once: true });
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (signal.aborted) return;
        const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
        if (text) this.#stderr = (this.#stderr + text).slice(-STDERR_KEPT);
        if (done) break;
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    } finally {
      signal.removeEventListener("abort", cancel);
    }
  }

  #passOnStderr(): void {
    if (this.#stderr) this.handlers.onOutput("stderr", this.#stderr.replace(/\n$/, ""));
    this.#stderr = "";
  }

  /** Why the process ended, from its status and the last of its stderr. */
  #death(status: Deno.CommandStatus): MemberDied {
    if (
      /Fatal JavaScript out of memory|JavaScript heap out of memory|Reached heap limit/.test(this.#stderr)
    ) {
      const limit = this.#heapMb ? `its heap limit of ${this.#heapMb} MB` : "V8's heap limit";
      return new MemberDied(
        `the worker process ran out of memory (${limit}; --max-heap MB sets another)`,
        true,
      );
    }
    // Deno's report of an uncaught error starts "error: …" and goes on with the stack.
    const lines = this.#stderr.split("\n").map((line) => line.trim()).filter(Boolean);
    const last = lines.findLast((line) => line.startsWith("error: ")) ?? lines.at(-1);
    const how = status.signal
      ? `was killed by ${status.signal}${
        status.signal === "SIGKILL" ? " (by the system when memory ran out?)" : ""
      }`
      : `exited with code ${status.code}`;
    return new MemberDied(`the worker process ${how}${last ? `: ${last}` : ""}`);
  }
}
