import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config/stage-config.js';

export interface EndpointStackProps extends StackProps {
  readonly stage: StageConfig;
}

/**
 * The stage's public address: the HTTP API itself (the `AWS::ApiGatewayV2::Api`, nothing else),
 * built right after the data stack so that every function of the stage can be told where the hosted
 * pages are (PUBLIC_BASE_URL, the start of every `url` and `hostedUrl` the service hands out) without
 * a dependency cycle: the API stack (routes, integrations, the `$default` stage and its functions)
 * refers to the events, workflows and MCP stacks, and those need the address too. With a custom
 * domain configured (StageConfig.publicBaseUrl) the address is that domain and nothing refers to
 * this stack's endpoint.
 */
export class EndpointStack extends Stack {
  readonly api: HttpApi;
  /** What every function gets as PUBLIC_BASE_URL: the custom domain when configured, else the API's endpoint. */
  readonly publicBaseUrl: string;

  constructor(scope: Construct, id: string, props: EndpointStackProps) {
    super(scope, id, props);
    const { stage } = props;
    this.api = new HttpApi(this, 'HttpApi', {
      apiName: `allowance-${stage.name}`,
      description: `Allowance API (${stage.name})`,
      // The stage is created by the API stack so it can carry throttling defaults.
      createDefaultStage: false,
    });
    this.publicBaseUrl = stage.publicBaseUrl ?? this.api.apiEndpoint;
    new CfnOutput(this, 'PublicBaseUrl', {
      value: this.publicBaseUrl,
      description: 'Where the API and the hosted pages are reached (PUBLIC_BASE_URL of every function)',
    });
  }
}
