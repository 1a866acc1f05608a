/**
 * A pool member that is a Deno worker of this process: cheap to start, sharing its running nodes
 * with the pool through memory, but unable to be stopped while it runs JavaScript that never yields.
 *
 * @module
 */
import type { JobMessage, PoolMessage, WorkerMessage } from "./messages.ts";
import { Member, MemberDied, type MemberHandlers } from "./member.ts";
import { RunningBoard } from "./running_board.ts";

/**
 * How long a Deno worker told to stop mid-job may take to answer before it is taken to be in
 * JavaScript that never yields. A worker waiting (on I/O, a timer, an await that never ends) answers
 * in milliseconds; the seconds are for a machine loaded many times over its cores.
 */
const ANSWER_MS = 3_000;

/** A Deno worker of this process. */
export class WorkerMember extends Member {
  readonly #worker = new Worker(new URL("./worker.ts", import.meta.url).href, { type: "module" });
  readonly #board = new RunningBoard();
  #ended = false;
  /** Called when the worker answers a ping. */
  #answered?: () => void;

  constructor(handlers: MemberHandlers) {
    super(handlers);
    this.#worker.onmessage = ({ data }: MessageEvent<WorkerMessage>) => {
      if (data.kind === "died") this.#died(data.message);
      else if (data.kind === "pong") this.#answered?.();
      else this.receive(data);
    };
    // What the worker could not report itself (an error in its own module).
    this.#worker.onerror = (event) => {
      event.preventDefault();
      this.#died(event.message);
    };
  }

  /** An uncaught error ends a Deno worker: a job sent after it would never be answered. */
  #died(message: string): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#answered?.(); // a worker that tells of its death yields: terminate() ends it
    this.#worker.terminate(); // it tells of its death and waits to be ended (worker.ts)
    this.fail(new MemberDied(`worker died: ${message}`));
  }

  get ended(): boolean {
    return this.#ended;
  }

  protected send(message: JobMessage): void {
    this.#worker.postMessage({ ...message, board: this.#board.buffer } satisfies JobMessage);
  }

  override running(): readonly string[] {
    return this.#board.ids();
  }

  stop(): Promise<void> {
    this.forget();
    this.#worker.terminate();
    return Promise.resolve();
  }

  /**
   * Asks the worker to answer before ending it: one that does not within {@link ANSWER_MS} runs
   * JavaScript that never yields, which `terminate()` leaves running (denoland/deno#35657) — a core
   * busy if it spins, and node_modules' lock held if it is stuck in a module's top level.
   */
  override async stopOverrun(): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answered = await new Promise<boolean>((resolve) => {
      this.#answered = () => resolve(true);
      timer = setTimeout(() => resolve(false), ANSWER_MS);
      this.#worker.postMessage({ ping: true } satisfies PoolMessage);
    });
    clearTimeout(timer);
    this.#answered = undefined;
    await this.stop();
    return !answered;
  }
}
