import { describe, expect, it } from 'vitest';
import { setupE2e } from '../fixtures/e2e-setup.js';
import {
  DEFAULT_AGENT_PERMISSIONS,
  expectApiError,
  expectStatus,
  READ_ONLY_AGENT_PERMISSIONS,
  ZERO_BALANCE,
} from '../fixtures/agents-client.js';

/** interface-spec 4.1, templates table: [templateId, name, max transaction, daily limit, human approval]. */
const SPEC_TEMPLATES = [
  ['customer-support', 'Customer Support Agent', '100.00', '500.00', false],
  ['procurement', 'Procurement Agent', '500.00', '5000.00', true],
  ['research', 'Research Agent', '50.00', '500.00', false],
  ['trading', 'Trading Agent', '10000.00', '50000.00', false],
  ['expense-tracker', 'Expense Tracker', '0.00', '0.00', false],
  ['invoice-collector', 'Invoice Collector', '0.00', '0.00', false],
  ['budget-guardian', 'Budget Guardian', '0.00', '0.00', false],
  ['payroll-agent', 'Payroll Agent', '5000.00', '50000.00', true],
  ['revenue-reporter', 'Revenue Reporter', '0.00', '0.00', false],
  ['subscription-manager', 'Subscription Manager', '1000.00', '10000.00', false],
] as const;

const READ_ONLY_TEMPLATES = SPEC_TEMPLATES.filter(([, , max]) => max === '0.00').map(([id]) => id);

/** Decimal strings compared by value: "5,000.00", "5000.00" and "5000" are the same limit. */
const sameAmount = (actual: unknown, expected: string) => Number(String(actual).replace(/,/g, '')) === Number(expected);

