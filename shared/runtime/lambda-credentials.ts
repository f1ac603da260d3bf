/**
 * Stands in for `@aws-sdk/credential-provider-node` (the SDK's default credential chain) in every
 * Lambda bundle (`EVERY_FUNCTION_ALIASES` in lib/constructs/bundling.ts). Lambda hands a function
 * its execution role's credentials in environment variables (`AWS_ACCESS_KEY_ID`,
 * `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`), the first link of the default chain, where the
 * chain always stops in Lambda. Its other links (SSO, shared ini files, credential processes, web
 * identity, container and instance metadata) and the STS and SSO clients they carry were 115 to
 * 132 KB of every bundle, never run.
 *
 * Without those variables this fails, naming the replacement, instead of looking for a profile: a
 * bundle runs only where Lambda sets them (docs/deploy.md). The local run, the tests and scripts
 * run the sources, which keep the whole default chain.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

type EnvProviderInit = Parameters<typeof fromEnv>[0];
type EnvProvider = ReturnType<typeof fromEnv>;

/** The default chain's name and signature, as the clients' runtime configuration imports it. */
export function defaultProvider(init: EnvProviderInit = {}): EnvProvider {
  const fromLambda = fromEnv(init);
  return async () => {
    try {
      return await fromLambda();
    } catch (error) {
      throw Object.assign(
        new Error(
          'No AWS credentials in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, the only place a function bundle looks for them ' +
            '(Lambda sets them; EVERY_FUNCTION_ALIASES in lib/constructs/bundling.ts)',
          { cause: error },
        ),
        { name: 'CredentialsProviderError' },
      );
    }
  };
}
