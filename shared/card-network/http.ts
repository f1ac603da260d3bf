import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Clock } from '../domain/clock.js';
import { answerNetworkRequest, type NetworkAnswer } from '../domain/cards/network-request.js';
import { ApiError } from '../domain/errors.js';
import type { Environment } from '../domain/tenancy.js';
import { errorResponse, internalErrorResponse, jsonResponse, type HttpResponse } from '../http/responses.js';
import { CARD_NETWORK_FAILURE_MARKER, CARD_NETWORK_FUNCTION, CARD_NETWORK_SIGNATURE_HEADER } from './function.js';
import type { SecretSource } from './secret.js';
import type { Log } from '../observability/log.js';
import { verifyCardNetworkSignature } from './signature.js';

type Engine = Parameters<typeof answerNetworkRequest>[0];

export interface CardNetworkRuntime {
  /** The authorization engine (the card service's `authorizeForNetwork`). */
  engine: Engine;
  /** The environment whose cards this endpoint authorizes (environment.ts); another's are declined `environment_mismatch`. */
  environment: Environment;
  secret: SecretSource;
  clock: Clock;
  log: Pick<Log, 'error' | 'warn'>;
}

const UNAUTHORIZED_MESSAGE = `Sign each request: "${CARD_NETWORK_SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">".`;

/** The raw body as signed: bytes as received (function URLs base64-encode bodies they do not take for text). */
function rawBodyOf(event: APIGatewayProxyEventV2): Buffer {
  if (event.body === undefined || event.body === null) return Buffer.alloc(0);
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
}

function withRequestId(response: HttpResponse, requestId: string, extra: Record<string, string> = {}): HttpResponse {
  return { ...response, headers: { ...response.headers, ...extra, 'X-Request-Id': requestId } };
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * One request of the issuing processor (a Lambda function URL event, payload 2.0; the local server
 * builds the same): the path (404), POST only (405), the body's size (413), the signature (401
 * with the error envelope: nothing is read or written), then the authorization engine's decision,
 * answered `200 {approved, authorizationId?, reason?}` whether approved or declined. A body that
 * is not the request's JSON is declined `invalid_request`, an engine failure `processing_error`
 * (answerNetworkRequest); only a failure before the decision (the secret could not be read)
 * answers 500, which the processor takes as a decline.
 */
export async function handleCardNetworkRequest(
  event: APIGatewayProxyEventV2,
  runtime: CardNetworkRuntime,
): Promise<HttpResponse> {
  const requestId = event.requestContext?.requestId ?? 'unknown';
  try {
    const path = event.rawPath ?? '/';
    if (path !== CARD_NETWORK_FUNCTION.path)
      throw new ApiError(
        'NOT_FOUND',
        `No route ${path}; the card network endpoint is POST ${CARD_NETWORK_FUNCTION.path}.`,
      );
    if ((event.requestContext?.http?.method ?? 'GET').toUpperCase() !== 'POST') {
      const refusal = new ApiError('METHOD_NOT_ALLOWED', 'POST the authorization request.', { allowed: ['POST'] });
      return withRequestId(errorResponse(refusal, requestId), requestId, { Allow: 'POST' });
    }
    const body = rawBodyOf(event);
    if (body.length > CARD_NETWORK_FUNCTION.maxBodyBytes) {
      throw new ApiError('PAYLOAD_TOO_LARGE', `The request body exceeds ${CARD_NETWORK_FUNCTION.maxBodyBytes} bytes.`, {
        maxBytes: CARD_NETWORK_FUNCTION.maxBodyBytes,
      });
    }
    const secret = await runtime.secret();
    if (!secret) throw new ApiError('UNAUTHORIZED', 'The card network endpoint is not configured (no signing secret).');
    const header = event.headers?.[CARD_NETWORK_SIGNATURE_HEADER];
    const check = verifyCardNetworkSignature({
      header,
      body,
      secret,
      nowS: Math.floor(runtime.clock.now().getTime() / 1000),
    });
    if (!check.ok) {
      // The reason for the operators only; the caller learns nothing about which part failed.
      runtime.log.warn('card network request refused', undefined, { reason: check.reason });
      throw new ApiError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE);
    }
    // The engine logs its failures (never the request): marked, so the stack's metric filter counts them.
    const engineLog = { error: (...args: unknown[]) => runtime.log.error(CARD_NETWORK_FAILURE_MARKER, ...args) };
    const answer: NetworkAnswer = await answerNetworkRequest(
      runtime.engine,
      parseJson(body),
      engineLog,
      runtime.environment,
      CARD_NETWORK_FUNCTION.audit,
    );
    if (answer.reason === 'environment_mismatch') {
      // A card of the other environment: a processor pointed at the wrong endpoint, or a probe.
      runtime.log.warn('card network request for a card of another environment declined', undefined, {
        endpointEnvironment: runtime.environment,
      });
    }
    return withRequestId(jsonResponse(200, answer), requestId);
  } catch (error) {
    if (error instanceof ApiError) return withRequestId(errorResponse(error, requestId), requestId);
    runtime.log.error(CARD_NETWORK_FAILURE_MARKER, error);
    return withRequestId(internalErrorResponse(requestId), requestId);
  }
}
