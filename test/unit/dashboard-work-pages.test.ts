import { describe, expect, it } from 'vitest';
import { DASHBOARD_PATHS } from '../../shared/dashboard/paths.js';
import { csvField } from '../../shared/dashboard/pages/work/wallets.js';
import { AGENT_A, AGENT_B, agentOf, htmlOf, MAIN, serve, workWorld } from '../fixtures/work-pages.js';

describe('agents', () => {
  it('lists the agents with status and budget left; New agent only for a role that writes', async () => {
    const html = htmlOf(await serve(workWorld(), { path: DASHBOARD_PATHS.agents }));
    expect(html).toContain(`href="${DASHBOARD_PATHS.agent(AGENT_A)}"`);
    expect(html).toContain('Research &lt;Agent&gt;');
    expect(html).toContain('900.00 USD');
    expect(html).toContain(`href="${DASHBOARD_PATHS.newAgent}"`);
    const viewer = htmlOf(await serve(workWorld(), { path: DASHBOARD_PATHS.agents, role: 'viewer' }));
    expect(viewer).not.toContain(`href="${DASHBOARD_PATHS.newAgent}"`);
  });

  it('creates an agent from a template after a step-up; the raw key is in the POST answer only', async () => {
    const world = workWorld();
    const verify = { status: 303, location: DASHBOARD_PATHS.verify(DASHBOARD_PATHS.newAgent) };
    expect(await serve(world, { path: DASHBOARD_PATHS.newAgent })).toEqual(verify);
    const post = { name: 'Buyer', templateId: 'research' };
    expect(await serve(world, { method: 'POST', path: DASHBOARD_PATHS.newAgent, form: post })).toEqual(verify);
    expect(world.calls.some((c) => c.operation === 'createAgentFromTemplate')).toBe(false);
    const form = htmlOf(await serve(world, { path: DASHBOARD_PATHS.newAgent, recentlyVerified: true }));
    expect(form).toContain('name="templateId"');
    expect(form).toContain('value="research"');
    const answer = await serve(world, {
      method: 'POST',
      path: DASHBOARD_PATHS.newAgent,
      form: post,
      recentlyVerified: true,
    });
    expect(answer.status).toBe(200);
    const html = htmlOf(answer);
    expect(html).toContain('svc_test_RAWKEYshownonce');
    expect(html).toContain('shown this once only');
    const detail = htmlOf(await serve(world, { path: DASHBOARD_PATHS.agent(world.agents[0]!.id) }));
    expect(detail).not.toContain('svc_test_RAWKEYshownonce');
  });

  it('a bad template is the form again with the field named', async () => {
    const answer = await serve(workWorld(), {
      method: 'POST',
      path: DASHBOARD_PATHS.newAgent,
      form: { name: 'Buyer', templateId: 'nope' },
      recentlyVerified: true,
    });
    expect(answer.status).toBe(400);
    expect(htmlOf(answer)).toMatch(/role="alert"[^>]*>templateId/);
  });

  it('shows the detail with the manage forms to a writer, none to a viewer', async () => {
    const html = htmlOf(await serve(workWorld(), { path: DASHBOARD_PATHS.agent(AGENT_A) }));
    for (const label of ['Adjust budget', 'Pause agent', 'Rotate key', 'Delete agent', 'Add policy', 'Delete policy'])
      expect(html).toContain(label);
    expect(html).toContain('Research &lt;Agent&gt; limits');
    const viewer = htmlOf(await serve(workWorld(), { path: DASHBOARD_PATHS.agent(AGENT_A), role: 'viewer' }));
    expect(viewer).not.toContain('<form method="post" action="/dashboard/agents/');
  });

  it('pauses, then resumes (PRG with a notice)', async () => {
    const world = workWorld();
    const post = (action: string) =>
      serve(world, { method: 'POST', path: DASHBOARD_PATHS.agent(AGENT_B), form: { action } });
    expect(await post('pause')).toEqual({ status: 303, location: `${DASHBOARD_PATHS.agent(AGENT_B)}?done=paused` });
    const paused = htmlOf(await serve(world, { path: DASHBOARD_PATHS.agent(AGENT_B), query: { done: 'paused' } }));
    expect(paused).toContain('Agent paused');
    expect(paused).toContain('Resume agent');
    expect(await post('resume')).toEqual({ status: 303, location: `${DASHBOARD_PATHS.agent(AGENT_B)}?done=resumed` });
  });

  it('adjusts the budget with the form idempotency key', async () => {
    const world = workWorld();
    const answer = await serve(world, {
      method: 'POST',
      path: DASHBOARD_PATHS.agent(AGENT_B),
      form: { action: 'adjust', amount: '25.50', idempotencyKey: 'k-1' },
    });
    expect(answer.status).toBe(303);
    expect(world.agents.find((a) => a.id === AGENT_B)?.balance).toBe('925.50000000');
    expect(world.calls.find((c) => c.operation === 'adjustBudget')?.input.body).toEqual({
      amount: '25.50',
      idempotencyKey: 'k-1',
    });
  });

  it('rotating asks for the second factor first, then shows the new key once', async () => {
    const world = workWorld();
    const path = DASHBOARD_PATHS.agent(AGENT_A);
    const first = await serve(world, { method: 'POST', path, form: { action: 'rotate' } });
    expect(first).toEqual({ status: 303, location: DASHBOARD_PATHS.verify(path) });
    expect(world.calls.some((c) => c.operation === 'rotateAgentKey')).toBe(false);
    const again = await serve(world, { method: 'POST', path, form: { action: 'rotate' }, recentlyVerified: true });
    expect(again.status).toBe(200);
    expect(htmlOf(again)).toContain('svc_test_ROTATEDkey');
  });

  it('deletes only when the typed name is the agent name', async () => {
    const world = workWorld();
    const path = DASHBOARD_PATHS.agent(AGENT_B);
    const wrong = await serve(world, { method: 'POST', path, form: { action: 'delete', confirmName: 'Ops' } });
    expect(wrong.status).toBe(400);
    expect(htmlOf(wrong)).toContain('confirmName');
    expect(world.calls.some((c) => c.operation === 'deleteAgent')).toBe(false);
    const right = await serve(world, { method: 'POST', path, form: { action: 'delete', confirmName: 'Ops Agent' } });
    expect(right).toEqual({ status: 303, location: `${DASHBOARD_PATHS.agents}?done=deleted` });
  });

  it('adds a policy and deletes one of its own only', async () => {
    const world = workWorld();
    const path = DASHBOARD_PATHS.agent(AGENT_B);
    const added = await serve(world, {
      method: 'POST',
      path,
      form: { action: 'policy-add', name: 'Tight', maxTransactionAmount: '10.00', dailyLimit: '50.00' },
    });
    expect(added.status).toBe(303);
    expect(world.calls.find((c) => c.operation === 'createPolicy')?.input.body).toEqual({
      walletId: AGENT_B,
      name: 'Tight',
      maxTransactionAmount: '10.00',
      requireHumanApproval: false,
      dailyLimit: '50.00',
    });
    const foreign = world.agents.find((a) => a.id === AGENT_A)!.policies[0]!.id;
    const refused = await serve(world, { method: 'POST', path, form: { action: 'policy-delete', policyId: foreign } });
    expect(refused.status).toBe(400);
  });

  it("a viewer's forged pause answers the operation's 403 on the page", async () => {
    const world = workWorld();
    const answer = await serve(world, {
      method: 'POST',
      path: DASHBOARD_PATHS.agent(AGENT_A),
      form: { action: 'pause' },
      role: 'viewer',
    });
    expect(answer.status).toBe(403);
    expect(htmlOf(answer)).toContain('PERMISSION_DENIED');
    expect(world.agents.find((a) => a.id === AGENT_A)?.status).toBe('ACTIVE');
  });
});

