import { describe, expect, it } from 'vitest';
import { exampleOf } from '../../shared/domain/views.js';
import { viewOf } from '../../shared/domain/view-registry.js';
import { htmlOf } from '../fixtures/settings-dashboard.js';
import { refuse, teamWorld } from '../fixtures/team-dashboard.js';

const REPORT = exampleOf(viewOf('complianceReportView'));
const KYB = exampleOf(viewOf('kybReviewView')) as { id: string; name: string };
const DISPUTE = exampleOf(viewOf('disputeView')) as Record<string, unknown> & { id: string };
const OPEN = {
  ...DISPUTE,
  status: 'OPEN',
  resolvedBy: null,
  resolutionNote: null,
  resolvedAt: null,
  resolutionTransactionId: null,
  creditedWalletId: null,
};

const answers = {
  getCompliance: () => REPORT,
  listPendingKyb: () => ({ data: [KYB] }),
  listOpenDisputes: () => ({ data: [OPEN] }),
  decideKyb: ({ params, body }: { params: Record<string, string>; body: Record<string, unknown> }) => ({
    id: params.id,
    kybStatus: body.status,
  }),
  resolveDispute: ({ body }: { body: Record<string, unknown> }) => ({ ...DISPUTE, status: body.outcome }),
};

describe('dashboard operator pages', () => {
  it('shows the compliance report: overall outcome and every control', async () => {
    const world = teamWorld('operator', answers);
    const html = htmlOf(await world.serve('GET', '/dashboard/operator/compliance'), 200);
    expect(html).toContain('data-compliance-status="warnings"');
    expect(html.match(/data-control="/g)?.length).toBe((REPORT as { controls: unknown[] }).controls.length);
  });

  it('lists the organizations waiting for KYB with the details, and decides one (PRG)', async () => {
    const world = teamWorld('operator', answers);
    const html = htmlOf(await world.serve('GET', '/dashboard/operator/kyb'), 200);
    expect(html).toContain(`data-organization-id="${KYB.id}"`);
    expect(html).toContain('12-3456789');
    expect(html).toContain('value="VERIFIED"');
    expect(html).toContain('value="REJECTED"');
    expect(await world.serve('POST', `/dashboard/operator/kyb/${KYB.id}`, { status: 'VERIFIED' })).toEqual({
      status: 303,
      location: '/dashboard/operator/kyb?done=verified',
    });
    expect(world.calls.at(-1)).toMatchObject({
      operation: 'decideKyb',
      input: { params: { id: KYB.id }, body: { status: 'VERIFIED' } },
    });
    expect(htmlOf(await world.serve('GET', '/dashboard/operator/kyb?done=verified'), 200)).toContain(
      'data-notice="verified"',
    );
  });

  it('lists the disputes to resolve and resolves one with an outcome and a note; a decided one says so', async () => {
    const world = teamWorld('operator', answers);
    const html = htmlOf(await world.serve('GET', '/dashboard/operator/disputes'), 200);
    expect(html).toContain(`data-dispute-id="${OPEN.id}"`);
    for (const outcome of ['RESOLVED_AGENT', 'RESOLVED_MERCHANT', 'CLOSED'])
      expect(html).toContain(`value="${outcome}"`);
    expect(
      await world.serve('POST', `/dashboard/operator/disputes/${OPEN.id}/resolve`, {
        outcome: 'CLOSED',
        note: 'Settled by phone',
      }),
    ).toEqual({ status: 303, location: '/dashboard/operator/disputes?done=resolved' });
    expect(world.calls.at(-1)!.input.body).toEqual({ outcome: 'CLOSED', note: 'Settled by phone' });

    const decided = teamWorld('operator', {
      ...answers,
      resolveDispute: refuse('INVALID_STATE', 'The dispute is resolved already.'),
    });
    const page = htmlOf(
      await decided.serve('POST', `/dashboard/operator/disputes/${OPEN.id}/resolve`, { outcome: 'CLOSED' }),
      409,
    );
    expect(page).toContain('data-error-code="INVALID_STATE"');
    const bad = htmlOf(
      await world.serve('POST', `/dashboard/operator/disputes/${OPEN.id}/resolve`, { outcome: 'MAYBE' }),
      400,
    );
    expect(bad).toMatch(/data-error-code="VALIDATION_ERROR">Outcome: /);
  });

  it('an organization user gets the operations 403 on every operator page, forms included', async () => {
    const world = teamWorld('owner', answers);
    for (const path of ['/dashboard/operator/compliance', '/dashboard/operator/kyb', '/dashboard/operator/disputes'])
      expect(htmlOf(await world.serve('GET', path), 403)).toContain('data-error-code="PERMISSION_DENIED"');
    htmlOf(await world.serve('POST', `/dashboard/operator/kyb/${KYB.id}`, { status: 'VERIFIED' }), 403);
    htmlOf(await world.serve('POST', `/dashboard/operator/disputes/${OPEN.id}/resolve`, { outcome: 'CLOSED' }), 403);
  });
});
