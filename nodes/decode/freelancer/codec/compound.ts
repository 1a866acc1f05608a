/**
 * The parts of a `.cmp`: each `Cmpnd` entry (`Root`, `Part_*`, or a mod tool's other spelling) with its
 * `Object name`, `File name` and `Index`, its fragment read from the root directory the `File name`
 * names, and the `Cons` records. What costs a part is named: a duplicate `Object name`, a fragment not in
 * the file (one spelt alike is named), a `File name` whose path separator a round trip turned.
 *
 * @module
 */
import type { WarningSink } from "../../../../runtime/node.ts";
import { DecodeError } from "../../../../runtime/errors.ts";
import { type ConstraintRecord, readConstraints } from "./constraints.ts";
import { readFragment } from "./fragment.ts";
import { warnMisspeltEntries } from "./entry_names.ts";
import { findChild, leafString, requireLeaf, type UtfEntry } from "./utf.ts";
import { spelledAlike } from "./texture_names.ts";
import type { ModelPart } from "./model.ts";

/**
 * Reads the `Cmpnd` directory `cmpnd` of the file whose root is `root`: its parts, in entry order, and
 * its constraint records, in file order.
 */
export function readCompound(
  root: UtfEntry,
  cmpnd: UtfEntry,
  warn: WarningSink,
): { parts: ModelPart[]; constraints: ConstraintRecord[] } {
  const parts: ModelPart[] = [];
  const names = new Map<string, string>(); // lower-case Object name → its File name
  let constraints: ConstraintRecord[] = [];
  for (const entry of cmpnd.children ?? []) {
    const lower = entry.name.toLowerCase();
    if (lower === "cons") {
      if (entry.children) constraints = constraints.concat(readConstraints(entry, warn));
      continue;
    }
    if (!lower.startsWith("root") && !lower.startsWith("part")) {
      warn(`Cmpnd entry '${entry.name}' is neither Root, Part_* nor Cons; ignored`);
      continue;
    }
    const nameLeaf = findChild(entry, "Object name");
    const fileLeaf = findChild(entry, "File name");
    if (lower !== "root" && !lower.startsWith("part_")) {
      // Mod tools write Root_0, RootPart, PartFoo…: treewyrm/freelancer's reader takes any name
      // starting with Root or Part (its part is named by `Object name`, not by the entry), while
      // Librelancer refuses the file. The entry's name need not be the part's, so the part is named.
      const part = nameLeaf?.data ? `part '${leafString(nameLeaf)}': ` : "";
      warn(
        `${part}Cmpnd entry '${entry.name}' is named neither Root nor Part_<name> as retail names them; read ` +
          "as a part, as treewyrm/freelancer reads it (Librelancer refuses the file)",
      );
    }
    warnMisspeltEntries(entry, ["Object name", "File name", "Index"], `Cmpnd/${entry.name}`, warn);
    if (!nameLeaf || !fileLeaf) {
      throw new DecodeError({
        format: "cmp",
        at: { offset: entry.offset },
        expected: `'Object name' and 'File name' in Cmpnd/${entry.name}`,
        found: JSON.stringify((entry.children ?? []).map((c) => c.name)),
        file: entry.file,
      });
    }
    const name = leafString(nameLeaf);
    const fileName = leafString(fileLeaf);
    const indexLeaf = findChild(entry, "Index");
    const index = indexLeaf ? requireLeaf(indexLeaf, "an Index leaf").i32(0, "part index") : undefined;
    const first = names.get(name.toLowerCase());
    if (first !== undefined) {
      // Say what the second entry costs: nothing when it names the same fragment, else its fragment.
      warn(
        `duplicate part name '${name}' in Cmpnd/${entry.name}` +
          (first.toLowerCase() === fileName.toLowerCase()
            ? `, for the same fragment '${fileName}'; the first entry is used (nothing is lost)`
            : `: its fragment '${fileName}' (mesh and hardpoints) is not drawn; the first part of that name ` +
              `('${first}') is, as constraints name parts by Object name and cannot place both`),
      );
      continue;
    }
    const exact = findChild(root, fileName);
    const fragment = exact ?? fragmentBySeparator(root, fileName, name, warn);
    if (!fragment?.children) {
      // Freelancer itself tolerates Cmpnd entries whose fragment is missing.
      const near = spelledAlike(fileName, (root.children ?? []).filter((c) => c.children).map((c) => c.name));
      warn(
        `part '${name}': fragment '${fileName}' not found in the file${
          near ? ` (it has ${near}; Librelancer and treewyrm's reader match no other spelling but case)` : ""
        }; part dropped`,
      );
      continue;
    }
    names.set(name.toLowerCase(), fileName);
    // Later lookups (libraries, texture animations inside fragments) go by the directory found.
    const used = exact ? fileName : fragment.name;
    parts.push({ name, fileName: used, index, fragment: readFragment(fragment, warn, name) });
  }
  return { parts, constraints };
}

/**
 * The fragment directory whose name is `fileName` with `\` and `/` taken as one separator, with a
 * warning; undefined when none is. A tool that saves each UTF entry as a file or folder (a utf-xml
 * style round trip) cannot keep a separator in a directory name, and writes it back as the other one
 * while the `File name` leaf keeps the first: the part is plainly the one meant. Librelancer matches
 * the names exactly and drops the part.
 */
function fragmentBySeparator(
  root: UtfEntry,
  fileName: string,
  part: string,
  warn: WarningSink,
): UtfEntry | undefined {
  if (!/[\\/]/.test(fileName)) return undefined;
  const key = (name: string) => name.replaceAll("\\", "/").toLowerCase();
  const wanted = key(fileName);
  const found = root.children?.find((child) => child.children && key(child.name) === wanted);
  if (found) {
    warn(
      `part '${part}': File name '${fileName}' names fragment '${found.name}', the same name with the ` +
        "other path separator; read as that fragment (Librelancer matches names exactly and drops the part)",
    );
  }
  return found;
}
