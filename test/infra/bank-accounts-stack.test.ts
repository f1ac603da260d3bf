import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { ROUTES, routeKeyOf, type FunctionGroup } from '../../shared/http/routes.js';
import { isDataKeyStatement } from './data-key.js';
import { groupsWith } from './grants.js';
import { asArray, resourcesOfType, sameJson, statementsOfRole, type Statement } from './iam.js';
import { logicalIdOf, resolveCrossStack, synthStage } from './synth-stage.js';

/** Resources only (no bundling): the bank-accounts function is bundled by api-stack.test.ts. */
const dev = synthStage('dev', { bundle: false });
const prod = synthStage('prod', { bundle: false });
const mcpTemplate = Template.fromStack(dev.mcp);
const dataKeyArn = { 'Fn::GetAtt': [logicalIdOf(dev.data.dataKey), 'Arn'] };

const kmsStatements = (statements: Statement[]) =>
  statements.filter((statement) =>
    asArray(statement.Action as string | string[]).some((action) => action.startsWith('kms:')),
  );

describe('bank accounts: function and routes', () => {
  it('serves the five bank account routes from the bank-accounts function', () => {
    const routes = ROUTES.filter((route) => route.group === 'bank-accounts')
      .map(routeKeyOf)
      .sort();
    expect(routes).toEqual([
      'DELETE /v1/bank-accounts/{id}',
      'GET /v1/bank-accounts',
      'GET /v1/bank-accounts/{id}',
      'POST /v1/bank-accounts',
      'POST /v1/bank-accounts/{id}/verify',
    ]);
    const apiRoutes = resourcesOfType(dev.apiTemplate, 'AWS::ApiGatewayV2::Route').map(
      ([, route]) => route.Properties.RouteKey,
    );
    for (const route of routes) expect(apiRoutes).toContain(route);
    expect(dev.api.functions.get('bank-accounts')).toBeDefined();
  });
});

describe('data key (envelope encryption of account numbers)', () => {
  it('is one KMS key in the data stack, rotated yearly and retained in every stage', () => {
    for (const stage of [dev, prod]) {
      const keys = resourcesOfType(stage.dataTemplate, 'AWS::KMS::Key');
      expect(keys).toHaveLength(1);
      const [, key] = keys[0]!;
      expect(key.Properties.EnableKeyRotation).toBe(true);
      const raw = (
        stage.dataTemplate.toJSON() as {
          Resources: Record<string, { DeletionPolicy?: string; UpdateReplacePolicy?: string }>;
        }
      ).Resources[keys[0]![0]]!;
      expect(raw.DeletionPolicy).toBe('Retain');
      expect(raw.UpdateReplacePolicy).toBe('Retain');
    }
  });

  it('gives the bank-accounts function DATA_KEY_ID and only GenerateDataKey + Decrypt on that key', () => {
    // The groups whose catalog entry declares `dataKey:seal` (bank-accounts, cards, transfers).
    expect(groupsWith('dataKey:seal')).toContain('bank-accounts');
    for (const group of groupsWith('dataKey:seal')) {
      const fn = dev.api.functions.get(group as FunctionGroup)!.function;
      const variables = (
        dev.apiTemplate.toJSON() as {
          Resources: Record<string, { Properties: { Environment: { Variables: Record<string, unknown> } } }>;
        }
      ).Resources[logicalIdOf(fn)]!.Properties.Environment.Variables;
      expect(resolveCrossStack(variables[ENV.dataKeyId], dev.dataTemplate)).toEqual(dataKeyArn);
      const statements = kmsStatements(statementsOfRole(dev.apiTemplate, fn.role!));
      expect(statements).toHaveLength(1);
      expect(isDataKeyStatement(dev, statements[0]!)).toBe(true);
    }
  });

  it('gives the MCP function (its bank account tools) the same grant and nothing more', () => {
    const statements = kmsStatements(statementsOfRole(mcpTemplate, dev.mcp.function.function.role!));
    expect(statements).toHaveLength(1);
    expect(isDataKeyStatement(dev, statements[0]!)).toBe(true);
  });

  it('gives no other API function any KMS action', () => {
    for (const [group, fn] of dev.api.functions) {
      if (groupsWith('dataKey:seal').includes(group)) continue;
      expect(kmsStatements(statementsOfRole(dev.apiTemplate, fn.function.role!)), group).toEqual([]);
    }
  });

  it('never grants a KMS action on a wildcard, nor Encrypt, ReEncrypt or key management', () => {
    for (const template of [dev.apiTemplate, mcpTemplate, dev.eventsTemplate]) {
      for (const [, policy] of resourcesOfType(template, 'AWS::IAM::Policy')) {
        for (const statement of kmsStatements(
          (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement,
        )) {
          expect(asArray(statement.Resource).some((resource) => sameJson(resource, '*'))).toBe(false);
          expect(asArray(statement.Action as string | string[]).sort()).toEqual(['kms:Decrypt', 'kms:GenerateDataKey']);
        }
      }
    }
  });
});
