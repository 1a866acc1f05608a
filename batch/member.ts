/**
 * What a batch's pool holds: members that each run one job at a time (a Deno worker of this process
 * or a worker process), the job bookkeeping they share, and why a job fails when its member dies.
 *
 * @module
 */
import type { JobMessage, JobResult, JobSpec, OnStart, WorkerMessage } from "./messages.ts";
import { loadingText } from "./running_board.ts";

/** One member of the pool. */
export interface PoolMember {
  /**
   * Runs a job; rejects when the member dies during it. `onStart` is called with "loading" when a new
   * member is up and has its first job (it then loads the graph's code), with "started" when it starts
   * a job.
   */
  run(spec: JobSpec, onEvent: (event: unknown) => void, onStart?: OnStart): Promise<JobResult>;
  /** Stops the member, at once when `now` (in the middle of a job), else once it is idle. */
  stop(now?: boolean): Promise<void>;
  /**
   * Stops the member in the middle of a job that overran a limit (its start or the time limit per
   * input), and says whether it runs on: a Deno worker that does not answer then is in JavaScript
   * that never yields, which Deno's `terminate()` does not end (denoland/deno#35657). A worker
   * process is killed, and never runs on.
   */
  stopOverrun(): Promise<boolean>;
  /**
   * Whether the member has died between jobs (a node's timer threw after its input ended, say): it
   * can run no more jobs, and the pool replaces it without failing the next input.
   */
  readonly ended: boolean;
  /**
   * The nodes the job in hand is in (or whose modules it loads), as a failure names them, where the
   * member shares them without messages (a Deno worker's `RunningBoard`); a worker process tells the
   * modules it loads (a few messages, on its first job only) and the nodes it runs (a message per
   * node started, `running_posts.ts`).
   */
  running(): readonly string[];
}

/** Where a pool member passes on what is not a job's result. */
export interface MemberHandlers {
  /** A remote cache warning, with its kind. */
  readonly onWarning: (message: string, kind: string) => void;
  /** What a node printed (its console output), by stream. */
  readonly onOutput: (stream: "stdout" | "stderr", text: string) => void;
}

/** Makes a pool member. */
export type SpawnMember = (handlers: MemberHandlers) => PoolMember;

/** The job bookkeeping both kinds of member share: one job at a time, its messages matched by id. */
export abstract class Member implements PoolMember {
  #pending?: {
    id: number;
    resolve: (r: JobResult) => void;
    reject: (e: unknown) => void;
    onEvent: (e: unknown) => void;
    onStart?: OnStart;
  };
  #next = 0;
  /** The job in hand's nodes whose modules are loading, as a member without a board tells them. */
  readonly #loading = new Map<string, string>();
  /** The job in hand's running nodes, as a worker process last posted them. */
  #nodes: readonly [string, string][] = [];

  constructor(readonly handlers: MemberHandlers) {}

  /** Sends a job to the member. */
  protected abstract send(message: JobMessage): void;

  abstract stop(now?: boolean): Promise<void>;

  abstract readonly ended: boolean;

  /** Stopped at once: a member that can be killed never runs on. */
  async stopOverrun(): Promise<boolean> {
    await this.stop(true);
    return false;
  }

  /** The modules its job in hand is loading, and the nodes it runs (see `running_posts.ts`). */
  running(): readonly string[] {
    return [
      ...[...this.#loading].map(([node, type]) => loadingText(node, type)),
      ...this.#nodes.map(([node, type]) => `node \`${node}\` (${type})`),
    ];
  }

  run(spec: JobSpec, onEvent: (event: unknown) => void, onStart?: OnStart): Promise<JobResult> {
    this.#loading.clear();
    this.#nodes = [];
    return new Promise((resolve, reject) => {
      const id = this.#next++;
      this.#pending = { id, resolve, reject, onEvent, onStart };
      this.send({ id, spec });
    });
  }

  protected receive(data: WorkerMessage): void {
    if (data.kind === "warning") this.handlers.onWarning(data.message, data.warning);
    else if (data.kind === "output") this.handlers.onOutput(data.stream, data.text);
    else if (data.kind === "running" && data.id === this.#pending?.id) this.#nodes = data.nodes;
    else if (data.kind === "module" && data.id === this.#pending?.id) {
      if (data.loaded) this.#loading.delete(data.node);
      else this.#loading.set(data.node, data.type);
    } else if ((data.kind === "loading" || data.kind === "started") && data.id === this.#pending?.id) {
      this.#pending.onStart?.(data.kind);
    } else if (data.kind === "event" && data.id === this.#pending?.id) this.#pending.onEvent(data.event);
    else if (data.kind === "done" && data.id === this.#pending?.id) {
      const pending = this.#pending;
      this.#pending = undefined;
      pending.resolve(data.result as JobResult);
    }
  }

  /** Fails the job in hand, if any (the member died); says whether there was one. */
  protected fail(error: Error): boolean {
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.reject(error);
    return pending !== undefined;
  }

  /** Forgets the job in hand (it was given up on). */
  protected forget(): void {
    this.#pending = undefined;
  }
}

/** Why a job failed when its pool member died under it (rather than the job failing in it). */
export class MemberDied extends Error {
  /** The member ran out of memory: the same input would again. */
  readonly outOfMemory: boolean;

  constructor(message: string, outOfMemory = false) {
    super(message);
    this.outOfMemory = outOfMemory;
  }
}
