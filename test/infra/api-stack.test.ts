import type { CfnResource } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import {
  FALLBACK_ROUTE,
  FUNCTION_GROUPS,
  ROUTES,
  routeKeyOf,
  timeoutOf,
  type FunctionGroup,
} from '../../shared/http/routes.js';
import {
  ALLOWED_INDEX_ACTIONS,
  ALLOWED_TABLE_ACTIONS,
  asArray,
  expectAuditDeny,
  expectNoOtherPolicyKinds,
  resourcesOfType as resourcesOfTypeIn,
  expectPoliciesOnlyOn,
  statementsOfRole,
  tableReferences,
  isTableDeletesStatement,
  XRAY_ACTIONS,
} from './iam.js';
import { logicalIdOf, resolveCrossStack, synthStage } from './synth-stage.js';
import { DASHBOARD_GRANTS, grantsOf, HOSTED_GRANTS } from '../../shared/operations/index.js';
import { HOSTED_FUNCTION } from '../../shared/hosted/function.js';
import { DASHBOARD_FUNCTION } from '../../shared/dashboard/function.js';
import { HTTP_BASE_GRANTS, inGrantOrder } from '../../shared/grants.js';
import { grantStatements } from './grants.js';

/**
 * One synthesis for the whole file, with real esbuild bundling of every function of the API stack,
 * so a handler that cannot be bundled fails here and not at deploy time. (Workers are bundled and
 * checked by events-stack.test.ts.)
 */
const dev = synthStage('dev', { bundle: ['Api'] });
const template = dev.apiTemplate.toJSON() as {
  Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
};
const resourcesOfType = (type: string) => resourcesOfTypeIn(dev.apiTemplate, type);
const { tableName: TABLE_NAME, resolve, classify: classifyResource } = tableReferences(dev);
const GRANT_STATEMENTS = grantStatements(dev);

const ALL_FUNCTIONS = [...FUNCTION_GROUPS];

const HOSTED_ROUTE_KEY = `ANY ${HOSTED_FUNCTION.routePath}`;
const DASHBOARD_ROUTE_KEYS = DASHBOARD_FUNCTION.routePaths.map((path) => `ANY ${path}`);

function functionOf(group: string) {
  if (group === HOSTED_FUNCTION.name) return dev.api.hostedFunction.function;
  if (group === DASHBOARD_FUNCTION.name) return dev.api.dashboardFunction.function;
  const fn = dev.api.functions.get(group as FunctionGroup);
  if (!fn) throw new Error(`no function for ${group}`);
  return fn.function;
}

describe('api stack: routes', () => {
  const routeKeys = resourcesOfType('AWS::ApiGatewayV2::Route').map(([, route]) => route.Properties.RouteKey);

  it('has exactly one route per entry of the route table, plus $default', () => {
    const expected = [...ROUTES.map(routeKeyOf), FALLBACK_ROUTE.routeKey, HOSTED_ROUTE_KEY, ...DASHBOARD_ROUTE_KEYS];
    expect([...routeKeys].sort()).toEqual([...expected].sort());
    expect(new Set(routeKeys).size).toBe(routeKeys.length);
  });

  it("sends every route to its group's function", () => {
    const integrationTarget = new Map(
      resourcesOfType('AWS::ApiGatewayV2::Integration').map(([id, integration]) => [
        id,
        integration.Properties.IntegrationUri,
      ]),
    );
    const functionArn = (group: string) => ({ 'Fn::GetAtt': [logicalIdOf(functionOf(group)), 'Arn'] });
    const expectedGroup = new Map<string, string>([
      ...ROUTES.map((route) => [routeKeyOf(route), route.group] as const),
      [FALLBACK_ROUTE.routeKey, FALLBACK_ROUTE.group],
      [HOSTED_ROUTE_KEY, HOSTED_FUNCTION.name],
      ...DASHBOARD_ROUTE_KEYS.map((key) => [key, DASHBOARD_FUNCTION.name] as const),
    ]);

    for (const [, route] of resourcesOfType('AWS::ApiGatewayV2::Route')) {
      const routeKey = route.Properties.RouteKey as string;
      const target = route.Properties.Target as { 'Fn::Join': [string, [string, { Ref: string }]] };
      const [prefix, ref] = target['Fn::Join'][1];
      expect(prefix).toBe('integrations/');
      const group = expectedGroup.get(routeKey);
      expect(group, routeKey).toBeDefined();
      expect(integrationTarget.get(ref.Ref), routeKey).toEqual(functionArn(group!));
    }
  });

  it('throttles the default stage and outputs the URL', () => {
    dev.apiTemplate.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingBurstLimit: 200, ThrottlingRateLimit: 100 },
    });
    dev.apiTemplate.hasOutput('ApiUrl', {});
  });
});

