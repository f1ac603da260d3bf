// Lint: the rules of direction of ARCHITECTURE.md, enforced in CI (npm test runs lint first).
import path from 'node:path';
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const noDeepImports = (group, message) => ({ group, message });

// ---------------------------------------------------------------------------------------------
// allowance/import-direction: every relative import is resolved against the importing file and
// judged by the folder it lands in, so the rules hold at every folder depth
// (shared/domain/a/b/c.ts importing ../../../persistence/x.js is caught like ../persistence/x.js).
// ---------------------------------------------------------------------------------------------
const ROOT = import.meta.dirname;
/** Folders of the repository that are not shared/ or functions/: nothing in shared/ or functions/ imports them. */
const OUTER = new Set(['lib', 'bin', 'test', 'bench']);

/** Where a project-relative path lives: 'domain', 'runtime', 'shared' (adapters and other shared/ code), 'function', or a top folder. */
function areaOf(relativePath) {
  const parts = relativePath.split('/');
  if (parts[0] === '..' || path.isAbsolute(relativePath)) return { area: 'outside' };
  if (parts[0] === 'shared') {
    if (parts[1] === 'domain') return { area: 'domain' };
    if (parts[1] === 'runtime') return { area: 'runtime' };
    return { area: 'shared', folder: parts.length > 2 ? parts[1] : undefined };
  }
  if (parts[0] === 'functions' && parts.length > 2) return { area: 'function', group: parts[1] };
  return { area: parts.length > 1 ? parts[0] : 'root' };
}

const isBare = (specifier) => !specifier.startsWith('.') && !specifier.startsWith('/');
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const isCdk = (specifier) => ['aws-cdk-lib', 'constructs', 'aws-cdk'].includes(packageOf(specifier));

const MESSAGES = {
  domainImport: 'shared/domain imports only zod, big.js and shared/domain (here: {{target}}).',
  domainPackage: "shared/domain does no I/O and imports only zod and big.js, not '{{specifier}}'.",
  sharedImport:
    'shared/ adapters import shared/domain (and each other), never runtime, functions, lib, bin or test (here: {{target}}).',
  operationsEdge:
    'shared/operations serves both edges (HTTP and MCP) and imports neither shared/http nor shared/mcp (here: {{target}}).',
  edgeImport: 'shared/edge (what the HTTP and MCP edges share) imports only shared/domain (here: {{target}}).',
  mcpMiddleware:
    'shared/mcp does not import the HTTP middleware; what both edges need lives in shared/edge or shared/operations (here: {{target}}).',
  runtimeImport: 'shared/runtime (the composition root) never imports functions, lib, bin or test (here: {{target}}).',
  functionGroup:
    'functions/{{group}} imports shared/ and its own folder, never another function group (here: {{target}}).',
  functionPersistence:
    'functions/ never import shared/persistence directly; they go through shared/runtime (here: {{target}}).',
  functionOuter: 'functions/ import shared/ and their own folder, never lib, bin or test (here: {{target}}).',
  cdk: "Only lib/ (and bin/app.ts) use the CDK, not '{{specifier}}'.",
};

/** The problem with one import of `from` (project-relative path of the importing file), or undefined. */
function judge(from, specifier) {
  const source = areaOf(from);
  if (isBare(specifier)) {
    if (source.area === 'domain') {
      const pkg = packageOf(specifier);
      return pkg === 'zod' || pkg === 'big.js' ? undefined : { messageId: 'domainPackage' };
    }
    if (['shared', 'runtime', 'function'].includes(source.area) && isCdk(specifier)) return { messageId: 'cdk' };
    return undefined;
  }
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const to = areaOf(target);
  switch (source.area) {
    case 'domain':
      return to.area === 'domain' ? undefined : { messageId: 'domainImport' };
    case 'shared':
      if (to.area === 'runtime' || to.area === 'function' || OUTER.has(to.area) || to.area === 'outside')
        return { messageId: 'sharedImport' };
      if (source.folder === 'operations' && (to.folder === 'http' || to.folder === 'mcp'))
        return { messageId: 'operationsEdge' };
      if (source.folder === 'edge' && to.area !== 'domain' && to.folder !== 'edge') return { messageId: 'edgeImport' };
      if (source.folder === 'mcp' && target.replace(/\.[cm]?[jt]s$/, '') === 'shared/http/middleware')
        return { messageId: 'mcpMiddleware' };
      return undefined;
    case 'runtime':
      return to.area === 'function' || OUTER.has(to.area) || to.area === 'outside'
        ? { messageId: 'runtimeImport' }
        : undefined;
    case 'function':
      if (to.area === 'function')
        return to.group === source.group ? undefined : { messageId: 'functionGroup', group: source.group };
      if (to.area === 'shared' && to.folder === 'persistence') return { messageId: 'functionPersistence' };
      if (to.area === 'domain' || to.area === 'runtime' || to.area === 'shared') return undefined;
      return { messageId: 'functionOuter' };
    default:
      return undefined;
  }
}

