import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS } from '../../shared/domain/users/roles.js';

/** The role table of docs/api.md "Users and roles", as {role: permissions}. */
function documentedRoles(): Record<string, string[]> {
  const doc = readFileSync('docs/api.md', 'utf8');
  const table = doc.split('<!-- role-table:start -->')[1]?.split('<!-- role-table:end -->')[0];
  if (!table) throw new Error('docs/api.md has no role table between its markers');
  const rows = table
    .trim()
    .split('\n')
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replaceAll('`', '')),
    );
  const [header, , ...body] = rows;
  const roles = header!.slice(1);
  return Object.fromEntries(
    roles.map((role, column) => [role, body.filter((row) => row[column + 1] === 'yes').map((row) => row[0]!)]),
  );
}

describe('docs/api.md "Users and roles"', () => {
  it('prints exactly ROLE_PERMISSIONS', () => {
    const documented = documentedRoles();
    const actual = Object.fromEntries(
      Object.entries(ROLE_PERMISSIONS).map(([role, permissions]) => [role, [...permissions].sort()]),
    );
    expect(Object.fromEntries(Object.entries(documented).map(([role, p]) => [role, [...p].sort()]))).toEqual(actual);
  });
});
