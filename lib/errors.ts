/**
 * The one error the domain (`lib/`) and the data layer (`db/`) throw when a request cannot be done as asked.
 * `kind` says what went wrong in HTTP-free words; `server/http/errors.ts` maps it to a status once, for every route.
 * `code` is the stable machine-readable code API clients see (defaults to the kind).
 */
export type DomainErrorKind =
  | "bad_request"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "precondition_required"
  | "too_large"
  | "invalid"
  | "too_many"
  | "unavailable";

export interface DomainErrorOptions {
  /** The API error code, when more precise than the kind ("revision_conflict", "unknown_cluster", …). */
  code?: string;
  /** Machine-readable details answered beside the message (the current revision, the failing items, …). */
  details?: unknown;
  /** Seconds after which a retry may succeed (too_many, unavailable). */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class DomainError extends Error {
  readonly code: string;
  readonly details?: unknown;
  readonly retryAfterSeconds?: number;

  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    options: DomainErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "DomainError";
    this.code = options.code ?? kind;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const notFound = (message: string, options?: DomainErrorOptions) => new DomainError("not_found", message, options);
export const conflict = (message: string, options?: DomainErrorOptions) => new DomainError("conflict", message, options);
export const invalid = (message: string, options?: DomainErrorOptions) => new DomainError("invalid", message, options);
