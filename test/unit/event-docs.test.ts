import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMITTED_EVENT_NAMES, RESERVED_EVENT_NAMES } from '../../shared/domain/event-names.js';
import { EVENT_TABLE_BEGIN, EVENT_TABLE_END, eventTableMarkdown } from '../../shared/operations/event-docs.js';

const API_DOCS = readFileSync(path.resolve(import.meta.dirname, '../../docs/api.md'), 'utf8');

/** The events table as docs/api.md has it, markers included. */
function documentedTable(): string {
  const begin = API_DOCS.indexOf(EVENT_TABLE_BEGIN);
  const end = API_DOCS.indexOf(EVENT_TABLE_END);
  return begin < 0 || end < begin ? '' : API_DOCS.slice(begin, end + EVENT_TABLE_END.length);
}

describe('docs/api.md lists every event with its payload', () => {
  it('has the events table generated from the declarations (run `npm run docs:events` after changing an event)', () => {
    expect(documentedTable()).toBe(eventTableMarkdown());
  });

  it('has one row per emitted event, with its fields, and names every reserved name as reserved', () => {
    const rows = documentedTable()
      .split('\n')
      .filter((line) => line.startsWith('| `'));
    expect(rows.map((row) => /^\| `([^`]+)`/.exec(row)?.[1])).toEqual([...EMITTED_EVENT_NAMES]);
    for (const row of rows) expect(row.split(' | ').at(-1)).toMatch(/`[a-zA-Z]+\??`/);
    const reserved =
      documentedTable()
        .split('\n')
        .find((line) => line.startsWith('**Reserved names**')) ?? '';
    for (const name of RESERVED_EVENT_NAMES) expect(reserved).toContain(`\`${name}\``);
  });

  it('no longer says that deposit or card events are never emitted', () => {
    expect(API_DOCS).not.toMatch(/\(deposits, cards, [^)]*\) have no payload\s+yet and are never emitted/);
  });
});
