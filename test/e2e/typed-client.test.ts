import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../fixtures/local-service.js';

/**
 * A client generated from the live OpenAPI document with openapi-typescript and used through
 * openapi-fetch, as docs/api.md "OpenAPI and typed clients" tells a client to: the walkthrough
 * below compiles under `--strict` without a single cast, then runs against the service.
 */
const WALKTHROUGH = `
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

export interface WalkthroughResult {
  paymentStatus: string;
  replayedPaymentId: string;
  firstPaymentId: string;
  replayHeader: string | null;
  approvalId: string;
  approvalStatus: string;
  pageLength: number;
  hasMore: boolean;
  agentCount: number;
  eventTypes: string[];
}

function fail(what: string, error: unknown): never {
  throw new Error(what + ': ' + JSON.stringify(error));
}

export async function walkthrough(baseUrl: string, operatorKey: string): Promise<WalkthroughResult> {
  const operator = createClient<paths>({ baseUrl, headers: { authorization: 'Bearer ' + operatorKey } });
  const created = await operator.POST('/v1/internal/organizations', { body: { name: 'Typed client' } });
  if (!created.data) return fail('organization', created.error);
  const { sandboxKey, mainWalletId } = created.data;

  const api = createClient<paths>({ baseUrl, headers: { authorization: 'Bearer ' + sandboxKey } });
  const savings = await api.POST('/v1/wallets', { body: { name: 'Savings' } });
  if (!savings.data) return fail('wallet', savings.error);

  const funded = await api.POST('/v1/wallets/{id}/fund', {
    params: { path: { id: mainWalletId }, header: { 'Idempotency-Key': 'walkthrough-fund-1' } },
    body: { amount: '100.00' },
  });
  if (!funded.data) return fail('fund', funded.error);

  const agent = await api.POST('/v1/agents', { body: { name: 'Typed agent' } });
  if (!agent.data) return fail('agent', agent.error);
  const agentApi = createClient<paths>({ baseUrl, headers: { authorization: 'Bearer ' + agent.data.apiKey } });

  // A payment with an Idempotency-Key, sent twice: the second answer is the first one again.
  const payment = { from: mainWalletId, to: agent.data.id, amount: '25.00', description: 'Budget' };
  const first = await api.POST('/v1/payments', { params: { header: { 'Idempotency-Key': 'walkthrough-pay-1' } }, body: payment });
  const again = await api.POST('/v1/payments', { params: { header: { 'Idempotency-Key': 'walkthrough-pay-1' } }, body: payment });
  if (!first.data || !again.data) return fail('payment', first.error ?? again.error);
  if ('error' in first.data || 'error' in again.data) return fail('payment queued', first.data);

  // A policy that holds every payment of the agent's wallet for a person: the 202 answer.
  const policy = await api.POST('/v1/policies', { body: { walletId: agent.data.id, name: 'Ask first', maxTransactionAmount: '50.00', requireHumanApproval: true } });
  if (!policy.data) return fail('policy', policy.error);
  const held = await agentApi.POST('/v1/payments', { params: { header: { 'Idempotency-Key': 'walkthrough-held-1' } }, body: { from: agent.data.id, to: savings.data.id, amount: '5.00' } });
  if (!held.data) return fail('held payment', held.error);
  if (!('error' in held.data)) return fail('expected a 202', held.data);
  const approval = await api.GET('/v1/approvals/{id}', { params: { path: { id: held.data.error.details.approvalId } } });
  if (!approval.data) return fail('approval', approval.error);

  // Numeric and boolean query parameters are numbers and booleans. The organization's payment list
  // is a projection of the journal (visible within about 2 s): poll until both payments are in it.
  let page = await api.GET('/v1/payments', { params: { query: { limit: 1 } } });
  for (let attempt = 0; attempt < 50 && page.data && !page.data.hasMore; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    page = await api.GET('/v1/payments', { params: { query: { limit: 1 } } });
  }
  if (!page.data) return fail('payments', page.error);
  const agents = await api.GET('/v1/agents', { params: { query: { includeDeleted: false, limit: 10 } } });
  if (!agents.data) return fail('agents', agents.error);

  // Events show up within about 2 s of the change: poll until the approval request is there.
  let eventTypes: string[] = [];
  for (let attempt = 0; attempt < 50 && !eventTypes.includes('approval.requested'); attempt += 1) {
    if (attempt > 0) await new Promise((done) => setTimeout(done, 200));
    const events = await api.GET('/v1/events', { params: { query: { limit: 100 } } });
    if (!events.data) return fail('events', events.error);
    eventTypes = events.data.data.map((event) => event.type);
  }

  return {
    paymentStatus: first.data.status,
    firstPaymentId: first.data.id,
    replayedPaymentId: again.data.id,
    replayHeader: again.response.headers.get('idempotent-replayed'),
    approvalId: approval.data.id,
    approvalStatus: approval.data.status,
    pageLength: page.data.data.length,
    hasMore: page.data.hasMore,
    agentCount: agents.data.data.length,
    eventTypes,
  };
}
`;

