/**
 * Telling an object store's 403 for a key it does not hold from a 403 that refuses the client.
 *
 * S3 without `s3:ListBucket` and GCS answer `403 AccessDenied` for a missing key — the same answer,
 * body and all, as a bucket policy that refuses the client's reads. Warning of every such 403 put a
 * note on every cold run of a healthy cache; taking them all as misses would hide a cache that never
 * serves anything. The rule here, per remote and run:
 *
 * - a 403 whose body names a credential error (S3's `InvalidAccessKeyId`, `SignatureDoesNotMatch`,
 *   `ExpiredToken`…; GCS's `InvalidSecurity`) is a refusal at once: the client stops using the remote;
 * - any other 403 to a read is held as a miss, silently, until something tells which it was: a read
 *   that is served (reads work: they were misses); or an upload that goes up, after which the client
 *   reads that record back once — served, they were misses; 403, reads are refused and it says so;
 * - an upload refused (403) while every read was a 403 is one warning naming both;
 * - a run that ends with only 403s to its reads and nothing that told them apart (a read-only client
 *   on a cold cache, uploads refused otherwise) says so once, as a note that it could not tell.
 *
 * @module
 */

/**
 * The credential errors object stores put in a 403's XML `<Code>` (S3's error codes; GCS's XML API
 * uses the same names), each a refusal of the client, never a missing key.
 */
const CREDENTIAL_CODES = [
  "InvalidAccessKeyId",
  "SignatureDoesNotMatch",
  "ExpiredToken",
  "InvalidToken",
  "TokenRefreshRequired",
  "AuthorizationHeaderMalformed",
  "InvalidSecurity",
  "AccountProblem",
  "AllAccessDisabled",
  "RequestTimeTooSkewed",
  "InvalidCredentials",
];

/**
 * The credential error a 403's body names (an object store's `<Code>…</Code>`), or undefined for any
 * other body (S3's `AccessDenied`, which it also answers for a missing key).
 *
 * @example
 * ```ts
 * credentialError("<Error><Code>InvalidAccessKeyId</Code></Error>"); // "InvalidAccessKeyId"
 * credentialError("<Error><Code>AccessDenied</Code></Error>"); // undefined
 * ```
 */
export function credentialError(body: string): string | undefined {
  const code = body.match(/<Code>\s*([A-Za-z]+)\s*<\/Code>/)?.[1];
  return code && CREDENTIAL_CODES.includes(code) ? code : undefined;
}

/** What the 403s to one remote's reads have turned out to be so far. */
export type ForbiddenVerdict = "none" | "undecided" | "misses" | "refused" | "told";

/**
 * The 403s to one remote's reads in one run, and what they turned out to be (see the module doc).
 *
 * @example
 * ```ts
 * const reads = new ForbiddenReads();
 * reads.forbidden("ac/00");
 * reads.verdict; // "undecided"
 * reads.served();
 * reads.verdict; // "misses"
 * ```
 */
export class ForbiddenReads {
  #count = 0;
  #first = "";
  #served = false;
  #verdict: ForbiddenVerdict = "none";
  #probed = false;

  /** The verdict so far: `none` (no 403), `undecided`, `misses`, `refused`, or `told` (warned of already). */
  get verdict(): ForbiddenVerdict {
    return this.#served ? "misses" : this.#verdict;
  }

  /** How many reads were answered 403, and the first one's path. */
  get count(): { readonly reads: number; readonly first: string } {
    return { reads: this.#count, first: this.#first };
  }

  /** A read answered 403 (without a credential error). */
  forbidden(path: string): void {
    if (this.#count++ === 0) this.#first = path;
    if (this.#verdict === "none") this.#verdict = "undecided";
  }

  /** A read was served: reads work, so every 403 was a missing key. */
  served(): void {
    this.#served = true;
  }

  /** True once, for the first upload that went up while the 403s are undecided: read it back. */
  probe(): boolean {
    if (this.verdict !== "undecided" || this.#probed) return false;
    return this.#probed = true;
  }

  /** What reading back an upload answered: 403 means reads are refused, a body that they work. */
  probed(status: number): void {
    if (status === 403 && this.verdict === "undecided") this.#verdict = "refused";
    else if (status >= 200 && status < 300) this.#served = true;
  }

  /** A warning about the 403s was given (an upload refused too, or the end of the run). */
  told(): void {
    if (!this.#served) this.#verdict = "told";
  }
}
