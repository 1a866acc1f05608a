/**
 * A generator of Carnivores mod folders as they arrive from Windows, and the paths their users write.
 * A mod made on Windows keeps names in whatever case its tools wrote (`Models\Raptor.CAR`, `ANIMS`,
 * C3Dit's upper-case `.CAR`, CarnivoresIO's lower case); copied to a disk that tells case apart, the
 * graph the user types (`models/raptor.car`), or one made on Windows (`Models\raptor.car`, with the
 * trailing dot or space Explorer drops, `raptor.car.`) no longer names the file exactly.
 *
 * Some trees hold hazards: two files differing only in case (two archives unpacked together) — the
 * answer is right only as an error naming both; a case twin that is a link leading out of the mod
 * folder — never to be followed; and a path naming nothing at all — an error.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { prng } from "../support/prng.ts";

/** What reading `written` should give. */
export type Meant =
  | { readonly kind: "file"; readonly bytes: Uint8Array; readonly exact: boolean }
  | { readonly kind: "ambiguous"; readonly candidates: readonly string[] }
  | { readonly kind: "none" };

/** One generated case: a tree written under `root`, the path the user wrote, and what they mean. */
export interface PathCase {
  readonly label: string;
  readonly written: string;
  readonly meant: Meant;
}

const FOLDERS = ["models", "anims", "textures", "data", "mods/raptor"];
const FILES = ["raptor.car", "trex.car", "hunter1.car", "stego.3df", "run.vtl", "area1.rsc"];

/** `name` in a case a Windows tool leaves. */
function windowsCase(name: string, next: () => number): string {
  const style = Math.floor(next() * 4);
  if (style === 0) return name.toUpperCase();
  if (style === 1) return name.replace(/(^|[/ _])([a-z])/g, (_, a, b) => a + b.toUpperCase());
  if (style === 2) return name.replace(/\.[a-z0-9]+$/, (e) => e.toUpperCase()); // C3Dit: raptor.CAR
  return name;
}

/** The path as the user writes it: another case, `\` separators, a trailing dot or space. */
function userSpelling(path: string, next: () => number): string {
  let out = next() < 0.5 ? path.toLowerCase() : windowsCase(path, next);
  if (next() < 0.5) out = out.replaceAll("/", "\\");
  const tail = next();
  if (tail < 0.15) out += ".";
  else if (tail < 0.25) out += " ";
  return out;
}

/** Bytes that tell one file from another. */
function content(tag: string): Uint8Array {
  return new TextEncoder().encode(`partgraph windows-path case ${tag}\n`);
}

/**
 * Writes `count` cases under `root` (one sub-folder each, plus `root/outside` for links leading out)
 * and returns them. Seeded: the same seed gives the same trees and paths.
 */
export async function writePathCases(root: string, seed: number, count: number): Promise<PathCase[]> {
  const next = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const outside = join(root, "outside");
  await Deno.mkdir(outside, { recursive: true });
  const cases: PathCase[] = [];
  for (let i = 0; i < count; i++) {
    const dir = join(root, `mod${i}`);
    const rel = `${pick(FOLDERS)}/${pick(FILES)}`;
    const onDisk = windowsCase(rel, next);
    const file = join(dir, onDisk);
    const bytes = content(`${seed}/${i}`);
    await Deno.mkdir(dirname(file), { recursive: true });
    await Deno.writeFile(file, bytes);
    // A decoy beside it that only shares a prefix, as mod folders hold (raptor.car vs raptor2.car).
    await Deno.writeFile(file.replace(/(\.[A-Za-z0-9]+)$/, "2$1"), content(`${seed}/${i}/decoy`));
    const hazard = next();
    const written = join(dir, userSpelling(rel, next));
    const label = `${i}: '${onDisk}' written '${written.slice(dir.length + 1)}'`;
    if (hazard < 0.15) {
      // A case twin with other bytes: two archives unpacked into one folder.
      const twin = join(dirname(file), twinName(onDisk.slice(onDisk.lastIndexOf("/") + 1)));
      const twinBytes = content(`${seed}/${i}/twin`);
      await Deno.writeFile(twin, twinBytes);
      const meant: Meant = written === file
        ? { kind: "file", bytes, exact: true }
        : written === twin
        ? { kind: "file", bytes: twinBytes, exact: true }
        : { kind: "ambiguous", candidates: [file, twin] };
      cases.push({ label: `${label} + twin`, written, meant });
      continue;
    }
    if (hazard < 0.25) {
      // The only file matching ignoring case is a link out of the mod folder: never followed.
      await Deno.remove(file);
      const secret = join(outside, `secret${i}`);
      await Deno.writeFile(secret, content(`${seed}/${i}/outside`));
      await Deno.symlink(secret, file);
      // Named exactly (`\` aside): the user's own link, theirs to follow.
      if (written.replaceAll("\\", "/") === file) continue;
      cases.push({ label: `${label} (a link out)`, written, meant: { kind: "none" } });
      continue;
    }
    if (hazard < 0.3) {
      cases.push({
        label: `${label} (absent)`,
        written: join(dir, "missing", "nothing.car"),
        meant: { kind: "none" },
      });
      continue;
    }
    cases.push({ label, written, meant: { kind: "file", bytes, exact: written === file } });
  }
  return cases;
}

/** A name differing from `name` only in case. */
function twinName(name: string): string {
  const lower = name.toLowerCase();
  return lower !== name ? lower : name.toUpperCase();
}

/** How one read came out. */
export type Outcome = "right" | "refused" | "wrong" | "wrong_silent";

/**
 * Judges a read of `c`: its bytes (or error) and warnings. A file read is right when it is the meant
 * file, with a warning when the path was not exact; an ambiguous path is right only as an error naming
 * every candidate; a path meaning nothing is right only as an error. Reading other bytes is wrong —
 * silently wrong when no warning came.
 */
export function judge(
  c: PathCase,
  result: { bytes?: Uint8Array; error?: unknown; warnings: readonly string[] },
): Outcome {
  const { meant } = c;
  if (result.error !== undefined) {
    const message = String(result.error instanceof Error ? result.error.message : result.error);
    if (meant.kind === "none") return "right";
    if (meant.kind === "ambiguous") {
      return meant.candidates.every((p) => message.includes(p)) ? "right" : "refused";
    }
    return "refused";
  }
  const same = meant.kind === "file" && result.bytes !== undefined &&
    result.bytes.length === meant.bytes.length && result.bytes.every((b, k) => b === meant.bytes[k]);
  if (same && meant.kind === "file" && (meant.exact || result.warnings.length > 0)) return "right";
  return result.warnings.length ? "wrong" : "wrong_silent";
}
