import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidationError } from '../fixtures/organizations.js';
import {
  auditList,
  auditLogsPath,
  auditPages,
  auditPartition,
  idsOf,
  type AuditItem,
} from '../fixtures/audit-reads.js';
import { buildAuditWorld, signatures, WORLD_ENTRY_COUNT, type AuditWorld } from '../fixtures/audited-organization.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';

const PAGE_SIZE = 7;
const ENTRY_FIELDS = [
  'action',
  'actorId',
  'actorType',
  'createdAt',
  'id',
  'ipAddress',
  'metadata',
  'organizationId',
  'resource',
  'resourceId',
];

interface Filters {
  action?: string;
  resource?: string;
  actorId?: string;
  from?: string;
  to?: string;
}

/** The filter semantics of interface-spec 4.10, applied to entries we already hold. */
const matching = (q: Filters) => (e: AuditItem) =>
  (q.action === undefined || e.action === q.action) &&
  (q.resource === undefined || e.resourceId === q.resource) &&
  (q.actorId === undefined || e.actorId === q.actorId) &&
  (q.from === undefined || Date.parse(e.createdAt) >= Date.parse(q.from)) &&
  (q.to === undefined || Date.parse(e.createdAt) <= Date.parse(q.to));

/** The same instant written with a +02:00 offset instead of Z. */
const withOffset = (iso: string) => new Date(Date.parse(iso) + 2 * 3600_000).toISOString().replace('Z', '+02:00');