describe('api stack: functions', () => {
  it('gives the payments group (100-item batches) a longer timeout, under the 30 s API Gateway limit', () => {
    expect(timeoutOf('payments')).toBeLessThan(30);
    expect(timeoutOf('wallets')).toBe(10);
  });

  it('has one Node.js 24 arm64 function per function group, the hosted pages and the dashboard, and nothing else (workers live in the events stack)', () => {
    dev.apiTemplate.resourceCountIs('AWS::Lambda::Function', ALL_FUNCTIONS.length + 2);
    expect(template.Resources[logicalIdOf(functionOf(DASHBOARD_FUNCTION.name))]?.Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      MemorySize: DASHBOARD_FUNCTION.memoryMb,
      Timeout: DASHBOARD_FUNCTION.timeoutS,
    });
    const hosted = template.Resources[logicalIdOf(functionOf(HOSTED_FUNCTION.name))];
    expect(hosted?.Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      MemorySize: 512,
      Timeout: HOSTED_FUNCTION.timeoutS,
    });
    dev.apiTemplate.resourceCountIs('AWS::Events::Rule', 0);
    dev.apiTemplate.resourceCountIs('AWS::SQS::Queue', 0);
    for (const group of ALL_FUNCTIONS) {
      const fn = template.Resources[logicalIdOf(functionOf(group))];
      expect(fn?.Properties, group).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: 512,
        Timeout: timeoutOf(group),
      });
    }
  });

  it('tells every function its stage and the ledger table name', () => {
    for (const group of [...ALL_FUNCTIONS, HOSTED_FUNCTION.name, DASHBOARD_FUNCTION.name]) {
      const fn = template.Resources[logicalIdOf(functionOf(group))];
      const variables = (fn?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(variables[ENV.stage], group).toBe('dev');
      expect(resolve(variables[ENV.tableName]), group).toEqual(TABLE_NAME);
      // Hosted pages' links start with the HTTP API's endpoint (https://<api id>.execute-api...).
      expect(JSON.stringify(variables[ENV.publicBaseUrl]), group).toContain(
        logicalIdOf(dev.api.api.node.defaultChild as CfnResource),
      );
    }
  });

  it('tells only the internal function (the compliance report) where the MCP token lives: the secret ARN, never the token', () => {
    const mcpTemplate = Template.fromStack(dev.mcp);
    const secretId = logicalIdOf(dev.mcp.token.node.defaultChild as CfnResource);
    for (const group of ALL_FUNCTIONS) {
      const variables = (
        template.Resources[logicalIdOf(functionOf(group))]?.Properties.Environment as {
          Variables: Record<string, unknown>;
        }
      ).Variables;
      expect(variables[ENV.mcpAuthToken], group).toBeUndefined();
      if (group !== 'internal') expect(variables[ENV.mcpAuthTokenSecretArn], group).toBeUndefined();
      else expect(resolveCrossStack(variables[ENV.mcpAuthTokenSecretArn], mcpTemplate)).toEqual({ Ref: secretId });
    }
    // Its only Secrets Manager access is the webhook encryption key (test/infra/webhook-key.test.ts), never the token's secret.
    const internalStatements = statementsOfRole(dev.apiTemplate, functionOf('internal').role!);
    const secretStatements = internalStatements.filter((statement) =>
      asArray(statement.Action).some((action) => String(action).startsWith('secretsmanager:')),
    );
    expect(
      secretStatements.map((statement) => [
        asArray(statement.Action),
        resolveCrossStack(statement.Resource, dev.dataTemplate),
      ]),
    ).toEqual([[['secretsmanager:GetSecretValue'], { Ref: logicalIdOf(dev.data.webhookEncryptionKey) }]]);
  });

  it('writes logs to a log group with a retention', () => {
    // One per function (the groups, hosted pages, dashboard), and the HTTP API's access log.
    dev.apiTemplate.resourceCountIs('AWS::Logs::LogGroup', ALL_FUNCTIONS.length + 2 + 1);
    for (const [, logGroup] of resourcesOfType('AWS::Logs::LogGroup')) {
      expect(logGroup.Properties.RetentionInDays).toBeGreaterThan(0);
    }
  });
});

