/**
 * A provider that cannot be used as configured: a config mistake, a missing key, an unknown provider or
 * model, a package the workbench does not bundle, or a request to an origin the key must not reach.
 * Raised before (or instead of) any call to the provider, always with what to do about it.
 */
export type SetupErrorKind = "config" | "auth" | "model" | "provider" | "security";

export class ProviderSetupError extends Error {
  override readonly name = "ProviderSetupError";
  constructor(
    readonly kind: SetupErrorKind,
    message: string,
    readonly hint: string,
    /** The JSON path in opencode.json the problem is at, when it is a config problem. */
    readonly path?: string,
  ) {
    super(message);
  }
}
