import { App } from 'aws-cdk-lib';
import { DEFAULT_STAGE, stageConfig } from '../lib/config/stage-config.js';
import { createStageStacks } from '../lib/stacks/stage-stacks.js';

/**
 * CDK app: `npx cdk synth -c stage=<name>` / `npx cdk deploy -c stage=<name>`.
 * Without CDK_DEFAULT_ACCOUNT/REGION (no credentials) the stacks are environment-agnostic, so
 * synth works offline.
 */
const app = new App();
const stageName: unknown = app.node.tryGetContext('stage') ?? DEFAULT_STAGE;
if (typeof stageName !== 'string') throw new Error('context "stage" must be a string');

const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;
createStageStacks(app, stageConfig(stageName), account && region ? { account, region } : undefined);

app.synth();
