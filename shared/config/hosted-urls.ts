import type { Config } from './config.js';

/**
 * The absolute URL of a hosted page: `${PUBLIC_BASE_URL}${path}` (path from HOSTED_PATHS of
 * shared/domain/hosted-urls.ts). bin/local.ts sets PUBLIC_BASE_URL to the local server, the e2e
 * fixture to its server and CDK to the stage's HTTP API endpoint; a function without it cannot
 * hand out a link, and says so rather than answer a relative one.
 */
export function hostedUrl(config: Pick<Config, 'publicBaseUrl'>, path: string): string {
  if (!config.publicBaseUrl) throw new Error('PUBLIC_BASE_URL is not set: no hosted page URL can be built');
  if (!path.startsWith('/')) throw new Error(`a hosted page path starts with /: ${path}`);
  return `${config.publicBaseUrl}${path}`;
}
