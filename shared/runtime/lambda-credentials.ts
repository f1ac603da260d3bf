/**
 * Stands in for `@aws-sdk/credential-provider-node` (the SDK's default credential chain) in every
 * Lambda bundle (`EVERY_FUNCTION_ALIASES` in lib/constructs/bundling.ts). Lambda hands a function
 * its execution role's credentials in environment variables (`AWS_ACCESS_KEY_ID`,
 * `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`), the first link of the default chain, where the
 * chain always stops in Lambda. Its other links (SSO, shared ini files, credential processes, web
 * identity, container and instance metadata) and the STS and SSO clients they carry were about
 * 95 KB of every bundle and never ran.
 *
 * Without those variables this fails (the SDK's `CredentialsProviderError`) instead of looking for
 * a profile: a bundle runs only in Lambda. The local run, the tests and scripts run the sources,
 * which keep the whole default chain.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

type EnvProviderInit = Parameters<typeof fromEnv>[0];

/** The default chain's name and signature, as the clients' runtime configuration imports it. */
export function defaultProvider(init: EnvProviderInit = {}): ReturnType<typeof fromEnv> {
  return fromEnv(init);
}
