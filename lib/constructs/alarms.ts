import { Arn, ArnFormat, Duration, Stack, type IAspect } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { IConstruct } from 'constructs';
import {
  METRIC,
  METRICS_NAMESPACE,
  METRICS_SERVICE,
  type MetricName,
} from '../../shared/observability/metric-names.js';
import type { StageConfig } from '../config/stage-config.js';

/**
 * The stage's alarm topic's ARN in the stack of `scope`: built from its name (StageConfig.alarmTopic)
 * and the stack's own account and region, so no stack imports it from another (no export to pin it).
 */
export function alarmTopicArn(scope: IConstruct, stage: StageConfig): string {
  return Arn.format(
    { service: 'sns', resource: stage.alarmTopic.name, arnFormat: ArnFormat.NO_RESOURCE_NAME },
    Stack.of(scope),
  );
}

/**
 * Sends every CloudWatch alarm of the construct tree it is added to (one stage's stacks) to the
 * stage's alarm topic, both when it fires and when it is back to OK, so no alarm of any stack can
 * be left without an action (test/infra/alarms.test.ts checks every alarm of every stack).
 */
export class AlarmsToTopic implements IAspect {
  private readonly done = new WeakSet<cloudwatch.Alarm>();

  constructor(private readonly stage: StageConfig) {}

  visit(node: IConstruct): void {
    if (!(node instanceof cloudwatch.Alarm) || this.done.has(node)) return;
    this.done.add(node);
    const action: cloudwatch.IAlarmAction = { bind: () => ({ alarmActionArn: alarmTopicArn(node, this.stage) }) };
    node.addAlarmAction(action);
    node.addOkAction(action);
  }
}

/**
 * Dimensions of the service's own metrics (shared/observability/metric-names.ts): `service` and
 * `stage` always, plus the metric's own dimension(s) when given. The runtime writes exactly these
 * sets, so an alarm or a chart with another set would read nothing.
 */
export function serviceDimensions(
  stage: StageConfig,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return { service: METRICS_SERVICE, stage: stage.name, ...extra };
}

/** One of the service's own metrics (namespace METRICS_NAMESPACE) with its exact dimension set. */
export function serviceMetric(
  stage: StageConfig,
  metricName: MetricName,
  options: {
    readonly dimensions?: Readonly<Record<string, string>>;
    readonly statistic?: string;
    readonly period?: Duration;
    readonly label?: string;
  } = {},
): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: serviceDimensions(stage, options.dimensions),
    statistic: options.statistic ?? cloudwatch.Stats.SUM,
    period: options.period ?? Duration.minutes(5),
    ...(options.label ? { label: options.label } : {}),
  });
}

/** Outcomes of a webhook delivery attempt (the `outcome` dimension of WebhookDeliveries). */
export const WEBHOOK_OUTCOMES = ['delivered', 'failed', 'dead_lettered'] as const;
/** Decisions of a card authorization (the `decision` dimension of CardAuthorizations). */
export const CARD_DECISIONS = ['approved', 'declined'] as const;
/** Workflows and step outcomes (the `workflow` and `outcome` dimensions of WorkflowSteps). */
export const WORKFLOW_STEP_DIMENSIONS = {
  workflow: ['transfer', 'dispute'],
  outcome: ['succeeded', 'failed'],
} as const;

/** The webhook failure ratio alarms over this share of attempts not delivered (failed or dead-lettered), in %. */
export const WEBHOOK_FAILURE_RATIO_PERCENT = 20;
/** ... counted only over periods with at least this many attempts (one receiver's two failures are not an incident). */
export const WEBHOOK_FAILURE_MIN_ATTEMPTS = 20;

/**
 * The share of webhook delivery attempts (WebhookDeliveries, dimensions {service, stage, outcome})
 * that were not delivered, in %, over `period`; 0 when fewer than WEBHOOK_FAILURE_MIN_ATTEMPTS were made.
 */
export function webhookFailureRatio(stage: StageConfig, period: Duration): cloudwatch.MathExpression {
  const attempts = (outcome: (typeof WEBHOOK_OUTCOMES)[number]) =>
    serviceMetric(stage, METRIC.webhookDeliveries, { dimensions: { outcome }, period });
  const total = 'FILL(delivered, 0) + FILL(failed, 0) + FILL(deadLettered, 0)';
  return new cloudwatch.MathExpression({
    label: 'Webhook attempts not delivered (%)',
    expression: `IF((${total}) >= ${WEBHOOK_FAILURE_MIN_ATTEMPTS}, 100 * (FILL(failed, 0) + FILL(deadLettered, 0)) / (${total}), 0)`,
    usingMetrics: {
      delivered: attempts('delivered'),
      failed: attempts('failed'),
      deadLettered: attempts('dead_lettered'),
    },
    period,
  });
}
