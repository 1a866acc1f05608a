/**
 * DSON asset addresses: `[scheme:][node_path:][/file/path]#id[?property/path]` (DSON spec "Asset
 * Addressing"). Each part is percent-decoded on its own, so an encoded `%23` in a path never
 * becomes a fragment; file paths are compared case-insensitively because content is authored on
 * Windows and its case varies between files.
 *
 * @module
 */

/** A parsed DSON URI; every part is percent-decoded. */
export interface DsonUri {
  /** `id` (default) or `name`. */
  scheme: string;
  /** The node (or figure) to search first, e.g. `Genesis9` in `Genesis9:#CTRLHipBend`; "" when absent. */
  nodePath: string;
  /** Content-root relative file path (`/data/…/x.dsf`); "" means the referencing file itself. */
  filePath: string;
  /** Asset id after `#`; "" when absent. */
  id: string;
  /** Property path after `?`, e.g. `rotation/x/value`; "" when absent. */
  propertyPath: string;
}

/**
 * Splits a DSON URI into its parts.
 *
 * @example
 * ```ts
 * parseDsonUri("Genesis9:/data/Daz%203D/G9.dsf#hip?rotation/x");
 * // { scheme: "id", nodePath: "Genesis9", filePath: "/data/Daz 3D/G9.dsf", id: "hip", propertyPath: "rotation/x" }
 * ```
 */
export function parseDsonUri(uri: string): DsonUri {
  let rest = uri;
  let propertyPath = "";
  const question = rest.indexOf("?");
  if (question >= 0) {
    propertyPath = rest.slice(question + 1);
    rest = rest.slice(0, question);
  }
  let id = "";
  let hash = rest.indexOf("#");
  // A third-party writer may leave a folder's '#' unencoded (`/data/Vendor #1/x.dsf#id`; Daz writes
  // %23). Asset ids hold no path, so a '/' between the first and the last '#' means the first is
  // the path's: split at the last (decode.dson v39; before, the file was not found).
  const last = rest.lastIndexOf("#");
  if (hash >= 0 && last > hash && rest.slice(hash + 1, last).includes("/")) hash = last;
  if (hash >= 0) {
    id = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  let scheme = "id";
  const schemeMatch = /^(id|name):(\/\/)?/.exec(rest);
  if (schemeMatch) {
    scheme = schemeMatch[1];
    rest = rest.slice(schemeMatch[0].length);
  }
  // A raw colon never appears in a file path (Windows drive colons are written %3A), so everything
  // up to the last one is the node path.
  let nodePath = "";
  const colon = rest.lastIndexOf(":");
  if (colon >= 0) {
    nodePath = rest.slice(0, colon);
    rest = rest.slice(colon + 1);
  }
  return {
    scheme,
    nodePath: percentDecode(nodePath),
    filePath: percentDecode(rest),
    id: percentDecode(id),
    propertyPath: percentDecode(propertyPath),
  };
}

/**
 * Percent-decodes, leaving malformed escapes as written rather than failing: a literal `%` (a
 * third-party tool's `100%.dsf`) keeps the escapes around it decoded, and a run of escapes is
 * decoded together, so a UTF-8 character (`%C3%A9`) next to a stray `%` still becomes `é`. A `+` is
 * a plus sign, never a space (Daz writes spaces as `%20`).
 */
export function percentDecode(text: string): string {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run.replace(/%[0-9a-fA-F]{2}/g, (escape) => {
          try {
            return decodeURIComponent(escape);
          } catch {
            return escape;
          }
        });
      }
    });
  }
}

/**
 * The key a file is cached and compared by: the decoded path, with one leading `/`, forward
 * slashes, Unicode NFC and lower case. NFC because the same name reaches us composed (`Ö`, as
 * Windows content writes it) or decomposed (`O` + U+0308, as macOS's HFS+ stores file names and
 * tools copying from it keep them): one file must be one key, or its ids would belong to two files.
 *
 * @example
 * ```ts
 * fileKey("data/DAZ 3D/Genesis9.DSF"); // "/data/daz 3d/genesis9.dsf"
 * ```
 */
export function fileKey(decodedPath: string): string {
  const slashed = decodedPath.replaceAll("\\", "/").replace(/^\/*/, "/");
  return slashed.normalize("NFC").toLowerCase();
}

/**
 * A file or folder name as content paths compare it: Unicode NFC and lower case (see
 * {@link fileKey}).
 *
 * @example
 * ```ts
 * sameNameKey("O\u0308lhaut.DSF") === sameNameKey("\u00d6lhaut.dsf"); // true
 * ```
 */
export function sameNameKey(name: string): string {
  return name.normalize("NFC").toLowerCase();
}
