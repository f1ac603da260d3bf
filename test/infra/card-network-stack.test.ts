import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import {
  CARD_NETWORK_ENV,
  CARD_NETWORK_FAILURE_MARKER,
  CARD_NETWORK_FUNCTION,
} from '../../shared/card-network/function.js';
import { ENV } from '../../shared/config/env-names.js';
import {
  ALLOWED_INDEX_ACTIONS,
  ALLOWED_TABLE_ACTIONS,
  asArray,
  expectAuditDeny,
  expectNoOtherPolicyKinds,
  expectPoliciesOnlyOn,
  resourcesOfType,
  sameJson,
  statementsOfRole,
  tableReferences,
  isTableDeletesStatement,
  XRAY_ACTIONS,
} from './iam.js';
import { logicalIdOf, synthStage } from './synth-stage.js';
import { secretReadSid } from '../../lib/constructs/service-function.js';

/** One synthesis with real esbuild bundling of the card network function, so a handler that can not be bundled fails here. */
const dev = synthStage('dev', { bundle: ['CardNetwork'] });
const template = Template.fromStack(dev.cardNetwork);
const { tableName: TABLE_NAME, resolve, classify } = tableReferences(dev);
const fn = dev.cardNetwork.function.function;
const fnId = logicalIdOf(fn);
const secretId = logicalIdOf(dev.cardNetwork.secret);
type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;
const fnProperties = (t: Template = template) => (t.toJSON() as { Resources: Resources }).Resources[fnId]!.Properties;

describe('card network stack: the function URL', () => {
  it('serves the card network function through one function URL with auth NONE (the HMAC signature is the auth)', () => {
    template.resourceCountIs('AWS::Lambda::Url', 1);
    template.hasResourceProperties('AWS::Lambda::Url', {
      AuthType: 'NONE',
      InvokeMode: 'BUFFERED',
      TargetFunctionArn: { 'Fn::GetAtt': [fnId, 'Arn'] },
    });
    expect(resourcesOfType(template, 'AWS::Lambda::Url')[0]![1].Properties.Cors).toBeUndefined();
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunctionUrl',
      Principal: '*',
      FunctionUrlAuthType: 'NONE',
    });
  });

  it('outputs the endpoint (<function URL>card-network/authorizations) and the secret ARN, never its value', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(JSON.stringify(outputs.CardNetworkUrl!.Value)).toContain(`"${CARD_NETWORK_FUNCTION.path.slice(1)}"`);
    expect(outputs.CardNetworkSigningSecret!.Value).toEqual({ Ref: secretId });
    expect(JSON.stringify(template.toJSON())).not.toContain('{{resolve:secretsmanager:');
  });
});

describe('card network stack: the function and its secret', () => {
  it('serves the live network: production cards only (CARD_NETWORK_ENVIRONMENT=PRODUCTION), never the local run', () => {
    const variables = fnProperties().Environment.Variables as Record<string, unknown>;
    expect(variables[CARD_NETWORK_ENV.environment]).toBe('PRODUCTION');
    expect(variables[ENV.localRun]).toBeUndefined();
  });

  it("is one Node.js 24 arm64 function with the card network timeout, within the network's budget", () => {
    template.resourceCountIs('AWS::Lambda::Function', 1);
    expect(fnProperties()).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      Timeout: CARD_NETWORK_FUNCTION.timeoutS,
      MemorySize: CARD_NETWORK_FUNCTION.memoryMb,
    });
    expect(CARD_NETWORK_FUNCTION.timeoutS).toBeLessThanOrEqual(5);
  });

  it("knows its stage, the table and the secret's ARN (not its value), and no data key", () => {
    const variables = fnProperties().Environment.Variables as Record<string, unknown>;
    expect(variables[ENV.stage]).toBe('dev');
    expect(resolve(variables[ENV.tableName])).toEqual(TABLE_NAME);
    expect(variables[CARD_NETWORK_ENV.secretArn]).toEqual({ Ref: secretId });
    expect(variables[CARD_NETWORK_ENV.secret]).toBeUndefined();
    expect(variables[ENV.dataKeyId]).toBeUndefined();
    expect(variables[ENV.dataEncryptionKey]).toBeUndefined();
  });

  it('generates the secret: 64 letters and digits, under the AWS-managed key', () => {
    template.resourceCountIs('AWS::SecretsManager::Secret', 1);
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true, IncludeSpace: false },
    });
    expect(resourcesOfType(template, 'AWS::SecretsManager::Secret')[0]![1].Properties.KmsKeyId).toBeUndefined();
  });

  it('reserves no concurrency outside production, and some in production', () => {
    expect(fnProperties().ReservedConcurrentExecutions).toBeUndefined();
    const production = synthStage('production', { bundle: false });
    expect(fnProperties(Template.fromStack(production.cardNetwork)).ReservedConcurrentExecutions).toBe(
      CARD_NETWORK_FUNCTION.productionReservedConcurrency,
    );
  });
});

