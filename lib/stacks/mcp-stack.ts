import { CfnOutput, Fn, Stack, type StackProps } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ENV } from '../../shared/config/env-names.js';
import { MCP_FUNCTION } from '../../shared/mcp/function.js';
import { MCP_GRANTS } from '../../shared/http/routes.js';
import type { StageConfig } from '../config/stage-config.js';
import { bindGrants, type GrantResources } from '../constructs/grants.js';
import { ServiceFunction } from '../constructs/service-function.js';

export interface McpStackProps extends StackProps {
  readonly stage: StageConfig;
  /** What its grants point at: the ledger table of the data stack and the other stacks' resources. */
  readonly resources: GrantResources;
}

/** Long enough for any brute force, short enough for a config file; letters and digits only (no quoting in JSON or shells). */
const TOKEN_LENGTH = 48;

/**
 * The MCP tools (decisions.md section 10): one function over the whole operation catalog behind a
 * Lambda function URL. The URL's auth type is NONE because the service checks
 * `Authorization: Bearer <MCP_AUTH_TOKEN>` itself (constant-time) and then the `X-Api-Key` the
 * tools act with. The token is a generated Secrets Manager secret: the function gets its ARN
 * (MCP_AUTH_TOKEN_SECRET_ARN) and GetSecretValue on it only, and reads it at its first request
 * (shared/mcp/token.ts), so the value is in neither the template, the code nor the function's
 * configuration; it is read again every 5 minutes, so a new value (a revoked token) takes over
 * within 5 minutes without a deploy. Besides, the function reaches the table and its indexes, and
 * what its tools need: MCP_GRANTS, the union of the grants of the groups that offer tools.
 */
export class McpStack extends Stack {
  readonly function: ServiceFunction;
  readonly url: lambda.FunctionUrl;
  readonly token: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: McpStackProps) {
    super(scope, id, props);
    const { stage, resources } = props;

    this.token = new secretsmanager.Secret(this, 'McpAuthToken', {
      description: `Allowance ${stage.name}: MCP_AUTH_TOKEN, the bearer token of the MCP endpoint`,
      generateSecretString: { passwordLength: TOKEN_LENGTH, excludePunctuation: true, includeSpace: false },
      removalPolicy: stage.removalPolicy,
    });

    this.function = new ServiceFunction(this, `Fn-${MCP_FUNCTION.name}`, {
      group: MCP_FUNCTION.name,
      stage,
      timeoutSeconds: MCP_FUNCTION.timeoutS,
    });
    bindGrants(this.function, MCP_GRANTS, resources);
    this.function.bindSecret(ENV.mcpAuthTokenSecretArn, this.token);

    this.url = this.function.function.addFunctionUrl({
      authType: lambda.FunctionUrlAuthType.NONE,
      invokeMode: lambda.InvokeMode.BUFFERED,
    });

    // The function URL ends with "/"; the endpoint is its /mcp path, as locally.
    new CfnOutput(this, 'McpUrl', {
      value: Fn.join('', [this.url.url, MCP_FUNCTION.path.slice(1)]),
      description: 'The MCP endpoint (Streamable HTTP)',
    });
    new CfnOutput(this, 'McpAuthTokenSecret', {
      value: this.token.secretArn,
      description: 'Secrets Manager secret holding MCP_AUTH_TOKEN',
    });
  }
}