const importDirection = {
  meta: {
    type: 'problem',
    docs: { description: 'The rules of direction of ARCHITECTURE.md, at every folder depth.' },
    schema: [],
    messages: MESSAGES,
  },
  create(context) {
    const from = path.relative(ROOT, context.filename).split(path.sep).join('/');
    const check = (node) => {
      if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return;
      const problem = judge(from, node.value);
      if (!problem) return;
      const target = isBare(node.value)
        ? node.value
        : path.posix.normalize(path.posix.join(path.posix.dirname(from), node.value));
      context.report({
        node,
        messageId: problem.messageId,
        data: { specifier: node.value, target, group: problem.group ?? '' },
      });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportEqualsDeclaration: (node) => check(node.moduleReference?.expression),
      TSImportType: (node) => check(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
    };
  },
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'cdk.out/**', '.local/**', 'coverage/**'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 2023, sourceType: 'module' } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      'no-console': 'off',
    },
  },
  {
    // The rules of direction for shared/ and functions/ (see allowance/import-direction above):
    // shared/domain imports only zod, big.js and shared/domain; the other shared/ folders never import
    // runtime, functions, lib, bin or test; shared/operations (both edges' catalog) imports neither
    // shared/http nor shared/mcp; shared/edge (what both edges share) imports only shared/domain;
    // shared/mcp never imports the HTTP middleware; functions/<group> imports shared/ (never
    // shared/persistence) and its own folder; nothing but lib/ uses the CDK.
    files: ['shared/**/*.ts', 'shared/**/*.tsx', 'functions/**/*.ts'],
    plugins: { allowance: { rules: { 'import-direction': importDirection } } },
    rules: {
      'allowance/import-direction': 'error',
      // Cold start: the first locale-aware call loads ICU's locale data (about 8 ms of a Lambda's
      // import when a catalog formats a bound at module level). shared/domain/text.ts formats numbers.
      'no-restricted-properties': [
        'error',
        {
          property: 'toLocaleString',
          message: 'Locale formatting loads ICU data at cold start; use withThousands (shared/domain/text.ts).',
        },
        {
          property: 'toLocaleDateString',
          message: 'Locale formatting loads ICU data at cold start; format ISO dates instead.',
        },
        {
          property: 'toLocaleTimeString',
          message: 'Locale formatting loads ICU data at cold start; format ISO dates instead.',
        },
        {
          property: 'localeCompare',
          message: 'Collation loads ICU data and does not sort as DynamoDB does; compare code units (a < b).',
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'Intl', message: 'Intl loads ICU locale data at cold start; see shared/domain/text.ts.' },
      ],
    },
  },
  {
    // CDK code reads only declarations from shared/: route table (with the groups' grants and timeouts), table schema, env names, event names, grants.
    files: ['lib/**/*.ts', 'bin/app.ts'],
    rules: restrict([
      noDeepImports(
        [
          '**/shared/**/*.js',
          '!**/shared/http/routes.js',
          '!**/shared/persistence/table-schema.js',
          '!**/shared/config/env-names.js',
          '!**/shared/domain/event-names.js',
          '!**/shared/domain/tenancy.js',
          '!**/shared/events/catalog.js',
          '!**/shared/workflows/**',
          '!**/shared/workers.js',
          '!**/shared/grants.js',
          '!**/shared/mcp/function.js',
          '!**/shared/card-network/function.js',
          '!**/shared/hosted/function.js',
          '!**/shared/dashboard/function.js',
          '!**/shared/observability/metric-names.js',
          '!**/shared/persistence/entities/deletable-keys.js',
        ],
        'lib/ imports from shared/ only declarations (routes, table schema, env names, event names).',
      ),
      noDeepImports(['**/functions/**'], 'lib/ references function entry files by path, never by import.'),
    ]),
  },
);
