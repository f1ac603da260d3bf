import { Tags, type Environment } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { stackNameOf, type StageConfig } from '../config/stage-config.js';
import { ApiStack } from './api-stack.js';
import { CardNetworkStack } from './card-network-stack.js';
import { DataStack } from './data-stack.js';
import { EventsStack } from './events-stack.js';
import { WEBHOOK_DELIVERY_QUEUE } from '../../shared/workers.js';
import { McpStack } from './mcp-stack.js';
import type { FunctionGroup } from '../../shared/http/routes.js';
import { WorkflowsStack } from './workflows-stack.js';

/** The HTTP function groups that seal or open sensitive values (bank account numbers): they get the data key. */
export const DATA_KEY_GROUPS: readonly string[] = ['bank-accounts', 'transfers', 'cards'];

/**
 * The HTTP function groups that read webhook secrets (the webhooks group seals new ones and signs
 * test events; internal runs the compliance report, which checks that a stored secret opens): they
 * may read the webhook encryption key's secret (bindWebhookEncryptionKey). The delivery worker has
 * the grant `webhookKey:read` in shared/workers.ts.
 */
export const WEBHOOK_KEY_GROUPS: readonly string[] = ['webhooks', 'internal'];

/** The HTTP function groups whose requests create approvals (payment-service queues a payment). */
export const EXPIRY_SCHEDULING_GROUPS = ['payments', 'transfers'] as const;

/**
 * The HTTP function groups whose requests start transfer workflows (creating a transfer). Plain
 * strings: a group missing from the route table (not added yet) simply binds nothing.
 */
export const TRANSFER_WORKFLOW_GROUPS: readonly string[] = ['transfers'];

export interface StageStacks {
  readonly data: DataStack;
  readonly api: ApiStack;
  readonly events: EventsStack;
  readonly mcp: McpStack;
  readonly workflows: WorkflowsStack;
  readonly cardNetwork: CardNetworkStack;
}

/**
 * All stacks of one stage, wired together. `bin/app.ts` and the infra tests both call this, so the
 * tests check exactly what gets deployed.
 */
export function createStageStacks(scope: Construct, stage: StageConfig, env?: Environment): StageStacks {
  const common = { stage, ...(env ? { env } : {}) };
  const data = new DataStack(scope, stackNameOf(stage, 'Data'), {
    ...common,
    stackName: stackNameOf(stage, 'Data'),
    description: `Allowance ${stage.name}: ledger table, data key and webhook encryption key`,
    terminationProtection: stage.production,
  });
  const api = new ApiStack(scope, stackNameOf(stage, 'Api'), {
    ...common,
    stackName: stackNameOf(stage, 'Api'),
    description: `Allowance ${stage.name}: HTTP API and functions`,
    table: data.table,
  });
  const events = new EventsStack(scope, stackNameOf(stage, 'Events'), {
    ...common,
    stackName: stackNameOf(stage, 'Events'),
    description: `Allowance ${stage.name}: workers of shared/workers.ts, their triggers and dead-letter queues`,
    table: data.table,
    dataKey: data.dataKey,
    webhookEncryptionKey: data.webhookEncryptionKey,
  });
  // Test events and manual retries (POST /v1/webhooks/{id}/test, .../retry) queue an attempt.
  const delivery = events.workers.get(WEBHOOK_DELIVERY_QUEUE);
  const mcp = new McpStack(scope, stackNameOf(stage, 'Mcp'), { ...common, stackName: stackNameOf(stage, 'Mcp'), description: `Allowance ${stage.name}: MCP tools behind a function URL`, table: data.table });
  const workflows = new WorkflowsStack(scope, stackNameOf(stage, 'Workflows'), {
    ...common,
    stackName: stackNameOf(stage, 'Workflows'),
    description: `Allowance ${stage.name}: Step Functions workflows of lib/workflows and their task functions`,
    table: data.table,
    dataKey: data.dataKey,
    webhookEncryptionKey: data.webhookEncryptionKey,
    // A settled ACH deposit schedules the end of its clearing (the transfer-steps worker).
    ...(events.expiryScheduling ? { expiryScheduling: events.expiryScheduling } : {}),
  });
  // The compliance report (the internal group) checks that the MCP endpoint has its token: it gets the secret's ARN, not the value.
  api.functions.get('internal')?.bindMcpTokenReference(mcp.token);
  // The functions that create transfers (the transfers group, the MCP transfer tools) start their workflow.
  const transferStarters = [...api.functions].filter(([group]) => TRANSFER_WORKFLOW_GROUPS.includes(group)).map(([, fn]) => fn);
  for (const fn of [...transferStarters, mcp.function]) fn.bindTransferWorkflow(workflows.transfer.stateMachine);
  // The webhooks group and the MCP function (its webhook tools) queue those attempts.
  for (const fn of [api.functions.get('webhooks'), mcp.function]) if (delivery?.queue && delivery.dlq && fn) fn.bindDeliveryQueue(delivery.queue, delivery.dlq);
  // The functions that create approvals (POST /v1/payments, its batch, the MCP payment tool) schedule their expiry.
  if (events.expiryScheduling) {
    const { group, role, queue } = events.expiryScheduling;
    for (const fn of [...EXPIRY_SCHEDULING_GROUPS.map((name) => api.functions.get(name)), mcp.function]) fn?.bindExpiryScheduler(group, role, queue);
  }
  // The functions that seal or open webhook secrets (the webhooks group, the compliance report, the MCP webhook tools).
  for (const fn of [...WEBHOOK_KEY_GROUPS.map((name) => api.functions.get(name as FunctionGroup)), mcp.function]) fn?.bindWebhookEncryptionKey(data.webhookEncryptionKey);
  // The functions that seal or open bank account numbers (the bank-accounts group, the MCP bank account tools).
  for (const fn of [...DATA_KEY_GROUPS.map((name) => api.functions.get(name as FunctionGroup)), mcp.function]) fn?.bindDataKey(data.dataKey);
  // The issuing processor's real-time authorization requests (functions/card-network behind a function URL).
  const cardNetwork = new CardNetworkStack(scope, stackNameOf(stage, 'CardNetwork'), {
    ...common,
    stackName: stackNameOf(stage, 'CardNetwork'),
    description: `Allowance ${stage.name}: the card network endpoint (signed authorization requests of the issuing processor)`,
    table: data.table,
  });
  for (const stack of [data, api, events, mcp, workflows, cardNetwork]) {
    Tags.of(stack).add('service', 'allowance');
    Tags.of(stack).add('stage', stage.name);
  }
  return { data, api, events, mcp, workflows, cardNetwork };
}
