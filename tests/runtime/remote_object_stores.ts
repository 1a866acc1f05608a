/**
 * Object stores as teams put a Bazel-protocol cache on them (S3 without `s3:ListBucket`, a GCS
 * bucket): every missing key is a 403, and so is every refusal. `objectStoreOf(seed)` draws one —
 * mostly healthy buckets (a cold cache answers 403 to every first read), else a PR runner's key that
 * may only read, a key that may only write, a bucket policy refusing the client, or a key the store
 * does not know — with S3's XML error, GCS's, or an empty 403 from a proxy in front.
 *
 * `judgeObjectStore` counts, over two machines building through it (`runSeed`): warnings on a
 * healthy bucket (false alarms: a plain miss should be silent) and refusals no warning names.
 *
 * Run: `deno run -A tests/runtime/remote_object_stores.ts 301 340`
 *
 * @module
 */
import { join } from "node:path";
import { runGraph } from "../../mod.ts";
import { sha256Hex } from "../../runtime/canonical.ts";
import { realisticCmp } from "../support/realistic_cmp.ts";
import { tempDir } from "../support/temp.ts";
import type { Habits } from "./remote_habits.ts";
import { runSeed, type SeedOutcome } from "./remote_habits_measure.ts";

/** The object store of seed `seed` (deterministic). */
export function objectStoreOf(seed: number): Habits {
  let state = (seed * 2246822519 + 7) >>> 0;
  const next = () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const roll = next();
  const access = roll < 0.5
    ? "full"
    : pick(["read-only", "read-only", "write-only", "none", "bad-key"] as const);
  return {
    missing: 403,
    access,
    errorBody: pick(["s3", "s3", "gcs", "empty"] as const),
    prefix: pick(["", "/cache", "/team/partgraph/cache"]),
    trailingSlash: next() < 0.4,
    credentials: next() < 0.5,
  };
}

/** What went wrong for one store's two machines. */
export interface StoreJudgement {
  /** Warnings where the bucket let the client do everything (each a false alarm). */
  readonly falseAlarms: number;
  /** 1 when reads or uploads were refused and no warning said so (a note every run gives does not). */
  readonly unnamed: number;
  /** Builds that failed or wrote other bytes than a build without cache. */
  readonly wrong: number;
}

/** Warnings that name a refusal: reads or uploads refused, credentials refused or unable to reach it. */
const NAMES_REFUSAL =
  /refused its credentials|refused an upload|may not reach|may write but not read|served nothing/;

/** Judges one store's outcome (see the module doc). */
export function judgeObjectStore(habits: Habits, outcome: SeedOutcome): StoreJudgement {
  const wrong = outcome.failed + outcome.wrong;
  if (habits.access === "full") return { falseAlarms: outcome.warnings.length, unnamed: 0, wrong };
  const named = outcome.warnings.some((w) => NAMES_REFUSAL.test(w));
  return { falseAlarms: 0, unnamed: named ? 0 : 1, wrong };
}

if (import.meta.main) {
  const [from, to] = Deno.args.map(Number);
  const root = await tempDir({ prefix: "partgraph-stores-" });
  const graph = new URL("../../graphs/freelancer.json", import.meta.url).pathname;
  try {
    const model = join(root, "ship.cmp");
    await Deno.writeFile(model, realisticCmp(11, { parts: 4, maxGroupVertices: 80 }));
    const ref = { cacheDir: join(root, "ref", "cache"), outDir: join(root, "ref", "out") };
    await runGraph(graph, { inputs: { model }, ...ref, noCache: true });
    const files: string[] = [];
    for await (const entry of Deno.readDir(ref.outDir)) {
      files.push(`${entry.name}:${sha256Hex(await Deno.readFile(join(ref.outDir, entry.name)))}`);
    }
    const reference = files.sort().join(",");
    const total = { stores: 0, healthy: 0, falseAlarms: 0, refusing: 0, unnamed: 0, wrong: 0 };
    for (let seed = from; seed <= to; seed++) {
      const habits = objectStoreOf(seed);
      const outcome = await runSeed(seed, model, reference, root, 7, habits, 10_000);
      const judged = judgeObjectStore(habits, outcome);
      total.stores++;
      if (habits.access === "full") total.healthy++;
      else total.refusing++;
      total.falseAlarms += judged.falseAlarms;
      total.unnamed += judged.unnamed;
      total.wrong += judged.wrong;
      console.log(
        seed,
        habits.access,
        habits.errorBody,
        `served ${outcome.served}/${outcome.nodes} warnings ${outcome.warnings.length}`,
        JSON.stringify(judged),
      );
      if (Deno.env.get("VERBOSE")) console.log(outcome.warnings.map((w) => `    ${w}`).join("\n"));
    }
    console.log("TOTAL", JSON.stringify(total));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
