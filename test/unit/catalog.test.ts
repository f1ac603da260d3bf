import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../../shared/domain/audit/actions.js';
import { FUNCTION_GROUPS } from '../../shared/operations/index.js';
import { CATALOG, CATALOG_ENTRIES } from '../../shared/operations/index.js';
import { pathParameterNames, routeKeyOf } from '../../shared/operations/paths.js';
import { TOOL_GROUPS } from '../../shared/operations/tool-groups.js';

const ROOT = join(import.meta.dirname, '../..');

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('the operation catalog', () => {
  it('has one catalog module per function group, each served by functions/<group>/handler.ts', () => {
    expect(CATALOG.map((g) => g.group).sort()).toEqual([...FUNCTION_GROUPS].sort());
    for (const group of FUNCTION_GROUPS) expect(existsSync(join(ROOT, 'functions', group, 'handler.ts'))).toBe(true);
  });

  // The MCP function builds its tools from TOOL_GROUPS alone (and so bundles no group without tools).
  it('lists in TOOL_GROUPS exactly the groups that offer an MCP tool, in catalog order', () => {
    const offering = CATALOG.filter((g) => g.operations.some((op) => op.mcp !== undefined)).map((g) => g.group);
    expect(TOOL_GROUPS.map((g) => g.group)).toEqual(offering);
  });

  it('names every operation, route and MCP tool once', () => {
    const names = CATALOG_ENTRIES.map((e) => e.operation.name);
    const routes = CATALOG_ENTRIES.map((e) => routeKeyOf(e.operation.http));
    const tools = CATALOG_ENTRIES.flatMap((e) => (e.operation.mcp ? [e.operation.mcp.tool] : []));
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(routes).size).toBe(routes.length);
    expect(new Set(tools).size).toBe(tools.length);
  });

  it('describes exactly the parameters of its path (the `{name}` placeholders), in their order', () => {
    for (const { operation } of CATALOG_ENTRIES)
      expect(Object.keys(operation.params ?? {}), operation.name).toEqual(pathParameterNames(operation.http.path));
  });

  it('declares an audit action for every operation that changes state, and none for reads', () => {
    for (const { operation } of CATALOG_ENTRIES) {
      const mutating = operation.http.method !== 'GET';
      expect(operation.audit !== undefined, operation.name).toBe(mutating);
      if (operation.audit) expect(AUDIT_ACTIONS).toContain(operation.audit);
    }
  });

  it('keeps operator and public operations out of the MCP tools, and marks reads read-only', () => {
    for (const { operation } of CATALOG_ENTRIES) {
      if (operation.access === 'operator' || operation.access === 'public')
        expect(operation.mcp, operation.name).toBeUndefined();
      if (operation.mcp) expect(operation.mcp.hints.readOnlyHint, operation.name).toBe(operation.http.method === 'GET');
    }
  });
});

describe('one declaration per fact', () => {
  it('writes audit actions only by reference to AUDIT (no action name as a literal in the services)', () => {
    const offenders = sourcesUnder('shared/domain')
      // Views hold documentation examples, not writes.
      .filter((file) => !file.endsWith(join('audit', 'actions.ts')) && !file.endsWith('-view.ts'))
      .flatMap((file) => {
        const text = readFileSync(file, 'utf8');
        return AUDIT_ACTIONS.filter((action) =>
          new RegExp(`action:\\s*['"\`]${action.replaceAll('.', '\\.')}['"\`]`).test(text),
        ).map((action) => `${file}: ${action}`);
      });
    expect(offenders).toEqual([]);
  });

  it('builds no table key outside shared/persistence/entities: no key prefix an entity module uses is spelled elsewhere', () => {
    // Derived from the entity modules, so a new entity's prefix is guarded without editing this test.
    const prefixes = [
      ...new Set(
        sourcesUnder('shared/persistence/entities').flatMap((file) =>
          [...readFileSync(file, 'utf8').matchAll(/['`]([A-Z][A-Z_]*)#/g)].map((match) => match[1]!),
        ),
      ),
    ];
    expect(prefixes).toEqual(
      expect.arrayContaining([
        'WALLET',
        'ORG',
        'TXN',
        'AUDIT',
        'POLICY',
        'APPROVAL',
        'KEYHASH',
        'KEY',
        'MERCHANT',
        'OUTBOX',
        'CONFIG',
        'CARD',
        'TRANSFER',
        'WEBHOOK',
        'EVENT',
      ]),
    );
    const spelled = new RegExp(`['\`](?:${prefixes.join('|')})#`);
    const offenders = [...sourcesUnder('shared'), ...sourcesUnder('functions'), ...sourcesUnder('bin')]
      .filter((file) => !file.includes(join('persistence', 'entities')))
      .filter((file) => spelled.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
