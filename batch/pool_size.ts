/**
 * How many workers a batch runs. With `--jobs` given, that many. Without it, one per core — and, when
 * a remote cache is on, more while the remote serves most of the work: an input whose nodes come from
 * the remote spends its time waiting on the network, not computing, so two workers on two cores leave
 * both cores idle for most of it (100 compounds 20 ms away: 3.4–5.7 s on two workers, 2.1 s on four,
 * against 2.4–2.7 s computing everything). Computing, extra workers only cost (each warms up its JIT
 * and holds its own heap: four workers on two cores computed the same 100 compounds 25–30 % slower
 * than two), so the extra ones retire as soon as the remote serves less than half of the recent nodes.
 *
 * @module
 */

/** Recent inputs the remote's share is judged over. */
const WINDOW = 8;
/** The share of recent nodes the remote must have served for the pool to grow. */
const REMOTE_SHARE = 0.5;
/** Workers per core the pool may grow to… */
const PER_CORE = 4;
/** …and workers beyond one per core at most: each holds a heap of its own (about 200 MB here). */
const MAX_EXTRA = 8;

/** The pool's size: where it starts, how far it may grow, and whether it should now. */
export class PoolSize {
  /** Workers the pool starts with and keeps. */
  readonly base: number;
  /** Workers the pool may grow to. */
  readonly limit: number;
  /** Nodes and remote-served nodes of the last {@link WINDOW} finished inputs. */
  readonly #recent: { nodes: number; remote: number }[] = [];

  /**
   * `jobs` as the caller gave it (undefined: not given), the number of cores, the inputs to run,
   * and whether a remote cache is on.
   */
  constructor(jobs: number | undefined, cores: number, inputs: number, remote: boolean) {
    this.base = Math.max(1, Math.min(jobs ?? cores, inputs));
    const grown = Math.min(PER_CORE * cores, cores + MAX_EXTRA, inputs);
    this.limit = jobs === undefined && remote ? Math.max(this.base, grown) : this.base;
  }

  /** Records a finished input's node counts. */
  finished(nodes: number, remote: number): void {
    this.#recent.push({ nodes, remote });
    if (this.#recent.length > WINDOW) this.#recent.shift();
  }

  /** Whether the remote served most of the recent inputs' nodes. */
  get waitingOnRemote(): boolean {
    let nodes = 0, remote = 0;
    for (const input of this.#recent) [nodes, remote] = [nodes + input.nodes, remote + input.remote];
    return nodes > 0 && remote >= REMOTE_SHARE * nodes;
  }

  /** Whether to start another worker, with `running` workers and `queued` inputs not yet started. */
  grow(running: number, queued: number): boolean {
    return running < this.limit && queued > 0 && this.waitingOnRemote;
  }

  /** Whether the worker in `slot` (from 0) should stop before its next input: an extra one, no longer needed. */
  retire(slot: number): boolean {
    return slot >= this.base && !this.waitingOnRemote;
  }
}
