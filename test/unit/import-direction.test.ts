import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The rules of direction of ARCHITECTURE.md as eslint.config.js enforces them, checked on synthetic
// sources placed at (deep) paths of the repository: the files need not exist, only their path counts.

const ROOT = path.resolve(import.meta.dirname, '../..');

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The import-direction errors ESLint reports for `code` placed at `filePath` (project-relative). */
async function directionErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
  expect(result, filePath).toBeDefined();
  const messages = result!.messages;
  // A parse error would hide every rule: fail loudly instead of reporting "no violation".
  expect(
    messages.filter((message) => message.fatal),
    filePath,
  ).toEqual([]);
  return messages.filter((message) => message.severity === 2);
}

const importOf = (specifier: string) => `import { x } from '${specifier}';\nexport const y = x;\n`;

const FORBIDDEN: Array<[file: string, code: string]> = [
  // shared/domain imports only zod, big.js and shared/domain, at every depth
  ['shared/domain/a/b/c.ts', importOf('../../../persistence/x.js')],
  ['shared/domain/a/b/c.ts', importOf('../../../http/routes.js')],
  ['shared/domain/a/b/c.ts', importOf('../../../../functions/payments/handler.js')],
  ['shared/domain/a/b/c.ts', importOf('../../../../lib/stacks/api-stack.js')],
  ['shared/domain/a/b/c/d/e.ts', importOf('../../../../../runtime/container.js')],
  [
    'shared/domain/wallets/service.ts',
    `import type { Store } from '../../persistence/dynamo-store.js';\nexport type S = Store;\n`,
  ],
  ['shared/domain/wallets/service.ts', `export * from '../../auth/authenticate.js';\n`],
  ['shared/domain/wallets/service.ts', `export { x } from '../../events/catalog.js';\n`],
  ['shared/domain/wallets/service.ts', `export const load = () => import('../../mcp/server.js');\n`],
  ['shared/domain/wallets/service.ts', importOf('../../operations/define.js')],
  ['shared/domain/wallets/service.ts', importOf('../../config/config.js')],
  ['shared/domain/money.ts', importOf('node:crypto')],
  ['shared/domain/money.ts', importOf('crypto')],
  ['shared/domain/money.ts', importOf('@aws-sdk/lib-dynamodb')],
  ['shared/domain/money.ts', importOf('aws-cdk-lib')],
  // adapters never import runtime, functions, lib or bin
  ['shared/persistence/items/deep/x.ts', importOf('../../../runtime/container.js')],
  ['shared/persistence/items/deep/x.ts', importOf('../../../../functions/payments/handler.js')],
  ['shared/http/a/b/x.ts', importOf('../../../../lib/stacks/api-stack.js')],
  ['shared/auth/x.ts', importOf('../../bin/local/server.js')],
  ['shared/events/x.ts', importOf('../runtime/container.js')],
  ['shared/mcp/tools/x.ts', importOf('../../runtime/container.js')],
  ['shared/operations/x.ts', importOf('../../functions/agents/handler.js')],
  // shared/operations serves both edges and imports neither; shared/edge imports only shared/domain
  ['shared/operations/list.ts', importOf('../http/pagination.js')],
  ['shared/operations/a/b.ts', importOf('../../http/middleware.js')],
  ['shared/operations/list.ts', `export { x } from '../mcp/tools.js';\n`],
  ['shared/edge/parse.ts', importOf('../http/responses.js')],
  ['shared/edge/parse.ts', importOf('../operations/define.js')],
  // shared/mcp never imports the HTTP middleware
  ['shared/mcp/tools.ts', importOf('../http/middleware.js')],
  ['shared/mcp/server.ts', `import type { X } from '../http/middleware.js';\nexport type Y = X;\n`],
  ['shared/http/x.ts', importOf('aws-cdk-lib/aws-lambda')],
  // shared/runtime (composition root) never imports functions, lib or bin
  ['shared/runtime/container.ts', importOf('../../functions/payments/handler.js')],
  ['shared/runtime/a/b.ts', importOf('../../../bin/local/server.js')],
  // functions/<group>: shared/ and its own folder, never another group, never shared/persistence
  ['functions/payments/handler.ts', importOf('../../shared/persistence/dynamo-store.js')],
  ['functions/payments/handler.ts', importOf('../../shared/persistence/items/wallet.js')],
  ['functions/payments/handler.ts', importOf('../agents/handler.js')],
  ['functions/payments/handler.ts', importOf('../../functions/agents/schemas.js')],
  ['functions/payments/a/b/handler.ts', importOf('../../../agents/handler.js')],
  ['functions/payments/a/b/handler.ts', importOf('../../../../shared/persistence/keys.js')],
  ['functions/payments/handler.ts', importOf('../../lib/stacks/api-stack.js')],
  ['functions/payments/handler.ts', importOf('../../bin/local/server.js')],
  ['functions/payments/handler.ts', importOf('aws-cdk-lib')],
  // lib/ imports from shared/ only declarations
  ['lib/stacks/a/b.ts', importOf('../../../shared/persistence/dynamo-store.js')],
  ['lib/stacks/api-stack.ts', importOf('../../shared/runtime/container.js')],
  ['lib/stacks/api-stack.ts', importOf('../../functions/payments/handler.js')],
];

