import { App } from 'aws-cdk-lib';
import { DEFAULT_STAGE, stageConfig } from '../lib/config/stage-config.js';
import { createStageStacks } from '../lib/stacks/stage-stacks.js';

/**
 * CDK app: `npx cdk synth -c stage=<name>` / `npx cdk deploy -c stage=<name>` (with a custom domain:
 * `-c publicBaseUrl=https://pay.example.com`).
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

const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;
createStageStacks(
  app,
  stageConfig(stageName, publicBaseUrl === undefined ? {} : { publicBaseUrl }),
  account && region ? { account, region } : undefined,
);

app.synth();
