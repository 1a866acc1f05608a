/**
 * glTF validation with the Khronos validator (npm `gltf-validator`), for tests.
 *
 * @module
 */
import validator from "gltf-validator";

/** The parts of a validator report tests look at. */
export interface ValidationSummary {
  errors: number;
  warnings: number;
  /** The first few error messages with their JSON pointers, for assertion messages. */
  messages: string[];
  /** The distinct codes of every error reported (up to the report's 100 issues). */
  codes: string[];
}

/** Validates GLB or glTF bytes; external resources are refused. */
export async function validateGltf(bytes: Uint8Array): Promise<ValidationSummary> {
  const report = await validator.validateBytes(bytes, {
    maxIssues: 100,
    externalResourceFunction: (uri: string) => Promise.reject(new Error(`external resource ${uri}`)),
  });
  const issues = report.issues;
  const errors = issues.messages.filter((m: { severity: number }) => m.severity === 0);
  return {
    codes: [...new Set<string>(errors.map((m: { code: string }) => m.code))],
    errors: issues.numErrors,
    warnings: issues.numWarnings,
    messages: errors.slice(0, 10).map((m: { code: string; message: string; pointer?: string }) =>
      `${m.code} ${m.pointer ?? ""}: ${m.message}`
    ),
  };
}