describe('card network stack: alarms', () => {
  const alarms = resourcesOfType(template, 'AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties);
  const onFunction = (metricName: string) =>
    alarms.find(
      (alarm) =>
        alarm.MetricName === metricName && sameJson(alarm.Dimensions, [{ Name: 'FunctionName', Value: { Ref: fnId } }]),
    );

  it("alarms on the function's errors and throttles (any in a minute) and on a slow p99", () => {
    expect(onFunction('Errors')).toMatchObject({
      Namespace: 'AWS/Lambda',
      Threshold: 1,
      Period: 60,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(onFunction('Throttles')).toMatchObject({ Threshold: 1, Period: 60 });
    expect(onFunction('Duration')).toMatchObject({ ExtendedStatistic: 'p99', Threshold: 1000 });
  });

  it('counts the failures logged inside a request (the marker) and alarms on any', () => {
    const filters = resourcesOfType(template, 'AWS::Logs::MetricFilter');
    expect(filters).toHaveLength(1);
    const filter = filters[0]![1] as { Properties: Record<string, any> };
    expect(filter.Properties.FilterPattern).toBe(`"${CARD_NETWORK_FAILURE_MARKER}"`);
    expect(filter.Properties.LogGroupName).toEqual({
      Ref: logicalIdOf(dev.cardNetwork.function.node.findChild('Logs')),
    });
    const { MetricName, MetricNamespace } = filter.Properties.MetricTransformations[0];
    expect(
      alarms.find((alarm) => alarm.MetricName === MetricName && alarm.Namespace === MetricNamespace),
    ).toMatchObject({ Threshold: 1, Statistic: 'Sum' });
  });
});

describe('card network stack: least-privilege IAM', () => {
  const statements = statementsOfRole(template, fn.role!);

  it('defines no other kind of policy, and no policy outside the function role', () => {
    expectNoOtherPolicyKinds(template);
    expectPoliciesOnlyOn(template, [fn.role!]);
  });

  it('denies any update or delete of an audit entry', () => {
    expectAuditDeny(statements, classify, 'card-network');
  });

  it('grants no wildcard action, and nothing on a wildcard resource', () => {
    for (const statement of statements) {
      for (const action of asArray(statement.Action as string | string[]))
        expect(action, JSON.stringify(statement)).not.toContain('*');
      const actions = asArray(statement.Action as string | string[]);
      if (actions.every((action) => XRAY_ACTIONS.has(action))) continue;
      for (const resource of asArray(statement.Resource)) expect(resource).not.toBe('*');
    }
  });

  it('reads its own secret only: GetSecretValue, nothing else of Secrets Manager', () => {
    const secrets = statements.filter((statement) =>
      asArray(statement.Action as string | string[]).some((action) => action.startsWith('secretsmanager:')),
    );
    expect(secrets).toHaveLength(1);
    expect(secrets[0]).toMatchObject({
      Effect: 'Allow',
      Action: 'secretsmanager:GetSecretValue',
      Resource: { Ref: secretId },
    });
    expect(secrets[0]!.Condition).toBeUndefined();
  });

  it('reaches only the table, its indexes and its secret: no Scan, no DeleteItem, no KMS, nothing else', () => {
    const granted = { table: new Set<string>(), index: new Set<string>() };
    for (const statement of statements.filter((s) => s.Effect !== 'Deny')) {
      expect(statement.Effect).toBe('Allow');
      expect(statement.NotAction).toBeUndefined();
      expect(statement.NotResource).toBeUndefined();
      const actions = asArray(statement.Action as string | string[]);
      if (actions.every((action) => XRAY_ACTIONS.has(action))) continue;
      if (isTableDeletesStatement(statement, classify)) continue;
      if (statement.Sid === secretReadSid(CARD_NETWORK_ENV.secretArn)) continue;
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
    expect(JSON.stringify(statements)).not.toContain('kms:');
  });
});
