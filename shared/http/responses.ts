import { ApiError, toEnvelope } from '../domain/errors.js';
import { SECURITY_HEADERS } from './security-headers.js';

export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
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
