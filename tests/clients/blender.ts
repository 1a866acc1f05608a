/**
 * Blender as a client in tests: GLBs through Blender 3.4's glTF importer and exporter in one headless
 * process (`scripts/blender_roundtrip.py`), or a skip reason when Blender (or its numpy) is absent.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../support/temp.ts";

const SCRIPT = fileURLToPath(new URL("../../scripts/blender_roundtrip.py", import.meta.url));
const RESULT = "PARTGRAPH_ROUNDTRIP ";

/** One file to pass through Blender, and the export settings changed from Blender's defaults. */
export interface BlenderJob {
  readonly glb: Uint8Array;
  /** Include → Custom Properties on (off by default). */
  readonly extras: boolean;
  /** Animation → Always Sample Animations off (on by default: clips baked at 24 fps). */
  readonly keys?: boolean;
  /** A surface added in Blender before the export: a copy of this panel one span along its hinge. */
  readonly extend?: string;
  /** "+Y Up" off: Blender writes the file Z up. */
  readonly zUp?: boolean;
  /** Include → Punctual Lights on (off by default): Blender writes `KHR_lights_punctual` lights. */
  readonly lights?: boolean;
  /** Edits made before the export (`move=…`, `apply=…`, `unparent=…`: scripts/blender_roundtrip.py). */
  readonly edits?: readonly string[];
}

/** What Blender wrote for each job (or its error), or why Blender could not run. */
export type BlenderResult =
  | { readonly skip: string }
  | { readonly outputs: ({ glb: Uint8Array; objects: string[] } | { error: string })[] };

/** Imports and exports every job's GLB in one Blender process. */
export async function throughBlender(jobs: readonly BlenderJob[]): Promise<BlenderResult> {
  const dir = await tempDir();
  try {
    const args: string[] = [];
    for (const [i, job] of jobs.entries()) {
      await Deno.writeFile(join(dir, `in${i}.glb`), job.glb);
      args.push(
        join(dir, `in${i}.glb`),
        join(dir, `out${i}.glb`),
        [
          job.extras && "extras",
          job.keys && "keys",
          job.extend && `extend=${job.extend}`,
          job.zUp && "zup",
          job.lights && "lights",
          ...(job.edits ?? []),
        ].filter(Boolean).join(",") || "default",
      );
    }
    const output = await blenderReports(SCRIPT, args, RESULT);
    if ("skip" in output) return output;
    const lines = output.reports;
    if (lines.length !== jobs.length) {
      throw new Error(`Blender reported ${lines.length} of ${jobs.length} files:\n${output.stderrTail}`);
    }
    const outputs = [];
    for (const [i, line] of lines.entries()) {
      outputs.push(
        line.error ? { error: line.error } : {
          glb: await Deno.readFile(join(dir, `out${i}.glb`)),
          objects: line.objects as string[],
        },
      );
    }
    return { outputs };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Runs a Python script in headless Blender (`blender -b --factory-startup`) with `args` after `--`,
 * or says why it cannot run. Blender's Python lacking numpy is the script's to report.
 */
export async function runBlenderScript(
  script: string,
  args: readonly string[],
): Promise<Deno.CommandOutput | { skip: string }> {
  // Read only where granted: the suite runs without --allow-env, and Debian's Blender needs none.
  const granted = Deno.permissions.querySync({ name: "env", variable: "PARTGRAPH_BLENDER_PYTHONPATH" });
  const override = granted.state === "granted" ? Deno.env.get("PARTGRAPH_BLENDER_PYTHONPATH") : undefined;
  try {
    return await new Deno.Command("blender", {
      args: [
        "-b",
        "--factory-startup",
        "-noaudio",
        ...(override ? ["--python-use-system-env"] : []),
        "--python",
        script,
        "--",
        ...args,
      ],
      env: override ? { PYTHONPATH: override } : undefined,
      stdout: "piped",
      stderr: "piped",
    }).output();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { skip: "blender is not installed (not on PATH)" };
    throw error;
  }
}

/** What a census script printed for each file, with Blender's exit code and the end of its stderr. */
export interface BlenderReports {
  // deno-lint-ignore no-explicit-any
  readonly reports: any[];
  readonly code: number;
  readonly stderrTail: string;
}

/**
 * Runs `script` on `args` and reads the JSON it printed after `prefix`, one line per file; a skip reason
 * when Blender cannot run or the script says why it cannot (its numpy missing).
 */
export async function blenderReports(
  script: string,
  args: readonly string[],
  prefix: string,
): Promise<BlenderReports | { skip: string }> {
  const output = await runBlenderScript(script, args);
  if ("skip" in output) return output;
  const reports = new TextDecoder().decode(output.stdout).split("\n").filter((l) => l.startsWith(prefix))
    .map((l) => JSON.parse(l.slice(prefix.length)));
  if (reports[0]?.skip) return { skip: String(reports[0].skip) };
  return { reports, code: output.code, stderrTail: new TextDecoder().decode(output.stderr).slice(-2000) };
}

/** The reports of `script` over `glbs` (written to a temporary folder, one path each, in order). */
export async function blenderImports(
  script: string,
  glbs: readonly Uint8Array[],
  prefix: string,
): Promise<BlenderReports | { skip: string }> {
  const dir = await tempDir();
  try {
    const paths = [];
    for (const [i, glb] of glbs.entries()) {
      paths.push(join(dir, `in${i}.glb`));
      await Deno.writeFile(paths[i], glb);
    }
    return await blenderReports(script, paths, prefix);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
