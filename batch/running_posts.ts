/**
 * How a worker process tells its pool which nodes its job is in: one message when a node starts,
 * holding every node running then, instead of one message as each node starts and another as it ends.
 * A Deno worker shares a `RunningBoard` with the pool and posts none; a process shares no memory, and
 * each message was a line the batch's main thread read, parsed and woke for (two per node, about 18 per
 * input, most of the parent's 1.4 ms per input).
 *
 * @module
 */
import type { RunEvent } from "../runtime/events.ts";
import type { WorkerMessage } from "./messages.ts";

/**
 * The running nodes of one job, posted as `running` messages (see {@link WorkerMessage}). A start is
 * posted at once, with the nodes running then: a node that never yields is named by it. An end is
 * posted only if no node starts before the next turn of the event loop (the next start carries it
 * otherwise): in a chain of nodes, one message per node.
 *
 * @example
 * ```ts
 * const posts = new RunningPosts(7, (message) => console.log(message));
 * posts.note({ event: "node", id: "rig", type: "rig.parts", state: "running" }); // posts [["rig", "rig.parts"]]
 * posts.end(); // before the job's result: a pending end is not posted after it
 * ```
 */
export class RunningPosts {
  readonly #running = new Map<string, string>();
  #pending: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly id: number, readonly post: (message: WorkerMessage) => void) {}

  /** Takes one event of the job. */
  note(event: RunEvent): void {
    if (event.event !== "node") return;
    if (event.state === "running") {
      this.#running.set(event.id, event.type);
      this.#post();
    } else if (this.#running.delete(event.id)) {
      this.#pending ??= setTimeout(() => this.#post(), 0);
    }
  }

  /** The job has ended: nothing more is posted for it. */
  end(): void {
    clearTimeout(this.#pending);
    this.#pending = undefined;
  }

  #post(): void {
    this.end();
    this.post({ kind: "running", id: this.id, nodes: [...this.#running] });
  }
}
