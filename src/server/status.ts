/**
 * Status bodies: the five-field object of the spec for every write and every
 * error, with the HTTP pairings of api-notes.md. Pure.
 */
import { ResponseCode, responseCodeStatus, type StatusBody } from '../shared/api/codes.ts';

/** HTTP status of each response code (api-notes.md; brackets there are this server's choice). */
export const HTTP_OF: Record<ResponseCode, number> = {
  701: 201,
  702: 202,
  703: 202,
  704: 400,
  705: 409,
  800: 401,
  801: 401,
  802: 401,
  900: 404,
  901: 200,
  902: 400,
  903: 400,
  904: 400,
  1000: 400,
  1001: 400,
  1002: 409,
  1003: 200,
  1004: 409,
  1005: 400,
  1006: 503,
  1429: 429,
};

export function statusBody(
  code: ResponseCode,
  message: string,
  developerUrl: string,
  httpcode = HTTP_OF[code],
): StatusBody {
  return {
    httpcode,
    statuscode: code,
    status: responseCodeStatus[code],
    developermessage: message,
    moreinfo: `${developerUrl}/v1/responsecodes/${code}`,
  };
}

/** A refusal with its response code; the HTTP layer turns it into a status body. */
export class ApiError extends Error {
  readonly code: ResponseCode;
  readonly httpcode: number;
  readonly headers: Record<string, string>;

  constructor(
    code: ResponseCode,
    message: string,
    opts: { httpcode?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.httpcode = opts.httpcode ?? HTTP_OF[code];
    this.headers = opts.headers ?? {};
  }
}

export const denied = (what = 'The resource requested is not owned by the caller.'): ApiError =>
  new ApiError(ResponseCode.AccessDenied, what);
export const noResults = (what = 'No records match the request.'): ApiError =>
  new ApiError(ResponseCode.NoResults, what);
export const missing = (fields: string[]): ApiError =>
  new ApiError(
    ResponseCode.MissingArguments,
    `Required argument${fields.length > 1 ? 's' : ''} missing: ${fields.join(', ')}.`,
  );
export const invalid = (message: string): ApiError => new ApiError(ResponseCode.ValidationFailed, message);
export const notUnique = (message: string): ApiError => new ApiError(ResponseCode.NotUnique, message);
