import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import {
  assertNever,
  isWorkflowTask,
  WORKERS,
  workerTableProblems,
  type WorkerDefinition,
  type WorkerGrant,
} from '../../shared/workers.js';
import {
  isExpirySchedulingStatement,
  ALLOWED_INDEX_ACTIONS,
  ALLOWED_TABLE_ACTIONS,
  asArray,
  expectAuditDeny,
  expectNoOtherPolicyKinds,
  resourcesOfType,
  sameJson,
  statementsOfRole,
  tableReferences,
  actionsBesidesXray,
  isTableDeletesStatement,
  type CfnResource,
  type Statement,
  expectPoliciesOnlyOn,
} from './iam.js';
import { logicalIdOf, resolveCrossStack, synthStage } from './synth-stage.js';
import { groupsWith } from './grants.js';

/**
 * Every entry of shared/workers.ts, checked against the synthesized events stack: its function
 * (bundled for real, so a worker that cannot be bundled fails here), trigger, DLQ and grants. The
 * checks loop over the table, so a new worker is covered without touching this file; a new trigger
 * kind or grant fails to compile here until its expectation is written.
 */
const dev = synthStage('dev', { bundle: ['Events'] });
const template: Template = dev.eventsTemplate;
const resources = (template.toJSON() as { Resources: Record<string, CfnResource> }).Resources;
const tables = tableReferences(dev);
const SQS_RETENTION_14_DAYS = 14 * 24 * 3600;
const QUEUE_CONSUME_ACTIONS: ReadonlySet<string> = new Set([
  'sqs:ReceiveMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueUrl',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
]);
const DLQ_LOOKUP_ACTIONS: ReadonlySet<string> = new Set(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl']);

/** The workers this stack holds: all but workflow tasks (test/infra/workflows-stack.test.ts checks those). */
const EVENT_WORKERS = WORKERS.filter((worker) => !isWorkflowTask(worker));

const deployed = (worker: WorkerDefinition) => {
  const found = dev.events.workers.get(worker.name);
  if (!found) throw new Error(`worker ${worker.name} was not deployed`);
  return found;
};
const getAttArn = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });
const functionIdOf = (worker: WorkerDefinition) => logicalIdOf(deployed(worker).function.function);
const dlqIdOf = (worker: WorkerDefinition) => {
  const { dlq } = deployed(worker);
  return dlq ? logicalIdOf(dlq) : undefined;
};
const rateExpression = (minutes: number) => `rate(${minutes} ${minutes === 1 ? 'minute' : 'minutes'})`;

/**
 * What each grant may add to a worker's role, written out here rather than imported from the
 * construct. Returns whether `action` on `resource` is covered by the grant.
 */
