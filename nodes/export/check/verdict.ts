/**
 * The answers of the fast output check: an output is valid, invalid (with the Khronos validator's
 * issue code and JSON pointer for the first error, as the validator would name it), or outside
 * what the check covers (with the reason), in which case the Khronos validator decides.
 *
 * @module
 */

/** What the fast check concluded about one written file. */
export type Verdict =
  | { readonly kind: "valid" }
  | { readonly kind: "invalid"; readonly code: string; readonly pointer: string; readonly message: string }
  | { readonly kind: "outside"; readonly reason: string; readonly pointer: string };

/**
 * Thrown inside the check to stop at the first answer that is not "valid"; {@link checkOutput}
 * turns it into a {@link Verdict}. (Throwing keeps the many small rules free of plumbing.)
 */
export class CheckStop extends Error {
  /** Wraps a verdict that ends the check. */
  constructor(readonly verdict: Exclude<Verdict, { kind: "valid" }>) {
    super(verdict.kind === "invalid" ? verdict.code : verdict.reason);
  }
}

/** Stops the check: the file has a Khronos error `code` at `pointer`. */
export function invalid(code: string, pointer: string, message: string): never {
  throw new CheckStop({ kind: "invalid", code, pointer, message });
}

/** Stops the check: the file uses something the check does not cover; the Khronos validator decides. */
export function outside(reason: string, pointer: string): never {
  throw new CheckStop({ kind: "outside", reason, pointer });
}
