/**
 * Command-line option parsing: the strict subset of `node:util`'s `parseArgs` the CLI uses (long and
 * short options, `--name=value`, grouped short flags, repeatable options, `--` ending options).
 * Written here because loading `node:util` starts Deno's Node compatibility layer, which costs more
 * than everything else `partgraph nodes` does.
 *
 * @module
 */
import { suggestName } from "../runtime/validate/suggest.ts";

/** One option's declaration, as `parseArgs` of `node:util` takes it. */
export interface OptionSpec {
  /** `boolean`: a flag (`--json`); `string`: takes a value (`--out DIR` or `--out=DIR`). */
  readonly type: "string" | "boolean";
  /** The option may be given more than once; its value is then the list of values. */
  readonly multiple?: boolean;
  /** A one-letter alias (`-q`). */
  readonly short?: string;
}

/** The value type of one declared option. */
type OptionValue<S extends OptionSpec> = S["type"] extends "string"
  ? S["multiple"] extends true ? string[] : string
  : S["multiple"] extends true ? boolean[]
  : boolean;

/** Parsed options (absent when not given) and positional arguments. */
export interface ParsedArgs<O extends Record<string, OptionSpec>> {
  /** Each option given, by its long name. */
  readonly values: { [K in keyof O]?: OptionValue<O[K]> };
  /** The arguments that are not options, in order. */
  readonly positionals: string[];
}

/**
 * Parses arguments against declared options; throws a `TypeError` naming the argument for an
 * unknown option, a missing value, or a value given to a flag.
 *
 * @example
 * ```ts
 * import { parseArgs } from "./args.ts";
 *
 * const { values, positionals } = parseArgs(["run", "g.json", "-q", "--set", "a=1"], {
 *   quiet: { type: "boolean", short: "q" },
 *   set: { type: "string", multiple: true },
 * });
 * console.log(positionals, values.quiet, values.set); // ["run", "g.json"] true ["a=1"]
 * ```
 */
export function parseArgs<const O extends Record<string, OptionSpec>>(
  args: readonly string[],
  options: O,
): ParsedArgs<O> {
  const values: Record<string, unknown> = {};
  const positionals: string[] = [];
  const byShort = new Map(
    Object.entries(options).flatMap(([name, spec]) => spec.short ? [[spec.short, name]] : []),
  );
  const set = (name: string, value: string | boolean) => {
    values[name] = options[name].multiple ? [...(values[name] as unknown[] ?? []), value] : value;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      if (!Object.hasOwn(options, name)) {
        const known = Object.keys(options).map((option) => `--${option}`);
        throw new TypeError(`Unknown option '--${name}'${suggestName(`--${name}`, known)}`);
      }
      if (options[name].type === "boolean") {
        if (eq >= 0) throw new TypeError(`Option '--${name}' does not take an argument`);
        set(name, true);
      } else if (eq >= 0) set(name, arg.slice(eq + 1));
      else set(name, valueAfter(args, i++, `--${name}`));
      continue;
    }
    // Short options: flags may be grouped (-qw); a string option takes the rest (-j4) or the next argument.
    for (let c = 1; c < arg.length; c++) {
      const name = byShort.get(arg[c]);
      if (name === undefined) throw new TypeError(`Unknown option '-${arg[c]}'`);
      if (options[name].type === "boolean") {
        set(name, true);
        continue;
      }
      set(name, c + 1 < arg.length ? arg.slice(c + 1) : valueAfter(args, i++, `-${arg[c]}`));
      break;
    }
  }
  return { values: values as ParsedArgs<O>["values"], positionals };
}

/** The argument after `args[at]`, which must be a value, not another option. */
function valueAfter(args: readonly string[], at: number, option: string): string {
  const value = args[at + 1];
  if (value === undefined) throw new TypeError(`Option '${option} <value>' argument missing`);
  if (value.startsWith("-") && value !== "-") {
    throw new TypeError(
      `Option '${option}' argument is ambiguous: '${value}' looks like an option; write ${option}=${value}`,
    );
  }
  return value;
}
