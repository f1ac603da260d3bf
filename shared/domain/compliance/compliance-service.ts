import type { ServiceDeps } from '../ports.js';
import type { ComplianceStore } from './ports.js';
import { evaluateControls, WEBHOOK_SECRET_SAMPLE_SIZE, type ComplianceResult } from './compliance-rules.js';

/** Settings the controls read; the composition root passes the same objects the service runs with. */
export interface ComplianceSettings {
  /**
   * WEBHOOK_ENCRYPTION_KEY: undefined when it is not configured; else whether it can be read now
   * (the value here in the local run; its secret in AWS, whose read can fail).
   */
  webhookKeyReadable: (() => Promise<boolean>) | undefined;
  /** Whether the MCP endpoint has its token: the value here (local run), or its secret wired into the MCP function (AWS). */
  mcpAuthTokenConfigured: boolean;
  securityHeaders: Record<string, string>;
  /** Whether a stored secret opens with the key (crypto lives outside the domain), once the key could be read. */
  decrypts: (stored: string) => Promise<boolean>;
}

/** GET /v1/internal/compliance (interface-spec 4.11). */
export function createComplianceService(deps: ServiceDeps<ComplianceStore>, settings: ComplianceSettings) {
  async function check(): Promise<ComplianceResult> {
    const now = deps.clock.now();
    const [hygiene, sampled] = await Promise.all([
      deps.store.keyHygiene(now),
      deps.store.sampleWebhookSecrets(WEBHOOK_SECRET_SAMPLE_SIZE),
    ]);
    const first = sampled[0];
    const key =
      settings.webhookKeyReadable === undefined
        ? 'missing'
        : (await settings.webhookKeyReadable())
          ? 'configured'
          : 'unreadable';
    return evaluateControls(
      {
        ...hygiene,
        // A key that can not be read says nothing about the stored secrets: the key control fails instead.
        webhookSecrets: {
          sampled,
          decrypts: first !== undefined && key === 'configured' ? await settings.decrypts(first) : undefined,
        },
        webhookEncryptionKey: key,
        securityHeaders: settings.securityHeaders,
        mcpAuthTokenConfigured: settings.mcpAuthTokenConfigured,
      },
      now.toISOString(),
    );
  }
  return { check };
}

export type ComplianceService = ReturnType<typeof createComplianceService>;
