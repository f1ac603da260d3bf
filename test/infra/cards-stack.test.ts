import { describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config/env-names.js';
import { ROUTES, routeKeyOf } from '../../shared/http/routes.js';
import { isDataKeyStatement } from './data-key.js';
import { asArray, resourcesOfType, statementsOfRole, type Statement } from './iam.js';
import { logicalIdOf, synthStage } from './synth-stage.js';

/** Resources only (no bundling). */
const dev = synthStage('dev', { bundle: false });
const resources = (
  dev.apiTemplate.toJSON() as { Resources: Record<string, { Type: string; Properties: Record<string, any> }> }
).Resources;
const kmsStatements = (statements: Statement[]) =>
  statements.filter((statement) =>
    asArray(statement.Action as string | string[]).some((action) => action.startsWith('kms:')),
  );

describe('cards: functions, routes and grants', () => {
  it('serves every card route from the cards function', () => {
    const routes = ROUTES.filter((route) => route.group === 'cards')
      .map(routeKeyOf)
      .sort();
    expect(routes).toEqual(
      [
        'DELETE /v1/cards/{id}',
        'GET /v1/cards',
        'GET /v1/cards/cardholders',
        'GET /v1/cards/cardholders/{id}',
        'GET /v1/cards/{id}',
        'GET /v1/cards/{id}/authorizations',
        'GET /v1/cards/{id}/details',
        'PATCH /v1/cards/{id}',
        'POST /v1/cards',
        'POST /v1/cards/cardholders',
        'POST /v1/cards/{id}/freeze',
        'POST /v1/cards/{id}/unfreeze',
        'POST /v1/test-helpers/authorizations/{id}/capture',
        'POST /v1/test-helpers/authorizations/{id}/refund',
        'POST /v1/test-helpers/authorizations/{id}/reverse',
        'POST /v1/test-helpers/cards/{id}/authorizations',
      ].sort(),
    );
    const apiRoutes = resourcesOfType(dev.apiTemplate, 'AWS::ApiGatewayV2::Route').map(
      ([, route]) => route.Properties.RouteKey,
    );
    for (const route of routes) expect(apiRoutes).toContain(route);
  });

  it('gives the cards function the data key (seal and open card numbers) and nothing more of KMS', () => {
    const fn = dev.api.functions.get('cards')!.function;
    expect(resources[logicalIdOf(fn)]!.Properties.Environment.Variables[ENV.dataKeyId]).toBeDefined();
    const statements = kmsStatements(statementsOfRole(dev.apiTemplate, fn.role!));
    expect(statements).toHaveLength(1);
    expect(isDataKeyStatement(dev, statements[0]!)).toBe(true);
  });
});