const STREAM_READ_ACTIONS: ReadonlySet<string> = new Set([
  'dynamodb:DescribeStream',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
]);
/** The table's stream ARN as the events stack references it (an import of the data stack's output). */
const isTableStream = (resource: unknown) => JSON.stringify(resource).includes('StreamArn');
const GRANT_ALLOWS: { readonly [G in WorkerGrant]: (action: string, resource: unknown) => boolean } = {
  'table:readWrite': (action, resource) => {
    const kind = tables.classify(resource);
    return (
      (kind === 'table' && ALLOWED_TABLE_ACTIONS.has(action)) || (kind === 'index' && ALLOWED_INDEX_ACTIONS.has(action))
    );
  },
  // The stream's records and shards, and ListStreams (which IAM only grants on "*").
  'table:readStream': (action, resource) =>
    (STREAM_READ_ACTIONS.has(action) && isTableStream(resource)) ||
    (action === 'dynamodb:ListStreams' && resource === '*'),
  // Scan on the table only.
  'table:scan': (action, resource) => action === 'dynamodb:Scan' && tables.classify(resource) === 'table',
  // The token secret's ARN only: no permission.
  'mcpToken:locate': () => false,
  // StartExecution on the transfer state machine only.
  'transferWorkflow:start': (action, resource) =>
    action === 'states:StartExecution' && JSON.stringify(resource).includes('StateMachinetransfer'),
  'disputeWorkflow:start': (action, resource) =>
    action === 'states:StartExecution' && JSON.stringify(resource).includes('StateMachinedispute'),
  // PutEvents on the service's bus only.
  'bus:put': (action, resource) =>
    action === 'events:PutEvents' && JSON.stringify(resource).includes(logicalIdOf(dev.events.bus)),
  // SendMessage on the worker's own queue and DLQ only.
  'queue:send': (action, resource) => action === 'sqs:SendMessage' && /Queue/.test(JSON.stringify(resource)),
  // GenerateDataKey and Decrypt on the data stack's key only.
  'dataKey:seal': (action, resource) =>
    ['kms:GenerateDataKey', 'kms:Decrypt'].includes(action) &&
    sameJson(resolveCrossStack(resource, dev.dataTemplate), getAttArn(logicalIdOf(dev.data.dataKey))),
  // GetSecretValue on the data stack's webhook key secret only.
  'webhookKey:read': (action, resource) =>
    action === 'secretsmanager:GetSecretValue' &&
    sameJson(resolveCrossStack(resource, dev.dataTemplate), { Ref: logicalIdOf(dev.data.webhookEncryptionKey) }),
  // CreateSchedule in the expiry schedule group, PassRole on Scheduler's role (isExpirySchedulingStatement checks the whole statements).
  'scheduler:create': (action, resource) =>
    isExpirySchedulingStatement({
      Effect: 'Allow',
      Action: action,
      Resource: resource,
      ...(action === 'iam:PassRole'
        ? { Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } } }
        : {}),
    }),
};
/** Grants that give the function an environment variable (bind* sets it with the grant). */
const GRANT_ENVIRONMENT: { readonly [G in WorkerGrant]: (variables: Record<string, unknown>) => void } = {
  'table:readWrite': (variables) => expect(tables.resolve(variables[ENV.tableName])).toEqual(tables.tableName),
  // The stream reaches the function as events: no variable.
  'table:readStream': () => undefined,
  'table:scan': () => undefined,
  'mcpToken:locate': (variables) => expect(variables[ENV.mcpAuthTokenSecretArn]).toBeDefined(),
  'transferWorkflow:start': (variables) => expect(variables[ENV.transferStateMachineArn]).toBeDefined(),
  'disputeWorkflow:start': (variables) => expect(variables[ENV.disputeStateMachineArn]).toBeDefined(),
  'bus:put': (variables) => expect(JSON.stringify(variables[ENV.eventBusName])).toContain(logicalIdOf(dev.events.bus)),
  'queue:send': (variables) => {
    expect(variables[ENV.webhookQueueUrl]).toBeDefined();
    expect(variables[ENV.webhookDeadLetterUrl]).toBeDefined();
  },
  'dataKey:seal': (variables) =>
    expect(resolveCrossStack(variables[ENV.dataKeyId], dev.dataTemplate)).toEqual(
      getAttArn(logicalIdOf(dev.data.dataKey)),
    ),
  'webhookKey:read': (variables) => {
    expect(resolveCrossStack(variables[ENV.webhookEncryptionKeySecretArn], dev.dataTemplate)).toEqual({
      Ref: logicalIdOf(dev.data.webhookEncryptionKey),
    });
    expect(variables[ENV.webhookEncryptionKey]).toBeUndefined();
  },
  'scheduler:create': (variables) => {
    for (const name of [ENV.expiryScheduleGroup, ENV.expirySchedulerRoleArn, ENV.expiryQueueArn])
      expect(variables[name], name).toBeDefined();
  },
};
const usesTable = (worker: WorkerDefinition) => worker.grants.some((grant) => grant.startsWith('table:'));

const cases = EVENT_WORKERS.map((worker) => [worker.name, worker] as const);

