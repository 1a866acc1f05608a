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
    const output = await runBlenderScript(SCRIPT, args);
    if ("skip" in output) return output;
    const lines = new TextDecoder().decode(output.stdout).split("\n").filter((l) => l.startsWith(RESULT))
      .map((l) => JSON.parse(l.slice(RESULT.length)));
    if (lines[0]?.skip) return { skip: lines[0].skip };
    if (lines.length !== jobs.length) {
      throw new Error(
        `Blender reported ${lines.length} of ${jobs.length} files:\n` +
          new TextDecoder().decode(output.stderr).slice(-2000),
      );
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
