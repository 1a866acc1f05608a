/**
 * Where each open file was last shown: its top graph and the group nodes Tab entered to reach it, so
 * a click on its tab shows it there again (inside the group it was entered through). A group node's
 * rename (or its undo) renames it in every trail that goes through it.
 *
 * @module
 */

/** The way a file was last shown: from top graph `top`, through the group nodes `entered`. */
export interface Trail {
  readonly top: string;
  readonly entered: string[];
}

/** The trail of each open file, by path. */
export class Trails {
  readonly #trails = new Map<string, Trail>();

  /** Records that `path` is shown from `top` through the group nodes `entered`. */
  shown(path: string, top: string, entered: readonly string[]): void {
    this.#trails.set(path, { top, entered: [...entered] });
  }

  /** Where `path` was last shown, if it was. */
  of(path: string): Trail | undefined {
    return this.#trails.get(path);
  }

  /**
   * Node `from` of the graph reached from `top` through `entered` is now `to`: each trail that goes
   * through it goes through `to`.
   */
  renamed(top: string, entered: readonly string[], from: string, to: string): void {
    const depth = entered.length;
    for (const trail of this.#trails.values()) {
      if (trail.top !== top || trail.entered[depth] !== from) continue;
      if (entered.every((id, i) => trail.entered[i] === id)) trail.entered[depth] = to;
    }
  }
}
