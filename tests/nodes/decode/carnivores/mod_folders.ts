/**
 * A generator of Carnivores mod folders as users keep them: a `.3df` and its `.vtl` clips in an
 * `anims` folder, with the near-duplicates real folders collect — names in the case a Windows tool
 * or archive left (`RUN.VTL`), backups (`run_old.vtl`, `run.vtl.bak`), Explorer's and Finder's copies
 * (`Copy of run.vtl`, `run - Copy.vtl`, `run copy.vtl`), browser re-downloads (`run (2).vtl`), the
 * same clip twice in two cases after two archives were unpacked together on Linux, and a clip kept
 * only as its copy. Real clip names that merely look alike (`idle1`, `idle2`, `run2`) are distinct
 * clips. The user names the clips by a glob or by a list typed in lower case, sometimes with the
 * folder's case wrong.
 *
 * Each folder says what the user means: the clips, and for each the file whose content is current
 * (the original name; a backup or copy holds older bytes or the same), or the candidates when no
 * one can tell (two case twins with different bytes) — then an answer is right only with a warning
 * naming them all.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { prng } from "../../../support/prng.ts";
import { runNode, testContext } from "../../../support/context.ts";
import { tempDir } from "../../../support/temp.ts";
import { decode3df } from "../../../../nodes/decode/carnivores/decode_3df.ts";
import { summaryOf } from "./probe.ts";
import { encode3df } from "../../../support/carnivores/encode.ts";
import { encodeVtl } from "../../../support/carnivores/vtl.ts";
import { animation, limbModel } from "./fixtures.ts";

/** Clip names of the games' characters; `idle1`/`idle2` and `run`/`run2` are different clips. */
const CLIP_NAMES = ["walk", "run", "run2", "idle1", "idle2", "eat", "die", "swim", "look", "sleep"];

/** How backups and copies rename `stem` (`ext` is the extension with its dot). */
const COPY_STYLES: readonly ((stem: string, ext: string) => string)[] = [
  (s, e) => `${s}_old${e}`,
  (s, e) => `${s}_bak${e}`,
  (s, e) => `${s}-backup${e}`,
  (s, e) => `${s} - Copy${e}`,
  (s, e) => `${s} - Copy (2)${e}`,
  (s, e) => `Copy of ${s}${e}`,
  (s, e) => `${s} (2)${e}`,
  (s, e) => `${s}(1)${e}`,
  (s, e) => `${s} copy${e}`,
  (s, e) => `${s} copy 2${e}`,
  (s, e) => `${s}${e}.bak`,
  (s, e) => `${s}${e}~`,
];

/** One clip the user means. */
export interface MeantClip {
  /** The clip's name, lower case (a clip's name is compared without case). */
  readonly name: string;
  /** Files (in `anims/`) any of which is right; more than one only when no one can tell. */
  readonly files: readonly string[];
  /** Files a warning must name for the answer to count as right (the candidates of a guess). */
  readonly mustName: readonly string[];
}

/** A generated mod folder. */
export interface ModFolder {
  /** File name (under `anims/` for clips) → bytes; the model is `limb.3df`. */
  readonly files: ReadonlyMap<string, Uint8Array>;
  /** The folder the clips are in, as on disk. */
  readonly animsFolder: string;
  /** The `animations` entries, relative to the mod folder. */
  readonly entries: readonly string[];
  /** The clips the user means, in no particular order. */
  readonly meant: readonly MeantClip[];
  /** A one-line description for failure messages. */
  readonly label: string;
}

/**
 * The mod folder of `seed`.
 *
 * @example
 * ```ts
 * const mod = modFolder(7);
 * ```
 */
export function modFolder(seed: number): ModFolder {
  const next = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const points = limbModel().points;
  const files = new Map<string, Uint8Array>();
  const meant: MeantClip[] = [];
  const notes: string[] = [];
  const names = [...CLIP_NAMES].sort(() => next() - 0.5).slice(0, 2 + Math.floor(next() * 3));
  let clipIndex = 0;
  // Every file's content differs (clip number, KPS, frame count), so which file was read shows.
  const clipBytes = () => {
    const c = clipIndex++;
    return encodeVtl(animation(`c${c}`, 8 + c, 2 + (c % 3), points, c), {
      layout: next() < 0.5 ? "animator" : "engine",
    });
  };
  const glob = next() < 0.6;
  for (const name of names) {
    const caseStyle = next();
    const stem = caseStyle < 0.6
      ? name
      : caseStyle < 0.8
      ? name.toUpperCase()
      : name[0].toUpperCase() + name.slice(1);
    const ext = stem === name ? ".vtl" : next() < 0.7 ? ".VTL" : ".vtl";
    const file = stem + ext;
    const current = clipBytes();
    const oddity = next();
    if (oddity < 0.35) {
      // A backup or copy beside the current file: older bytes, or the same when copied before editing.
      const copy = pick(COPY_STYLES)(stem, ext);
      files.set(file, current);
      files.set(copy, next() < 0.3 ? current : clipBytes());
      meant.push({ name, files: [file], mustName: [] });
      notes.push(`${file}+${copy}`);
    } else if (oddity < 0.5) {
      // The same clip in two cases (two archives unpacked into one folder on a case-sensitive disk).
      const twin = stem === name ? name.toUpperCase() + ".VTL" : name + ".vtl";
      const same = next() < 0.4;
      files.set(file, current);
      files.set(twin, same ? current : clipBytes());
      meant.push({ name, files: [file, twin], mustName: same ? [] : [file, twin] });
      notes.push(`${file}+${twin}${same ? " (same)" : ""}`);
    } else if (oddity < 0.58 && glob) {
      // Only a copy is left (the original was renamed or deleted): it is the clip.
      const copy = pick(COPY_STYLES.slice(0, 10))(stem, ext);
      files.set(copy, current);
      meant.push({ name, files: [copy], mustName: [] });
      notes.push(`only ${copy}`);
    } else {
      files.set(file, current);
      meant.push({ name, files: [file], mustName: [] });
      notes.push(file);
    }
  }
  const animsFolder = "anims";
  const typedFolder = next() < 0.2 ? "Anims" : animsFolder;
  const entries = glob
    ? [join(typedFolder, next() < 0.8 ? "*.vtl" : "*.VTL")]
    : meant.map((m) => join(typedFolder, `${m.name}.vtl`));
  const all = new Map<string, Uint8Array>();
  for (const [name, bytes] of files) all.set(join(animsFolder, name), bytes);
  all.set("limb.3df", encode3df(limbModel()));
  return {
    files: all,
    animsFolder,
    entries,
    meant,
    label: `seed ${seed}: ${entries.join(", ")} over ${notes.join(", ")}`,
  };
}

