import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
  type HttpApi,
} from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as logs from 'aws-cdk-lib/aws-logs';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Construct } from 'constructs';
import {
  DASHBOARD_GRANTS,
  FALLBACK_ROUTE,
  FUNCTION_GROUPS,
  grantsOf,
  HOSTED_GRANTS,
  ROUTES,
  routeKeyOf,
  type FunctionGroup,
} from '../../shared/http/routes.js';
import { HOSTED_FUNCTION } from '../../shared/hosted/function.js';
import { DASHBOARD_FUNCTION } from '../../shared/dashboard/function.js';
import type { StageConfig } from '../config/stage-config.js';
import { bindGrants, type GrantResources } from '../constructs/grants.js';
import { ServiceFunction } from '../constructs/service-function.js';

export interface ApiStackProps extends StackProps {
  readonly stage: StageConfig;
  /**
   * What the groups' grants point at (the catalog's `grants`, bound by lib/constructs/grants.ts):
   * the ledger table of the data stack and the other stacks' resources (CDK turns the references
   * into stack exports).
   */
  readonly resources: GrantResources;
  /** The HTTP API itself (endpoint stack: every function of the stage is told its address). */
  readonly api: HttpApi;
}

/**
 * One JSON line per request in the stage's access log (HTTP API `$context` variables): what the
 * runbook's Logs Insights queries read. `requestId` is the request id the functions log too. No
 * query string, header or body is logged (they may carry keys or secrets), and no path: API
 * Gateway writes these lines past the functions' redaction guard, and some paths are bearer secrets
 * (a dashboard invitation, a payment-method session): the route key names the route instead.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  httpMethod: '$context.httpMethod',
  routeKey: '$context.routeKey',
  status: '$context.status',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
  sourceIp: '$context.identity.sourceIp',
} as const;

/** The 5xx rate alarms over this share of requests, in %, over 5 minutes... */
export const SERVER_ERROR_RATE_PERCENT = 1;
/** ... counted only over periods with at least this many requests. */
export const SERVER_ERROR_MIN_REQUESTS = 20;

/** Construct ids may not contain `/`; the route key is unique, so a readable variant of it is too. */
const routeConstructId = (routeKey: string) => `Route ${routeKey.replaceAll('/', '|')}`;

/**
 * The public HTTP API: one route per entry of the route table, each to the function of its group,
 * plus the catch-all `$default` route so unknown paths still answer with our envelope and headers.
 * Functions without routes (workers) live in the events stack.
 */
export class ApiStack extends Stack {
  readonly api: HttpApi;
  readonly functions: ReadonlyMap<FunctionGroup, ServiceFunction>;
  /** The hosted pages (`ANY /hosted/{proxy+}`): HTML for people, over the public operations of its groups. */
  readonly hostedFunction: ServiceFunction;
  /** The dashboard (`ANY /dashboard`, `ANY /dashboard/{proxy+}`): pages for people, over every group's operations. */
  readonly dashboardFunction: ServiceFunction;
  /** The `$default` stage's access log (ACCESS_LOG_FIELDS, one JSON line per request). */
  readonly accessLogs: logs.LogGroup;
  /** The HTTP API's 5xx rate. */
  readonly serverErrorRate: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { stage, resources } = props;
    this.api = props.api;

    const functions = new Map<FunctionGroup, ServiceFunction>();
    for (const group of FUNCTION_GROUPS) {
      const fn = new ServiceFunction(this, `Fn-${group}`, { group, stage });
      // The table every HTTP function has, and what the group declares in the catalog.
      bindGrants(fn, grantsOf(group), resources);
      functions.set(group, fn);
    }
    this.functions = functions;

    // One integration per group, shared by all of the group's routes.
    const integrations = new Map(
      [...functions].map(
        ([group, fn]) => [group, new HttpLambdaIntegration(`Integration-${group}`, fn.function)] as const,
      ),
    );
    const integrationOf = (group: FunctionGroup) => {
      const integration = integrations.get(group);
      if (!integration) throw new Error(`no function for group ${group}`);
      return integration;
    };