describe('api stack: least-privilege IAM', () => {
  // Written out, not read from the catalog: a grant added to a group's `defineGroup` (a Scan of
  // the whole table, a key) must be a visible change to this list too, not pass the checks below
  // that read the catalog.
  it('grants each group exactly what this list says beyond the table (a Scan only to the operator group)', () => {
    const beyondTheTable = Object.fromEntries(
      FUNCTION_GROUPS.map((group) => [group, grantsOf(group).filter((grant) => grant !== 'table:readWrite')]),
    );
    expect(beyondTheTable).toEqual({
      internal: ['table:scan', 'mcpToken:locate', 'webhookKey:read'],
      'api-keys': [],
      wallets: [],
      activation: [],
      // Dashboard users and invitations: the table only.
      users: [],
      payments: ['scheduler:create'],
      policies: [],
      approvals: [],
      agents: [],
      'audit-logs': [],
      events: [],
      webhooks: ['queue:send', 'webhookKey:read'],
      'bank-accounts': ['dataKey:seal'],
      customers: ['dataKey:seal'],
      // Schedules bank-debit settlements, recurring runs and charge retries (the expiry queue); charges a saved
      // method by its processor token (not sealed) or tokenizes the checkout's input: no data key.
      invoices: ['scheduler:create'],
      transfers: ['transferWorkflow:start', 'scheduler:create', 'dataKey:seal'],
      // A link's expiry and a queued link's approval expiry (one-time schedules); an ach/usdc claim is a
      // withdrawal: it starts the transfer workflow and seals the account number bound to the transfer.
      'payment-links': ['transferWorkflow:start', 'scheduler:create', 'dataKey:seal'],
      // Each opening starts the dispute's deadline workflow.
      disputes: ['disputeWorkflow:start'],
      cards: ['dataKey:seal'],
      docs: [],
    });
  });

  it('grants the hosted pages what the groups whose public operations they call have, nothing more', () => {
    const groups = FUNCTION_GROUPS.filter((group) => (HOSTED_FUNCTION.groups as readonly string[]).includes(group));
    expect(HOSTED_GRANTS).toEqual(inGrantOrder([...HTTP_BASE_GRANTS, ...groups.flatMap((group) => grantsOf(group))]));
    expect(HOSTED_GRANTS).not.toContain('table:scan');
  });

  it("grants the dashboard the union of every group's grants (its pages call any operation as the user)", () => {
    expect(DASHBOARD_GRANTS).toEqual(
      inGrantOrder([...HTTP_BASE_GRANTS, ...FUNCTION_GROUPS.flatMap((group) => grantsOf(group)), 'dataKey:seal']),
    );
  });

  it('defines no other kind of policy', () => {
    expectNoOtherPolicyKinds(dev.apiTemplate);
  });

  function statementsOf(group: string) {
    const role = functionOf(group).role;
    if (!role) throw new Error(`${group} has no role`);
    return statementsOfRole(dev.apiTemplate, role);
  }

  it.each([...ALL_FUNCTIONS, HOSTED_FUNCTION.name, DASHBOARD_FUNCTION.name])(
    'denies %s any update or delete of an audit entry',
    (group) => {
      expectAuditDeny(statementsOf(group), classifyResource, group);
    },
  );

  it.each([...ALL_FUNCTIONS, HOSTED_FUNCTION.name, DASHBOARD_FUNCTION.name])(
    'lets %s reach only the table and its indexes',
    (group) => {
      const statements = statementsOf(group).filter((statement) => statement.Effect !== 'Deny');
      const grants =
        group === HOSTED_FUNCTION.name
          ? HOSTED_GRANTS
          : group === DASHBOARD_FUNCTION.name
            ? DASHBOARD_GRANTS
            : grantsOf(group as FunctionGroup);
      const granted = { table: new Set<string>(), index: new Set<string>() };
      for (const statement of statements) {
        expect(statement.Effect).toBe('Allow');
        expect(statement.NotAction).toBeUndefined();
        expect(statement.NotResource).toBeUndefined();
        const actions = asArray(statement.Action as string | string[]);
        const resources = asArray(statement.Resource);
        if (actions.every((action) => XRAY_ACTIONS.has(action))) continue;
        if (isTableDeletesStatement(statement, classifyResource)) continue;
        // What the group declares in the catalog (`grants`): each grant's statements, written out in grants.ts.
        if (grants.some((grant) => GRANT_STATEMENTS[grant](statement))) continue;

        for (const resource of resources) {
          const kind = classifyResource(resource);
          expect(kind, `${group}: ${JSON.stringify(resource)}`).not.toBe('other');
          // Only a group granted `table:scan` scans (the operator group: the compliance report counts key items).
          const tableActions = grants.includes('table:scan')
            ? new Set([...ALLOWED_TABLE_ACTIONS, 'dynamodb:Scan'])
            : ALLOWED_TABLE_ACTIONS;
          const allowed = kind === 'table' ? tableActions : ALLOWED_INDEX_ACTIONS;
          for (const action of actions) {
            expect(allowed.has(action), `${group}: ${action} on the ${kind}`).toBe(true);
            granted[kind === 'table' ? 'table' : 'index'].add(action);
          }
        }
      }
      // The grant is there at all (a function without table access would fail at its first request).
      expect(granted.table.size, group).toBeGreaterThan(0);
    },
  );

  it('has no policy outside the function roles', () => {
    expectPoliciesOnlyOn(
      dev.apiTemplate,
      [...ALL_FUNCTIONS, HOSTED_FUNCTION.name, DASHBOARD_FUNCTION.name].map((group) => functionOf(group).role!),
    );
  });
});
