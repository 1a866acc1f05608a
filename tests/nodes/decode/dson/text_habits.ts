/**
 * DSON text as it reaches users from outside Daz Studio, each case one small posed figure written
 * the way a tool or a person writes it: Daz Studio's own tab-indented text; a Windows editor's
 * UTF-8 BOM and CRLF; hand edits that leave a trailing comma or a `//` / `/* … *\/` comment
 * (vendors annotate files they tweak, JSON-with-comments editors keep them); a Python writer
 * (Blender/Diffeomorphic round trips, Poser→DSON converters) writing an unlimited channel as
 * `-Infinity`/`Infinity` and a missing value as `NaN` (Python's `json.dump` default); a file
 * gzipped twice (a tool compressing a `.duf` Daz had already compressed); text saved as UTF-16LE by
 * PowerShell 5 or as Windows-1252 by an old converter (the figure is named "Émilie Café"); and `file_version`
 * written 0.5.0.0, 0.6.0.0 or 0.6.1.0, or as a number. Strings holding `//` (web addresses,
 * `name://` URLs) sit beside comments, so comment handling must read strings as strings.
 *
 * The same figure written plainly (`clean`) is the reference: a correct decode of each case draws
 * what the clean file draws; a habit outside JSON (comments, trailing commas, NaN/Infinity, a
 * second gzip layer) is named in a warning.
 *
 * @module
 */
import { generateFigure, type Json } from "./generate.ts";
import { prng } from "../../../support/prng.ts";

/** One generated file. */
export interface TextCase {
  readonly seed: number;
  /** The file as the tool wrote it. */
  readonly bytes: Promise<Uint8Array>;
  /** The same figure as plain JSON. */
  readonly clean: Json;
  readonly habits: readonly string[];
  /** Habits outside JSON, which a decode that repairs them must name. */
  readonly repairs: readonly string[];
}

const OUTSIDE_JSON = new Set([
  "trailing commas",
  "line comments",
  "block comments",
  "NaN/Infinity",
  "gzip twice",
]);

/** The posed figure every case writes; `unlimited` is how its unlimited channel bounds are written. */
function figure(seed: number, unlimited: number | string): Json {
  const json = generateFigure({ side: 4, bones: 3, figureId: "Poser_Fig" });
  const r = prng(seed * 7 + 1);
  (json.asset_info as Json).contributor = { author: "Vendor", website: "http://www.example.com/store//item" };
  // A vendor's name with accents (the glTF node is named after it).
  (json.scene as { nodes: Json[] }).nodes[0].name = "Émilie Café";
  for (const node of json.node_library as Json[]) {
    if (node.type !== "bone") continue;
    node.rotation = ["x", "y", "z"].map((id) => ({
      id,
      type: "float",
      name: `${id.toUpperCase()}Rotate`,
      value: 0,
      current_value: Math.round((r() * 60 - 30) * 100) / 100,
      min: unlimited === "inf" ? "@-INF@" : -unlimited,
      max: unlimited === "inf" ? "@INF@" : unlimited,
      clamped: true,
    }));
    node.scale = ["x", "y", "z"].map((id) => ({
      id,
      type: "float",
      value: 1,
      ...(unlimited === "inf" && id === "y" ? { current_value: "@NAN@" } : {}),
    }));
  }
  return json;
}

/** The case of `seed`. */
export function textCase(seed: number): TextCase {
  const r = prng(seed);
  const pick = (p: number) => r() < p;
  const habits: string[] = [];
  const python = pick(0.35);
  if (python) habits.push("NaN/Infinity");
  const json = figure(seed, python ? "inf" : 10000);
  const version = ["0.5.0.0", "0.6.0.0", "0.6.1.0", 0.6][Math.floor(r() * 4)];
  json.file_version = version;
  habits.push(`file_version ${JSON.stringify(version)}`);
  const tabs = pick(0.6);
  let text = JSON.stringify(json, null, tabs ? "\t" : python ? 1 : undefined);
  if (python) {
    // Python's json.dump writes these bare; a NaN current value is a value left unset.
    text = text.replaceAll('"@-INF@"', "-Infinity").replaceAll('"@INF@"', "Infinity").replaceAll(
      '"@NAN@"',
      "NaN",
    );
  }
  let lines = text.split("\n");
  if (lines.length > 1) {
    if (pick(0.4)) {
      habits.push("trailing commas");
      lines = lines.map((line, i) =>
        i + 1 < lines.length && /^\s*[\]}]/.test(lines[i + 1]) && !/[[{,]\s*$/.test(line) && r() < 0.3
          ? `${line},`
          : line
      );
    }
    if (pick(0.35)) {
      habits.push("line comments");
      lines = lines.flatMap((line, i) =>
        i > 0 && r() < 0.05
          ? [`${line.match(/^\s*/)![0]}// tweaked by hand: see http://example.com/notes`, line]
          : [line]
      );
      lines[0] = `${lines[0]} // Poser_Fig, converted`;
    }
    if (pick(0.3)) {
      habits.push("block comments");
      lines = lines.flatMap((
        line,
        i,
      ) => (i > 0 && r() < 0.03 ? ["/* was:", `   "value": 12, */`, line] : [line]));
      lines.unshift('/* Converted by a Poser to DSON script, "v2" */');
    }
  }
  const crlf = pick(0.35);
  if (crlf) habits.push("CRLF");
  text = lines.join(crlf ? "\r\n" : "\n");
  let bytes = new TextEncoder().encode(text);
  const encoding = r();
  if (encoding < 0.15) {
    // PowerShell 5's Out-File / Set-Content after a hand edit: UTF-16LE with its BOM.
    habits.push("UTF-16LE (PowerShell)");
    bytes = new Uint8Array([
      0xff,
      0xfe,
      ...new Uint8Array(Uint16Array.from(text, (c) => c.charCodeAt(0)).buffer),
    ]);
  } else if (encoding < 0.3) {
    // An old converter writing the system code page: Windows-1252, so "É" is one byte 0xC9.
    habits.push("Windows-1252 text");
    bytes = Uint8Array.from(text, (c) => c.charCodeAt(0) < 256 ? c.charCodeAt(0) : 0x3f);
  } else if (pick(0.35)) {
    habits.push("UTF-8 BOM");
    bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);
  }
  const zips = pick(0.5) ? (pick(0.5) ? 2 : 1) : 0;
  if (zips === 2) habits.push("gzip twice");
  else if (zips === 1) habits.push("gzip");
  const clean = figure(seed, python ? "inf" : 10000);
  if (python) {
    // What the Python writer meant: no bounds, the unset value left out.
    for (const node of clean.node_library as Json[]) {
      for (const channel of (node.rotation ?? []) as Json[]) channel.min = -10000, channel.max = 10000;
      for (const channel of (node.scale ?? []) as Json[]) delete channel.current_value;
    }
  }
  return {
    seed,
    bytes: gzipTimes(bytes, zips),
    clean,
    habits,
    repairs: habits.filter((h) => OUTSIDE_JSON.has(h)),
  };
}

async function gzipTimes(bytes: Uint8Array, times: number): Promise<Uint8Array> {
  for (let k = 0; k < times; k++) {
    const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
      new CompressionStream("gzip"),
    );
    bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  }
  return bytes;
}
