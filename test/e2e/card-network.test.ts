import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CARD_NETWORK_ENV,
  CARD_NETWORK_FUNCTION,
  CARD_NETWORK_SIGNATURE_HEADER,
} from '../../shared/card-network/function.js';
import { signCardNetworkRequest } from '../../shared/card-network/signature.js';
import { ENV } from '../../shared/config/env-names.js';
import { agentsApi, type CreatedAgent } from '../fixtures/agents-client.js';
import { startTestService, type ApiResponse, type TestService } from '../fixtures/local-service.js';
import { expectError, expectSecurityHeaders, type Organization } from '../fixtures/organizations.js';

const SECRET = randomBytes(32).toString('hex');
const SOFTWARE = { name: 'OpenAI', category: '5734', country: 'US' };
const CASINO = { name: 'Lucky Casino', category: '7995', country: 'US' };
const LIMITS = [
  { amount: '50.00', interval: 'per_authorization' },
  { amount: '500.00', interval: 'daily', categories: ['5734'] },
];

/**
 * The card network endpoint over HTTP (POST /card-network/authorizations of the local server,
 * functions/card-network behind its function URL in AWS; docs/api.md "Cards: the card network
 * endpoint"): signed requests are decided exactly as the sandbox test helper decides them, unsigned,
 * tampered or stale ones are refused with nothing moved, and a retried processor request id answers
 * the first decision without moving money twice.
 */
