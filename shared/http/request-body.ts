import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError, validationError } from '../domain/errors.js';

/**
 * Request bodies are JSON text in UTF-8 (docs/api.md, Conventions): the one media type a body is
 * read as, and a strict decoder, so bytes that are not UTF-8 are refused instead of becoming U+FFFD
 * and reaching an operation.
 */
export const JSON_MEDIA_TYPE = 'application/json';

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The body's text, or undefined when there is none. A base64 body (API Gateway and function URLs
 * send binary bodies so; the local server sends every body so) is decoded strictly: invalid UTF-8
 * is `400 VALIDATION_ERROR` on `body`.
 */
export function bodyTextOf(event: Pick<APIGatewayProxyEventV2, 'body' | 'isBase64Encoded'>): string | undefined {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  if (!event.isBase64Encoded) return event.body;
  let text: string;
  try {
    text = STRICT_UTF8.decode(Buffer.from(event.body, 'base64'));
  } catch {
    throw validationError('body', 'is not valid UTF-8');
  }
  return text === '' ? undefined : text;
}

/** `application/json`, any case, with parameters; a charset, if given, must be UTF-8. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [essence = '', ...parameters] = contentType.split(';');
  if (essence.trim().toLowerCase() !== JSON_MEDIA_TYPE) return false;
  return parameters.every((parameter) => {
    const [name = '', value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'charset') return true;
    return (
      value
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .toLowerCase() === 'utf-8'
    );
  });
}

/** A body sent as anything but JSON in UTF-8 (no Content-Type, a form, text, `+json` types, another charset): 415. */
export function requireJsonMediaType(contentType: string | undefined): void {
  if (isJsonMediaType(contentType)) return;
  const sent = contentType ? 'a Content-Type other than application/json (UTF-8)' : 'no Content-Type';
  throw new ApiError(
    'UNSUPPORTED_MEDIA_TYPE',
    `The request body was sent with ${sent}; send it as JSON with "Content-Type: application/json".`,
    {
      accepted: [JSON_MEDIA_TYPE],
    },
  );
}
