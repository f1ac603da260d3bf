import { ApiError, toEnvelope } from '../domain/errors.js';
import { SECURITY_HEADERS } from './security-headers.js';

export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** What an operation returns; the middleware turns it into the API Gateway response. */
export interface HttpResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown): HttpResult => ({ status: 200, body });
export const created = (body: unknown): HttpResult => ({ status: 201, body });
export const accepted = (body: unknown): HttpResult => ({ status: 202, body });

/** The answer of an idempotent operation; a replay is the first response again, marked as such. */
export function idempotentResult(response: { status: number; body: unknown; replayed: boolean }): HttpResult {
  return { status: response.status, body: response.body, ...(response.replayed ? { headers: { 'Idempotent-Replayed': 'true' } } : {}) };
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return {
    statusCode: status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers, ...SECURITY_HEADERS },
    body: JSON.stringify(body),
  };
}

export function errorResponse(error: ApiError, requestId: string, headers: Record<string, string> = {}): HttpResponse {
  const envelope = toEnvelope(error);
  return jsonResponse(error.status, { error: { ...envelope.error, requestId } }, headers);
}

export function internalErrorResponse(requestId: string): HttpResponse {
  return errorResponse(new ApiError('INTERNAL_ERROR', `Something went wrong on our side (request ${requestId}).`), requestId);
}