describe('card network endpoint: signed authorization requests', () => {
  let service: TestService;
  let org: Organization;
  let agent: CreatedAgent;
  /** Both with LIMITS on the agent's wallet: one asked through the network, one through the test helper. */
  let networkCard: string;
  let helperCard: string;
  let sequence = 0;

  const nowS = () => Math.floor(Date.now() / 1000);

  /** POSTs `body` (raw text) to the endpoint, signed with `secret` at `timestampS` unless a header is given. */
  async function post(
    body: string,
    options: { secret?: string; timestampS?: number; header?: string | null; method?: string } = {},
  ): Promise<ApiResponse> {
    const signature =
      options.header === undefined
        ? signCardNetworkRequest(options.secret ?? SECRET, body, options.timestampS ?? nowS())
        : options.header;
    const response = await fetch(service.baseUrl + CARD_NETWORK_FUNCTION.path, {
      method: options.method ?? 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature === null ? {} : { [CARD_NETWORK_SIGNATURE_HEADER]: signature }),
      },
      ...(options.method === 'GET' ? {} : { body }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text };
  }

  const request = (
    cardId: string,
    amount: string,
    merchant: Record<string, string> = SOFTWARE,
    networkId = `iauth_e2e_${++sequence}`,
  ) => ({ networkId, cardId, amount, currency: 'USD', merchant });
  const network = async (cardId: string, amount: string, merchant?: Record<string, string>) => {
    const response = await post(JSON.stringify(request(cardId, amount, merchant)));
    expect(response.status, response.text).toBe(200);
    return response.body as { approved: boolean; authorizationId?: string; reason?: string };
  };
  const helper = async (cardId: string, amount: string, merchant: Record<string, string> = SOFTWARE) => {
    const response = await service.call('POST', `/v1/test-helpers/cards/${cardId}/authorizations`, {
      key: org.key,
      body: { amount, merchant },
    });
    expect(response.status, response.text).toBe(201);
    return response.body as { id: string; status: string; reason: string | null };
  };
  const wallet = async () => {
    const response = await service.call('GET', `/v1/wallets/${agent.id}`, { key: org.key });
    return { balance: Number(response.body.balance).toFixed(2), held: Number(response.body.heldBalance).toFixed(2) };
  };
  const authorizations = async (cardId: string) =>
    (await service.call('GET', `/v1/cards/${cardId}/authorizations?limit=100`, { key: org.key })).body.data as {
      id: string;
      status: string;
      reason: string | null;
      amount: string;
      merchant: unknown;
    }[];
  const eventsOf = async (type: string) => {
    await service.projected();
    return (await service.call('GET', `/v1/events?type=${type}&limit=100`, { key: org.key })).body.data as {
      type: string;
      data: { id: string; reason: string | null };
    }[];
  };

  beforeAll(async () => {
    service = await startTestService({
      [ENV.dataEncryptionKey]: randomBytes(32).toString('hex'),
      [CARD_NETWORK_ENV.secret]: SECRET,
    });
    org = await service.createOrganization('Card Network Org');
    const agents = agentsApi(service);
    agent = await agents.createAgent(org, { name: 'Shopper' });
    await agents.fundAgent(org, agent.id, 100);
    const create = async () => {
      const response = await service.call('POST', '/v1/cards', {
        key: agent.apiKey,
        body: { walletId: agent.id, type: 'PERSISTENT', spendingLimits: LIMITS },
      });
      expect(response.status, response.text).toBe(201);
      return response.body.id as string;
    };
    networkCard = await create();
    helperCard = await create();
  });
  afterAll(() => service.close());

  it('approves a signed request within the limits: the hold is taken, the balance down, the record and its event written', async () => {
    const answer = await network(networkCard, '30.00');
    expect(answer).toEqual({ approved: true, authorizationId: expect.stringMatching(/^auth_/) });
    expect(await wallet()).toEqual({ balance: '70.00', held: '30.00' });
    const [record] = await authorizations(networkCard);
    expect(record).toMatchObject({
      id: answer.authorizationId,
      status: 'APPROVED',
      reason: null,
      amount: '30.00',
      merchant: SOFTWARE,
    });
    expect((await eventsOf('card.authorization.approved')).map((event) => event.data.id)).toContain(
      answer.authorizationId,
    );
    await service.projected();
    const audit = (
      await service.call('GET', `/v1/audit-logs?action=card.authorization.create&limit=100`, { key: org.key })
    ).body.data as { resourceId: string; actorType: string; actorId: string }[];
    expect(audit.find((entry) => entry.resourceId === answer.authorizationId)).toMatchObject({
      actorType: 'SYSTEM',
      actorId: 'card-network',
    });
  });

  it('decides every case exactly as the sandbox test helper does, with the same money moved', async () => {
    // The helper's twin of the approval above.
    expect(await helper(helperCard, '30.00')).toMatchObject({ status: 'APPROVED', reason: null });
    expect(await wallet()).toEqual({ balance: '40.00', held: '60.00' });
    const cases: [amount: string, merchant: Record<string, string>, reason: string][] = [
      ['60.00', SOFTWARE, 'spending_limit_exceeded'],
      ['5.00', CASINO, 'category_blocked'],
      ['45.00', SOFTWARE, 'insufficient_funds'],
    ];
    for (const [amount, merchant, reason] of cases) {
      const byNetwork = await network(networkCard, amount, merchant);
      const byHelper = await helper(helperCard, amount, merchant);
      expect(byNetwork).toEqual({ approved: false, authorizationId: expect.stringMatching(/^auth_/), reason });
      expect(byHelper).toMatchObject({ status: 'DECLINED', reason });
    }
    // Declines move nothing, whichever way they came.
    expect(await wallet()).toEqual({ balance: '40.00', held: '60.00' });
    const declined = (await eventsOf('card.authorization.declined')).map((event) => event.data);
    const networkDeclines = (await authorizations(networkCard)).filter((auth) => auth.status === 'DECLINED');
    expect(networkDeclines.map((auth) => auth.reason).sort()).toEqual(cases.map(([, , reason]) => reason).sort());
    for (const auth of networkDeclines)
      expect(declined.find((event) => event.id === auth.id)?.reason).toBe(auth.reason);

    // Frozen card: the network is declined like the helper.
    expect((await service.call('POST', `/v1/cards/${networkCard}/freeze`, { key: agent.apiKey })).status).toBe(200);
    expect(await network(networkCard, '1.00')).toMatchObject({ approved: false, reason: 'card_inactive' });
    // Unfreezing lifts a guardrail: an organization key's call (an agent key is refused).
    expect((await service.call('POST', `/v1/cards/${networkCard}/unfreeze`, { key: agent.apiKey })).status).toBe(403);
    expect((await service.call('POST', `/v1/cards/${networkCard}/unfreeze`, { key: org.key })).status).toBe(200);
    // An unknown card: declined, no record.
    expect(await network('card_doesnotexist', '1.00')).toEqual({ approved: false, reason: 'card_cancelled' });
  });

  it('answers 401 with the error envelope to unsigned, tampered, wrongly signed and stale requests, and moves nothing', async () => {
    const before = { wallet: await wallet(), count: (await authorizations(networkCard)).length };
    const body = JSON.stringify(request(networkCard, '10.00'));
    const tampered = body.replace('"10.00"', '"40.00"');
    const refusals = [
      await post(body, { header: null }),
      await post(body, { header: 'garbage' }),
      await post(tampered, { header: signCardNetworkRequest(SECRET, body, nowS()) }),
      await post(body, { secret: randomBytes(32).toString('hex') }),
      await post(body, { timestampS: nowS() - 301 }),
      await post(body, { timestampS: nowS() + 600 }),
    ];
    for (const response of refusals) {
      const error = expectError(response, 401, 'UNAUTHORIZED');
      expect(error.message).toContain(CARD_NETWORK_SIGNATURE_HEADER);
      expectSecurityHeaders(response);
      expect(response.headers.get('x-request-id')).toBeTruthy();
    }
    expect(await wallet()).toEqual(before.wallet);
    expect((await authorizations(networkCard)).length).toBe(before.count);
    // The refused request id was never used: signed properly, it is decided now.
    expect((await post(body)).body).toMatchObject({ approved: true });
  });

  it('answers a replay of the same processor request id with the first decision, moving nothing twice', async () => {
    const before = await wallet();
    const body = JSON.stringify(request(networkCard, '5.00'));
    const header = signCardNetworkRequest(SECRET, body, nowS());
    const first = await post(body, { header });
    expect(first.body).toEqual({ approved: true, authorizationId: expect.stringMatching(/^auth_/) });
    // The same bytes again (a replay within the window), and a retry freshly signed later.
    const replayed = await post(body, { header });
    const retried = await post(body, { timestampS: nowS() + 1 });
    expect(replayed.body).toEqual(first.body);
    expect(retried.body).toEqual(first.body);
    const after = await wallet();
    expect(after).toEqual({
      balance: (Number(before.balance) - 5).toFixed(2),
      held: (Number(before.held) + 5).toFixed(2),
    });
    expect((await authorizations(networkCard)).filter((auth) => auth.id === first.body.authorizationId)).toHaveLength(
      1,
    );
    expect(
      (await eventsOf('card.authorization.approved')).filter((event) => event.data.id === first.body.authorizationId),
    ).toHaveLength(1);

    // A declined request replayed answers the same decline, and stores one record.
    const declinedBody = JSON.stringify(request(networkCard, '60.00'));
    const declined = await post(declinedBody);
    expect(declined.body).toMatchObject({ approved: false, reason: 'spending_limit_exceeded' });
    expect((await post(declinedBody)).body).toEqual(declined.body);

    // The same request id with other terms is no replay: declined, nothing moved.
    const reused = await post(body.replace('"5.00"', '"6.00"'));
    expect(reused.status).toBe(200);
    expect(reused.body.approved).toBe(false);
    expect(await wallet()).toEqual(after);
  });

  it('answers 405 to another method, and declines (200, invalid_request) a signed body that is not a request', async () => {
    const get = await post('', { method: 'GET', header: null });
    expectError(get, 405, 'METHOD_NOT_ALLOWED');
    expect(get.headers.get('allow')).toBe('POST');
    expect((await post('{"hello":"world"}')).body).toEqual({ approved: false, reason: 'invalid_request' });
    expect((await post('not json')).body).toEqual({ approved: false, reason: 'invalid_request' });
  });
});
