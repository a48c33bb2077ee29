import { describe, expect, it } from 'vitest';
import { ledgerProblems, reconcile } from '../src/deliveries/ledger.ts';
import { formatTable, summaryLine } from '../src/table.ts';

describe('worker-kill ledger', () => {
  it('holds when every accepted execute is stored once and announced once', () => {
    const ledger = reconcile({
      accepted: ['a', 'b'],
      stored: [
        { id: '1', content: 'a' },
        { id: '2', content: 'b' },
      ],
      events: [{ message_id: '1' }, { message_id: '2' }],
    });
    expect(ledger).toMatchObject({
      accepted: 2,
      stored: 2,
      lost: 0,
      duplicated: 0,
      events: 2,
      missingEvents: 0,
      duplicateEvents: 0,
      strayEvents: 0,
    });
    expect(ledgerProblems(ledger)).toEqual([]);
  });

  it('counts lost and duplicated messages, and missing, duplicated and stray events', () => {
    const ledger = reconcile({
      accepted: ['a', 'b', 'c'],
      stored: [
        { id: '1', content: 'a' },
        { id: '2', content: 'a' },
        { id: '3', content: 'b' },
      ],
      events: [{ message_id: '1' }, { message_id: '1' }, { message_id: '9' }],
    });
    expect(ledger).toMatchObject({ lost: 1, duplicated: 1, missingEvents: 2, duplicateEvents: 1, strayEvents: 1 });
    expect(ledgerProblems(ledger)).toHaveLength(5);
  });
});

describe('fault table', () => {
  it('prints one row per scenario, figures one a line, and the closing count', () => {
    const results = [
      { scenario: 'ok', load: 'l', fault: 'f', figures: [['lost', 0] as [string, number]], problems: [] },
      { scenario: 'bad', load: 'l', fault: 'f', figures: [], problems: ['2 lost'] },
    ];
    const table = formatTable(results);
    expect(table.split('\n')[0]).toMatch(/^\| scenario +\| load +\| fault +\| result +\| verdict +\|$/);
    expect(table).toMatch(/\| ok .*\| lost 0 .*\| PASS/);
    expect(table).toMatch(/\| bad .*\| FAIL/);
    expect(table).toContain('- 2 lost');
    expect(summaryLine(results)).toBe('1 passed, 1 failed');
  });
});
