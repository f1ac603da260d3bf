/**
 * The compliance controls of interface-spec 4.11, as pure rules over facts gathered elsewhere.
 * Each control has exactly the pass/fail/warn rule of the spec.
 */
export type ControlStatus = 'pass' | 'fail' | 'warn';
export type OverallStatus = 'compliant' | 'warnings' | 'non_compliant';

export interface ControlResult {
  control: string;
  status: ControlStatus;
  detail: string;
  lastChecked: string;
}

export interface ComplianceFacts {
  /** Active (non-revoked) keys stored without explicit permissions. */
  activeKeysWithoutPermissions: number;
  /** Keys past their expiry that are still active. */
  expiredActiveKeys: number;
  /** Up to 10 sampled webhook secrets as stored; `decrypts` tells whether one sample decrypted. */
  webhookSecrets: { sampled: string[]; decrypts: boolean | undefined };
  /** WEBHOOK_ENCRYPTION_KEY: set and usable, set (its secret, in AWS) but not readable now, or not set at all. */
  webhookEncryptionKey: 'configured' | 'unreadable' | 'missing';
  /** The headers the middleware applies (the same object). */
  securityHeaders: Record<string, string>;
  mcpAuthTokenConfigured: boolean;
}

export const WEBHOOK_SECRET_SAMPLE_SIZE = 10;
export const REQUIRED_SECURITY_HEADERS = [
  'Strict-Transport-Security',
  'Content-Security-Policy',
  'Cross-Origin-Resource-Policy',
  'Cross-Origin-Opener-Policy',
  'Permissions-Policy',
] as const;

/** AES-256-GCM at rest: hex iv (12 bytes), hex auth tag (16 bytes), hex ciphertext. */
export const ENCRYPTED_SECRET_FORMAT = /^[0-9a-f]{24}:[0-9a-f]{32}:[0-9a-f]+$/;

export function evaluateControls(facts: ComplianceFacts, checkedAt: string) {
  const control = (name: string, status: ControlStatus, detail: string): ControlResult => ({
    control: name,
    status,
    detail,
    lastChecked: checkedAt,
  });
  const unencrypted = facts.webhookSecrets.sampled.filter((secret) => !ENCRYPTED_SECRET_FORMAT.test(secret)).length;
  const missingHeaders = REQUIRED_SECURITY_HEADERS.filter((name) => !facts.securityHeaders[name]);

  const controls: ControlResult[] = [
    facts.activeKeysWithoutPermissions > 0
      ? control(
          'access_control.no_null_permissions',
          'fail',
          `${facts.activeKeysWithoutPermissions} active key(s) have no explicit permissions.`,
        )
      : control('access_control.no_null_permissions', 'pass', 'Every active key has explicit permissions.'),
    facts.expiredActiveKeys > 0
      ? control(
          'access_control.expired_keys_revoked',
          'warn',
          `${facts.expiredActiveKeys} expired key(s) are still active.`,
        )
      : control('access_control.expired_keys_revoked', 'pass', 'All expired keys are revoked.'),
    facts.webhookSecrets.sampled.length === 0
      ? control('encryption.webhook_secrets', 'warn', 'No webhooks are registered.')
      : unencrypted > 0 || facts.webhookSecrets.decrypts === false
        ? control(
            'encryption.webhook_secrets',
            'fail',
            unencrypted > 0
              ? `${unencrypted} of ${facts.webhookSecrets.sampled.length} sampled secrets are not encrypted.`
              : 'A sampled secret does not decrypt with the configured key.',
          )
        : control(
            'encryption.webhook_secrets',
            'pass',
            `All ${facts.webhookSecrets.sampled.length} sampled secrets are encrypted (AES-256-GCM).`,
          ),
    facts.webhookEncryptionKey === 'configured'
      ? control('encryption.key_configured', 'pass', 'WEBHOOK_ENCRYPTION_KEY is configured.')
      : facts.webhookEncryptionKey === 'unreadable'
        ? control('encryption.key_configured', 'fail', 'WEBHOOK_ENCRYPTION_KEY is configured but could not be read.')
        : control('encryption.key_configured', 'fail', 'WEBHOOK_ENCRYPTION_KEY is missing.'),
    missingHeaders.length === 0
      ? control('headers.security_headers', 'pass', `${REQUIRED_SECURITY_HEADERS.join(', ')} are configured.`)
      : control('headers.security_headers', 'fail', `Missing: ${missingHeaders.join(', ')}.`),
    facts.mcpAuthTokenConfigured
      ? control('access_control.mcp_auth_token', 'pass', 'MCP_AUTH_TOKEN is configured for the MCP endpoint.')
      : control('access_control.mcp_auth_token', 'warn', 'MCP_AUTH_TOKEN is missing.'),
  ];

  const count = (status: ControlStatus) => controls.filter((c) => c.status === status).length;
  const summary = { total: controls.length, passed: count('pass'), failed: count('fail'), warnings: count('warn') };
  const status: OverallStatus = summary.failed > 0 ? 'non_compliant' : summary.warnings > 0 ? 'warnings' : 'compliant';
  return { status, summary, controls, checkedAt };
}

export type ComplianceResult = ReturnType<typeof evaluateControls>;
