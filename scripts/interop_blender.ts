/**
 * The Blender side of `deno task interop`: what each GLB declares (its expectation), and Blender's
 * check of the queued files (`scripts/blender_check.py`), all in one Blender process.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BlenderWants } from "../tests/support/new_outputs.ts";

const CHECKER = fileURLToPath(new URL("./blender_check.py", import.meta.url));
const RESULT = "PARTGRAPH_INTEROP ";

/** What the file itself declares, for the Blender side to check against. */
interface Expectation {
  nodes: string[];
  /** Each morphed node's target names and the weights it is drawn at (the node's, else its mesh's). */
  morphs: { node: string; mesh?: string; targets: string[]; weights: number[] }[];
  /** Each named material's alphaMode, and which of its clear coat's amount and roughness are textured. */
  materials: { name: string; alphaMode: string; clearcoat?: { texture: boolean; roughness: boolean } }[];
  animations: string[];
  pivots: { node: string; extras: Record<string, unknown> }[];
  /** Width and height of each PNG image the file embeds (from its IHDR). */
  images: [number, number][];
}

/** Reads the GLB's JSON chunk and lists what Blender should show. */
function expectationOf(glb: Uint8Array): Expectation {
  const length = new DataView(glb.buffer, glb.byteOffset + 12, 4).getUint32(0, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
  const bin = glb.subarray(20 + length + 8);
  // deno-lint-ignore no-explicit-any
  const nodes: any[] = json.nodes ?? [];
  const keyed = new Set(
    // deno-lint-ignore no-explicit-any
    (json.animations ?? []).flatMap((a: any) => a.channels ?? []).filter((c: any) =>
      c.target?.path === "weights"
    )
      // deno-lint-ignore no-explicit-any
      .map((c: any) => nodes[c.target.node]),
  );
  // Materials of the meshes nodes draw (a mesh no node uses, as a further LOD, Blender leaves out).
  // deno-lint-ignore no-explicit-any
  const drawn = new Set<any>(
    nodes.filter((n) => n.mesh !== undefined).flatMap((n) => json.meshes[n.mesh].primitives ?? [])
      // deno-lint-ignore no-explicit-any
      .map((p: any) => json.materials?.[p.material]).filter((m: unknown) => m),
  );
  return {
    nodes: nodes.map((n) => n.name).filter((n) => n),
    morphs: nodes.filter((n) => n.name && n.mesh !== undefined && json.meshes[n.mesh].extras?.targetNames)
      .map((n) => ({
        node: n.name,
        mesh: json.meshes[n.mesh].name,
        targets: json.meshes[n.mesh].extras.targetNames,
        // A clip keying the weights sets the keys as the scene's frame stands: no rest weight to check.
        weights: keyed.has(n) ? [] : n.weights ?? json.meshes[n.mesh].weights ?? [],
      })),
    materials: [...drawn].filter((m) => m.name).map((m) => {
      const coat = m.extensions?.KHR_materials_clearcoat;
      return {
        name: m.name,
        alphaMode: m.alphaMode ?? "OPAQUE",
        ...(coat
          ? { clearcoat: { texture: !!coat.clearcoatTexture, roughness: !!coat.clearcoatRoughnessTexture } }
          : {}),
      };
    }),
    // deno-lint-ignore no-explicit-any
    animations: (json.animations ?? []).map((a: any) => a.name).filter((n: string) => n),
    // deno-lint-ignore no-explicit-any
    images: (json.images ?? []).filter((i: any) => i.mimeType === "image/png" && i.bufferView !== undefined)
      // deno-lint-ignore no-explicit-any
      .map((i: any) => {
        const view = json.bufferViews[i.bufferView];
        const ihdr = new DataView(bin.buffer, bin.byteOffset + (view.byteOffset ?? 0) + 16, 8);
        return [ihdr.getUint32(0), ihdr.getUint32(4)];
      }),
    pivots: nodes.filter((n) => n.name && n.extras?.ctrl_type).map((n) => ({
      node: n.name,
      extras: Object.fromEntries(
        ["ctrl_type", "min", "max"].filter((k) => k in n.extras).map((k) => [k, n.extras[k]]),
      ),
    })),
  };
}

/** The stdout of `command`, or undefined when it is not installed. */
export async function output(
  command: string,
  args: string[],
  env?: Record<string, string>,
): Promise<string | undefined> {
  try {
    const out = await new Deno.Command(command, { args, env, stdout: "piped", stderr: "piped" }).output();
    return new TextDecoder().decode(out.stdout);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** PYTHONPATH for Blender's Python when it lacks numpy: the env override, else a matching python3's. */
export async function blenderEnv(): Promise<Record<string, string> | undefined> {
  const probe =
    "import sys\ntry:\n import numpy\n print('numpy')\nexcept ImportError:\n print('none', sys.version_info[:2])";
  const blender = await output("blender", ["-b", "--factory-startup", "--python-expr", probe]);
  if (blender?.includes("\nnumpy")) return undefined;
  const override = Deno.env.get("PARTGRAPH_BLENDER_PYTHONPATH");
  if (override) return { PYTHONPATH: override };
  const version = blender?.match(/none \((\d+), (\d+)\)/);
  const python = await output("python3", [
    "-c",
    "import sys, os, numpy; print(sys.version_info[0], sys.version_info[1], os.path.dirname(os.path.dirname(numpy.__file__)))",
  ]);
  const [major, minor, site] = python?.trim().split(" ") ?? [];
  if (version && site && major === version[1] && minor === version[2]) return { PYTHONPATH: site };
  return undefined;
}

/**
 * A source file whose animation the checked file must play alike: Blender imports both, and the named
 * objects' world matrices must agree at every sampled frame of the clip.
 */
export interface ClipSource {
  readonly glb: Uint8Array;
  readonly nodes: readonly string[];
}

/** A file waiting for Blender's check, with its expectation written beside it. */
interface Queued {
  readonly label: string;
  readonly file: string;
  readonly expect: string;
}

/** The files {@link check} queued, checked all in one Blender process by {@link checkQueued}. */
const queued: Queued[] = [];

/**
 * Queues a GLB for Blender's check: it and its expectation are written to a folder of their own in
 * `dir` (a clip's source beside them), and {@link checkQueued} checks them all at the end.
 */
export async function check(
  label: string,
  glb: Uint8Array,
  dir: string,
  clip?: ClipSource,
  wants?: BlenderWants,
): Promise<void> {
  const folder = join(dir, String(queued.length));
  await Deno.mkdir(folder);
  const file = join(folder, "model.glb");
  const expect = join(folder, "expect.json");
  await Deno.writeFile(file, glb);
  const source = clip && join(folder, "source.glb");
  if (clip) await Deno.writeFile(source!, clip.glb);
  await Deno.writeTextFile(
    expect,
    JSON.stringify({ ...expectationOf(glb), clip: clip && { source, nodes: clip.nodes }, wants }),
  );
  queued.push({ label, file, expect });
}

/**
 * Checks every queued file in one Blender process (a Blender start is about two CPU-seconds, the
 * check of a file mostly less; one per file made 40 starts), printing each file's result in order;
 * returns how many failed. Should Blender end early (a crash on one file), the file it was checking
 * fails with the end of Blender's output and the files after it are checked in a Blender of their own.
 */
export async function checkQueued(env?: Record<string, string>): Promise<number> {
  const args = ["-b", "--factory-startup", "-noaudio", ...(env ? ["--python-use-system-env"] : [])];
  let failed = 0;
  let pending = queued.slice();
  while (pending.length) {
    const files = pending.flatMap((q) => [q.file, q.expect]);
    const text = await output("blender", [...args, "--python", CHECKER, "--", ...files], env) ?? "";
    const results = text.split("\n").filter((l) => l.startsWith(RESULT)).map((l) =>
      JSON.parse(l.slice(RESULT.length))
    );
    if (results[0]?.skip) {
      for (const { label } of pending) console.log(`skipped ${label}: ${results[0].skip}`);
      return failed;
    }
    for (const [i, result] of results.slice(0, pending.length).entries()) {
      const ok = result.problems.length === 0;
      console.log(`${ok ? "ok  " : "FAIL"} ${pending[i].label} ${JSON.stringify(result.checked)}`);
      for (const problem of result.problems) console.log(`     ${problem}`);
      if (!ok) failed++;
    }
    if (results.length >= pending.length) break;
    console.log(`FAIL ${pending[results.length].label}: Blender printed no result\n${text.slice(-2000)}`);
    failed++;
    pending = pending.slice(results.length + 1);
  }
  return failed;
}
