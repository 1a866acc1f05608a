/**
 * What the studio's API routes share: their context (sandbox, output and cache folders, registry,
 * the latest run's outputs) and the error a route throws for an HTTP status.
 *
 * @module
 */
import type { Registry } from "../runtime/mod.ts";
import type { Sandbox } from "./paths.ts";

/** What the API needs: the sandbox, where runs write and cache, the node registry. */
export interface ApiContext {
  readonly sandbox: Sandbox;
  readonly outDir: string;
  readonly cacheDir: string | false;
  readonly registry: Registry;
  /** The graph named on the command line, opened first. */
  readonly startGraph?: string;
  /** Outputs of the latest run, by name, for download and preview. */
  readonly lastOutputs: Map<string, EncodedOutput>;
}

/** A run output as the page downloads it. */
export interface EncodedOutput {
  readonly bytes: Uint8Array;
  readonly type: "bytes" | "scene" | "json";
  readonly file: string;
}

/** A page request that cannot be served, with its HTTP status. */
export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}