describe('audit logs: GET /v1/audit-logs', () => {
  let service: TestService;
  let world: AuditWorld;
  /** Every entry of the organization as the API serves it (newest first). */
  let all: AuditItem[];
  beforeAll(async () => {
    service = await startTestService();
    world = await buildAuditWorld(service);
    all = await auditList(service, world.orgKey);
  });
  afterAll(() => service.close());

  const list = (q: Filters, limit = 100) => auditList(service, world.orgKey, { ...q }, limit);

  /** Asserts the served entries are exactly the matching ones, in the served order of the full log. */
  async function expectFiltered(q: Filters) {
    const served = await list(q);
    expect(idsOf(served)).toEqual(idsOf(all.filter(matching(q))));
    return served;
  }

  describe('paging', () => {
    it(`serves all ${WORLD_ENTRY_COUNT} entries once each, newest first, across pages of ${PAGE_SIZE}`, async () => {
      // Act
      const pages = await auditPages(service, world.orgKey, {}, PAGE_SIZE);

      // Assess
      expect(pages.map((page) => page.data.length)).toEqual([7, 7, 7, 7, 7, 5]);
      pages.slice(0, -1).forEach((page) => expect(page.nextCursor).toEqual(expect.any(String)));
      expect(pages.at(-1)!.nextCursor ?? '').toBe('');
      const served = pages.flatMap((page) => page.data);
      expect(new Set(idsOf(served)).size).toBe(WORLD_ENTRY_COUNT);
      expect(idsOf(served)).toEqual(idsOf(await auditPartition(service.table, world.organizationId)));
      const times = served.map((e) => Date.parse(e.createdAt));
      times.slice(1).forEach((time, i) => expect(time).toBeLessThanOrEqual(times[i]!));
      expect(signatures(served)).toEqual(signatures(world.recorded));
    });

    it('serves each entry in the documented shape', () => {
      for (const entry of all) {
        expect(Object.keys(entry).sort()).toEqual(ENTRY_FIELDS);
        expect(entry).toMatchObject({
          id: expect.stringMatching(/^log_/),
          organizationId: world.organizationId,
          actorType: 'API_KEY',
          resource: expect.any(String),
        });
        expect(new Date(entry.createdAt).toISOString()).toBe(entry.createdAt);
      }
    });

    it('pages a filtered list with its own cursors, each match once', async () => {
      // Act
      const pages = await auditPages(service, world.orgKey, { action: 'payment.created' }, 4);

      // Assess
      expect(pages.map((page) => page.data.length)).toEqual([4, 4, 4, 3]);
      expect(idsOf(pages.flatMap((page) => page.data))).toEqual(
        idsOf(all.filter(matching({ action: 'payment.created' }))),
      );
    });

    it('answers an empty page without a next cursor when nothing matches', async () => {
      const response = await service.call('GET', auditLogsPath({ resource: 'wal_doesnotexist00000000000' }), {
        key: world.orgKey,
      });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([]);
      expect(response.body.nextCursor ?? '').toBe('');
    });
  });

  describe('filters', () => {
    it('filters by action alone: exactly the entries of each action', async () => {
      for (const action of new Set(world.recorded.map((r) => r.action))) {
        const served = await expectFiltered({ action });
        expect(signatures(served), action).toEqual(signatures(world.recorded.filter((r) => r.action === action)));
      }
    });

    it('filters by resource id alone', async () => {
      const resources = [
        world.mainWalletId,
        world.agentA.id,
        world.agentB.id,
        world.agentA.paymentIds[3]!,
        world.apiKeyIds[0]!,
        world.organizationId,
      ];
      for (const resource of resources) {
        const served = await expectFiltered({ resource });
        expect(signatures(served), resource).toEqual(
          signatures(world.recorded.filter((r) => r.resourceId === resource)),
        );
        expect(served.length, resource).toBeGreaterThan(0);
      }
    });

    it('filters by actor id alone: organization key, each agent key and the operator', async () => {
      for (const actorId of [world.orgKeyId, world.agentA.keyId, world.agentB.keyId, world.operatorKeyId]) {
        const served = await expectFiltered({ actorId });
        expect(signatures(served), actorId).toEqual(signatures(world.recorded.filter((r) => r.actorId === actorId)));
      }
    });

    it('filters by from alone: entries at or after the instant', async () => {
      const served = await expectFiltered({ from: all[25]!.createdAt });
      expect(served.length).toBeGreaterThanOrEqual(26);
      expect(served.length).toBeLessThan(WORLD_ENTRY_COUNT);
    });

    it('filters by to alone: entries at or before the instant', async () => {
      const served = await expectFiltered({ to: all[12]!.createdAt });
      expect(served.length).toBeGreaterThanOrEqual(WORLD_ENTRY_COUNT - 12);
      expect(served.length).toBeLessThan(WORLD_ENTRY_COUNT);
    });

    it('includes an entry whose createdAt is exactly the from or the to bound', async () => {
      const entry = all[17]!;
      for (const q of [
        { from: entry.createdAt },
        { to: entry.createdAt },
        { from: entry.createdAt, to: entry.createdAt },
      ]) {
        const served = await expectFiltered(q);
        expect(idsOf(served), JSON.stringify(q)).toContain(entry.id);
      }
      const exact = await list({ from: entry.createdAt, to: entry.createdAt });
      expect(exact.every((e) => e.createdAt === entry.createdAt)).toBe(true);
    });

    it('reads bounds with a UTC offset as the same instants', async () => {
      const q = { from: all[30]!.createdAt, to: all[5]!.createdAt };
      const served = await expectFiltered(q);
      expect(idsOf(await list({ from: withOffset(q.from), to: withOffset(q.to) }))).toEqual(idsOf(served));
    });

    it('reads date-only bounds as whole days', async () => {
      const newestDay = all[0]!.createdAt.slice(0, 10);
      const oldestDay = all.at(-1)!.createdAt.slice(0, 10);
      expect(idsOf(await list({ from: oldestDay, to: newestDay }))).toEqual(idsOf(all));
    });

    it('combines action, actor and a time window', async () => {
      const payments = all.filter(matching({ action: 'payment.created', actorId: world.agentA.keyId }));
      const q = {
        action: 'payment.created',
        actorId: world.agentA.keyId,
        from: payments[7]!.createdAt,
        to: payments[2]!.createdAt,
      };
      const served = await expectFiltered(q);
      expect(served.length).toBeGreaterThanOrEqual(6);
      expect(served.every((e) => world.agentA.paymentIds.includes(e.resourceId))).toBe(true);
    });

    it('combines action with resource, and resource with actor', async () => {
      const fundings = await expectFiltered({ action: 'wallet.fund', resource: world.mainWalletId });
      expect(fundings).toHaveLength(8);
      const selfFunded = await expectFiltered({ resource: world.agentA.id, actorId: world.agentA.keyId });
      expect(signatures(selfFunded)).toEqual(
        signatures(world.recorded.filter((r) => r.resourceId === world.agentA.id && r.actorId === world.agentA.keyId)),
      );
      expect(selfFunded).toHaveLength(2);
      expect(await list({ action: 'wallet.fund', resource: world.walletIds[0]! })).toEqual([]);
    });
  });

  describe('validation', () => {
    const get = (query: Record<string, string>) => service.call('GET', auditLogsPath(query), { key: world.orgKey });

    it.each([
      ['from', 'yesterday'],
      ['from', '2026-13-45'],
      ['to', 'yesterday'],
      ['to', '2026-13-45'],
      ['from', '2026-01-01T25:00:00Z'],
    ])('answers 400 VALIDATION_ERROR for %s=%s', async (field, value) => {
      expectValidationError(await get({ [field]: value }), field);
    });

    it.each([
      ['from', '2026-02-30'],
      ['to', '2026-02-30'],
      ['to', '2026-04-31T10:00:00Z'],
    ])('answers 400 VALIDATION_ERROR for a calendar date that does not exist: %s=%s', async (field, value) => {
      expectValidationError(await get({ [field]: value }), field);
    });

    it('answers 400 VALIDATION_ERROR when from is after to', async () => {
      const error = expectError(
        await get({ from: '2026-06-02T00:00:00Z', to: '2026-06-01T00:00:00Z' }),
        400,
        'VALIDATION_ERROR',
      );
      expect(['from', 'to']).toContain(error.details?.field);
    });

    it.each(['101', '0', 'ten'])('answers 400 VALIDATION_ERROR for limit=%s', async (limit) => {
      expectValidationError(await get({ limit }), 'limit');
    });

    it('answers 400 VALIDATION_ERROR for a forged, edited or foreign cursor', async () => {
      const first = await get({ action: 'payment.created', limit: '2' });
      const real = String(first.body.nextCursor);
      const edited = `${real.slice(0, 5)}${real[5] === 'A' ? 'B' : 'A'}${real.slice(6)}`;
      expectValidationError(await get({ cursor: 'forged-cursor' }), 'cursor');
      expectValidationError(await get({ cursor: edited, action: 'payment.created', limit: '2' }), 'cursor');
      expectValidationError(await get({ cursor: real, action: 'wallet.fund', limit: '2' }), 'cursor');
      expectValidationError(await get({ cursor: real }), 'cursor');
    });
  });
});
