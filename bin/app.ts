import { App } from 'aws-cdk-lib';
import { DEFAULT_STAGE, stageConfig } from '../lib/config/stage-config.js';
import { applyNagChecks } from '../lib/nag.js';
import { createStageStacks } from '../lib/stacks/stage-stacks.js';

/**
 * CDK app: `npx cdk synth -c stage=<name>` / `npx cdk deploy -c stage=<name>` (with a custom domain:
 * `-c publicBaseUrl=https://pay.example.com`; alarms to an existing SNS topic: `-c alarmTopic=<name>`).
 * cdk-nag's AwsSolutions and Serverless packs run at synthesis: any finding not acknowledged in
 * lib/nag.ts stops it (the report names the rule and the resource).
 * Without CDK_DEFAULT_ACCOUNT/REGION (no credentials) the stacks are environment-agnostic, so
 * synth works offline.
 */
const app = new App();
const stageName: unknown = app.node.tryGetContext('stage') ?? DEFAULT_STAGE;
if (typeof stageName !== 'string') throw new Error('context "stage" must be a string');
// The stage's custom domain (an https origin), when it has one: the start of every hosted page link.
const publicBaseUrl: unknown = app.node.tryGetContext('publicBaseUrl');
if (publicBaseUrl !== undefined && typeof publicBaseUrl !== 'string')
  throw new Error('context "publicBaseUrl" must be a string');

// An existing SNS topic (by name, same account and region) for the stage's alarms; default: the stage creates its own.
const alarmTopic: unknown = app.node.tryGetContext('alarmTopic');
if (alarmTopic !== undefined && typeof alarmTopic !== 'string')
  throw new Error('context "alarmTopic" must be a string');

const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;
createStageStacks(
  app,
  stageConfig(stageName, {
    ...(publicBaseUrl === undefined ? {} : { publicBaseUrl }),
    ...(alarmTopic === undefined ? {} : { alarmTopic }),
  }),
  account && region ? { account, region } : undefined,
);
applyNagChecks(app);

app.synth();
