/**
 * How many workers a batch runs. With `--jobs` given, that many. Without it, one per core — and, when
 * a remote cache is on, more while the remote serves most of the work: an input whose nodes come from
 * the remote spends its time waiting on the network, not computing, so two workers on two cores leave
 * both cores idle for most of it (100 compounds 20 ms away: 3.4–5.7 s on two workers, 2.1 s on four,
 * against 2.4–2.7 s computing everything). Computing, extra workers only cost (each warms up its JIT
 * and holds its own heap: four workers on two cores computed the same 100 compounds 25–30 % slower
 * than two), so the pool grows only while the remote serves at least half of the recent inputs' nodes and
 * their computing takes less than half their time (a graph whose remaining nodes are heavy gains no core
 * from more workers), and the extra workers retire as soon as that stops.
 *
 * @module
 */

/** Recent inputs the remote's share is judged over. */
const WINDOW = 8;
/** The share of recent nodes the remote must have served for the pool to grow… */
const REMOTE_SHARE = 0.5;
/** …and the share of the recent inputs' time their computed nodes may have taken at most. */
const COMPUTE_SHARE = 0.5;
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
  /** The last {@link WINDOW} finished inputs' figures (see {@link PoolSize.finished}). */
  readonly #recent: InputFigures[] = [];

  /**
   * `jobs` as the caller gave it (undefined: not given), the number of cores, the inputs to run,
   * and whether a remote cache is on.
   */
  constructor(jobs: number | undefined, cores: number, inputs: number, remote: boolean) {
    this.base = Math.max(1, Math.min(jobs ?? cores, inputs));
    const grown = Math.min(PER_CORE * cores, cores + MAX_EXTRA, inputs);
    this.limit = jobs === undefined && remote ? Math.max(this.base, grown) : this.base;
  }

  /** Records a finished input's figures. */
  finished(input: InputFigures): void {
    this.#recent.push(input);
    if (this.#recent.length > WINDOW) this.#recent.shift();
  }

  /** Whether the recent inputs mostly waited on the remote: it served most nodes, and computing was brief. */
  get waitingOnRemote(): boolean {
    let nodes = 0, remote = 0, computeMs = 0, ms = 0;
    for (const input of this.#recent) {
      nodes += input.nodes;
      remote += input.remote;
      computeMs += input.computeMs;
      ms += input.ms;
    }
    return nodes > 0 && remote >= REMOTE_SHARE * nodes && computeMs <= COMPUTE_SHARE * ms;
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

/** What the pool's size is judged by, per finished input. */
export interface InputFigures {
  /** Nodes that ran or were served, and of those how many the remote served. */
  readonly nodes: number;
  readonly remote: number;
  /** Time of the nodes that ran (their own work), and the input's whole time, in ms. */
  readonly computeMs: number;
  readonly ms: number;
}
