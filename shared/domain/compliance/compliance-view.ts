import * as z from 'zod/mini';
import { type Conforms, describe, enumOf, integer, lazy, text, timestamp, view } from '../views.js';
import type { ComplianceService } from './compliance-service.js';
import type { ComplianceResult, ControlStatus, OverallStatus } from './compliance-rules.js';
import { everyOf } from '../enums.js';

export const CONTROL_STATUSES = everyOf<ControlStatus>()(['pass', 'fail', 'warn']);
export const OVERALL_STATUSES = everyOf<OverallStatus>()(['compliant', 'warnings', 'non_compliant']);

const controlView = /* @__PURE__ */ lazy(() =>
  z.object({
    control: text(
      'Control name: access_control.no_null_permissions, access_control.expired_keys_revoked, encryption.webhook_secrets, encryption.key_configured, headers.security_headers or access_control.mcp_auth_token.',
    ),
    status: enumOf(CONTROL_STATUSES, 'Outcome of the control: pass, fail or warn.'),
    detail: text('What was found, in one sentence.'),
    lastChecked: timestamp('When the control was evaluated.'),
  }),
);

export const complianceReportView = /* @__PURE__ */ lazy(() =>
  view(
    {
      status: enumOf(
        OVERALL_STATUSES,
        'Overall result: non_compliant if any control fails, else warnings if any warns, else compliant.',
      ),
      summary: describe(
        z.object({
          total: integer('Number of controls evaluated.'),
          passed: integer('Controls that passed.'),
          failed: integer('Controls that failed.'),
          warnings: integer('Controls that warned.'),
        }),
        'Counts of the control outcomes.',
      ),
      controls: describe(
        z.array(controlView),
        'Every control with its outcome (the six controls of interface-spec 4.11).',
      ),
      checkedAt: timestamp('When the report was made (it is computed on each request).'),
    },
    'The compliance report of the service (operator): key hygiene, secret encryption, security headers and MCP authentication.',
    {
      status: 'warnings',
      summary: { total: 6, passed: 5, failed: 0, warnings: 1 },
      controls: [
        {
          control: 'access_control.no_null_permissions',
          status: 'pass',
          detail: 'Every active key has explicit permissions.',
          lastChecked: '2026-03-15T12:00:00.000Z',
        },
        {
          control: 'access_control.expired_keys_revoked',
          status: 'pass',
          detail: 'All expired keys are revoked.',
          lastChecked: '2026-03-15T12:00:00.000Z',
        },
        {
          control: 'encryption.webhook_secrets',
          status: 'warn',
          detail: 'No webhooks are registered.',
          lastChecked: '2026-03-15T12:00:00.000Z',
        },
        {
          control: 'encryption.key_configured',
          status: 'pass',
          detail: 'WEBHOOK_ENCRYPTION_KEY is configured.',
          lastChecked: '2026-03-15T12:00:00.000Z',
        },
        {
          control: 'headers.security_headers',
          status: 'pass',
          detail:
            'Strict-Transport-Security, Content-Security-Policy, Cross-Origin-Resource-Policy, Cross-Origin-Opener-Policy, Permissions-Policy are configured.',
          lastChecked: '2026-03-15T12:00:00.000Z',
        },
        {
          control: 'access_control.mcp_auth_token',
          status: 'pass',
          detail: 'MCP_AUTH_TOKEN is configured for the MCP endpoint.',
          lastChecked: '2026-03-15T12:00:00.000Z',
        },
      ],
      checkedAt: '2026-03-15T12:00:00.000Z',
    },
  ),
);
export type ComplianceReportView = z.infer<typeof complianceReportView>;

/** Type-only: what the compliance service answers as is must fit its view (a drift fails to compile). */
export type ComplianceAnswersConform = [
  Conforms<ComplianceResult, ComplianceReportView>,
  Conforms<Awaited<ReturnType<ComplianceService['check']>>, ComplianceReportView>,
];
