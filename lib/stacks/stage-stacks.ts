import { Aspects, Tags, type Environment } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { stackNameOf, withPublicBaseUrl, type StageConfig } from '../config/stage-config.js';
import { ApiStack } from './api-stack.js';
import { CardNetworkStack } from './card-network-stack.js';
import { DataStack } from './data-stack.js';
import { EndpointStack } from './endpoint-stack.js';
import { EventsStack } from './events-stack.js';
import { WEBHOOK_DELIVERY_QUEUE } from '../../shared/workers.js';
import type { GrantResources } from '../constructs/grants.js';
import { AlarmsToTopic } from '../constructs/alarms.js';
import { MonitoringStack } from './monitoring-stack.js';
import { McpStack } from './mcp-stack.js';
import { WorkflowsStack } from './workflows-stack.js';

export interface StageStacks {
  readonly monitoring: MonitoringStack;
  readonly data: DataStack;
  readonly endpoint: EndpointStack;
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
  // First: the alarm topic (unless the stage names an existing one) and the stage's dashboard.
  const monitoring = new MonitoringStack(scope, stackNameOf(stage, 'Monitoring'), {
    stage,
    ...(env ? { env } : {}),
    stackName: stackNameOf(stage, 'Monitoring'),
    description: `Allowance ${stage.name}: alarm topic, service-wide alarms and the dashboard`,
  });
  const data = new DataStack(scope, stackNameOf(stage, 'Data'), {
    stage,
    ...(env ? { env } : {}),
    stackName: stackNameOf(stage, 'Data'),
    description: `Allowance ${stage.name}: ledger table, data key and webhook encryption key`,
    terminationProtection: stage.production,
  });
  // The HTTP API first: every function below is told its address (or the custom domain's) as
  // PUBLIC_BASE_URL, the start of the hosted page links (API groups, hosted pages, MCP tools, workers).
  const endpoint = new EndpointStack(scope, stackNameOf(stage, 'Endpoint'), {
    stage,
    ...(env ? { env } : {}),
    stackName: stackNameOf(stage, 'Endpoint'),
    description: `Allowance ${stage.name}: the HTTP API's endpoint (routes and functions are in the API stack)`,
  });
  const common = { stage: withPublicBaseUrl(stage, endpoint.publicBaseUrl), ...(env ? { env } : {}) };
  const events = new EventsStack(scope, stackNameOf(stage, 'Events'), {
    ...common,
    stackName: stackNameOf(stage, 'Events'),
    description: `Allowance ${stage.name}: workers of shared/workers.ts, their triggers and dead-letter queues`,
    table: data.table,
    dataKey: data.dataKey,
    webhookEncryptionKey: data.webhookEncryptionKey,
  });
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
  // What the grants of the HTTP groups and of the MCP function point at (shared/grants.ts; each
  // group declares its grants in the catalog, the MCP function has the union of the groups with tools).
  // `queue:send` is the webhook-delivery queue: test events and manual retries queue an attempt.
  const delivery = events.workers.get(WEBHOOK_DELIVERY_QUEUE);
  const resources: GrantResources = {
    table: data.table,
    dataKey: data.dataKey,
    webhookEncryptionKey: data.webhookEncryptionKey,
    workflows: workflows.stateMachines,
    ...(delivery?.queue && delivery.dlq ? { queue: delivery.queue, dlq: delivery.dlq } : {}),
    ...(events.expiryScheduling ? { expiryScheduling: events.expiryScheduling } : {}),
  };
  const mcp = new McpStack(scope, stackNameOf(stage, 'Mcp'), {
    ...common,
    stackName: stackNameOf(stage, 'Mcp'),
    description: `Allowance ${stage.name}: MCP tools behind a function URL`,
    resources,
  });
  const api = new ApiStack(scope, stackNameOf(stage, 'Api'), {
    ...common,
    stackName: stackNameOf(stage, 'Api'),
    description: `Allowance ${stage.name}: HTTP API and functions`,
    resources: { ...resources, mcpToken: mcp.token },
    api: endpoint.api,
  });
  // The issuing processor's real-time authorization requests (functions/card-network behind a function URL).
  const cardNetwork = new CardNetworkStack(scope, stackNameOf(stage, 'CardNetwork'), {
    ...common,
    stackName: stackNameOf(stage, 'CardNetwork'),
    description: `Allowance ${stage.name}: the card network endpoint (signed authorization requests of the issuing processor)`,
    table: data.table,
  });
  const alarmsToTopic = new AlarmsToTopic(stage);
  for (const stack of [monitoring, data, endpoint, api, events, mcp, workflows, cardNetwork]) {
    Tags.of(stack).add('service', 'allowance');
    Tags.of(stack).add('stage', stage.name);
    // Every alarm of every stack notifies the stage's topic (by ARN: no stack imports it).
    Aspects.of(stack).add(alarmsToTopic);
    // The topic exists before any alarm names it (the endpoint stack has none, and depends on nothing).
    if (stack !== monitoring && stack !== endpoint && monitoring.topic)
      stack.addStackDependency(monitoring, 'alarms notify its topic');
  }
  return { monitoring, data, endpoint, api, events, mcp, workflows, cardNetwork };
}