const ALLOWED: Array<[file: string, code: string]> = [
  ['shared/domain/a/b/c.ts', importOf('../../money.js')],
  ['shared/domain/a/b/c.ts', importOf('../../../domain/errors.js')],
  ['shared/domain/a/b/c.ts', importOf('./sibling.js')],
  ['shared/domain/money.ts', `import Big from 'big.js';\nimport { z } from 'zod';\nexport const y = [Big, z];\n`],
  ['shared/persistence/items/deep/x.ts', importOf('../../../domain/money.js')],
  ['shared/persistence/dynamo-store.ts', importOf('./keys.js')],
  ['shared/persistence/dynamo-store.ts', importOf('@aws-sdk/lib-dynamodb')],
  ['shared/http/middleware.ts', importOf('../auth/authenticate.js')],
  ['shared/http/middleware.ts', importOf('../operations/invoke.js')],
  ['shared/http/middleware.ts', importOf('../edge/parse.js')],
  ['shared/mcp/tools.ts', importOf('../edge/parse.js')],
  ['shared/mcp/http.ts', importOf('../http/responses.js')],
  ['shared/edge/parse.ts', importOf('../domain/errors.js')],
  ['shared/operations/list.ts', importOf('./pagination.js')],
  ['shared/runtime/container.ts', importOf('../persistence/dynamo-store.js')],
  ['shared/runtime/container.ts', importOf('../domain/wallets/service.js')],
  ['functions/payments/handler.ts', importOf('../../shared/runtime/container.js')],
  ['functions/payments/handler.ts', importOf('../../shared/http/middleware.js')],
  ['functions/payments/handler.ts', importOf('../../shared/domain/money.js')],
  ['functions/payments/handler.ts', importOf('./schemas.js')],
  ['functions/payments/a/b/handler.ts', importOf('../../schemas.js')],
  ['functions/payments/a/b/handler.ts', importOf('../../../../shared/runtime/container.js')],
  ['functions/payments/handler.ts', importOf('@middy/core')],
  ['lib/stacks/a/b.ts', importOf('../../../shared/http/routes.js')],
  ['lib/stacks/api-stack.ts', importOf('../../shared/persistence/table-schema.js')],
  ['test/integration/x.test.ts', importOf('../../shared/persistence/dynamo-store.js')],
];

describe('import direction (eslint.config.js)', () => {
  it.each(FORBIDDEN)('%s: rejects %s', async (file, code) => {
    const errors = await directionErrors(file, code);
    expect(errors.length, `${file}\n${code}`).toBeGreaterThan(0);
    expect(errors.map((error) => error.ruleId)).toEqual(
      errors.map(() => expect.stringMatching(/^(allowance\/import-direction|no-restricted-imports)$/)),
    );
  });

  it.each(ALLOWED)('%s: allows %s', async (file, code) => {
    expect(await directionErrors(file, code)).toEqual([]);
  });
});
