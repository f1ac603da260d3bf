import { readFileSync } from 'node:fs';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { DeadLetterQueue } from '../../lib/constructs/dead-letter-queue.js';
import { TABLE_OPERATIONS } from '../../lib/constructs/ledger-table.js';
import { POWERTOOLS_LAYER_PARAMETER, ServiceFunction } from '../../lib/constructs/service-function.js';
import { ACCESS_LOG_FIELDS } from '../../lib/stacks/api-stack.js';
import {
  CARD_AUTHORIZATION_P99_BUDGET_MS,
  METRIC,
  METRICS_NAMESPACE,
} from '../../shared/observability/metric-names.js';
import {
  asArray,
  isTableDeletesStatement,
  resourcesOfType,
  sameJson,
  statementsOfRole,
  tableReferences,
  type CfnResource,
} from './iam.js';
import { logicalIdOf, synthStage, type SynthesizedStage } from './synth-stage.js';

/**
 * Issue 26's operability in the templates of a whole stage: every function has the Powertools
 * environment and active tracing, and every function, dead-letter queue, table, stream consumer and
 * state machine has its alarms, all of which (and the service-wide ones) notify the stage's topic.
 */
const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};
const dev = synthStage('dev', { bundle: false });

const stacksOf = (stage: SynthesizedStage): Stack[] => [
  stage.monitoring,
  stage.data,
  stage.endpoint,
  stage.api,
  stage.events,
  stage.mcp,
  stage.workflows,
  stage.cardNetwork,
];
const templates = new Map(stacksOf(dev).map((stack) => [stack, Template.fromStack(stack)] as const));
const templateOf = (stack: Stack) => templates.get(stack)!;
const everywhere = (type: string): [Stack, string, CfnResource][] =>
  [...templates].flatMap(([stack, template]) =>
    resourcesOfType(template, type).map(([id, resource]) => [stack, id, resource] as [Stack, string, CfnResource]),
  );
