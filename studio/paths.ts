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
    const abs = this.#absolute(path);
    return this.#confined(path, abs, await realExisting(abs));
  }

  /**
   * {@link resolve} of many paths at once, each answered with its real path or why it is refused (in
   * order): each folder is looked up once for all the files in it, and a file in a folder that does
   * not exist is not looked up at all. A generated graph's 10,000 reads from two folders took 30,000
   * failed look-ups one by one (1.5 s of its check).
   */
  async resolveMany(paths: readonly string[]): Promise<(string | PathRefused)[]> {
    const folders = new Map<string, Promise<Real>>();
    const one = async (path: string): Promise<string | PathRefused> => {
      try {
        const abs = this.#absolute(path);
        return this.#confined(path, abs, (await realBelow(abs, folders)).path);
      } catch (error) {
        if (error instanceof PathRefused) return error;
        throw error;
      }
    };
    const answers: (string | PathRefused)[] = new Array(paths.length);
    // A few look-ups in flight at once: the file system answers them on its own threads.
    let next = 0;
    const worker = async () => {
      while (next < paths.length) {
        const i = next++;
        answers[i] = await one(paths[i]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(16, paths.length) }, worker));
    return answers;
  }

  /** `path` made absolute against the project, refused when malformed or longer than any path. */
  #absolute(path: string): string {
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
    return abs;
  }

  /** `real` (the real path of `abs`) when both lie inside a root; else refused. */
  #confined(path: string, abs: string, real: string): string {
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

/** A path's real path, and whether it exists. */
interface Real {
  readonly path: string;
  readonly exists: boolean;
}

/**
 * {@link realExisting} from the top down, with each folder's answer kept in `folders` for the other
 * paths of a batch: a file is looked up only when its folder exists.
 */
function realBelow(abs: string, folders: Map<string, Promise<Real>>): Promise<Real> {
  const parent = resolve(abs, "..");
  if (parent === abs) return Promise.resolve({ path: abs, exists: true }); // the file system's root
  let above = folders.get(parent);
  if (!above) folders.set(parent, above = realBelow(parent, folders));
  return above.then(async ({ path, exists }) => {
    if (exists) {
      try {
        return { path: await Deno.realPath(abs), exists: true };
      } catch { /* not there (or not readable): named below its folder, as realExisting does */ }
    }
    return { path: resolve(path, abs.slice(parent.length).replace(/^[\\/]/, "")), exists: false };
  });
}
