/**
 * Response codes of the Data API v1 (spec "Errors" and api-notes.md), and the
 * status body every write result and every error carries.
 */
import { z } from 'zod';

export const ResponseCode = {
  Created: 701,
  Updated: 702,
  Deleted: 703,
  InvalidJsonBody: 704,
  DuplicateData: 705,
  AccessDenied: 800,
  NoToken: 801,
  InvalidToken: 802,
  NotImplemented: 900,
  NoResults: 901,
  InvalidSearchJson: 902,
  InvalidSearchParams: 903,
  SearchNotAccepted: 904,
  MissingArguments: 1000,
  ValidationFailed: 1001,
  NotUnique: 1002,
  NotModified: 1003,
  DependentsFirst: 1004,
  NoValidParameters: 1005,
  ExternalUnavailable: 1006,
  /** Reference-server choice: the platform publishes no code for HTTP 429. */
  TooManyRequests: 1429,
} as const;
export type ResponseCode = (typeof ResponseCode)[keyof typeof ResponseCode];

/** Short names the reference server puts in `status`. */
export const responseCodeStatus: Record<ResponseCode, string> = {
  701: 'created',
  702: 'accepted',
  703: 'accepted',
  704: 'invalid json',
  705: 'duplicate data',
  800: 'access denied',
  801: 'no access token',
  802: 'invalid access token',
  900: 'not implemented',
  901: 'ok',
  902: 'invalid search json',
  903: 'invalid search parameters',
  904: 'search not accepted',
  1000: 'missing arguments',
  1001: 'validation failed',
  1002: 'not unique',
  1003: 'not modified',
  1004: 'dependent resources',
  1005: 'no valid parameters',
  1006: 'external system unavailable',
  1429: 'too many requests',
};

/** The five-field status body of the spec, plus optional extras (new ids on 701). */
export const statusBodySchema = z
  .object({
    httpcode: z.coerce.number().int(),
    statuscode: z.coerce.number().int(),
    status: z.string(),
    developermessage: z.string(),
    moreinfo: z.string(),
  })
  .loose();
export type StatusBody = z.infer<typeof statusBodySchema>;

export function isStatusBody(value: unknown): value is StatusBody {
  return statusBodySchema.safeParse(value).success;
}
