import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Stage } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { Asset } from 'aws-cdk-lib/aws-s3-assets';
import { build } from 'esbuild';
import { functionBuildOptions } from '../../bench/bundles.js';
import { describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { MCP_FUNCTION } from '../../shared/mcp/function.js';
import {
  ALLOWED_INDEX_ACTIONS,
  ALLOWED_TABLE_ACTIONS,
  asArray,
  expectAuditDeny,
  expectNoOtherPolicyKinds,
  expectPoliciesOnlyOn,
  statementsOfRole,
  tableReferences,
  isTableDeletesStatement,
  XRAY_ACTIONS,
} from './iam.js';
import { logicalIdOf, synthStage } from './synth-stage.js';
import { isSecretReadStatement } from './data-key.js';
import { MCP_GRANTS } from '../../shared/operations/index.js';
import { grantStatements } from './grants.js';

/** One synthesis with real esbuild bundling of the MCP function, so a handler that can not be bundled fails here. */
const dev = synthStage('dev', { bundle: ['Mcp'] });
const template = Template.fromStack(dev.mcp);
const { tableName: TABLE_NAME, resolve, classify } = tableReferences(dev);
const fn = dev.mcp.function.function;
const fnId = logicalIdOf(fn);
const fnProperties = () =>
  (template.toJSON() as { Resources: Record<string, { Properties: Record<string, any> }> }).Resources[fnId]!.Properties;

describe('mcp stack: the function URL', () => {
  it('serves the MCP function through a function URL with auth NONE (the service checks its own token)', () => {
    template.resourceCountIs('AWS::Lambda::Url', 1);
    template.hasResourceProperties('AWS::Lambda::Url', {
      AuthType: 'NONE',
      InvokeMode: 'BUFFERED',
      TargetFunctionArn: { 'Fn::GetAtt': [fnId, 'Arn'] },
    });
    // A NONE URL needs a public invoke permission scoped to function URLs.
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunctionUrl',
      Principal: '*',
      FunctionUrlAuthType: 'NONE',
    });
  });

  it('outputs the endpoint (<function URL>mcp) and the token secret', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(JSON.stringify(outputs.McpUrl!.Value)).toContain(`"${MCP_FUNCTION.path.slice(1)}"`);
    expect(outputs.McpAuthTokenSecret).toBeDefined();
  });
});

describe('mcp stack: the bundle', () => {
  it('is what the bundle benchmark builds, byte for byte, Ajv replaced by its stub and the credential chain by the environment (bundleAliases)', async () => {
    const asset = fn.node.findChild('Code') as Asset;
    const deployed = readFileSync(path.join(Stage.of(fn)!.outdir, asset.assetPath, 'index.mjs'), 'utf8');
    const benched = await build({
      ...functionBuildOptions(MCP_FUNCTION.name),
      outfile: 'cdk.out/bundle-test/index.mjs',
      write: false,
    });
    expect(deployed).toBe(benched.outputFiles.find((file) => file.path.endsWith('.mjs'))?.text);
    expect(deployed).toContain('Ajv is not bundled in the MCP function');
    expect(deployed).not.toContain('defaultProvider::fromSSO');
  });
});

