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
    // A path pasted at a megabyte is quoted by its start: the message goes into issues and headers.
    const shown = path.length > 200 ? `${path.slice(0, 200)}… (${path.length} characters)` : path;
    super(`path '${shown}' refused: ${reason}`);
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
    const bytes = new TextEncoder().encode(abs).length;
    if (bytes > MAX_PATH_BYTES) {
      // No file system holds it, and walking up its 100,000s of folders to find one that exists hung.
      throw new PathRefused(
        path,
        `${bytes} bytes long, longer than any path a file system holds (${MAX_PATH_BYTES})`,
      );
    }
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

/**
 * The longest path the sandbox resolves, in UTF-8 bytes: Linux's PATH_MAX is 4,096 and Windows' long
 * paths stop at 32,767 characters; no file of a longer path exists to read or can be written.
 */
export const MAX_PATH_BYTES = Deno.build.os === "windows" ? 32_767 * 3 : 4_096;

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
