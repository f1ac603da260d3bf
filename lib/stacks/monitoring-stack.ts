import { ArnFormat, CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import {
  CARD_AUTHORIZATION_P99_BUDGET_MS,
  METRIC,
  METRICS_NAMESPACE,
  METRICS_SERVICE,
  type MetricName,
} from '../../shared/observability/metric-names.js';
import type { StageConfig } from '../config/stage-config.js';
import {
  CARD_DECISIONS,
  serviceMetric,
  WEBHOOK_FAILURE_MIN_ATTEMPTS,
  WEBHOOK_FAILURE_RATIO_PERCENT,
  webhookFailureRatio,
  WEBHOOK_OUTCOMES,
  WORKFLOW_STEP_DIMENSIONS,
} from '../constructs/alarms.js';

export interface MonitoringStackProps extends StackProps {
  readonly stage: StageConfig;
}

/** The card authorization p99 alarms when 3 of the last 5 minutes are over the budget. */
export const CARD_P99_EVALUATION = { evaluationPeriods: 5, datapointsToAlarm: 3 } as const;
/** The webhook failure ratio alarms when 3 consecutive 5-minute periods are over the ratio. */
export const WEBHOOK_RATIO_EVALUATION = { period: Duration.minutes(5), evaluationPeriods: 3 } as const;

/** The dashboard's name: `allowance-<stage>`. */
export const dashboardNameOf = (stage: StageConfig) => `allowance-${stage.name}`;

/**
 * What watches a stage as a whole, from the service's own metrics (shared/observability/metric-names.ts,
 * written by the functions in embedded metric format): the alarm topic (unless the stage names an
 * existing one), the webhook delivery failure ratio and card authorization p99 alarms, and the
 * stage's dashboard (payments, ledger writes, webhooks, card authorizations, workflow steps).
 * It refers to no other stack; the alarms of the other stacks' resources live next to them, and
 * every alarm of the stage notifies the topic (lib/constructs/alarms.ts AlarmsToTopic).
 */
export class MonitoringStack extends Stack {
  /** Present when the stage creates its topic (StageConfig.alarmTopic.create). */
  readonly topic?: sns.Topic;
  readonly alarms: { readonly webhookFailureRatio: cloudwatch.Alarm; readonly cardAuthorizationP99: cloudwatch.Alarm };
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringStackProps) {
    super(scope, id, props);
    const { stage } = props;

    if (stage.alarmTopic.create) {
      this.topic = new sns.Topic(this, 'AlarmTopic', {
        topicName: stage.alarmTopic.name,
        displayName: `Allowance ${stage.name} alarms`,
        enforceSSL: true,
      });
      // The topic policy replaces SNS's default one: CloudWatch alarms of this account may publish.
      this.topic.addToResourcePolicy(
        new iam.PolicyStatement({
          sid: 'CloudWatchAlarmsPublish',
          actions: ['sns:Publish'],
          principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
          resources: [this.topic.topicArn],
          conditions: {
            StringEquals: { 'aws:SourceAccount': this.account },
            ArnLike: {
              'aws:SourceArn': this.formatArn({
                service: 'cloudwatch',
                resource: 'alarm',
                resourceName: '*',
                arnFormat: ArnFormat.COLON_RESOURCE_NAME,
              }),
            },
          },
        }),
      );
      new CfnOutput(this, 'AlarmTopicArn', {
        value: this.topic.topicArn,
        description: 'Every alarm of the stage notifies this topic: subscribe the on-call (email, chat, pager)',
      });
    }

    const webhookRatio = webhookFailureRatio(stage, WEBHOOK_RATIO_EVALUATION.period);
    // No label: a labelled metric would make the alarm a metric math alarm.
    const cardP99 = serviceMetric(stage, METRIC.cardAuthorizationLatency, {
      statistic: 'p99',
      period: Duration.minutes(1),
    });
    this.alarms = {
      webhookFailureRatio: new cloudwatch.Alarm(this, 'WebhookFailureRatio', {
        alarmDescription: `More than ${WEBHOOK_FAILURE_RATIO_PERCENT}% of webhook delivery attempts not delivered for 15 minutes (at least ${WEBHOOK_FAILURE_MIN_ATTEMPTS} attempts per 5 minutes; ${stage.name}): docs/runbook.md`,
        metric: webhookRatio,
        threshold: WEBHOOK_FAILURE_RATIO_PERCENT,
        evaluationPeriods: WEBHOOK_RATIO_EVALUATION.evaluationPeriods,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      cardAuthorizationP99: new cloudwatch.Alarm(this, 'CardAuthorizationP99', {
        alarmDescription: `Card authorization decision p99 over its ${CARD_AUTHORIZATION_P99_BUDGET_MS} ms budget in 3 of 5 minutes (${stage.name}): docs/runbook.md`,
        metric: cardP99,
        threshold: CARD_AUTHORIZATION_P99_BUDGET_MS,
        ...CARD_P99_EVALUATION,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    };

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: dashboardNameOf(stage),
      defaultInterval: Duration.hours(3),
      widgets: dashboardRows(stage, webhookRatio),
    });
    new CfnOutput(this, 'DashboardName', { value: dashboardNameOf(stage), description: 'The stage dashboard' });
  }
}

const FIVE_MINUTES = Duration.minutes(5);

/**
 * Every series of `metricName` whatever the value of its own dimension (`code`, `operation`): a
 * search over exactly the dimension set the runtime writes, so an error code or operation added
 * later shows without a change here.
 */
function searchBy(stage: StageConfig, metricName: MetricName, dimension: string, label: string) {
  const schema = `{${METRICS_NAMESPACE},${dimension},service,stage}`;
  return new cloudwatch.MathExpression({
    label,
    expression: `SEARCH('${schema} MetricName="${metricName}" service="${METRICS_SERVICE}" stage="${stage.name}"', 'Sum', 300)`,
    usingMetrics: {},
    period: FIVE_MINUTES,
  });
}

function dashboardRows(stage: StageConfig, webhookRatio: cloudwatch.MathExpression): cloudwatch.IWidget[][] {
  const sum = (metricName: MetricName, label: string, dimensions?: Record<string, string>) =>
    serviceMetric(stage, metricName, { label, period: FIVE_MINUTES, ...(dimensions ? { dimensions } : {}) });
  const percentiles = (metricName: MetricName, what: string) =>
    (['p50', 'p99'] as const).map((statistic) =>
      serviceMetric(stage, metricName, { statistic, period: FIVE_MINUTES, label: `${what} ${statistic}` }),
    );
  const graph = (title: string, left: cloudwatch.IMetric[], more: Partial<cloudwatch.GraphWidgetProps> = {}) =>
    new cloudwatch.GraphWidget({ title, left, width: 8, height: 6, ...more });
  const heading = (text: string) => new cloudwatch.TextWidget({ markdown: text, width: 24, height: 1 });

  return [
    [
      new cloudwatch.TextWidget({
        markdown: `# Allowance ${stage.name}\nMetrics of namespace \`${METRICS_NAMESPACE}\` (dimensions \`service=${METRICS_SERVICE}\`, \`stage=${stage.name}\`). What each alarm means and what to do: docs/runbook.md.`,
        width: 24,
        height: 2,
      }),
    ],
    [heading('## Payments')],
    [
      graph('Payments posted and queued (per 5 min)', [
        sum(METRIC.paymentsPosted, 'posted'),
        sum(METRIC.paymentsQueued, 'queued for approval'),
      ]),
      graph('Payments refused, by error code', [searchBy(stage, METRIC.paymentsRefused, 'code', 'refused')]),
      graph('Ledger writes: conflicts and exhausted retries', [
        sum(METRIC.transactionConflicts, 'transaction conflicts'),
        sum(METRIC.retriesExhausted, 'retries exhausted (CONCURRENT_UPDATE)'),
      ]),
    ],
    [
      graph('Consumed write units, by operation', [searchBy(stage, METRIC.consumedWriteUnits, 'operation', 'WCU')], {
        width: 24,
      }),
    ],
    [heading('## Webhooks')],
    [
      graph(
        'Webhook delivery attempts, by outcome',
        WEBHOOK_OUTCOMES.map((outcome) => sum(METRIC.webhookDeliveries, outcome, { outcome })),
      ),
      graph('Webhook attempts not delivered (%)', [webhookRatio], {
        leftAnnotations: [{ value: WEBHOOK_FAILURE_RATIO_PERCENT, label: 'alarm', color: cloudwatch.Color.RED }],
        leftYAxis: { min: 0, max: 100 },
      }),
      graph('Webhook delivery latency (ms)', percentiles(METRIC.webhookDeliveryLatency, 'latency')),
    ],
    [heading('## Card authorizations')],
    [
      graph(
        'Card authorizations, by decision',
        CARD_DECISIONS.map((decision) => sum(METRIC.cardAuthorizations, decision, { decision })),
      ),
      graph('Card authorization decision latency (ms)', percentiles(METRIC.cardAuthorizationLatency, 'decision'), {
        leftAnnotations: [
          { value: CARD_AUTHORIZATION_P99_BUDGET_MS, label: 'p99 budget', color: cloudwatch.Color.RED },
        ],
      }),
      graph(
        'Workflow steps, by workflow and outcome',
        WORKFLOW_STEP_DIMENSIONS.workflow.flatMap((workflow) =>
          WORKFLOW_STEP_DIMENSIONS.outcome.map((outcome) =>
            sum(METRIC.workflowSteps, `${workflow} ${outcome}`, { workflow, outcome }),
          ),
        ),
      ),
    ],
  ];
}
