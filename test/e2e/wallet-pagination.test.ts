import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createWallet, expectValidationError, type Organization } from '../fixtures/organizations.js';
import { startTestService, type TestService } from '../fixtures/local-service.js';

const CREATED_WALLETS = 25;
const PAGE_SIZE = 7;

interface WalletPage {
  data: Array<{ id: string; createdAt: string }>;
  cursor: string | null;
  hasMore: boolean;
}

/** Flips one character of a cursor's payload, keeping it base64url. */
function tamper(cursor: string): string {
  const index = 5;
  const replacement = cursor[index] === 'A' ? 'B' : 'A';
  return cursor.slice(0, index) + replacement + cursor.slice(index + 1);
}

describe('wallet list pagination', () => {
  let service: TestService;
  let org: Organization;
  let createdIds: string[];
  let firstPage: WalletPage;
  beforeAll(async () => {
    service = await startTestService();
    org = await service.createOrganization('Paging Org');
    createdIds = [];
    for (let i = 0; i < CREATED_WALLETS; i++) createdIds.push((await createWallet(service, org.key, `Wallet ${i}`)).id);
    firstPage = (await service.call('GET', `/v1/wallets?limit=${PAGE_SIZE}`, { key: org.key })).body;
  });
  afterAll(() => service.close());

  const list = (query: string, key = org.key) => service.call('GET', `/v1/wallets${query}`, { key });

  it('pages through every wallet exactly once, newest first, ending with a null cursor', async () => {
    // Act
    const pages: WalletPage[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=${PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const response = await list(query);
      expect(response.status, response.text).toBe(200);
      pages.push(response.body);
      cursor = response.body.cursor;
    } while (cursor && pages.length < 10);

    // Assess
    const seen = pages.flatMap((page) => page.data);
    const ids = seen.map((w) => w.id);
    expect(ids).toHaveLength(CREATED_WALLETS + 1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set([...createdIds, org.mainWalletId]));
    expect(
      pages
        .slice(0, -1)
        .every((page) => page.data.length === PAGE_SIZE && page.hasMore && typeof page.cursor === 'string'),
    ).toBe(true);
    const last = pages[pages.length - 1]!;
    expect(last).toMatchObject({ cursor: null, hasMore: false });
    const times = seen.map((w) => Date.parse(w.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(ids[0]).toBe(createdIds[CREATED_WALLETS - 1]);
    expect(ids[ids.length - 1]).toBe(org.mainWalletId);
  });

  it('defaults to 20 wallets per page', async () => {
    const response = await list('');
    expect(response.body.data).toHaveLength(20);
    expect(response.body.hasMore).toBe(true);
  });

  it('returns everything in one page with limit=100 and no cursor', async () => {
    const response = await list('?limit=100');
    expect(response.body.data).toHaveLength(CREATED_WALLETS + 1);
    expect(response.body).toMatchObject({ cursor: null, hasMore: false });
  });

  it.each(['101', '0', 'abc', '-1', '2.5', '1e1'])(
    'answers 400 VALIDATION_ERROR on field limit for limit=%s',
    async (limit) => {
      expectValidationError(await list(`?limit=${limit}`), 'limit');
    },
  );

  it('answers 400 VALIDATION_ERROR on field cursor for a forged cursor', async () => {
    const forged = Buffer.from(JSON.stringify({ k: { PK: 'WALLET#x', SK: 'WALLET' }, b: 'GET /v1/wallets' })).toString(
      'base64url',
    );
    expectValidationError(await list(`?cursor=${forged}`), 'cursor');
    expectValidationError(await list(`?cursor=${forged}.${'A'.repeat(43)}`), 'cursor');
    expectValidationError(await list('?cursor=not-a-cursor'), 'cursor');
  });

  it('answers 400 VALIDATION_ERROR on field cursor for an edited cursor', async () => {
    expect(firstPage.cursor).toEqual(expect.any(String));
    expectValidationError(
      await list(`?limit=${PAGE_SIZE}&cursor=${encodeURIComponent(tamper(firstPage.cursor!))}`),
      'cursor',
    );
    expectValidationError(
      await list(`?limit=${PAGE_SIZE}&cursor=${encodeURIComponent(`${firstPage.cursor}x`)}`),
      'cursor',
    );
  });

  it('answers 400 VALIDATION_ERROR on field cursor for a cursor issued to another key', async () => {
    // Prepare
    const otherKey = await createApiKey(service, org, { permissions: ['wallets:read'] });

    // Act
    const response = await list(`?limit=${PAGE_SIZE}&cursor=${encodeURIComponent(firstPage.cursor!)}`, otherKey.key);

    // Assess
    expectValidationError(response, 'cursor');
  });

  it('answers 400 VALIDATION_ERROR on field cursor for a cursor issued by another list', async () => {
    // Prepare: enough keys that the key list has a second page.
    for (let i = 0; i < 3; i++) await createApiKey(service, org, { name: `k${i}`, permissions: ['wallets:read'] });
    const keyPage = await service.call('GET', '/v1/api-keys?limit=2', { key: org.key });
    expect(keyPage.body.cursor).toEqual(expect.any(String));

    // Act
    const walletsWithKeyCursor = await list(`?limit=2&cursor=${encodeURIComponent(keyPage.body.cursor)}`);
    const keysWithWalletCursor = await service.call(
      'GET',
      `/v1/api-keys?limit=${PAGE_SIZE}&cursor=${encodeURIComponent(firstPage.cursor!)}`,
      { key: org.key },
    );

    // Assess
    expectValidationError(walletsWithKeyCursor, 'cursor');
    expectValidationError(keysWithWalletCursor, 'cursor');
  });

  it('answers 400 VALIDATION_ERROR on field limit for the api key list too', async () => {
    expectValidationError(await service.call('GET', '/v1/api-keys?limit=101', { key: org.key }), 'limit');
  });

  it("answers 400 VALIDATION_ERROR on field cursor for another organization's cursor", async () => {
    const other = await service.createOrganization('Other Paging Org');
    expectValidationError(
      await list(`?limit=${PAGE_SIZE}&cursor=${encodeURIComponent(firstPage.cursor!)}`, other.key),
      'cursor',
    );
  });
});
