import { ApiError, toEnvelope } from '../domain/errors.js';
import { JSON_MEDIA_TYPE } from './request-body.js';
import { SECURITY_HEADERS } from './security-headers.js';

export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  /** The body is base64 of the bytes to send (a compressed answer); API Gateway, function URLs and the local server decode it. */
  isBase64Encoded?: boolean;
  /** Set-Cookie values (API Gateway's payload 2.0 `cookies`: the dashboard's session only; /v1 sets none). */
  cookies?: string[];
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return {
    statusCode: status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers, ...SECURITY_HEADERS },
    body: JSON.stringify(body),
  };
}

/** The headers an error implies: `Retry-After` where it says when to retry, `Accept` on a 415. */
export function errorHeadersOf(error: ApiError): Record<string, string> {
  const headers: Record<string, string> = {};
  if (error.details?.retryAfter !== undefined) headers['Retry-After'] = String(error.details.retryAfter);
  if (error.code === 'UNSUPPORTED_MEDIA_TYPE') headers.Accept = JSON_MEDIA_TYPE;
  return headers;
}

export function errorResponse(error: ApiError, requestId: string, headers: Record<string, string> = {}): HttpResponse {
  const envelope = toEnvelope(error);
  return jsonResponse(
    error.status,
    { error: { ...envelope.error, requestId } },
    { ...errorHeadersOf(error), ...headers },
  );
}

export function internalErrorResponse(requestId: string): HttpResponse {
  return errorResponse(
    new ApiError('INTERNAL_ERROR', `Something went wrong on our side (request ${requestId}).`),
    requestId,
  );
}