    // The access log: one JSON line per request, kept as long as the functions' logs.
    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: stage.logRetention,
      removalPolicy: stage.removalPolicy,
    });
    const apiStage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { burstLimit: stage.throttle.burstLimit, rateLimit: stage.throttle.rateLimit },
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });

    // The 5xx rate: answers our code gave as 500 INTERNAL_ERROR, and API Gateway's own 502/503/504
    // (a crashed or timed-out function). Below SERVER_ERROR_MIN_REQUESTS requests a period counts as 0.
    const period = Duration.minutes(5);
    this.serverErrorRate = new cloudwatch.Alarm(this, 'ServerErrorRate', {
      alarmDescription: `HTTP API 5xx over ${SERVER_ERROR_RATE_PERCENT}% of requests in 5 minutes (at least ${SERVER_ERROR_MIN_REQUESTS} requests; ${stage.name}): docs/runbook.md`,
      metric: new cloudwatch.MathExpression({
        label: 'HTTP API 5xx (% of requests)',
        expression: `IF(requests >= ${SERVER_ERROR_MIN_REQUESTS}, 100 * FILL(errors, 0) / requests, 0)`,
        usingMetrics: {
          errors: this.api.metricServerError({ period, statistic: cloudwatch.Stats.SUM }),
          requests: this.api.metricCount({ period, statistic: cloudwatch.Stats.SUM }),
        },
        period,
      }),
      threshold: SERVER_ERROR_RATE_PERCENT,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    for (const route of ROUTES) {
      const routeKey = routeKeyOf(route);
      new HttpRoute(this, routeConstructId(routeKey), {
        httpApi: this.api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: integrationOf(route.group),
      });
    }

    // The hosted pages: one function for every page and asset, on the API's own origin (the URLs
    // the API returns start with PUBLIC_BASE_URL, the stage's environment), with the grants of the groups whose public operations it calls.
    const hosted = new ServiceFunction(this, `Fn-${HOSTED_FUNCTION.name}`, {
      group: HOSTED_FUNCTION.name,
      stage,
      timeoutSeconds: HOSTED_FUNCTION.timeoutS,
    });
    bindGrants(hosted, HOSTED_GRANTS, resources);
    this.hostedFunction = hosted;
    new HttpRoute(this, routeConstructId(`ANY ${HOSTED_FUNCTION.routePath}`), {
      httpApi: this.api,
      routeKey: HttpRouteKey.with(HOSTED_FUNCTION.routePath, HttpMethod.ANY),
      integration: new HttpLambdaIntegration(`Integration-${HOSTED_FUNCTION.name}`, hosted.function),
    });

    // The dashboard: one function for its pages and assets on the API's own origin, with the union
    // of the groups' grants (its pages call any operation as the signed-in user).
    const dashboard = new ServiceFunction(this, `Fn-${DASHBOARD_FUNCTION.name}`, {
      group: DASHBOARD_FUNCTION.name,
      stage,
      timeoutSeconds: DASHBOARD_FUNCTION.timeoutS,
      memoryMb: DASHBOARD_FUNCTION.memoryMb,
    });
    bindGrants(dashboard, DASHBOARD_GRANTS, resources);
    this.dashboardFunction = dashboard;
    const dashboardIntegration = new HttpLambdaIntegration(
      `Integration-${DASHBOARD_FUNCTION.name}`,
      dashboard.function,
    );
    for (const routePath of DASHBOARD_FUNCTION.routePaths) {
      new HttpRoute(this, routeConstructId(`ANY ${routePath}`), {
        httpApi: this.api,
        routeKey: HttpRouteKey.with(routePath, HttpMethod.ANY),
        integration: dashboardIntegration,
      });
    }

    if (FALLBACK_ROUTE.routeKey !== HttpRouteKey.DEFAULT.key) {
      throw new Error(`FALLBACK_ROUTE.routeKey must be ${HttpRouteKey.DEFAULT.key}`);
    }
    new HttpRoute(this, routeConstructId(FALLBACK_ROUTE.routeKey), {
      httpApi: this.api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: integrationOf(FALLBACK_ROUTE.group),
    });

    new CfnOutput(this, 'ApiUrl', { value: apiStage.url, description: 'Base URL of the HTTP API' });
  }
}