describe('agents: templates', () => {
  const { agents: api, org } = setupE2e({ organizations: { org: 'Agents Templates Org' } });

  it('lists exactly the ten templates of the specification with their limits and approval setting', async () => {
    // Act
    const response = await api.call('GET', '/v1/agents/templates', { key: org.key });

    // Assess
    const templates = expectStatus(response, 200).data as Array<Record<string, any>>;
    expect(templates.map((t) => t.templateId).sort()).toEqual(SPEC_TEMPLATES.map(([id]) => id).sort());
    for (const [templateId, name, max, daily, approval] of SPEC_TEMPLATES) {
      const template = templates.find((t) => t.templateId === templateId)!;
      expect(template.name, templateId).toBe(name);
      expect(sameAmount(template.maxTransactionAmount, max), `${templateId} max ${template.maxTransactionAmount}`).toBe(
        true,
      );
      expect(sameAmount(template.dailyLimit, daily), `${templateId} daily ${template.dailyLimit}`).toBe(true);
      expect(template.requireHumanApproval, templateId).toBe(approval);
    }
  });

  it('marks the zero-limit templates read-only with read-only permissions, the others with the default ones', async () => {
    // Act
    const templates = expectStatus(await api.call('GET', '/v1/agents/templates', { key: org.key }), 200).data as Array<
      Record<string, any>
    >;

    // Assess
    for (const template of templates) {
      const readOnly = READ_ONLY_TEMPLATES.includes(template.templateId);
      expect(template.readOnly, template.templateId).toBe(readOnly);
      if (readOnly) {
        expect(template.permissions.filter((p: string) => p.endsWith(':write'))).toEqual([]);
        expect([...template.permissions].sort()).toEqual([...READ_ONLY_AGENT_PERMISSIONS].sort());
      } else {
        expect([...template.permissions].sort()).toEqual([...DEFAULT_AGENT_PERMISSIONS].sort());
      }
    }
  });

  it('lets an agent key read the templates (wallets:read)', async () => {
    // Prepare
    const agent = await api.createAgent(org, { name: 'Curious' });

    // Act
    const response = await api.call('GET', '/v1/agents/templates', { key: agent.apiKey });

    // Assess
    expect(expectStatus(response, 200).data).toHaveLength(10);
  });

  it.each(SPEC_TEMPLATES.map(([id, , max, daily, approval]) => [id, max, daily, approval] as const))(
    'creates an agent from template %s with its policy and returns the policyId',
    async (templateId, max, daily, approval) => {
      // Act
      const response = await api.call('POST', '/v1/agents/from-template', {
        key: org.key,
        body: { name: `From ${templateId}`, templateId },
      });

      // Assess
      const agent = expectStatus(response, 201);
      expect(agent).toMatchObject({
        id: expect.stringMatching(/^wal_/),
        apiKey: expect.stringMatching(/^svc_test_/),
        apiKeyId: expect.stringMatching(/^key_/),
        balance: ZERO_BALANCE,
      });
      expect(agent.policyId).toMatch(/^pol_/);
      const policy = expectStatus(await api.call('GET', `/v1/policies/${agent.policyId}`, { key: org.key }), 200);
      expect(policy.walletId).toBe(agent.id);
      expect(sameAmount(policy.maxTransactionAmount, max)).toBe(true);
      expect(sameAmount(policy.dailyLimit, daily)).toBe(true);
      expect(policy.requireHumanApproval).toBe(approval);
      const expected = READ_ONLY_TEMPLATES.includes(templateId)
        ? READ_ONLY_AGENT_PERMISSIONS
        : DEFAULT_AGENT_PERMISSIONS;
      expect([...agent.permissions].sort()).toEqual([...expected].sort());
    },
  );

  it.each([
    ['an unknown templateId', { name: 'x', templateId: 'astronaut' }],
    ['no templateId', { name: 'x' }],
    ['no name', { templateId: 'research' }],
  ])('rejects %s with 400 VALIDATION_ERROR', async (_label, body) => {
    // Act
    const response = await api.call('POST', '/v1/agents/from-template', { key: org.key, body });

    // Assess
    expectApiError(response, 400, 'VALIDATION_ERROR');
  });

  it('refuses a payment with a read-only template agent key: it holds no payments:write (403 PERMISSION_DENIED)', async () => {
    // Prepare
    const agent = await api.createFromTemplate(org, 'expense-tracker');
    await api.fundAgent(org, agent.id, 10);

    // Act
    const response = await api.pay(agent.apiKey, agent.id, org.mainWalletId, '1.00');

    // Assess
    expectApiError(response, 403, 'PERMISSION_DENIED');
    expect(await api.balanceOf(org, agent.id)).toBe('10.00000000');
    expectStatus(await api.call('GET', `/v1/wallets/${agent.id}/balance`, { key: agent.apiKey }), 200);
  });

  it.each(READ_ONLY_TEMPLATES)(
    'denies any payment from a %s wallet, even with the organization key (403 POLICY_DENIED maxTransactionAmount)',
    async (templateId) => {
      // Prepare
      const agent = await api.createFromTemplate(org, templateId);
      await api.fundAgent(org, agent.id, 10);

      // Act
      const response = await api.pay(org.key, agent.id, org.mainWalletId, '0.01');

      // Assess
      expect(expectApiError(response, 403, 'POLICY_DENIED').details?.rule).toBe('maxTransactionAmount');
      expect(await api.balanceOf(org, agent.id)).toBe('10.00000000');
      await api.expectLedgerBalanced();
    },
  );

  it('lets a research agent pay up to its template maximum and denies above it', async () => {
    // Prepare
    const agent = await api.createFromTemplate(org, 'research');
    await api.fundAgent(org, agent.id, 100);

    // Act
    const allowed = await api.pay(agent.apiKey, agent.id, org.mainWalletId, '50.00');
    const denied = await api.pay(agent.apiKey, agent.id, org.mainWalletId, '50.01');

    // Assess
    expect(expectStatus(allowed, 200).status).toBe('POSTED');
    expect(expectApiError(denied, 403, 'POLICY_DENIED').details?.rule).toBe('maxTransactionAmount');
    expect(await api.balanceOf(org, agent.id)).toBe('50.00000000');
    await api.expectLedgerBalanced();
  });
});
