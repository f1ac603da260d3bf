import { cardNetworkEnvironment } from '../../shared/card-network/environment.js';
import { handleCardNetworkRequest, type CardNetworkRuntime } from '../../shared/card-network/http.js';
import { cardNetworkSecret } from '../../shared/card-network/secret.js';
import { core } from '../../shared/runtime/core.js';
import { cardAuthorizationService } from '../../shared/runtime/services/cards.js';
import { CARD_NETWORK_FUNCTION } from '../../shared/card-network/function.js';
import { observedEdge } from '../../shared/observability/invocation.js';
import { log } from '../../shared/observability/log.js';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

const secret = cardNetworkSecret();

// Read the signing secret during the cold start (init), not in the ~2 s the network gives a
// request; a failure here is retried by the first request, which then answers 500 if it fails again.
await secret().catch(() => undefined);

let runtime: CardNetworkRuntime | undefined;

/**
 * The issuing processor's real-time authorization request, behind a Lambda function URL (auth
 * NONE: every request is HMAC-signed, shared/card-network/signature.ts) and POST
 * /card-network/authorizations of the local server. The engine is the one the sandbox test helper
 * calls. The function never issues a card nor opens card details: its card service has no issuer
 * (and its role no KMS key); authorizing needs neither.
 */
export const handler = observedEdge(async (event: APIGatewayProxyEventV2) => {
  runtime ??= (() => {
    const base = core();
    return {
      engine: cardAuthorizationService(base),
      environment: cardNetworkEnvironment(process.env, base.config.localRun),
      secret,
      clock: base.clock,
      log,
    };
  })();
  return handleCardNetworkRequest(event, runtime);
}, routeOfCardNetwork);

function routeOfCardNetwork(event: APIGatewayProxyEventV2): string {
  return `${event.requestContext?.http?.method ?? 'POST'} ${CARD_NETWORK_FUNCTION.path}`;
}
