import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config/config.js';
import { fixedClock } from '../../shared/domain/clock.js';
import { ApiError } from '../../shared/domain/errors.js';
import { IN_FLIGHT_STALE_MS } from '../../shared/domain/idempotency/idempotency.js';
import type { AgentStore } from '../../shared/domain/agents/ports.js';
import { createContainer } from '../../shared/runtime/container.js';
import { checkLedger } from '../../shared/persistence/ledger-check.js';
import { startTestApp } from '../fixtures/service-app.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

describe('budget adjustment idempotency after a crash between commit and answer', () => {
  it('answers the committed adjustment once the in-flight record is stale, and moves the money once', async () => {
    // Prepare: an agent and a funded main wallet, then a container whose store fails to save the
    // answer once (as if the function died right after the commit).
    const { app, table, createOrganization } = await startTestApp();
    const org = await createOrganization();
    await app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, org.mainWalletId, '100.00');
    const agent = await app.services.agents.create(org.ctx, AUDIT.wallet.create, { name: 'Bot' });
    const clock = fixedClock(new Date());
    let failOnce = true;
    const crashingStore: AgentStore = {
      ...table.store,
      async completeIdempotentMovement(...args) {
        if (failOnce) {
          failOnce = false;
          throw new Error('function died');
        }
        return table.store.completeIdempotentMovement(...args);
      },
    };
    const crashing = createContainer(loadConfig({ TABLE_NAME: table.tableName, DYNAMODB_ENDPOINT: table.endpoint }), {
      stores: { agents: crashingStore },
      clock,
    });
    const adjust = () =>
      crashing.services.agents.adjustBudget(org.ctx, AUDIT.wallet.adjustBudget, agent.wallet.id, 25, 'budget-1');

    // Act + Assess
    await expect(adjust()).rejects.toThrow('function died');
    await expect(adjust()).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' } satisfies Partial<ApiError>);
    clock.advance(IN_FLIGHT_STALE_MS + 1);
    const recovered = await adjust();
    const replay = await adjust();

    expect(recovered.status).toBe(200);
    expect(recovered.body).toMatchObject({
      id: agent.wallet.id,
      adjustment: 25,
      newBalance: '25.00000000',
      currency: 'USD',
    });
    expect(replay).toEqual({ ...recovered, replayed: true });
    expect((await app.store.getWallet(agent.wallet.id))?.balance.toFixed(2)).toBe('25.00');
    expect((await checkLedger(table.client, table.tableName)).problems).toEqual([]);
  });
});
