import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks (https://www.standardwebhooks.com): secrets are `whsec_` + base64 of the key bytes. */
export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 24;

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed by the secret's decoded bytes. */
export function signPayload(secret: string, id: string, timestampS: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampS}.${body}`).digest('base64')}`;
}

/** The three Standard Webhooks headers of one attempt. */
export function webhookHeaders(secret: string, id: string, timestampS: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampS),
    'webhook-signature': signPayload(secret, id, timestampS, body),
  };
}
