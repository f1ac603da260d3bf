import type { ServiceDeps } from '../ports.js';
import type { ComplianceStore } from './ports.js';
import { evaluateControls, WEBHOOK_SECRET_SAMPLE_SIZE, type ComplianceResult } from './compliance-rules.js';

/** Settings the controls read; the composition root passes the same objects the service runs with. */
export interface ComplianceSettings {
  webhookEncryptionKey: string | undefined;
  /** Whether the MCP endpoint has its token: the value here (local run), or its secret wired into the MCP function (AWS). */
  mcpAuthTokenConfigured: boolean;
  securityHeaders: Record<string, string>;
  /** Whether a stored secret decrypts with the key (crypto lives outside the domain). */
  decrypts: (stored: string, keyHex: string) => boolean;
}

/** GET /v1/internal/compliance (interface-spec 4.11). */
export function createComplianceService(deps: ServiceDeps<ComplianceStore>, settings: ComplianceSettings) {
  async function check(): Promise<ComplianceResult> {
    const now = deps.clock.now();
    const [hygiene, sampled] = await Promise.all([deps.store.keyHygiene(now), deps.store.sampleWebhookSecrets(WEBHOOK_SECRET_SAMPLE_SIZE)]);
    const first = sampled[0];
    const key = settings.webhookEncryptionKey;
    return evaluateControls(
      {
        ...hygiene,
        webhookSecrets: { sampled, decrypts: first !== undefined && key !== undefined ? settings.decrypts(first, key) : undefined },
        webhookEncryptionKeyConfigured: key !== undefined,
        securityHeaders: settings.securityHeaders,
        mcpAuthTokenConfigured: settings.mcpAuthTokenConfigured,
      },
      now.toISOString(),
    );
  }
  return { check };
}

export type ComplianceService = ReturnType<typeof createComplianceService>;