describe('workers table', () => {
  it('is valid: unique names, entries under functions/, limits, only wired trigger kinds', () => {
    expect(workerTableProblems(WORKERS)).toEqual([]);
  });

  it('expires approvals from one-time schedules through the expiry queue, with the sweep kept as a safety net', () => {
    expect(WORKERS.find((worker) => worker.name === 'expiry')).toMatchObject({
      entry: 'functions/expiry/handler.ts',
      trigger: { kind: 'queue', queue: 'expiry', fromBus: false, fromScheduler: true },
      dlq: { enabled: true, maxReceiveCount: 5 },
      // Recurring invoice charges and charge retries schedule their next run from the worker.
      grants: ['table:readWrite', 'scheduler:create'],
    });
    expect(WORKERS.find((worker) => worker.name === 'expiry-sweep')).toMatchObject({
      entry: 'functions/expiry-sweep/handler.ts',
      trigger: { kind: 'schedule', rateMinutes: 15, retryAttempts: 2 },
      // It also reconciles overdue transfers: the rail is told the account number, opened with the data key.
      grants: ['table:readWrite', 'dataKey:seal'],
    });
    const base: WorkerDefinition = WORKERS.find((worker) => worker.name === 'expiry')!;
    expect(workerTableProblems([base, { ...base, name: 'other', entry: 'functions/other/handler.ts' }])).toContainEqual(
      expect.stringMatching(/at most one queue/),
    );
  });

  it('refuses entries that CDK or the local run could not honour', () => {
    const base: WorkerDefinition = WORKERS[0]!;
    const problems = workerTableProblems([
      { ...base, name: 'Bad_Name' },
      { ...base, entry: 'functions/other/handler.ts' },
      { ...base, timeoutSeconds: 901 },
      { ...base, trigger: { kind: 'schedule', rateMinutes: 0.5, retryAttempts: 2 } },
      { ...base, trigger: { kind: 'queue', queue: 'webhooks', batchSize: 10, fromBus: false }, dlq: { enabled: true } },
      { ...base, trigger: { kind: 'workflow-task', workflow: 'refund' as never }, dlq: { enabled: true } },
      { ...base, dlq: { enabled: true, maxReceiveCount: 3 } },
    ]);
    for (const expected of [
      /name must match/,
      /entry must be/,
      /timeoutSeconds/,
      /rateMinutes/,
      /unknown workflow/,
      /reports failures to its workflow/,
      /needs a DLQ with maxReceiveCount/,
      /maxReceiveCount applies to queue triggers only/,
    ]) {
      expect(
        problems.some((problem) => expected.test(problem)),
        String(expected),
      ).toBe(true);
    }
    expect(workerTableProblems([base, base]).some((problem) => /declared twice/.test(problem))).toBe(true);
  });
});

describe('events stack: one function per worker', () => {
  it('holds exactly the workers of the table but workflow tasks, each with its log group', () => {
    template.resourceCountIs('AWS::Lambda::Function', EVENT_WORKERS.length);
    template.resourceCountIs('AWS::Logs::LogGroup', EVENT_WORKERS.length);
    expect([...dev.events.workers.keys()].sort()).toEqual(EVENT_WORKERS.map((worker) => worker.name).sort());
    for (const [, logGroup] of resourcesOfType(template, 'AWS::Logs::LogGroup')) {
      expect(logGroup.Properties.RetentionInDays).toBeGreaterThan(0);
    }
  });

  it.each(cases)('runs %s on Node.js 24 arm64 with the declared timeout and memory', (_name, worker) => {
    expect(resources[functionIdOf(worker)]?.Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      MemorySize: worker.memoryMb,
      Timeout: worker.timeoutSeconds,
    });
  });

  it.each(cases)('tells %s its stage and what its grants bind', (_name, worker) => {
    const variables = (
      resources[functionIdOf(worker)]?.Properties.Environment as { Variables: Record<string, unknown> }
    ).Variables;
    expect(variables[ENV.stage]).toBe('dev');
    for (const grant of worker.grants) GRANT_ENVIRONMENT[grant](variables);
    if (!usesTable(worker)) expect(variables[ENV.tableName]).toBeUndefined();
  });
});