describe('wallets', () => {
  const entries = (count: number, day: (i: number) => string) =>
    Array.from({ length: count }, (_, i) => ({
      transactionId: `txn_s${String(i).padStart(20, '0')}`,
      type: 'PAYMENT',
      amount: '-1.00000000',
      balanceAfter: `${1000 - i}.00000000`,
      description: i === 0 ? '=HYPERLINK("x"), "quoted"' : `entry ${i}`,
      createdAt: `${day(i)}T12:00:00.000Z`,
    }));

  it('lists the balances: available, held, pending', async () => {
    const html = htmlOf(await serve(workWorld(), { path: DASHBOARD_PATHS.wallets }));
    expect(html).toContain('Main wallet (main)');
    expect(html).toContain('5000.00 USD');
    expect(html).toContain('25.00 USD');
  });

  it('shows the statement between dates and links its CSV with the same dates', async () => {
    const world = workWorld();
    world.statements.set(
      MAIN,
      entries(5, (i) => `2026-11-${String(27 - i).padStart(2, '0')}`),
    );
    const html = htmlOf(
      await serve(world, { path: DASHBOARD_PATHS.wallet(MAIN), query: { from: '2026-11-24', to: '2026-11-26' } }),
    );
    const rows = [...html.matchAll(/data-transaction-id="([^"]+)"/g)].map((m) => m[1]);
    expect(rows).toHaveLength(3);
    expect(html).toContain(`${DASHBOARD_PATHS.walletStatementCsv(MAIN)}?from=2026-11-24&amp;to=2026-11-26`);
    const bad = await serve(world, { path: DASHBOARD_PATHS.wallet(MAIN), query: { from: '11/24/2026' } });
    expect(bad.status).toBe(400);
    expect(htmlOf(bad)).toContain('field: from');
  });

  it('downloads the statement as CSV over every page, formulas defused', async () => {
    const world = workWorld();
    world.statements.set(
      MAIN,
      entries(250, () => '2026-11-20'),
    );
    const answer = await serve(world, { path: DASHBOARD_PATHS.walletStatementCsv(MAIN) });
    expect(answer).toMatchObject({ status: 200, contentType: 'text/csv; charset=utf-8' });
    const body = (answer as { body: string }).body;
    const lines = body.trim().split('\r\n');
    expect(lines[0]).toBe('createdAt,transactionId,type,amount,balanceAfter,currency,description');
    expect(lines).toHaveLength(251);
    expect(lines[1]).toContain(`"'=HYPERLINK(""x""), ""quoted"""`);
    expect(csvField('-5')).toBe('-5');
    expect((answer as { headers?: Record<string, string> }).headers?.['Content-Disposition']).toContain('attachment');
  });
});

