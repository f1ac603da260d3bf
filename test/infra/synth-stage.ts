import { readFileSync } from 'node:fs';
import { App, Stack, type CfnResource } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { stackNameOf, stageConfig } from '../../lib/config/stage-config.js';
import { createStageStacks, type StageStacks } from '../../lib/stacks/stage-stacks.js';

/** The feature flags and other context of `cdk.json`, so tests synthesize what `cdk synth` does. */
function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context ?? {};
}

export interface SynthesizedStage extends StageStacks {
  /** The App holding the stage's stacks. */
  readonly app: App;
  readonly dataTemplate: Template;
  readonly apiTemplate: Template;
  readonly eventsTemplate: Template;
}

/** The stacks of a stage, as named by `stackNameOf`. */
export type StackPart = 'Monitoring' | 'Data' | 'Endpoint' | 'Api' | 'Events' | 'Mcp' | 'Workflows' | 'CardNetwork';

/**
 * Builds one stage the way `bin/app.ts` does (environment-agnostic, no credentials). `bundle: false`
 * skips esbuild (CDK's `aws:cdk:bundling-stacks` context) for tests that only look at resources;
 * a list of stacks bundles only the functions of those (each test file bundles what it checks).
 * `publicBaseUrl`: the stage's custom domain (`-c publicBaseUrl=...`); `alarmTopic`: an existing
 * alarm topic's name (`-c alarmTopic=...`).
 */
export function synthStage(
  stageName: string,
  options: { bundle: boolean | readonly StackPart[]; publicBaseUrl?: string; alarmTopic?: string },
): SynthesizedStage {
  const stage = stageConfig(stageName, {
    ...(options.publicBaseUrl === undefined ? {} : { publicBaseUrl: options.publicBaseUrl }),
    ...(options.alarmTopic === undefined ? {} : { alarmTopic: options.alarmTopic }),
  });
  const bundlingStacks =
    options.bundle === true
      ? undefined
      : options.bundle === false
        ? []
        : options.bundle.map((part) => stackNameOf(stage, part));
  const app = new App({
    context: {
      ...cdkJsonContext(),
      ...(bundlingStacks ? { 'aws:cdk:bundling-stacks': bundlingStacks } : {}),
    },
  });
  const stacks = createStageStacks(app, stage);
  return {
    ...stacks,
    app,
    dataTemplate: Template.fromStack(stacks.data),
    apiTemplate: Template.fromStack(stacks.api),
    eventsTemplate: Template.fromStack(stacks.events),
  };
}

/** The template logical id of a construct's CloudFormation resource. */
export function logicalIdOf(construct: IConstruct): string {
  const resource = (construct.node.defaultChild ?? construct) as CfnResource;
  return Stack.of(construct).getLogicalId(resource);
}

type Outputs = Record<string, { Value: unknown; Export?: { Name: unknown } }>;

/**
 * Follows a cross-stack reference back to the producing stack's output value. Handles both
 * strong (`Fn::ImportValue` of an export) and weak (`Fn::GetStackOutput`) references, so the
 * assertions do not depend on the `@aws-cdk/core:defaultCrossStackReferences` flag.
 */
export function resolveCrossStack(value: unknown, producer: Template): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const outputs = producer.toJSON().Outputs as Outputs;
  const intrinsic = value as Record<string, unknown>;
  if ('Fn::ImportValue' in intrinsic) {
    const exportName = intrinsic['Fn::ImportValue'];
    const output = Object.values(outputs).find((candidate) => candidate.Export?.Name === exportName);
    if (!output) throw new Error(`no export ${JSON.stringify(exportName)} in the producing stack`);
    return output.Value;
  }
  if ('Fn::GetStackOutput' in intrinsic) {
    const { OutputName } = intrinsic['Fn::GetStackOutput'] as { OutputName: string };
    const output = outputs[OutputName];
    if (!output) throw new Error(`no output ${OutputName} in the producing stack`);
    return output.Value;
  }
  return value;
}
