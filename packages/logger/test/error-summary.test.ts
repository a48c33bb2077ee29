import { describe, expect, it } from 'vitest';
import { errorSummary } from '../src/index.ts';

describe('errorSummary', () => {
  it('keeps type, message, code, stack and causes, and drops every other property', () => {
    // As ioredis builds a ReplyError for a refused command: the arguments ride on the error.
    const reply = Object.assign(new Error('OOM command not allowed when used memory > maxmemory'), {
      name: 'ReplyError',
      command: { name: 'evalsha', args: ['sha', '{"content":"the webhook payload"}'] },
    });
    const wrapped = new Error('enqueue failed', { cause: reply });
    const summary = errorSummary(wrapped);
    expect(summary).toMatchObject({
      type: 'Error',
      message: 'enqueue failed',
      cause: { type: 'ReplyError', message: reply.message },
    });
    expect(JSON.stringify(summary)).not.toContain('webhook payload');
    const pg = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
      detail: 'Key (email)=(a@b.c) already exists.',
    });
    expect(errorSummary(pg)).toMatchObject({ code: '23505' });
    expect(JSON.stringify(errorSummary(pg))).not.toContain('a@b.c');
    expect(errorSummary('x'.repeat(1000)).message).toHaveLength(300);
  });
});
