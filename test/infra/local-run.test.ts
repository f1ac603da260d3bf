import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { synthStage } from './synth-stage.js';

/**
 * LOCAL_RUN marks the local run (npm start), whose sandbox webhooks may deliver to loopback
 * (docs/api.md "Webhooks"): no deployed function may carry it, in any stage or stack.
 */
describe('deployed functions are never the local run', () => {
  it.each(['dev', 'prod'])('%s: no Lambda function of any stack sets LOCAL_RUN', (stageName) => {
    const stage = synthStage(stageName, { bundle: false });
    const stacks = [stage.data, stage.api, stage.events, stage.mcp, stage.workflows, stage.cardNetwork];
    let functions = 0;
    for (const stack of stacks) {
      const resources = Template.fromStack(stack).findResources('AWS::Lambda::Function');
      for (const [id, resource] of Object.entries(resources)) {
        functions += 1;
        const variables = (resource.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
        expect(variables[ENV.localRun], `${stack.stackName} ${id}`).toBeUndefined();
      }
    }
    expect(functions).toBeGreaterThan(5);
  });
});
