import type { Environment } from '../domain/tenancy.js';
import { CARD_NETWORK_ENV } from './function.js';

const ENVIRONMENTS: readonly Environment[] = ['PRODUCTION', 'SANDBOX'];

/**
 * The environment the card network endpoint serves (CARD_NETWORK_ENV.environment): as set, else
 * SANDBOX for the local run and PRODUCTION anywhere else (a deployed endpoint missing the setting
 * stays live: a sandbox card never authorizes through it). Read at cold start; a bad value stops
 * the function before it serves.
 */
export function cardNetworkEnvironment(env: Record<string, string | undefined>, localRun: boolean): Environment {
  const value = env[CARD_NETWORK_ENV.environment];
  if (value === undefined) return localRun ? 'SANDBOX' : 'PRODUCTION';
  if (!(ENVIRONMENTS as readonly string[]).includes(value))
    throw new Error(`invalid configuration: ${CARD_NETWORK_ENV.environment}: must be PRODUCTION or SANDBOX`);
  return value as Environment;
}
