import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { parseArgs as nodeParseArgs } from "node:util";
import { type OptionSpec, parseArgs } from "../../cli/args.ts";

const OPTIONS = {
  set: { type: "string", multiple: true },
  out: { type: "string" },
  json: { type: "boolean" },
  quiet: { type: "boolean", short: "q" },
  watch: { type: "boolean", short: "w" },
  jobs: { type: "string", short: "j" },
  "no-cache": { type: "boolean" },
} as const satisfies Record<string, OptionSpec>;

/** node:util's strict parseArgs, the behaviour ours replaces: the same values, or an error. */
function reference(args: string[]) {
  try {
    const { values, positionals } = nodeParseArgs({ args, options: OPTIONS, allowPositionals: true });
    return { values: { ...values }, positionals };
  } catch {
    return "error";
  }
}

function ours(args: string[]) {
  try {
    const { values, positionals } = parseArgs(args, OPTIONS);
    return { values: { ...values }, positionals };
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return "error";
  }
}

const CASES: string[][] = [
  [],
  ["run", "graph.json"],
  ["run", "g.json", "--out", "dir", "--json", "-q"],
  ["run", "g.json", "--out=dir", "--set", "a=1", "--set=b=2", "--set", "c=-1"],
  ["batch", "g.json", "-j", "4", "-qw"],
  ["batch", "g.json", "-j4", "-wq"],
  ["batch", "g.json", "-qj", "3"],
  ["run", "--no-cache", "g.json", "--", "--json", "-q"],
  ["run", "-", "g.json"],
  ["run", "g.json", "--out", "a", "--out", "b"],
  ["run", "--frobnicate"],
  ["run", "-x"],
  ["run", "-qx"],
  ["run", "--json=yes"],
  ["run", "--out"],
  ["run", "-j"],
  ["run", "--out", "--json"],
  ["run", "--out", "-q"],
  ["run", "--out=-q"],
  ["run", "--out", "-"],
];

Deno.test("parseArgs agrees with node:util's strict parseArgs on values, positionals and errors", () => {
  for (const args of CASES) assertEquals(ours(args), reference(args), args.join(" "));
});

Deno.test("parseArgs errors name the argument", () => {
  const fails = (args: string[], message: string) =>
    throws(
      () => parseArgs(args, OPTIONS),
      (error) => error instanceof TypeError && error.message.includes(message),
    );
  fails(["--frobnicate"], "'--frobnicate'");
  fails(["-x"], "'-x'");
  fails(["--out"], "'--out <value>' argument missing");
  fails(["--json=1"], "'--json' does not take an argument");
  fails(["--out", "-q"], "write --out=-q");
});
