/**
 * The Khronos glTF validator (npm `gltf-validator`), run so that a fault of its own cannot end the
 * process. The validator is Dart compiled to JavaScript, and on some damaged bytes it throws from a
 * callback of its own after the call has returned — a PNG whose first chunk is not its header makes it
 * complete one of its futures twice (`Bad state: Future already completed`). Such an error reaches no
 * `catch`: uncaught, it ended the whole `partgraph run` or batch worker. Here an uncaught error or
 * rejection whose stack lies in the validator's code is held back and counted against the validations
 * then running, which report it as a fault. Errors from anything else are left alone.
 *
 * @module
 */
import validator from "gltf-validator";

/** One issue of a validator report. */
export interface KhronosIssue {
  /** Khronos issue code (`ACCESSOR_MIN_MISMATCH` …). */
  code: string;
  /** The issue's text. */
  message: string;
  /** 0 error, 1 warning, 2 information, 3 hint. */
  severity: number;
  /** JSON pointer of the object at fault. */
  pointer?: string;
}

/** What one validation found. */
export interface KhronosReport {
  /** Every issue reported (up to `maxIssues`). */
  issues: KhronosIssue[];
  /** Total errors and warnings, counted past `maxIssues` too. */
  numErrors: number;
  numWarnings: number;
  /**
   * The validator's own failures while it ran (messages), held back so they did not end the process.
   * A report with faults cannot vouch for the file, whatever its issues say.
   */
  faults: string[];
}

/** The fault lists of the validations in flight; an uncaught validator error is added to each. */
const inFlight = new Set<string[]>();
let guarded = false;

function isValidatorFault(error: unknown): boolean {
  return error instanceof Error && (error.stack ?? "").includes("gltf_validator");
}

function guard(): void {
  if (guarded) return;
  guarded = true;
  const hold = (event: Event, error: unknown) => {
    if (!isValidatorFault(error)) return;
    event.preventDefault();
    for (const faults of inFlight) faults.push(String((error as Error).message));
  };
  globalThis.addEventListener("error", (event) => hold(event, event.error));
  globalThis.addEventListener("unhandledrejection", (event) => hold(event, event.reason));
}

/**
 * Validates GLB or glTF bytes with external resources refused. `maxIssues` 0 is unlimited (a cap
 * counts warnings too, and could stop before the first error).
 */
export async function khronosValidate(bytes: Uint8Array, maxIssues = 0): Promise<KhronosReport> {
  guard();
  const faults: string[] = [];
  inFlight.add(faults);
  try {
    const report = await validator.validateBytes(bytes, {
      maxIssues,
      externalResourceFunction: (uri: string) => Promise.reject(new Error(`external resource ${uri}`)),
    });
    // The validator's late callbacks run on timers of its own: one turn of the event loop lets those
    // still queued report their fault to this validation, not to none.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const { messages, numErrors, numWarnings } = report.issues;
    return { issues: messages, numErrors, numWarnings, faults };
  } finally {
    inFlight.delete(faults);
  }
}
