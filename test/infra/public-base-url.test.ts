import { Stack, Stage, type CfnResource } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { publicBaseUrlOf, stageConfig } from '../../lib/config/stage-config.js';
import { ENV } from '../../shared/config/env-names.js';
import { MCP_FUNCTION } from '../../shared/mcp/function.js';
import { EXPIRY_QUEUE, WORKERS } from '../../shared/workers.js';
import { logicalIdOf, resolveCrossStack, synthStage, type SynthesizedStage } from './synth-stage.js';

// Resources only: no bundling (the stack tests bundle what they check).
const dev = synthStage('dev', { bundle: false });
const custom = synthStage('dev', { bundle: false, publicBaseUrl: 'https://pay.example.com/' });

type Resources = Record<string, { Type: string; Properties?: Record<string, any> }>;

/** Every stack of a stage but the data and endpoint stacks: the ones with functions. */
const stacksWithFunctions = (stage: SynthesizedStage): Stack[] => [
  stage.api,
  stage.mcp,
  stage.events,
  stage.workflows,
  stage.cardNetwork,
];

/** PUBLIC_BASE_URL of every function of the service (those ServiceFunction builds: they carry STAGE), by stack and logical id. */
function publicBaseUrls(stage: SynthesizedStage): Map<string, unknown> {
  const found = new Map<string, unknown>();
  for (const stack of stacksWithFunctions(stage)) {
    const resources = Template.fromStack(stack).toJSON().Resources as Resources;
    for (const [id, resource] of Object.entries(resources)) {
      const variables = resource.Properties?.Environment?.Variables as Record<string, unknown> | undefined;
      if (resource.Type !== 'AWS::Lambda::Function' || variables?.[ENV.stage] === undefined) continue;
      found.set(`${stack.stackName}/${id}`, variables[ENV.publicBaseUrl]);
    }
  }
  return found;
}

const variablesOf = (stack: Stack, fn: CfnResource | { node: { defaultChild?: unknown } }) => {
  const resources = Template.fromStack(stack).toJSON().Resources as Resources;
  return resources[logicalIdOf(fn as CfnResource)]?.Properties?.Environment?.Variables as Record<string, unknown>;
};

describe('PUBLIC_BASE_URL: where the hosted page links start, in every function', () => {
  const endpointTemplate = Template.fromStack(dev.endpoint);
  const apiEndpoint = { 'Fn::GetAtt': [logicalIdOf(dev.endpoint.api.node.defaultChild as CfnResource), 'ApiEndpoint'] };

  it('is the HTTP API endpoint in every function of every stack (API groups, hosted pages, MCP, workers, workflow tasks)', () => {
    const urls = publicBaseUrls(dev);
    // The API groups and the hosted function, the MCP function, every worker (events and workflows), the card network.
    expect(urls.size).toBeGreaterThanOrEqual(dev.api.functions.size + 1 + 1 + WORKERS.length + 1);
    for (const [fn, url] of urls) expect(resolveCrossStack(url, endpointTemplate), fn).toEqual(apiEndpoint);
  });

  it('gives the MCP function (tools returning setup and invoice links) the API endpoint', () => {
    const variables = variablesOf(dev.mcp, dev.mcp.function.function);
    expect(MCP_FUNCTION.name).toBe('mcp');
    expect(resolveCrossStack(variables[ENV.publicBaseUrl], endpointTemplate)).toEqual(apiEndpoint);
  });

  it('gives the expiry worker (invoice settlement, recurring charges and retries present invoices) the API endpoint', () => {
    const expiry = dev.events.workers.get(EXPIRY_QUEUE);
    expect(expiry).toBeDefined();
    const variables = variablesOf(dev.events, expiry!.function.function);
    expect(resolveCrossStack(variables[ENV.publicBaseUrl], endpointTemplate)).toEqual(apiEndpoint);
  });

  it('keeps the HTTP API in the endpoint stack, which depends on nothing, and the API stack routes to it', () => {
    endpointTemplate.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    Template.fromStack(dev.api).resourceCountIs('AWS::ApiGatewayV2::Api', 0);
    expect(dev.endpoint.dependencies).toEqual([]);
    for (const stack of stacksWithFunctions(dev)) expect(stack.dependencies, stack.stackName).toContain(dev.endpoint);
  });

  it('is the custom domain, when the stage has one, in every function, and then nothing imports the endpoint', () => {
    const urls = publicBaseUrls(custom);
    expect(urls.size).toBe(publicBaseUrls(dev).size);
    for (const [fn, url] of urls) expect(url, fn).toBe('https://pay.example.com');
    for (const stack of [custom.mcp, custom.events, custom.workflows, custom.cardNetwork])
      expect(stack.dependencies, stack.stackName).not.toContain(custom.endpoint);
    expect(Template.fromStack(custom.endpoint).toJSON().Outputs.PublicBaseUrl.Value).toBe('https://pay.example.com');
  });

  it('accepts only an https origin as a custom domain', () => {
    expect(publicBaseUrlOf('https://pay.example.com')).toBe('https://pay.example.com');
    expect(publicBaseUrlOf('https://Pay.Example.com:8443/')).toBe('https://pay.example.com:8443');
    for (const bad of [
      'http://pay.example.com',
      'https://pay.example.com/v1',
      'https://a@pay.example.com',
      'pay.example.com',
    ])
      expect(() => stageConfig('dev', { publicBaseUrl: bad }), bad).toThrow(/publicBaseUrl/);
    expect(stageConfig('dev').publicBaseUrl).toBeUndefined();
  });
});

describe('stack dependencies', () => {
  it('have no cycle, in either configuration (a stage synthesizes as one cloud assembly)', () => {
    for (const stage of [dev, custom]) {
      const all: Stack[] = [stage.data, stage.endpoint, ...stacksWithFunctions(stage)];
      const order: Stack[] = [];
      const visit = (stack: Stack, path: Stack[]) => {
        if (path.includes(stack)) throw new Error(`cycle: ${[...path, stack].map((s) => s.stackName).join(' -> ')}`);
        if (order.includes(stack)) return;
        for (const dependency of stack.dependencies) visit(dependency, [...path, stack]);
        order.push(stack);
      };
      for (const stack of all) visit(stack, []);
      expect(order.indexOf(stage.endpoint)).toBeLessThan(order.indexOf(stage.api));
      // CDK's own check: the cloud assembly refuses a cycle between stacks.
      expect(() => Stage.of(stage.api)!.synth({ force: true })).not.toThrow();
    }
  });
});