describe('events stack: triggers', () => {
  const rules = resourcesOfType(template, 'AWS::Events::Rule');

  const mappings = resourcesOfType(template, 'AWS::Lambda::EventSourceMapping');

  it('has one rule per schedule worker and per bus-fed queue, one mapping per stream or queue worker, and nothing else triggering', () => {
    expect(rules).toHaveLength(
      EVENT_WORKERS.filter(
        (worker) => worker.trigger.kind === 'schedule' || (worker.trigger.kind === 'queue' && worker.trigger.fromBus),
      ).length,
    );
    expect(mappings).toHaveLength(
      EVENT_WORKERS.filter((worker) => worker.trigger.kind === 'stream' || worker.trigger.kind === 'queue').length,
    );
  });

  it('projects the journal and the outbox from the table stream onto the bus: the projector is a stream worker on journal records and outbox items', () => {
    expect(WORKERS.find((worker) => worker.name === 'journal-projector')).toMatchObject({
      entry: 'functions/journal-projector/handler.ts',
      trigger: {
        kind: 'stream',
        source: 'ledger-table',
        startingPosition: 'TRIM_HORIZON',
        entityTypes: ['TRANSACTION', 'OUTBOX_EVENT'],
      },
      dlq: { enabled: true },
      grants: ['table:readWrite', 'table:readStream', 'bus:put'],
    });
  });

  it('has one event bus; the projector may put events on it and nothing else may', () => {
    template.resourceCountIs('AWS::Events::EventBus', 1);
    const busId = logicalIdOf(dev.events.bus);
    const putters = WORKERS.filter((worker) => worker.grants.includes('bus:put')).map((worker) => worker.name);
    expect(putters).toEqual(['journal-projector']);
    expect(
      JSON.stringify(
        resources[functionIdOf(WORKERS.find((w) => w.name === 'journal-projector')!)]!.Properties.Environment,
      ),
    ).toContain(busId);
  });

  it("alarms on every DLQ's depth and on every stream worker's iterator age", () => {
    const alarms = resourcesOfType(template, 'AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties);
    for (const worker of EVENT_WORKERS) {
      const dlqId = dlqIdOf(worker);
      if (dlqId) {
        expect(
          alarms.some(
            (alarm) =>
              alarm.MetricName === 'ApproximateNumberOfMessagesVisible' &&
              JSON.stringify(alarm.Dimensions).includes(dlqId) &&
              alarm.Threshold === 1,
          ),
          worker.name,
        ).toBe(true);
      }
      if (worker.trigger.kind === 'stream') {
        expect(
          alarms.some(
            (alarm) =>
              alarm.MetricName === 'IteratorAge' && JSON.stringify(alarm.Dimensions).includes(functionIdOf(worker)),
          ),
          worker.name,
        ).toBe(true);
      }
    }
  });

  it.each(cases)('triggers %s as declared', (_name, worker) => {
    const { trigger } = worker;
    const functionArn = getAttArn(functionIdOf(worker));
    switch (trigger.kind) {
      case 'schedule': {
        const targeting = rules.filter(([, rule]) =>
          (rule.Properties.Targets as { Arn: unknown }[]).some((target) => sameJson(target.Arn, functionArn)),
        );
        expect(targeting).toHaveLength(1);
        const [ruleId, rule] = targeting[0]!;
        expect(rule.Properties).toMatchObject({
          ScheduleExpression: rateExpression(trigger.rateMinutes),
          State: 'ENABLED',
        });
        const targets = rule.Properties.Targets as Record<string, unknown>[];
        expect(targets).toHaveLength(1);
        expect(targets[0]!.RetryPolicy).toEqual({ MaximumRetryAttempts: trigger.retryAttempts });
        // EventBridge may invoke the function, from this rule only.
        template.hasResourceProperties('AWS::Lambda::Permission', {
          Action: 'lambda:InvokeFunction',
          Principal: 'events.amazonaws.com',
          FunctionName: functionArn,
          SourceArn: getAttArn(ruleId),
        });
        break;
      }
      case 'stream': {
        const mapping = mappings.filter(([, candidate]) =>
          sameJson(candidate.Properties.FunctionName, { Ref: functionIdOf(worker) }),
        );
        expect(mapping).toHaveLength(1);
        const properties = mapping[0]![1].Properties;
        expect(isTableStream(properties.EventSourceArn)).toBe(true);
        expect(properties).toMatchObject({
          StartingPosition: trigger.startingPosition,
          BatchSize: trigger.batchSize,
          MaximumRetryAttempts: trigger.retryAttempts,
          FunctionResponseTypes: ['ReportBatchItemFailures'],
          BisectBatchOnFunctionError: true,
        });
        if (trigger.entityTypes.length > 0) {
          const patterns = (properties.FilterCriteria as { Filters: { Pattern: string }[] }).Filters.map(
            (filter) => JSON.parse(filter.Pattern) as unknown,
          );
          expect(patterns).toEqual([{ dynamodb: { NewImage: { entityType: { S: [...trigger.entityTypes] } } } }]);
        }
        break;
      }
      case 'queue': {
        const queue = deployed(worker).queue!;
        const queueArn = getAttArn(logicalIdOf(queue));
        const mapping = mappings.filter(([, candidate]) =>
          sameJson(candidate.Properties.FunctionName, { Ref: functionIdOf(worker) }),
        );
        expect(mapping).toHaveLength(1);
        expect(mapping[0]![1].Properties).toMatchObject({
          EventSourceArn: queueArn,
          BatchSize: trigger.batchSize,
          FunctionResponseTypes: ['ReportBatchItemFailures'],
        });
        // SSE, and a visibility timeout of at least six times the function's.
        expect(resources[logicalIdOf(queue)]!.Properties).toMatchObject({
          SqsManagedSseEnabled: true,
          VisibilityTimeout: worker.timeoutSeconds * 6,
        });
        if (trigger.fromBus) {
          const busRules = rules.filter(([, rule]) =>
            (rule.Properties.Targets as { Arn: unknown }[]).some((target) => sameJson(target.Arn, queueArn)),
          );
          expect(busRules).toHaveLength(1);
          expect(busRules[0]![1].Properties).toMatchObject({
            EventBusName: { Ref: logicalIdOf(dev.events.bus) },
            EventPattern: { source: ['allowance'] },
          });
          // Events the bus could not put on the queue: to a DLQ of their own (not the worker's),
          // which only EventBridge may send to, for this rule only.
          const busDlqId = logicalIdOf(deployed(worker).busDlq!);
          expect(busDlqId).not.toBe(dlqIdOf(worker));
          const [target] = busRules[0]![1].Properties.Targets as { DeadLetterConfig?: unknown }[];
          expect(target!.DeadLetterConfig).toEqual({ Arn: getAttArn(busDlqId) });
          const allows = resourcesOfType(template, 'AWS::SQS::QueuePolicy')
            .filter(([, policy]) =>
              asArray(policy.Properties.Queues as unknown[]).some((q) => sameJson(q, { Ref: busDlqId })),
            )
            .flatMap(([, policy]) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement)
            .filter((statement) => statement.Effect === 'Allow');
          expect(allows).toEqual([
            expect.objectContaining({
              Action: 'sqs:SendMessage',
              Principal: { Service: 'events.amazonaws.com' },
              Resource: getAttArn(busDlqId),
              Condition: { ArnEquals: { 'aws:SourceArn': getAttArn(busRules[0]![0]) } },
            }),
          ]);
        }
        break;
      }
      case 'workflow-task':
        throw new Error(`worker ${worker.name}: workflow tasks are checked by workflows-stack.test.ts`);
      default:
        assertNever(trigger);
    }
  });
});

describe('events stack: dead-letter queues', () => {
  it('has one queue per worker asking for a DLQ, one per queue worker, and one DLQ per bus rule', () => {
    template.resourceCountIs(
      'AWS::SQS::Queue',
      EVENT_WORKERS.filter((worker) => worker.dlq.enabled).length +
        EVENT_WORKERS.filter((worker) => worker.trigger.kind === 'queue').length +
        EVENT_WORKERS.filter((worker) => worker.trigger.kind === 'queue' && worker.trigger.fromBus).length,
    );
  });

  it.each(cases)(
    'gives %s the declared DLQ, if any: encrypted, TLS only, 14 days, fed by the rule and by failed invocations',
    (_name, worker) => {
      const functionRef = { Ref: functionIdOf(worker) };
      const invokeConfigs = resourcesOfType(template, 'AWS::Lambda::EventInvokeConfig').filter(([, config]) =>
        sameJson(config.Properties.FunctionName, functionRef),
      );
      const rule = deployed(worker).rule;
      const ruleTarget = rule
        ? (resources[logicalIdOf(rule)]!.Properties.Targets as Record<string, unknown>[])[0]
        : undefined;
      const dlqId = dlqIdOf(worker);

      if (!worker.dlq.enabled) {
        expect(dlqId).toBeUndefined();
        expect(invokeConfigs).toHaveLength(0);
        expect(ruleTarget?.DeadLetterConfig).toBeUndefined();
        return;
      }
      expect(dlqId).toBeDefined();
      const queueArn = getAttArn(dlqId!);
      expect(resources[dlqId!]?.Properties).toMatchObject({
        SqsManagedSseEnabled: true,
        MessageRetentionPeriod: SQS_RETENTION_14_DAYS,
      });

      const queueStatements = resourcesOfType(template, 'AWS::SQS::QueuePolicy')
        .filter(([, policy]) =>
          asArray(policy.Properties.Queues as unknown[]).some((queue) => sameJson(queue, { Ref: dlqId })),
        )
        .flatMap(
          ([, policy]) =>
            (policy.Properties.PolicyDocument as { Statement: (Statement & { Principal?: unknown })[] }).Statement,
        );
      expect(queueStatements).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Action: 'sqs:*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );

      switch (worker.trigger.kind) {
        case 'schedule': {
          // Deliveries EventBridge gave up on...
          expect(ruleTarget?.DeadLetterConfig).toEqual({ Arn: queueArn });
          const allows = queueStatements.filter((statement) => statement.Effect === 'Allow');
          expect(allows).toEqual([
            expect.objectContaining({
              Action: 'sqs:SendMessage',
              Principal: { Service: 'events.amazonaws.com' },
              Resource: queueArn,
              Condition: { ArnEquals: { 'aws:SourceArn': getAttArn(logicalIdOf(rule!)) } },
            }),
          ]);
          // ...and invocations that still failed after Lambda's asynchronous retries.
          expect(invokeConfigs).toHaveLength(1);
          expect(invokeConfigs[0]![1].Properties.DestinationConfig).toEqual({ OnFailure: { Destination: queueArn } });
          break;
        }
        case 'stream': {
          // Batches the mapping gave up on: a pointer to their stream records (the mapping sends it with the function's role).
          const mapping = resourcesOfType(template, 'AWS::Lambda::EventSourceMapping').find(([, candidate]) =>
            sameJson(candidate.Properties.FunctionName, functionRef),
          );
          expect(mapping?.[1].Properties.DestinationConfig).toEqual({ OnFailure: { Destination: queueArn } });
          expect(queueStatements.filter((statement) => statement.Effect === 'Allow')).toEqual([]);
          expect(invokeConfigs).toHaveLength(0);
          break;
        }
        case 'queue': {
          // Messages received maxReceiveCount times move to the DLQ (redrive); the worker also sends
          // the deliveries whose retries are over there itself (its queue:send grant).
          const queueId = logicalIdOf(deployed(worker).queue!);
          expect(resources[queueId]!.Properties.RedrivePolicy).toEqual({
            deadLetterTargetArn: queueArn,
            maxReceiveCount: worker.dlq.maxReceiveCount,
          });
          expect(queueStatements.filter((statement) => statement.Effect === 'Allow')).toEqual([]);
          expect(invokeConfigs).toHaveLength(0);
          break;
        }
        case 'workflow-task':
          throw new Error(`write the infra expectations of ${worker.trigger.kind} DLQs (worker ${worker.name})`);
        default:
          assertNever(worker.trigger);
      }
    },
  );
});

describe('events stack: least-privilege IAM', () => {
  const statementsOf = (worker: WorkerDefinition) => {
    const role = deployed(worker).function.function.role;
    if (!role) throw new Error(`${worker.name} has no role`);
    return statementsOfRole(template, role);
  };

  it('defines no other kind of policy, and no policy outside the worker roles and the scheduler role', () => {
    expectNoOtherPolicyKinds(template);
    expectPoliciesOnlyOn(template, [
      ...EVENT_WORKERS.map((worker) => deployed(worker).function.function.role!),
      dev.events.expiryScheduling!.role,
    ]);
  });

  it.each(cases.filter(([, worker]) => usesTable(worker)))(
    'denies %s any update or delete of an audit entry',
    (_name, worker) => {
      expectAuditDeny(statementsOf(worker), tables.classify, worker.name);
    },
  );

  it.each(cases)('lets %s do only what its grants and its DLQ need', (name, worker) => {
    const dlqId = dlqIdOf(worker);
    const grantedPerGrant = new Map<string, number>(worker.grants.map((grant) => [grant, 0]));
    let sendsToDlq = false;
    for (const statement of statementsOf(worker)) {
      if (statement.Effect === 'Deny') continue;
      expect(statement.Effect, name).toBe('Allow');
      expect(statement.NotAction, name).toBeUndefined();
      expect(statement.NotResource, name).toBeUndefined();
      const actions = actionsBesidesXray(statement);
      if (actions.length === 0) continue;
      if (isTableDeletesStatement(statement, tables.classify)) continue;
      for (const resource of asArray(statement.Resource)) {
        for (const action of actions) {
          // Sending to its own DLQ (the on-failure destination), nothing else on SQS; a stream
          // mapping's destination also needs to look the queue up.
          if (
            dlqId &&
            sameJson(resource, getAttArn(dlqId)) &&
            (action === 'sqs:SendMessage' || (worker.trigger.kind === 'stream' && DLQ_LOOKUP_ACTIONS.has(action)))
          ) {
            sendsToDlq ||= action === 'sqs:SendMessage';
            continue;
          }
          // A queue worker consumes its own queue (the event source mapping polls with its role).
          const ownQueue = deployed(worker).queue;
          if (ownQueue && sameJson(resource, getAttArn(logicalIdOf(ownQueue))) && QUEUE_CONSUME_ACTIONS.has(action))
            continue;
          const grant = worker.grants.find((candidate) => GRANT_ALLOWS[candidate](action, resource));
          expect(grant, `${name}: ${action} on ${JSON.stringify(resource)} is not covered by its grants`).toBeDefined();
          grantedPerGrant.set(grant!, grantedPerGrant.get(grant!)! + 1);
        }
      }
    }
    // Every declared grant is there (a worker missing one would fail at its first call).
    for (const [grant, count] of grantedPerGrant) expect(count, `${name}: ${grant}`).toBeGreaterThan(0);
    // A queue worker's DLQ is its queue's redrive target: it sends there itself only with queue:send.
    expect(sendsToDlq, `${name}: sqs:SendMessage on its DLQ`).toBe(
      worker.dlq.enabled && (worker.trigger.kind !== 'queue' || worker.grants.includes('queue:send')),
    );
  });
});

describe('events stack: one-time expiry schedules (EventBridge Scheduler)', () => {
  const scheduling = dev.events.expiryScheduling!;
  const roleId = logicalIdOf(scheduling.role);
  const queueArn = getAttArn(logicalIdOf(scheduling.queue));

  it("has one schedule group, targeting the expiry worker's queue", () => {
    template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    expect(sameJson(queueArn, getAttArn(logicalIdOf(dev.events.workers.get('expiry')!.queue!)))).toBe(true);
  });

  it('gives Scheduler a role that only Scheduler of this account may assume', () => {
    const trust = resources[roleId]!.Properties.AssumeRolePolicyDocument as { Statement: Statement[] };
    expect(trust.Statement).toHaveLength(1);
    expect(trust.Statement[0]).toMatchObject({
      Effect: 'Allow',
      Action: 'sts:AssumeRole',
      Principal: { Service: 'scheduler.amazonaws.com' },
      Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
    });
    expect(resources[roleId]!.Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('lets the scheduler role do one thing: sqs:SendMessage to the expiry queue', () => {
    const statements = statementsOfRole(template, scheduling.role);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: queueArn });
    expect(statements[0]!.Condition).toBeUndefined();
  });

  it("grants CreateSchedule (on the group's schedules) and PassRole (on the scheduler role) to the functions that create approvals, and to no other", () => {
    const schedulingRoles = [...dev.api.functions].map(
      ([group, fn]) => [group, statementsOfRole(dev.apiTemplate, fn.function.role!)] as const,
    );
    for (const [group, statements] of schedulingRoles) {
      const scheduling = statements.filter((statement) =>
        asArray(statement.Action as string | string[]).some(
          (action) => action.startsWith('scheduler:') || action.startsWith('iam:'),
        ),
      );
      if (groupsWith('scheduler:create').includes(group)) {
        expect(scheduling, group).toHaveLength(2);
        for (const statement of scheduling)
          expect(isExpirySchedulingStatement(statement), JSON.stringify(statement)).toBe(true);
        const variables = resourcesOfType(dev.apiTemplate, 'AWS::Lambda::Function').find(
          ([id]) => id === logicalIdOf(dev.api.functions.get(group)!.function),
        )![1].Properties.Environment as { Variables: Record<string, unknown> };
        for (const name of [ENV.expiryScheduleGroup, ENV.expirySchedulerRoleArn, ENV.expiryQueueArn])
          expect(variables.Variables[name], name).toBeDefined();
      } else {
        expect(scheduling, group).toEqual([]);
      }
    }
    const mcp = statementsOfRole(Template.fromStack(dev.mcp), dev.mcp.function.function.role!).filter((statement) =>
      isExpirySchedulingStatement(statement),
    );
    expect(mcp).toHaveLength(2);
  });

  it('gives only the workers declaring scheduler:create a scheduler or PassRole permission, and only on the expiry schedules', () => {
    for (const worker of EVENT_WORKERS) {
      const statements = statementsOfRole(template, deployed(worker).function.function.role!);
      const scheduling = statements.filter((statement) =>
        asArray(statement.Action as string | string[]).some(
          (action) => action.startsWith('scheduler:') || action.startsWith('iam:'),
        ),
      );
      if (worker.grants.includes('scheduler:create')) {
        expect(scheduling, worker.name).toHaveLength(2);
        for (const statement of scheduling)
          expect(isExpirySchedulingStatement(statement), JSON.stringify(statement)).toBe(true);
      } else {
        expect(scheduling, worker.name).toEqual([]);
      }
    }
    expect(EVENT_WORKERS.filter((worker) => worker.grants.includes('scheduler:create')).map((w) => w.name)).toEqual([
      'expiry',
    ]);
  });
});