/** What a decode gave: the clips (name, file read) or the error it stopped with, and the warnings. */
export interface ModOutcome {
  readonly clips?: readonly { readonly name: string; readonly file: string }[];
  readonly error?: string;
  readonly warnings: readonly string[];
}

/** How a decode of a mod folder went. */
export type ModVerdict = "right" | "wrong-loud" | "wrong-silent";

/**
 * Judges an outcome against what the user meant: right when every meant clip is there once, read
 * from a right file, nothing else is, and every guess among candidates is named in a warning; wrong
 * otherwise — loud when the decode stopped or a warning names a file concerned or the entry, silent when
 * nothing said so.
 *
 * @example
 * ```ts
 * const verdict = judgeMod(modFolder(3), outcome);
 * ```
 */
export function judgeMod(mod: ModFolder, outcome: ModOutcome): { verdict: ModVerdict; why: string } {
  if (!outcome.clips) return { verdict: "wrong-loud", why: `refused: ${outcome.error}` };
  const faults: string[] = [];
  const concerned = new Set<string>();
  const got = outcome.clips.map((c) => ({ name: c.name.toLowerCase(), file: basename(c.file) }));
  for (const m of mod.meant) {
    const found = got.filter((c) => c.name === m.name);
    if (found.length !== 1) {
      faults.push(`${m.name} ×${found.length}`);
      m.files.forEach((f) => concerned.add(f));
    } else if (!m.files.includes(found[0].file)) {
      faults.push(`${m.name} read from ${found[0].file}`);
      [...m.files, found[0].file].forEach((f) => concerned.add(f));
    }
    const unnamed = m.mustName.filter((f) => !outcome.warnings.some((w) => w.includes(f)));
    if (unnamed.length) {
      faults.push(`${m.name}: a guess among ${m.mustName.join(", ")} not named`);
      m.mustName.forEach((f) => concerned.add(f));
    }
  }
  for (const c of got) {
    if (!mod.meant.some((m) => m.name === c.name)) {
      faults.push(`unmeant clip ${c.name} (${c.file})`);
      concerned.add(c.file);
    }
  }
  if (!faults.length) return { verdict: "right", why: "" };
  // A warning about an entry itself (a glob matching nothing) is loud too.
  const said = [...concerned, ...mod.entries].some((f) => outcome.warnings.some((w) => w.includes(f)));
  return { verdict: said ? "wrong-loud" : "wrong-silent", why: faults.join("; ") };
}

/**
 * Writes the mod folder to a fresh temporary folder, decodes its model with the clips its entries
 * name, and removes the folder.
 *
 * @example
 * ```ts
 * const verdict = judgeMod(mod, await decodeMod(mod));
 * ```
 */
export async function decodeMod(mod: ModFolder): Promise<ModOutcome> {
  const dir = await tempDir();
  try {
    await Deno.mkdir(join(dir, mod.animsFolder));
    for (const [name, bytes] of mod.files) {
      await Deno.mkdir(dirname(join(dir, name)), { recursive: true });
      await Deno.writeFile(join(dir, name), bytes);
    }
    const ctx = testContext();
    const warnings = () => ctx.warnings.map((w) => w.message);
    const bytes = { bytes: mod.files.get("limb.3df")!, name: "limb.3df" };
    const animations = mod.entries.map((e) => join(dir, e));
    try {
      const { scene } = await runNode(decode3df, { bytes }, { animations }, ctx);
      // deno-lint-ignore no-explicit-any
      const clips = (summaryOf(scene as any).animations ?? []) as { name: string; file: string }[];
      return { clips: clips.map((c) => ({ name: c.name, file: c.file })), warnings: warnings() };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error), warnings: warnings() };
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
