/**
 * The studio's file sandbox: every path the page names must resolve inside one of the allowed roots
 * (the project and the folders given on the command line), after following symlinks.
 *
 * @module
 */
import { isAbsolute, relative, resolve, sep } from "node:path";

/** A path the page asked for that is outside every allowed root (or malformed). */
export class PathRefused extends Error {
  /** The path as the page sent it. */
  readonly path: string;
  constructor(path: string, reason: string) {
    super(`path '${path}' refused: ${reason}`);
    this.name = "PathRefused";
    this.path = path;
  }
}

/**
 * Confines paths to a set of root folders.
 *
 * @example
 * ```ts
 * const sandbox = new Sandbox(Deno.cwd(), ["../shared/corpus"]);
 * const file = await sandbox.resolve("graphs/aircraft.json");
 * ```
 */
export class Sandbox {
  /** Absolute root folders; relative paths resolve against the first (the project). */
  readonly roots: readonly string[];

  constructor(project: string, extra: readonly string[] = []) {
    this.roots = [project, ...extra].map((root) => {
      const abs = resolve(project, root);
      try {
        return Deno.realPathSync(abs);
      } catch {
        return abs; // a folder that does not exist yet (e.g. out/) still bounds what may be written
      }
    });
  }

  /** True when an absolute path lies inside a root. */
  contains(abs: string): boolean {
    return this.roots.some((root) => {
      const rel = relative(root, abs);
      return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
    });
  }

  /**
   * Resolves a page-supplied path (relative to the project) to an absolute path inside a root;
   * symlinks are followed for the deepest existing ancestor, so a link cannot lead out.
   */
  async resolve(path: string): Promise<string> {
    if (typeof path !== "string" || path === "" || path.includes("\0")) {
      throw new PathRefused(String(path), "expected a non-empty path");
    }
    const abs = resolve(this.roots[0], path);
    const real = await realExisting(abs);
    if (!this.contains(abs) || !this.contains(real)) {
      throw new PathRefused(path, `outside the allowed folders (${this.roots.join(", ")})`);
    }
    return real;
  }

  /** The folders and file name of `abs` below the root that holds it (none when no root does). */
  segments(abs: string): string[] {
    for (const root of this.roots) {
      const rel = relative(root, abs);
      if (rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)) {
        return rel.split(sep);
      }
    }
    return [];
  }

  /** A path for display: relative to the project when inside it, else absolute. */
  display(abs: string): string {
    const rel = relative(this.roots[0], abs);
    return rel.startsWith("..") || isAbsolute(rel) ? abs : rel;
  }
}

/** The real path of `abs`, following symlinks of its deepest existing ancestor. */
async function realExisting(abs: string): Promise<string> {
  let head = abs;
  const tail: string[] = [];
  for (;;) {
    try {
      return resolve(await Deno.realPath(head), ...tail.reverse());
    } catch {
      const parent = resolve(head, "..");
      if (parent === head) return abs;
      tail.push(head.slice(parent.length).replace(/^[\\/]/, ""));
      head = parent;
    }
  }
}
