import { Duration } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { StageConfig } from '../config/stage-config.js';

/** SQS keeps a message at most 14 days: the longest time to notice and replay a failure. */
export const DLQ_RETENTION = Duration.days(14);

export interface DeadLetterQueueProps {
  readonly stage: StageConfig;
}

/**
 * Where failed events of a worker end up: encrypted at rest (SSE-SQS, which EventBridge and Lambda
 * can write to without a key policy), TLS-only, kept 14 days, retained with the stage's stateful
 * resources in production so the evidence survives a stack deletion.
 */
export class DeadLetterQueue extends Construct {
  readonly queue: sqs.Queue;

  constructor(scope: Construct, id: string, props: DeadLetterQueueProps) {
    super(scope, id);
    this.queue = new sqs.Queue(this, 'Queue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: DLQ_RETENTION,
      removalPolicy: props.stage.removalPolicy,
    });
  }
}
