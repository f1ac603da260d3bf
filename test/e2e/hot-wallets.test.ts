import { describe, expect, it } from 'vitest';
import { systemClock } from '../../shared/domain/clock.js';
import { HOT_MODE_LANES, HOT_MODE_PARTITIONS } from '../../shared/domain/hot-mode/hot-mode-rules.js';
import { keeperMoves } from '../../shared/persistence/hot/keeper-binding.js';
import { setupE2e } from '../fixtures/e2e-setup.js';
import { expectApiError, expectOk, type Organization } from '../fixtures/payments-client.js';

/**
 * Hot wallets as a client sees them (decisions.md section 13, docs/api.md "Hot wallets"): the
 * operator's switch, then the organization's own API, which is the same for a hot wallet. The
 * stream's fold runs as in `npm start`; the minute keeper is run by the test (its schedule is not
 * started by the test service), after the settle window where a demotion needs it.
 */
describe('hot wallets', () => {
  const { service, ledger, org, otherOrg } = setupE2e({
    organizations: { org: 'Hot Org', otherOrg: 'Other Org' },
  });

  const hotMode = (walletId: string, enabled: boolean, key = service.adminKey, body: unknown = { enabled }) =>
    service.call('POST', `/v1/internal/wallets/${walletId}/hot-mode`, { key, body });

  /** The minute keeper over one wallet, `laterMs` from now (past the settle window where a demotion must finish). */
  const keep = (walletId: string, laterMs = 0) =>
    keeperMoves(systemClock).keep(service.table, walletId, new Date(Date.now() + laterMs));

  async function freshOrganization(): Promise<Organization> {
    return service.createOrganization('Hot journeys');
  }

  /** The wallet as the operator sees it (a call that changes nothing: on for a hot wallet, off for a cooling or cold one). */
  const operatorView = async (walletId: string, hot: boolean) => expectOk(await hotMode(walletId, hot));

  it('lets the operator turn hot mode on for a main wallet: answered with hotMode, audited, invisible to the organization', async () => {
    // Prepare
    const organization = await freshOrganization();
    await ledger.fund(organization.key, organization.mainWalletId, '100.00');

    // Act
    const answer = expectOk(await hotMode(organization.mainWalletId, true));

    // Assess
    expect(answer).toMatchObject({
      id: organization.mainWalletId,
      balance: '100.00000000',
      hotMode: { state: 'HOT', partitions: HOT_MODE_PARTITIONS, lanes: HOT_MODE_LANES },
    });
    const seen = expectOk(
      await service.call('GET', `/v1/wallets/${organization.mainWalletId}`, { key: organization.key }),
    );
    expect(seen).not.toHaveProperty('hotMode');
    expect(seen.balance).toBe('100.00000000');
    const audit = await ledger.auditOf(organization.organizationId);
    expect(audit.filter((entry) => entry.action === 'wallet.hot_mode.enabled')).toEqual([
      expect.objectContaining({ resourceId: organization.mainWalletId, actorType: 'API_KEY' }),
    ]);
    // On again changes nothing.
    expect(expectOk(await hotMode(organization.mainWalletId, true)).hotMode.state).toBe('HOT');
    expect(
      (await ledger.auditOf(organization.organizationId)).filter((e) => e.action.startsWith('wallet.hot_mode')),
    ).toHaveLength(1);
  });

  it('stops payments out of a frozen hot wallet at once', async () => {
    // Prepare: an agent's wallet, hot, with money.
    const organization = await freshOrganization();
    await ledger.fund(organization.key, organization.mainWalletId, '100.00');
    const agent = await ledger.createAgent(organization, 'Hot agent');
    expectOk(
      await service.call('POST', `/v1/agents/${agent.walletId}/adjust-budget`, {
        key: organization.key,
        body: { amount: '40.00' },
      }),
    );
    expectOk(await hotMode(agent.walletId, true));
    await keep(agent.walletId);

    // Act
    expectOk(await service.call('POST', `/v1/agents/${agent.walletId}/pause`, { key: organization.key }));
    const refused = await service.call('POST', '/v1/payments', {
      key: agent.key,
      body: { from: agent.walletId, to: organization.mainWalletId, amount: '1.00' },
    });

    // Assess
    expectApiError(refused, 403, 'WALLET_FROZEN');
    expect((await operatorView(agent.walletId, true)).balance).toBe('40.00000000');
    await ledger.expectLedgerBalanced();
  });

  it('lets no organization key, agent key or other organization switch hot mode; the operator gets 404 for an unknown wallet', async () => {
    // Prepare
    const agent = await ledger.createAgent(org, 'Curious agent');

    // Act + Assess
    expectApiError(await hotMode(org.mainWalletId, true, org.key), 403, 'PERMISSION_DENIED');
    expectApiError(await hotMode(agent.walletId, true, agent.key), 403, 'PERMISSION_DENIED');
    expectApiError(await hotMode(org.mainWalletId, true, otherOrg.key), 403, 'PERMISSION_DENIED');
    expectApiError(await hotMode('wal_000000000000000000000000', true), 404, 'WALLET_NOT_FOUND');
    expectApiError(
      await hotMode(org.mainWalletId, true, service.adminKey, { enabled: 'yes' }),
      400,
      'VALIDATION_ERROR',
    );
    expectApiError(
      await hotMode(org.mainWalletId, true, service.adminKey, { enabled: true, partitions: 3 }),
      400,
      'VALIDATION_ERROR',
    );
    expect(expectOk(await hotMode(org.mainWalletId, false)).hotMode).toBeNull();
  });
});