describe('mcp stack: the function', () => {
  it('is one Node.js 24 arm64 function with the MCP timeout', () => {
    template.resourceCountIs('AWS::Lambda::Function', 1);
    expect(fnProperties()).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      Timeout: MCP_FUNCTION.timeoutS,
    });
  });

  it('knows its stage, the table and where the MCP token lives (the secret ARN, never the value), and may read that secret only', () => {
    const variables = fnProperties().Environment.Variables as Record<string, unknown>;
    expect(variables[ENV.stage]).toBe('dev');
    expect(resolve(variables[ENV.tableName])).toEqual(TABLE_NAME);
    expect(variables[ENV.mcpAuthTokenSecretArn]).toEqual({ Ref: logicalIdOf(dev.mcp.token) });
    expect(variables[ENV.mcpAuthToken]).toBeUndefined();
    expect(JSON.stringify(fnProperties())).not.toContain('{{resolve:');
    const reads = statementsOfRole(template, fn.role!).filter(
      (statement) =>
        asArray(statement.Action).includes('secretsmanager:GetSecretValue') &&
        JSON.stringify(statement.Resource).includes(logicalIdOf(dev.mcp.token)),
    );
    expect(reads.map((statement) => [asArray(statement.Action), statement.Resource])).toEqual([
      [['secretsmanager:GetSecretValue'], { Ref: logicalIdOf(dev.mcp.token) }],
    ]);
  });

  // Written out, not read from the catalog: a grant reaching MCP through a group's `defineGroup` must be a visible change here.
  it("holds the union of the tool groups' grants, written out: never a Scan, nor the operator group's token reference", () => {
    expect([...MCP_GRANTS].sort()).toEqual([
      'dataKey:seal',
      'disputeWorkflow:start',
      'queue:send',
      'scheduler:create',
      'table:readWrite',
      'transferWorkflow:start',
      'webhookKey:read',
    ]);
  });

  it('is the only function of the stage whose role may touch the token secret', () => {
    const others = [
      dev.dataTemplate,
      dev.apiTemplate,
      dev.eventsTemplate,
      Template.fromStack(dev.workflows),
      Template.fromStack(dev.cardNetwork),
    ];
    for (const other of others) {
      const policies = Object.values(
        (other.toJSON() as { Resources: Record<string, { Type: string; Properties: unknown }> }).Resources,
      ).filter((resource) => resource.Type === 'AWS::IAM::Policy');
      expect(policies.filter((policy) => JSON.stringify(policy).includes(logicalIdOf(dev.mcp.token)))).toEqual([]);
    }
  });

  it('generates the token: 48 letters and digits', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { PasswordLength: 48, ExcludePunctuation: true, IncludeSpace: false },
    });
  });
});

describe('mcp stack: least-privilege IAM', () => {
  const statements = statementsOfRole(template, fn.role!);
  const GRANT_STATEMENTS = grantStatements(dev);

  it('defines no other kind of policy, and no policy outside the function role', () => {
    expectNoOtherPolicyKinds(template);
    expectPoliciesOnlyOn(template, [fn.role!]);
  });

  it('denies any update or delete of an audit entry', () => {
    expectAuditDeny(statements, classify, 'mcp');
  });

  it('reaches only the table and its indexes: no Scan, no DeleteItem, no secret but its token and the webhook key, nothing else', () => {
    const granted = { table: new Set<string>(), index: new Set<string>() };
    for (const statement of statements.filter((s) => s.Effect !== 'Deny')) {
      expect(statement.Effect).toBe('Allow');
      expect(statement.NotAction).toBeUndefined();
      expect(statement.NotResource).toBeUndefined();
      const actions = asArray(statement.Action as string | string[]);
      if (actions.every((action) => XRAY_ACTIONS.has(action))) continue;
      if (isTableDeletesStatement(statement, classify)) continue;
      // It reads its own token (bindSecret; the test above).
      if (isSecretReadStatement(statement, logicalIdOf(dev.mcp.token))) continue;
      // What its tools need: the grants of the groups that offer tools, together (MCP_GRANTS; each grant's statements written out in grants.ts).
      if (MCP_GRANTS.some((grant) => GRANT_STATEMENTS[grant](statement))) continue;
      for (const resource of asArray(statement.Resource)) {
        const kind = classify(resource);
        expect(kind, JSON.stringify(resource)).not.toBe('other');
        for (const action of actions) {
          expect(
            (kind === 'table' ? ALLOWED_TABLE_ACTIONS : ALLOWED_INDEX_ACTIONS).has(action),
            `${action} on the ${kind}`,
          ).toBe(true);
          granted[kind === 'table' ? 'table' : 'index'].add(action);
        }
      }
    }
    expect([...granted.table].sort()).toEqual([...ALLOWED_TABLE_ACTIONS].sort());
    expect([...granted.index]).toEqual(['dynamodb:Query']);
  });

  it('may send to the webhook delivery queue (and its DLQ) only, and knows both URLs', () => {
    const send = statements.filter((statement) => statement.Sid === 'DeliveryQueueSend');
    expect(send).toHaveLength(1);
    expect(asArray(send[0]!.Action as string | string[])).toEqual(['sqs:SendMessage']);
    expect(asArray(send[0]!.Resource)).toHaveLength(2);
    const variables = fnProperties().Environment.Variables as Record<string, unknown>;
    expect(variables[ENV.webhookQueueUrl]).toBeDefined();
    expect(variables[ENV.webhookDeadLetterUrl]).toBeDefined();
  });
});