describe('overview', () => {
  it('shows pending approvals, the main balance, activation, agents near their limits and events', async () => {
    const world = workWorld();
    world.agents.push(agentOf('wal_paused00000000000001', 'Paused One', '500.00000000', { status: 'FROZEN' }));
    world.agents.find((a) => a.id === AGENT_B)!.balance = '2000.00000000'; // above its 1000.00 daily limit
    const html = htmlOf(await serve(world, { path: DASHBOARD_PATHS.overview }));
    expect(html).toContain('data-pending-count="3"');
    expect(html).toContain('520.50 USD waiting');
    expect(html).toContain('5000.00 USD');
    expect(html).toContain('2 of 4');
    expect(html).toContain('Research &lt;Agent&gt;</a>: Budget left below its daily limit');
    expect(html).toContain('Paused One</a>: Paused');
    expect(html).not.toContain('Ops Agent</a>:');
    expect(html).toContain('approval.requested');
  });

  it("sends the operator's people to their compliance page", async () => {
    expect(await serve(workWorld(), { path: DASHBOARD_PATHS.overview, role: 'operator' })).toEqual({
      status: 303,
      location: DASHBOARD_PATHS.operatorCompliance,
    });
  });

  it('leaves activation out for a role without admin', async () => {
    const html = htmlOf(await serve(workWorld(), { path: DASHBOARD_PATHS.overview, role: 'approver' }));
    expect(html).not.toContain('data-overview="activation"');
    expect(html).toContain('data-overview="approvals"');
  });
});
