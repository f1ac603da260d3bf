// Lint: the rules of direction of ARCHITECTURE.md, enforced in CI (npm test runs lint first).
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const noDeepImports = (group, message) => ({ group, message });

export default tseslint.config(
  { ignores: ['node_modules/**', 'cdk.out/**', '.local/**', 'coverage/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 2023, sourceType: 'module' } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      'no-console': 'off',
    },
  },
  {
    // shared/domain: pure rules. Only zod, big.js and itself.
    files: ['shared/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noDeepImports(['../../persistence/**', '../persistence/**', '../../http/**', '../http/**', '../../auth/**', '../auth/**', '../../events/**', '../events/**', '../../config/**', '../config/**', '../../runtime/**', '../runtime/**', '**/functions/**', '**/lib/**', '**/bin/**'], 'shared/domain imports only zod, big.js and shared/domain.'),
            noDeepImports(['@aws-sdk/*', 'aws-cdk-lib', 'aws-cdk-lib/*', '@middy/*', 'node:*', 'fs', 'path', 'crypto', 'http'], 'shared/domain does no I/O: no AWS SDK, no Node built-ins.'),
          ],
        },
      ],
    },
  },
  {
    // Adapters import the domain, never the composition root, the functions, the CDK app or the local run.
    files: ['shared/persistence/**/*.ts', 'shared/events/**/*.ts', 'shared/http/**/*.ts', 'shared/auth/**/*.ts', 'shared/config/**/*.ts'],
    rules: restrict([
      noDeepImports(['**/runtime/**', '**/functions/**', '**/lib/**', '**/bin/**'], 'shared adapters import shared/domain (and each other), never runtime, functions, lib or bin.'),
      noDeepImports(['aws-cdk-lib', 'aws-cdk-lib/*'], 'Only lib/ uses the CDK.'),
    ]),
  },
  {
    // A function group never imports another group.
    files: ['functions/*/**/*.ts'],
    rules: restrict([
      { regex: '^\\.\\./(?!\\.\\./)', message: 'functions/<group> imports shared/ and its own folder, never another function group.' },
      noDeepImports(['**/lib/**', '**/bin/**', 'aws-cdk-lib', 'aws-cdk-lib/*'], 'Functions never import the CDK app or the local run.'),
    ]),
  },
  {
    // CDK code reads only declarations from shared/: route table, table schema, env names, event names.
    files: ['lib/**/*.ts', 'bin/app.ts'],
    rules: restrict([
      noDeepImports(
        ['**/shared/**/*.js', '!**/shared/http/routes.js', '!**/shared/persistence/table-schema.js', '!**/shared/config/env-names.js', '!**/shared/domain/event-names.js', '!**/shared/domain/tenancy.js', '!**/shared/events/catalog.js', '!**/shared/workflows/**'],
        'lib/ imports from shared/ only declarations (routes, table schema, env names, event names).',
      ),
      noDeepImports(['**/functions/**'], 'lib/ references function entry files by path, never by import.'),
    ]),
  },
);
