import { createComplianceService, type ComplianceService } from '../../domain/compliance/compliance-service.js';
import type { ComplianceStore } from '../../domain/compliance/ports.js';
import { SECURITY_HEADERS } from '../../http/security-headers.js';
import { createComplianceStore } from '../../persistence/compliance-store.js';
import type { Core } from '../core.js';
import { log } from '../../observability/log.js';
import { cipherOf } from '../webhook-cipher.js';

export function complianceService(
  core: Core,
  { store = createComplianceStore(core.table) }: { store?: ComplianceStore } = {},
): ComplianceService {
  const { config } = core;
  const cipher = cipherOf(core);
  return createComplianceService(
    { ...core.deps, store },
    {
      webhookKeyReadable: cipher
        ? () =>
            cipher.ready().then(
              () => true,
              (error: unknown) => {
                log.error(
                  'compliance: the webhook encryption key could not be read',
                  error instanceof Error ? error.message : 'unknown error',
                );
                return false;
              },
            )
        : undefined,
      mcpAuthTokenConfigured: config.mcpAuthToken !== undefined || config.mcpAuthTokenSecretArn !== undefined,
      securityHeaders: SECURITY_HEADERS,
      decrypts: (stored) =>
        cipher
          ? cipher.decrypt(stored).then(
              () => true,
              () => false,
            )
          : Promise.resolve(false),
    },
  );
}
