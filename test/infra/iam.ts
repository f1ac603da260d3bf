import type { Template } from 'aws-cdk-lib/assertions';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { expect } from 'vitest';
import { logicalIdOf, resolveCrossStack, type SynthesizedStage } from './synth-stage.js';

/**
 * Least-privilege expectations shared by the stacks that hold functions. Written out here rather
 * than imported from the construct: widening a grant (DeleteItem, Scan, a wildcard) must fail the
 * tests, not silently pass along with it.
 */
export const ALLOWED_TABLE_ACTIONS: ReadonlySet<string> = new Set([
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:Query',
]);
export const ALLOWED_INDEX_ACTIONS: ReadonlySet<string> = new Set(['dynamodb:Query']);
/**
 * Active tracing (every stage traces): X-Ray requires `Resource: *`. Functions get the first two;
 * state machines the sampling calls too. CDK may merge them into another statement on "*".
 */
export const XRAY_ACTIONS: ReadonlySet<string> = new Set([
  'xray:PutTraceSegments',
  'xray:PutTelemetryRecords',
  'xray:GetSamplingRules',
  'xray:GetSamplingTargets',
]);
/** A statement's actions but X-Ray's (which are on "*"). */
export const actionsBesidesXray = (statement: Statement): string[] =>
  asArray((statement.Action ?? []) as string | string[]).filter(
    (action) => !(XRAY_ACTIONS.has(action) && asArray(statement.Resource).includes('*')),
  );
export const BASIC_EXECUTION_ROLE = ':iam::aws:policy/service-role/AWSLambdaBasicExecutionRole';

export interface CfnResource {
  Type: string;
  Properties: Record<string, unknown>;
}
export interface Statement {
  Sid?: string;
  Effect?: string;
  Action?: string | string[];
  NotAction?: unknown;
  Resource?: unknown;
  NotResource?: unknown;
  Condition?: unknown;
}

export const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
export const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function resourcesOfType(template: Template, type: string): [string, CfnResource][] {
  const { Resources } = template.toJSON() as { Resources: Record<string, CfnResource> };
  return Object.entries(Resources).filter(([, resource]) => resource.Type === type);
}

/** The statements of every inline policy attached to `role` in `template`. */
export function statementsOfRole(template: Template, role: IRole): Statement[] {
  const roleRef = { Ref: logicalIdOf(role) };
  return resourcesOfType(template, 'AWS::IAM::Policy')
    .filter(([, policy]) => asArray(policy.Properties.Roles as unknown[]).some((r) => sameJson(r, roleRef)))
    .flatMap(([, policy]) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}

/** How a consumer stack's IAM resources and environment values point at the data stack's table. */
export function tableReferences(stage: SynthesizedStage) {
  const tableLogicalId = logicalIdOf(stage.data.table);
  const tableArn = { 'Fn::GetAtt': [tableLogicalId, 'Arn'] };
  const resolve = (value: unknown) => resolveCrossStack(value, stage.dataTemplate);
  /** What an IAM Resource entry points at, after following the cross-stack reference. */
  const classify = (resource: unknown): 'table' | 'index' | 'other' => {
    if (sameJson(resolve(resource), tableArn)) return 'table';
    const join = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
    if (join && join[0] === '' && join[1].length === 2 && join[1][1] === '/index/*') {
      return classify(join[1][0]) === 'table' ? 'index' : 'other';
    }
    return 'other';
  };
  return { tableName: { Ref: tableLogicalId }, tableArn, resolve, classify };
}

/**
 * The one statement that lets a function delete (bindTable): DeleteItem and BatchWriteItem on the
 * table, only for the leading keys of the items the service deletes (written out: widening it must
 * fail the tests).
 */
export function isTableDeletesStatement(statement: Statement, classify: (resource: unknown) => string): boolean {
  return (
    statement.Sid === 'LedgerTableDeletes' &&
    statement.Effect === 'Allow' &&
    sameJson([...asArray(statement.Action as string | string[])].sort(), [
      'dynamodb:BatchWriteItem',
      'dynamodb:DeleteItem',
    ]) &&
    classify(statement.Resource) === 'table' &&
    sameJson(statement.Condition, {
      'ForAllValues:StringLike': {
        'dynamodb:LeadingKeys': ['WALLET#*#IN#*', 'WALLET#*#LANE#*', 'HOT_WALLETS', 'USER_EMAIL#*'],
      },
    })
  );
}

/** Exactly one Deny: UpdateItem and DeleteItem of items whose leading key starts AUDIT#, on the table. */
export function expectAuditDeny(statements: Statement[], classify: (resource: unknown) => string, who: string) {
  const denies = statements.filter((statement) => statement.Effect === 'Deny');
  expect(denies, who).toHaveLength(1);
  const [deny] = denies;
  expect(asArray(deny!.Action as string[]).sort(), who).toEqual(['dynamodb:DeleteItem', 'dynamodb:UpdateItem']);
  expect(classify(deny!.Resource), who).toBe('table');
  expect(deny!.Condition, who).toEqual({ 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': ['AUDIT#*'] } });
}

/** Every IAM policy of the template is attached to one of `roles` (no policy on any other role, user or group). */
export function expectPoliciesOnlyOn(template: Template, roles: readonly IRole[]) {
  const refs = roles.map((role) => ({ Ref: logicalIdOf(role) }));
  for (const [id, policy] of resourcesOfType(template, 'AWS::IAM::Policy')) {
    for (const role of asArray(policy.Properties.Roles as unknown[]))
      expect(
        refs.some((candidate) => sameJson(candidate, role)),
        id,
      ).toBe(true);
  }
}

/** Roles carry only inline policies (no managed policy but the basic execution role). */
export function expectNoOtherPolicyKinds(template: Template) {
  template.resourceCountIs('AWS::IAM::ManagedPolicy', 0);
  for (const [id, role] of resourcesOfType(template, 'AWS::IAM::Role')) {
    expect(role.Properties.Policies, id).toBeUndefined();
    for (const arn of asArray(role.Properties.ManagedPolicyArns ?? [])) {
      expect(JSON.stringify(arn), id).toContain(BASIC_EXECUTION_ROLE);
    }
  }
}

/**
 * The two statements ServiceFunction.bindExpiryScheduler adds (and nothing wider): CreateSchedule
 * on the schedules of the events stack's expiry group, PassRole on Scheduler's role only, passed
 * to Scheduler only. Resources are cross-stack references named after the events stack's ids.
 */
export function isExpirySchedulingStatement(statement: Statement): boolean {
  const actions = asArray(statement.Action as string | string[]);
  const resources = asArray(statement.Resource);
  if (actions.length !== 1 || resources.length !== 1) return false;
  const resource = JSON.stringify(resources[0]);
  if (actions[0] === 'scheduler:CreateSchedule') return /:schedule\/[^"]*ExpirySchedules[^"/]*\/\*"/.test(resource);
  if (actions[0] === 'iam:PassRole')
    return (
      resource.includes('ExpirySchedulerRole') &&
      sameJson(statement.Condition, { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } })
    );
  return false;
}
