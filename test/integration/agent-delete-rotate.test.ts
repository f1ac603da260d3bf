import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentStore } from '../../shared/domain/agents/ports.js';
import { createAgentStore } from '../../shared/persistence/agent-store.js';
import { agentService } from '../../shared/runtime/services/agents.js';
import { startTestApp, type TestApp } from '../fixtures/service-app.js';
import { AUDIT } from '../../shared/domain/audit/actions.js';

/** A one-shot signal: `wait()` resolves once `open()` was called. */
function signal() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, wait: () => opened };
}

type PausePoint = 'keyRead' | 'commit';

/**
 * The agent store of one DELETE request, paused once at `point`: before it reads the agent's key
 * (after reading the wallet), or before it writes. Other requests run against DynamoDB Local meanwhile.
 */
function pausedStore(inner: AgentStore, point: PausePoint) {
  const reached = signal();
  const release = signal();
  let paused = false;
  const pause = async () => {
    if (paused) return;
    paused = true;
    reached.open();
    await release.wait();
  };
  const store: AgentStore = {
    ...inner,
    getApiKeyById: async (keyId) => {
      if (point === 'keyRead') await pause();
      return inner.getApiKeyById(keyId);
    },
    commit: async (changes) => {
      if (point === 'commit') await pause();
      return inner.commit(changes);
    },
  };
  return { store, reached: reached.wait, release: release.open };
}

/** Defect 9 (issue 9): a rotation racing a deletion never leaves an ACTIVE key on a deleted agent. */
describe('deleting an agent while its key is rotated (DynamoDB Local)', () => {
  let testApp: TestApp;
  let org: Awaited<ReturnType<TestApp['createOrganization']>>;

  beforeAll(async () => {
    testApp = await startTestApp();
    org = await testApp.createOrganization();
  });

  async function newAgent(balance?: string) {
    const created = await testApp.app.services.agents.create(org.ctx, AUDIT.wallet.create, { name: 'Racer' });
    if (balance) await testApp.app.services.wallets.fund(org.ctx, AUDIT.wallet.fund, created.wallet.id, balance);
    return created.wallet.id;
  }

  function slowDelete(point: PausePoint) {
    const paused = pausedStore(createAgentStore(testApp.app.core.table), point);
    return {
      service: agentService(testApp.app.core, { store: paused.store }),
      reached: paused.reached,
      release: paused.release,
    };
  }

  /** The invariant: a deleted agent has no ACTIVE key; a live one has exactly its active key ACTIVE. */
  async function expectConsistent(agentId: string) {
    const wallet = await testApp.app.store.getWallet(agentId);
    const keys = (await testApp.app.store.listApiKeys(org.organizationId, 'SANDBOX', { limit: 100 })).items.filter(
      (k) => k.walletId === agentId,
    );
    const active = keys.filter((k) => k.status === 'ACTIVE').map((k) => k.id);
    if (wallet?.deletedAt) expect(active, 'ACTIVE keys of a deleted agent').toEqual([]);
    else expect(active).toEqual([wallet?.activeKeyId]);
    return { deleted: wallet?.deletedAt !== undefined, active };
  }

  /** DELETE reads the wallet, the rotation commits, then DELETE reads the (now revoked) key and writes. */
  async function rotationBetweenReads(balance?: string) {
    const agentId = await newAgent(balance);
    const slow = slowDelete('keyRead');
    const deleting = slow.service.remove(org.ctx, AUDIT.wallet.close, agentId);
    await slow.reached();
    const rotated = await testApp.app.services.agents.rotateKey(org.ctx, AUDIT.apiKey.rotate, agentId);
    slow.release();
    return {
      agentId,
      outcome: await deleting.then(
        () => 'deleted',
        (error: unknown) => error,
      ),
      rotated,
    };
  }

  it('an empty agent: the DELETE that read the key before the rotation fails with 409 CONCURRENT_UPDATE, and a retry deletes it with every key revoked', async () => {
    const { agentId, outcome, rotated } = await rotationBetweenReads();

    expect(outcome).toMatchObject({ code: 'CONCURRENT_UPDATE' });
    expect(await expectConsistent(agentId)).toEqual({ deleted: false, active: [rotated.apiKeyId] });
    await testApp.app.services.agents.remove(org.ctx, AUDIT.wallet.close, agentId);
    expect(await expectConsistent(agentId)).toEqual({ deleted: true, active: [] });
  });

  it('a funded agent (the sweep path): the same race fails with 409 CONCURRENT_UPDATE and moves nothing', async () => {
    const { agentId, outcome, rotated } = await rotationBetweenReads('25.00');

    expect(outcome).toMatchObject({ code: 'CONCURRENT_UPDATE' });
    expect(await expectConsistent(agentId)).toEqual({ deleted: false, active: [rotated.apiKeyId] });
    expect((await testApp.app.store.getWallet(agentId))?.balance.toFixed(2)).toBe('25.00');
    await testApp.app.services.agents.remove(org.ctx, AUDIT.wallet.close, agentId);
    expect(await expectConsistent(agentId)).toEqual({ deleted: true, active: [] });
  });

  /** A key rotation committing while a DELETE writes (after its reads): the DELETE must lose. */
  async function rotationDuringDelete(balance: string | undefined) {
    const agentId = await newAgent(balance);
    const slow = slowDelete('commit');
    const deleting = slow.service.remove(org.ctx, AUDIT.wallet.close, agentId);
    await slow.reached();

    const rotated = await testApp.app.services.agents.rotateKey(org.ctx, AUDIT.apiKey.rotate, agentId);
    slow.release();

    await expect(deleting).rejects.toMatchObject({ code: 'CONCURRENT_UPDATE' });
    expect(await expectConsistent(agentId)).toEqual({ deleted: false, active: [rotated.apiKeyId] });
  }

  it('an agent whose key was revoked through /v1/api-keys: a rotation during the DELETE is refused (409 INVALID_STATE, no key issued) and the DELETE completes', async () => {
    for (const balance of [undefined, '25.00']) {
      const agentId = await newAgent(balance);
      const wallet = await testApp.app.store.getWallet(agentId);
      await testApp.app.services.apiKeys.revoke(org.ctx, AUDIT.apiKey.revoke, wallet!.activeKeyId!);
      const slow = slowDelete('commit');
      const deleting = slow.service.remove(org.ctx, AUDIT.wallet.close, agentId);
      await slow.reached();

      await expect(testApp.app.services.agents.rotateKey(org.ctx, AUDIT.apiKey.rotate, agentId)).rejects.toMatchObject({
        code: 'INVALID_STATE',
      });
      slow.release();

      await deleting;
      expect(await expectConsistent(agentId)).toEqual({ deleted: true, active: [] });
    }
  });

  it('a rotation committing while the DELETE writes (key read ACTIVE): the DELETE fails with 409 CONCURRENT_UPDATE and the agent keeps one ACTIVE key', async () => {
    for (const balance of [undefined, '12.00']) await rotationDuringDelete(balance);
  });

  it('a rotation that reads the agent before the DELETE commits fails, and leaves no key behind', async () => {
    const agentId = await newAgent('5.00');
    const rotating = testApp.app.services.agents.rotateKey(org.ctx, AUDIT.apiKey.rotate, agentId);
    const deleting = testApp.app.services.agents.remove(org.ctx, AUDIT.wallet.close, agentId);

    const [rotation, deletion] = await Promise.allSettled([rotating, deleting]);

    expect([rotation.status, deletion.status]).toContain('fulfilled');
    await expectConsistent(agentId);
  });
});
