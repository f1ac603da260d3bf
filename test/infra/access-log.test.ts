import { describe, expect, it } from 'vitest';
import { ACCESS_LOG_FIELDS } from '../../lib/stacks/api-stack.js';

/**
 * Review of issue 26: the HTTP API's access log is written by API Gateway, past the redaction
 * guard of the functions' lines (shared/observability/redact.ts). Some request paths are bearer
 * secrets: a dashboard invitation (whoever opens it sets the invited user's password), a
 * payment-method session (whoever opens it sets a customer's card). So the access log names the
 * route (a template such as `ANY /dashboard/{proxy+}`), never the path, as the functions' `request`
 * line does (shared/observability/invocation.ts).
 */
describe('the HTTP API access log', () => {
  /** $context variables whose value is (part of) the request path or query as the client sent it. */
  const RAW_REQUEST_TARGET =
    /\$context\.(?:path|http\.path|resourcePath|requestOverride|customDomain\.basePathMatched)\b/;

  it('logs no variable holding the raw request path', () => {
    for (const [field, variable] of Object.entries(ACCESS_LOG_FIELDS))
      expect(variable, field).not.toMatch(RAW_REQUEST_TARGET);
  });

  it('keeps the route key (the template, e.g. `ANY /dashboard/{proxy+}`), which names no token', () => {
    expect(ACCESS_LOG_FIELDS.routeKey).toBe('$context.routeKey');
  });
});
