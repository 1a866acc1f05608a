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
}

/** Validates GLB or glTF bytes; external resources are refused. */
export async function validateGltf(bytes: Uint8Array): Promise<ValidationSummary> {
  const report = await validator.validateBytes(bytes, {
    maxIssues: 100,
    externalResourceFunction: (uri: string) => Promise.reject(new Error(`external resource ${uri}`)),
  });
  const issues = report.issues;
  return {
    errors: issues.numErrors,
    warnings: issues.numWarnings,
    messages: issues.messages.filter((m: { severity: number }) => m.severity === 0)
      .slice(0, 10).map((m: { code: string; message: string; pointer?: string }) =>
        `${m.code} ${m.pointer ?? ""}: ${m.message}`
      ),
  };
}