/** Casts and non-null assertions: a walkthrough that needs one shows a gap in the document. */
function castsIn(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isAsExpression(node) ||
      ts.isTypeAssertionExpression(node) ||
      ts.isNonNullExpression(node) ||
      ts.isSatisfiesExpression(node)
    )
      found.push(node.getText(source));
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

describe('a typed client generated from the OpenAPI document (openapi-typescript + openapi-fetch)', () => {
  let service: TestService;
  let directory: string;
  beforeAll(async () => {
    service = await startTestService();
    directory = mkdtempSync(join(tmpdir(), 'allowance-typed-client-'));
    symlinkSync(resolve('node_modules'), join(directory, 'node_modules'), 'dir');
    writeFileSync(join(directory, 'package.json'), JSON.stringify({ type: 'module' }));
  });
  afterAll(async () => {
    await service.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('compiles the walkthrough under strict without casts, and it runs: Idempotency-Key replays, the 202 approval answer narrows, numeric and boolean query values', async () => {
    // Arrange: the types of the live document, and the walkthrough beside them.
    const document = await service.call('GET', '/v1/openapi.json');
    expect(document.status).toBe(200);
    writeFileSync(join(directory, 'schema.d.ts'), astToString(await openapiTS(document.body, { silent: true })));
    const walkthroughPath = join(directory, 'walkthrough.ts');
    writeFileSync(walkthroughPath, WALKTHROUGH);

    // Act: compile under strict, then run the transpiled walkthrough against the service.
    const options: ts.CompilerOptions = {
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: [],
      // The generated declarations are not checked themselves, only their use by the walkthrough.
      skipLibCheck: true,
    };
    const program = ts.createProgram([walkthroughPath], options);
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    const casts = castsIn(program.getSourceFile(walkthroughPath)!);
    const compiled = ts.transpileModule(WALKTHROUGH, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    }).outputText;
    writeFileSync(join(directory, 'walkthrough.mjs'), compiled);
    const { walkthrough } = (await import(pathToFileURL(join(directory, 'walkthrough.mjs')).href)) as {
      walkthrough: (baseUrl: string, key: string) => Promise<Record<string, unknown>>;
    };
    const result = await walkthrough(service.baseUrl, service.adminKey);

    // Assess
    expect(diagnostics).toEqual([]);
    expect(casts).toEqual([]);
    expect(result).toMatchObject({
      paymentStatus: 'POSTED',
      replayHeader: 'true',
      approvalStatus: 'PENDING',
      pageLength: 1,
      hasMore: true,
      agentCount: 1,
    });
    expect(result.replayedPaymentId).toBe(result.firstPaymentId);
    expect(result.eventTypes).toEqual(expect.arrayContaining(['payment.posted', 'approval.requested']));
  }, 240_000); // About 15 s of CPU (generation, type check, the walkthrough); the margin is for a busy machine.
});
