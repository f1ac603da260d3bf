import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../fixtures/local-service.js';
import { expectError, expectValidationError } from '../fixtures/organizations.js';

/**
 * USDC addresses over HTTP (docs/api.md "Transfers: USDC addresses"): each chain's address form is
 * checked (EVM: 0x + 40 hex, EIP-55 when mixed case; Solana: base58 of 32 bytes), the address is
 * kept exactly as sent, and spend policy entries match a withdrawal by address: one key holds an
 * EVM address on every EVM chain, so a blocked address is blocked on all of them and a chainless
 * entry `usdc:<address>` covers every chain of its family; an allowed entry naming a chain allows
 * that chain only.
 */
const CHECKSUMMED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BAD_CHECKSUM = '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const SOLANA = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

describe('USDC addresses of deposits, withdrawals and spend policies', () => {
  let service: TestService;
  let org: Awaited<ReturnType<TestService['createOrganization']>>;

  beforeAll(async () => {
    service = await startTestService();
    org = await service.createOrganization('USDC Org');
  });
  afterAll(async () => {
    await service.close();
  });

  const call = (method: string, path: string, body?: unknown) =>
    service.call(method, path, { key: org.key, ...(body !== undefined ? { body } : {}) });
  const deposit = (source: Record<string, unknown>) =>
    call('POST', '/v1/transfers/deposit', {
      walletId: org.mainWalletId,
      amount: '30.00',
      currency: 'USDC',
      source: { type: 'USDC', ...source },
    });

  it.each([
    ['39 hex digits on Ethereum', { address: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae' }],
    ['a Solana address on Ethereum', { address: SOLANA }],
    ['an EVM address on Solana', { address: CHECKSUMMED.toLowerCase(), chain: 'Solana' }],
    ['a base58 string of 44 characters that is no 32-byte key on Solana', { address: 'z'.repeat(44), chain: 'Solana' }],
  ])('refuses %s with 400 VALIDATION_ERROR naming source.address', async (_, source) => {
    expectValidationError(await deposit(source), 'source.address');
  });

  it('refuses a mixed-case address whose EIP-55 checksum is wrong', async () => {
    const error = expectValidationError(await deposit({ address: BAD_CHECKSUM }), 'source.address');
    expect(error.message).toMatch(/checksum/);
  });

  it('refuses a chain the rails do not support, naming source.chain', async () => {
    expectValidationError(await deposit({ address: CHECKSUMMED, chain: 'Dogechain' }), 'source.chain');
  });

  it('keeps the address exactly as sent (checksummed, lower-case, Solana) and names the chain canonically', async () => {
    for (const [address, chain, shown] of [
      [CHECKSUMMED, undefined, 'Ethereum'],
      [CHECKSUMMED.toLowerCase(), 'base', 'Base'],
      [SOLANA, 'Solana', 'Solana'],
    ] as const) {
      const created = await deposit({ address, ...(chain ? { chain } : {}) });
      expect(created.status, created.text).toBe(202);
      expect(created.body.source).toMatchObject({ type: 'USDC', address, chain: shown });
      const read = await call('GET', `/v1/transfers/${created.body.id}`);
      expect(read.body.source).toMatchObject({ address, chain: shown });
    }
  });

  it('refuses a policy entry usdc:<address> with a bad checksum, naming the list', async () => {
    const response = await call('POST', '/v1/policies', {
      walletId: org.mainWalletId,
      name: 'Bad entry',
      maxTransactionAmount: '1000.00',
      requireHumanApproval: false,
      allowedRecipients: [`usdc:Base:${BAD_CHECKSUM}`],
    });
    const error = expectError(response, 400, 'VALIDATION_ERROR');
    expect(error.details?.field).toMatch(/^allowedRecipients/);
  });

  it('lets a wallet withdraw to an allowed USDC address on the allowed chain only, whatever the EVM case', async () => {
    const wallet = await call('POST', '/v1/wallets', { name: 'USDC payouts' });
    expect(wallet.status, wallet.text).toBe(201);
    const walletId = wallet.body.id as string;
    expect((await call('POST', `/v1/wallets/${walletId}/fund`, { amount: '500.00' })).status).toBe(200);
    const policy = await call('POST', '/v1/policies', {
      walletId,
      name: 'Base payouts',
      maxTransactionAmount: '1000.00',
      requireHumanApproval: false,
      allowedRecipients: [`usdc:Base:${CHECKSUMMED}`],
    });
    expect(policy.status, policy.text).toBe(201);
    expect(policy.body.allowedRecipients).toEqual([`usdc:Base:${CHECKSUMMED}`]);
    const withdraw = (address: string, chain?: string) =>
      call('POST', '/v1/transfers/withdraw', {
        walletId,
        amount: '30.00',
        currency: 'USDC',
        destination: { type: 'USDC', address, ...(chain ? { chain } : {}) },
      });

    const sameAccount = await withdraw(CHECKSUMMED.toLowerCase(), 'Base');
    expect(sameAccount.status, sameAccount.text).toBe(201);
    expect(sameAccount.body.destination).toMatchObject({ address: CHECKSUMMED.toLowerCase(), chain: 'Base' });
    expect(expectError(await withdraw(CHECKSUMMED, 'Ethereum'), 403, 'POLICY_DENIED').details?.rule).toBe(
      'allowedRecipients',
    );
    expect(expectError(await withdraw(CHECKSUMMED), 403, 'POLICY_DENIED').details?.rule).toBe('allowedRecipients');
  });

  /** An agent (its key is what the policies bind) funded with 500.00, under one policy of `rules`. */
  async function agentUnder(name: string, rules: Record<string, unknown>) {
    const agent = await call('POST', '/v1/agents', { name });
    expect(agent.status, agent.text).toBe(201);
    expect((await call('POST', `/v1/wallets/${agent.body.id}/fund`, { amount: '500.00' })).status).toBe(200);
    const policy = await call('POST', '/v1/policies', {
      walletId: agent.body.id,
      name: `${name} policy`,
      maxTransactionAmount: '1000.00',
      requireHumanApproval: false,
      ...rules,
    });
    expect(policy.status, policy.text).toBe(201);
    return (address: string, chain: string) =>
      service.call('POST', '/v1/transfers/withdraw', {
        key: agent.body.apiKey,
        body: {
          walletId: agent.body.id,
          amount: '30.00',
          currency: 'USDC',
          destination: { type: 'USDC', address, chain },
        },
      });
  }

  // Review finding (h19): an entry matched its own chain only, so an agent refused a blocked address on Ethereum withdrew to it on Base.
  it.each([[`usdc:${CHECKSUMMED}`], [`usdc:Ethereum:${CHECKSUMMED}`], [`usdc:base:${CHECKSUMMED.toLowerCase()}`]])(
    'refuses a withdrawal to an address blocked as %s on every EVM chain, whatever its case',
    async (entry) => {
      const withdraw = await agentUnder(`Blocked ${entry.length} ${entry.slice(5, 9)}`, { blockedRecipients: [entry] });
      for (const [address, chain] of [
        [CHECKSUMMED, 'Ethereum'],
        [CHECKSUMMED, 'Base'],
        [CHECKSUMMED.toLowerCase(), 'Polygon'],
        [CHECKSUMMED.toUpperCase().replace('0X', '0x'), 'Avalanche'],
      ] as const) {
        expect(
          expectError(await withdraw(address, chain), 403, 'POLICY_DENIED').details?.rule,
          `${address} on ${chain}`,
        ).toBe('blockedRecipients');
      }
    },
  );

  it('refuses a Solana address blocked as usdc:<address>, and only that exact address', async () => {
    const withdraw = await agentUnder('Blocked Solana', { blockedRecipients: [`usdc:${SOLANA}`] });
    expect(expectError(await withdraw(SOLANA, 'Solana'), 403, 'POLICY_DENIED').details?.rule).toBe('blockedRecipients');
    const other = await withdraw('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'Solana');
    expect(other.status, other.text).toBe(201);
  });

  it('allows a withdrawal to an address allowed as usdc:<address> on every EVM chain', async () => {
    const withdraw = await agentUnder('Allowed anywhere', { allowedRecipients: [`usdc:${CHECKSUMMED}`] });
    for (const chain of ['Ethereum', 'Base', 'Optimism']) {
      const allowed = await withdraw(CHECKSUMMED.toLowerCase(), chain);
      expect(allowed.status, allowed.text).toBe(201);
    }
    expect(
      expectError(await withdraw('0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', 'Base'), 403, 'POLICY_DENIED').details
        ?.rule,
    ).toBe('allowedRecipients');
  });
});
