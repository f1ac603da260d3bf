import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PolicyStore } from '../../shared/domain/policies/ports.js';
import { createPolicyStore } from '../../shared/persistence/policy-store.js';
import { policyService } from '../../shared/runtime/services/policies.js';
import { startTestApp, type TestApp } from '../fixtures/service-app.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

/** A one-shot signal: `wait()` resolves once `open()` was called. */
function signal() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, wait: () => opened };
}

/**
 * The policy store of one request, paused between the service's read and its write: `commit`
 * tells `reached` and waits for `release`, while other requests run against DynamoDB Local.
 */
function pausedBeforeWrite(inner: PolicyStore) {
  const reached = signal();
  const release = signal();
  const store: PolicyStore = {
    ...inner,
    commit: async (changes) => {
      reached.open();
      await release.wait();
      return inner.commit(changes);
    },
  };
  return { store, reached: reached.wait, release: release.open };
}

/** Defect 6 (issue 9): policy edits are conditioned on the version read (decisions.md section 3). */
describe('concurrent policy changes (DynamoDB Local)', () => {
  let testApp: TestApp;
  let org: Awaited<ReturnType<TestApp['createOrganization']>>;

  beforeAll(async () => {
    testApp = await startTestApp();
    org = await testApp.createOrganization();
  });

  async function newPolicy(dailyLimit = '500.00') {
    const wallet = await testApp.app.services.wallets.create(org.ctx, AUDIT.wallet.create, { name: 'Payer' });
    return testApp.app.services.policies.create(org.ctx, AUDIT.policy.create, {
      walletId: wallet.id,
      name: 'Cap',
      maxTransactionAmount: '100.00',
      requireHumanApproval: false,
      dailyLimit,
    });
  }

  /** The policy service of one request whose write waits until released. */
  function slowRequest() {
    const paused = pausedBeforeWrite(createPolicyStore(testApp.app.core.table));
    return {
      service: policyService(testApp.app.core, { store: paused.store }),
      reached: paused.reached,
      release: paused.release,
    };
  }

  async function storedVersion(walletId: string, policyId: string): Promise<number | undefined> {
    const output = await testApp.table.client.send(
      new GetCommand({
        TableName: testApp.table.tableName,
        Key: { PK: `WALLET#${walletId}`, SK: `POLICY#${policyId}` },
        ConsistentRead: true,
      }),
    );
    return output.Item?.version === undefined ? undefined : Number(output.Item.version);
  }

  it('refuses a PATCH that read the policy before a DELETE committed: the policy stays deleted', async () => {
    const policy = await newPolicy();
    const patch = slowRequest();
    const patching = patch.service.update(org.ctx, AUDIT.policy.update, policy.id, { name: 'Renamed' });
    await patch.reached();

    await testApp.app.services.policies.remove(org.ctx, AUDIT.policy.delete, policy.id);
    patch.release();

    await expect(patching).rejects.toMatchObject({ code: 'CONCURRENT_UPDATE' });
    expect((await testApp.app.store.getPolicy(policy.id))?.status).toBe('DELETED');
    await expect(testApp.app.services.policies.get(org.ctx, policy.id)).rejects.toMatchObject({
      code: 'POLICY_NOT_FOUND',
    });
    const listed = await testApp.app.services.policies.list(org.ctx, policy.walletId, { limit: 100 });
    expect(listed.items.map((p) => p.id)).not.toContain(policy.id);
  });

  it('refuses a PATCH that read an older version: a tightened limit is never replaced by the looser one it read', async () => {
    const policy = await newPolicy('500.00');
    const stale = slowRequest();
    const renaming = stale.service.update(org.ctx, AUDIT.policy.update, policy.id, { name: 'Renamed' });
    await stale.reached();

    const tightened = await testApp.app.services.policies.update(org.ctx, AUDIT.policy.update, policy.id, {
      dailyLimit: '50.00',
    });
    stale.release();

    await expect(renaming).rejects.toMatchObject({ code: 'CONCURRENT_UPDATE' });
    expect(tightened.dailyLimit?.toFixed(2)).toBe('50.00');
    const stored = await testApp.app.services.policies.get(org.ctx, policy.id);
    expect(stored.dailyLimit?.toFixed(2)).toBe('50.00');
    expect(stored.name).toBe('Cap');
  });

  it('refuses a DELETE that read an older version, and the next DELETE succeeds', async () => {
    const policy = await newPolicy();
    const stale = slowRequest();
    const deleting = stale.service.remove(org.ctx, AUDIT.policy.delete, policy.id);
    await stale.reached();

    await testApp.app.services.policies.update(org.ctx, AUDIT.policy.update, policy.id, { dailyLimit: '10.00' });
    stale.release();

    await expect(deleting).rejects.toMatchObject({ code: 'CONCURRENT_UPDATE' });
    expect((await testApp.app.services.policies.get(org.ctx, policy.id)).dailyLimit?.toFixed(2)).toBe('10.00');
    await expect(testApp.app.services.policies.remove(org.ctx, AUDIT.policy.delete, policy.id)).resolves.toEqual({
      id: policy.id,
      deleted: true,
    });
  });

  it('under 12 simultaneous PATCHes counts one version per write that succeeded, and every other one answers CONCURRENT_UPDATE', async () => {
    const policy = await newPolicy();
    const limits = Array.from({ length: 12 }, (_, i) => `${(i + 1) * 10}.00`);

    const outcomes = await Promise.allSettled(
      limits.map((dailyLimit) =>
        testApp.app.services.policies.update(org.ctx, AUDIT.policy.update, policy.id, { dailyLimit }),
      ),
    );

    const written = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(written.length).toBeGreaterThanOrEqual(1);
    for (const failure of refused) expect(failure.reason).toMatchObject({ code: 'CONCURRENT_UPDATE' });
    expect(await storedVersion(policy.walletId, policy.id)).toBe(1 + written.length);
    const stored = await testApp.app.services.policies.get(org.ctx, policy.id);
    const winners = written.map((o) =>
      (
        o as PromiseFulfilledResult<Awaited<ReturnType<typeof testApp.app.services.policies.update>>>
      ).value.dailyLimit?.toFixed(2),
    );
    expect(winners).toContain(stored.dailyLimit?.toFixed(2));
  });

  it('changes a policy written before versioning (no version attribute) once, then versions it', async () => {
    const policy = await newPolicy();
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    await testApp.table.client.send(
      new UpdateCommand({
        TableName: testApp.table.tableName,
        Key: { PK: `WALLET#${policy.walletId}`, SK: `POLICY#${policy.id}` },
        UpdateExpression: 'REMOVE version',
      }),
    );
    const stale = slowRequest();
    const renaming = stale.service.update(org.ctx, AUDIT.policy.update, policy.id, { name: 'Stale' });
    await stale.reached();

    await testApp.app.services.policies.update(org.ctx, AUDIT.policy.update, policy.id, { dailyLimit: '20.00' });
    stale.release();

    await expect(renaming).rejects.toMatchObject({ code: 'CONCURRENT_UPDATE' });
    expect(await storedVersion(policy.walletId, policy.id)).toBe(1);
    expect((await testApp.app.services.policies.get(org.ctx, policy.id)).dailyLimit?.toFixed(2)).toBe('20.00');
  });
});