const alarmsOf = (stack: Stack) =>
  resourcesOfType(templateOf(stack), 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
const serviceFunctions = dev.app.node.findAll().filter((c): c is ServiceFunction => c instanceof ServiceFunction);

const topicArn = (name: string) => ({
  'Fn::Join': [
    '',
    ['arn:', { Ref: 'AWS::Partition' }, ':sns:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:${name}`],
  ],
});

describe('observability: the Powertools environment of every function', () => {
  it('finds every Lambda function of the stage among the ServiceFunctions (no other function)', () => {
    expect(everywhere('AWS::Lambda::Function')).toHaveLength(serviceFunctions.length);
    expect(serviceFunctions.length).toBeGreaterThan(20);
  });

  it.each(serviceFunctions.map((fn) => [fn.group, fn] as const))(
    '%s: service name, log level, namespace, tracing on, no captured response, no POWERTOOLS_DEV',
    (group, fn) => {
      const properties = templateOf(Stack.of(fn)).toJSON().Resources[logicalIdOf(fn.function)].Properties;
      const variables = properties.Environment.Variables as Record<string, unknown>;
      expect(variables).toMatchObject({
        POWERTOOLS_SERVICE_NAME: `allowance-${group}`,
        POWERTOOLS_LOG_LEVEL: 'DEBUG',
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        POWERTOOLS_TRACE_ENABLED: 'true',
        POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
        STAGE: 'dev',
      });
      expect(variables.POWERTOOLS_DEV).toBeUndefined();
      expect(properties.TracingConfig).toEqual({ Mode: 'Active' });
      // The tracer is not bundled: AWS's Powertools layer of the pinned version provides it.
      const layers = JSON.stringify(properties.Layers);
      expect(properties.Layers).toHaveLength(1);
      const parameters = templateOf(Stack.of(fn)).toJSON().Parameters as Record<string, { Default?: string }>;
      const layerParameter = Object.entries(parameters).find(([name]) => layers.includes(name));
      expect(layerParameter?.[1].Default).toBe(POWERTOOLS_LAYER_PARAMETER);
      expect(POWERTOOLS_LAYER_PARAMETER).toContain(packageJson.dependencies['@aws-lambda-powertools/tracer']);
    },
  );

  it('lets every function delete only the items the service deletes (hot sub-items, the registry, email slots)', () => {
    const { classify } = tableReferences(dev);
    for (const fn of serviceFunctions) {
      const statements = statementsOfRole(templateOf(Stack.of(fn)), fn.function.role!);
      const deletes = statements.filter((statement) =>
        asArray(statement.Action as string | string[]).some((action) => /^dynamodb:(Delete|BatchWrite)/.test(action)),
      );
      const allowed = deletes.filter((statement) => statement.Effect === 'Allow');
      if (!statements.some((statement) => statement.Sid === 'LedgerTableItems')) {
        expect(allowed, fn.group).toEqual([]);
        continue;
      }
      expect(allowed, fn.group).toHaveLength(1);
      expect(isTableDeletesStatement(allowed[0]!, classify), fn.group).toBe(true);
    }
  });

  it('logs at INFO in production', () => {
    const production = synthStage('production', { bundle: false });
    const [fn] = production.app.node.findAll().filter((c): c is ServiceFunction => c instanceof ServiceFunction);
    const template = Template.fromStack(Stack.of(fn!));
    const variables = template.toJSON().Resources[logicalIdOf(fn!.function)].Properties.Environment.Variables;
    expect(variables).toMatchObject({ POWERTOOLS_LOG_LEVEL: 'INFO', POWERTOOLS_TRACE_ENABLED: 'true' });
  });

  it('traces every state machine', () => {
    const machines = everywhere('AWS::StepFunctions::StateMachine');
    expect(machines.length).toBeGreaterThan(0);
    for (const [, id, machine] of machines)
      expect(machine.Properties.TracingConfiguration, id).toEqual({ Enabled: true });
  });
});

describe('observability: alarms', () => {
  it('sends every alarm of every stack to the stage topic, firing and back to OK', () => {
    const alarms = everywhere('AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThan(2 * serviceFunctions.length);
    for (const [stack, id, alarm] of alarms) {
      expect(alarm.Properties.AlarmActions, `${stack.stackName} ${id}`).toEqual([topicArn('allowance-dev-alarms')]);
      expect(alarm.Properties.OKActions, `${stack.stackName} ${id}`).toEqual([topicArn('allowance-dev-alarms')]);
    }
  });

  it('creates the topic, TLS only, that CloudWatch alarms of the account may publish to', () => {
    const template = templateOf(dev.monitoring);
    template.hasResourceProperties('AWS::SNS::Topic', { TopicName: 'allowance-dev-alarms' });
    const [[, policy]] = resourcesOfType(template, 'AWS::SNS::TopicPolicy') as [[string, CfnResource]];
    const statements = (policy.Properties.PolicyDocument as { Statement: Record<string, any>[] }).Statement;
    expect(statements.find((s) => s.Sid === 'AllowPublishThroughSSLOnly')).toMatchObject({ Effect: 'Deny' });
    expect(statements.find((s) => s.Sid === 'CloudWatchAlarmsPublish')).toMatchObject({
      Effect: 'Allow',
      Principal: { Service: 'cloudwatch.amazonaws.com' },
      Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
    });
  });

  it('uses an existing topic instead when the stage names one (-c alarmTopic=...)', () => {
    const named = synthStage('staging', { bundle: false, alarmTopic: 'oncall-pager' });
    Template.fromStack(named.monitoring).resourceCountIs('AWS::SNS::Topic', 0);
    for (const stack of [named.monitoring, named.data, named.events]) {
      for (const [, alarm] of resourcesOfType(Template.fromStack(stack), 'AWS::CloudWatch::Alarm'))
        expect(alarm.Properties.AlarmActions).toEqual([topicArn('oncall-pager')]);
    }
  });

  it.each(serviceFunctions.map((fn) => [fn.group, fn] as const))(
    '%s: errors and throttles, any in a minute',
    (_g, fn) => {
      const dimensions = [{ Name: 'FunctionName', Value: { Ref: logicalIdOf(fn.function) } }];
      const onFunction = alarmsOf(Stack.of(fn)).filter((alarm) => sameJson(alarm.Dimensions, dimensions));
      for (const metricName of ['Errors', 'Throttles']) {
        expect(
          onFunction.find((alarm) => alarm.MetricName === metricName),
          metricName,
        ).toMatchObject({
          Namespace: 'AWS/Lambda',
          Statistic: 'Sum',
          Period: 60,
          Threshold: 1,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          TreatMissingData: 'notBreaching',
        });
      }
    },
  );

  it('alarms on every dead-letter queue holding a message', () => {
    const dlqs = dev.app.node.findAll().filter((c): c is DeadLetterQueue => c instanceof DeadLetterQueue);
    expect(dlqs.length).toBeGreaterThan(0);
    for (const dlq of dlqs) {
      const id = logicalIdOf(dlq.queue);
      expect(
        alarmsOf(Stack.of(dlq)).filter(
          (alarm) =>
            alarm.MetricName === 'ApproximateNumberOfMessagesVisible' &&
            sameJson(alarm.Dimensions, [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id, 'QueueName'] } }]) &&
            alarm.Threshold === 1 &&
            alarm.ComparisonOperator === 'GreaterThanOrEqualToThreshold',
        ),
        dlq.node.path,
      ).toHaveLength(1);
    }
  });

  it("alarms on every stream consumer's iterator age", () => {
    const streamMappings = everywhere('AWS::Lambda::EventSourceMapping').filter(
      ([, , mapping]) => mapping.Properties.StartingPosition !== undefined,
    );
    expect(streamMappings.length).toBeGreaterThanOrEqual(2);
    for (const [stack, id, mapping] of streamMappings) {
      expect(
        alarmsOf(stack).some(
          (alarm) =>
            alarm.MetricName === 'IteratorAge' &&
            sameJson(alarm.Dimensions, [{ Name: 'FunctionName', Value: mapping.Properties.FunctionName }]),
        ),
        id,
      ).toBe(true);
    }
  });

  it('alarms on every failed workflow execution', () => {
    for (const [stack, id] of everywhere('AWS::StepFunctions::StateMachine')) {
      expect(
        alarmsOf(stack).filter(
          (alarm) =>
            alarm.MetricName === 'ExecutionsFailed' &&
            sameJson(alarm.Dimensions, [{ Name: 'StateMachineArn', Value: { Ref: id } }]) &&
            alarm.Threshold === 1,
        ),
        id,
      ).toHaveLength(1);
    }
  });

  it("alarms on the table's throttled requests and system errors, over every operation the service calls", () => {
    const tableName = { Ref: logicalIdOf(dev.data.table) };
    for (const metricName of ['ThrottledRequests', 'SystemErrors']) {
      const alarm = alarmsOf(dev.data).find((candidate) =>
        asArray((candidate.Metrics ?? []) as Record<string, any>[]).some(
          (query) => query.MetricStat?.Metric.MetricName === metricName,
        ),
      );
      expect(alarm, metricName).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      const queries = alarm!.Metrics as Record<string, any>[];
      const operations = queries
        .filter((query) => query.MetricStat)
        .map((query) => {
          expect(query.MetricStat.Metric.Namespace).toBe('AWS/DynamoDB');
          const dimensions = query.MetricStat.Metric.Dimensions as { Name: string; Value: unknown }[];
          expect(dimensions.find((d) => d.Name === 'TableName')?.Value).toEqual(tableName);
          return dimensions.find((d) => d.Name === 'Operation')?.Value;
        });
      expect(operations.sort()).toEqual([...TABLE_OPERATIONS].sort());
      expect(queries.find((query) => query.ReturnData !== false)?.Expression).toMatch(/^SUM\(\[/);
    }
  });

  it("alarms on the HTTP API's 5xx rate (5xx over Count of the API)", () => {
    const [alarm] = alarmsOf(dev.api).filter((candidate) => JSON.stringify(candidate.Metrics ?? []).includes('"5xx"'));
    expect(alarm).toBeDefined();
    const queries = alarm!.Metrics as Record<string, any>[];
    const names = queries.filter((q) => q.MetricStat).map((q) => q.MetricStat.Metric.MetricName);
    expect(names.sort()).toEqual(['5xx', 'Count']);
    for (const query of queries.filter((q) => q.MetricStat)) {
      expect(query.MetricStat.Metric.Namespace).toBe('AWS/ApiGateway');
      expect(query.MetricStat.Metric.Dimensions.map((d: { Name: string }) => d.Name)).toEqual(['ApiId']);
    }
    expect(alarm).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanThreshold' });
  });

  it('alarms on the webhook delivery failure ratio, from WebhookDeliveries with exactly {service, stage, outcome}', () => {
    const alarm = alarmsOf(dev.monitoring).find((a) =>
      JSON.stringify(a.Metrics ?? []).includes(METRIC.webhookDeliveries),
    );
    const queries = (alarm!.Metrics as Record<string, any>[]).filter((q) => q.MetricStat);
    expect(queries.map((q) => q.MetricStat.Metric.Dimensions)).toEqual(
      ['delivered', 'failed', 'dead_lettered'].map((outcome) => [
        { Name: 'outcome', Value: outcome },
        { Name: 'service', Value: 'allowance' },
        { Name: 'stage', Value: 'dev' },
      ]),
    );
    for (const query of queries)
      expect(query.MetricStat).toMatchObject({ Stat: 'Sum', Metric: { Namespace: 'Allowance' } });
    expect(alarm).toMatchObject({ Threshold: 20, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 3 });
  });

  it('alarms on the card authorization decision p99 over its budget, with exactly {service, stage}', () => {
    const alarm = alarmsOf(dev.monitoring).find((a) => a.MetricName === METRIC.cardAuthorizationLatency);
    expect(alarm).toMatchObject({
      Namespace: 'Allowance',
      ExtendedStatistic: 'p99',
      Dimensions: [
        { Name: 'service', Value: 'allowance' },
        { Name: 'stage', Value: 'dev' },
      ],
      Threshold: CARD_AUTHORIZATION_P99_BUDGET_MS,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });
});

describe('observability: dashboard and access log', () => {
  it('has one dashboard per stage charting the payment, webhook, card and workflow metrics', () => {
    const dashboards = resourcesOfType(templateOf(dev.monitoring), 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const [, dashboard] = dashboards[0]!;
    expect(dashboard.Properties.DashboardName).toBe('allowance-dev');
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const metricName of Object.values(METRIC)) expect(body, metricName).toContain(metricName);
    // The dimension sets the runtime writes: service and stage, plus the metric's own.
    expect(body).toContain(String.raw`\"service\",\"allowance\"`);
    expect(body).toContain(String.raw`\"stage\",\"dev\"`);
    expect(body).toContain('{Allowance,code,service,stage}');
    expect(body).toContain('{Allowance,operation,service,stage}');
  });

  it('writes one JSON access log line per request, to a log group with the stage retention', () => {
    const template = templateOf(dev.api);
    const [[, stage]] = resourcesOfType(template, 'AWS::ApiGatewayV2::Stage') as [[string, CfnResource]];
    const settings = stage.Properties.AccessLogSettings as { Format: string; DestinationArn: unknown };
    expect(JSON.parse(settings.Format)).toEqual(ACCESS_LOG_FIELDS);
    expect(settings.DestinationArn).toEqual({ 'Fn::GetAtt': [logicalIdOf(dev.api.accessLogs), 'Arn'] });
    template.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
  });
});
