import { describe, expect, it } from 'vitest';
import { progressBar, progressView, renderProgressEntry, renderProgressLine } from '../src/progress.ts';

/** What a view wrote, as a terminal or a pipe would receive it. */
function capture(isTTY: boolean, columns = 80) {
  const written: string[] = [];
  return { stream: { isTTY, columns, write: (text: string) => written.push(text) }, written };
}

describe('progress bar rendering', () => {
  it('fills the bar in proportion, rounding down, full only at 100, and clamps nonsense', () => {
    expect(progressBar(0, 10)).toBe('[..........]');
    expect(progressBar(45, 10)).toBe('[####......]');
    expect(progressBar(99, 10)).toBe('[#########.]');
    expect(progressBar(100, 10)).toBe('[##########]');
    expect(progressBar(-5, 10)).toBe('[..........]');
    expect(progressBar(250, 10)).toBe('[##########]');
    expect(progressBar(Number.NaN, 10)).toBe('[..........]');
  });

  it('draws bar, percent, status and step on one line that never exceeds the terminal width', () => {
    const line = renderProgressLine({ status: 'running', percent: 42, step: 'Writing messages (5000/12000)' }, 80);
    expect(line).toBe(`[${'#'.repeat(12)}${'.'.repeat(18)}]  42% running Writing messages (5000/12000)`);
    const narrow = renderProgressLine({ status: 'running', percent: 42, step: 'Writing messages (5000/12000)' }, 50);
    expect(narrow).toHaveLength(50);
    expect(narrow.endsWith('…')).toBe(true);
    expect(renderProgressLine({ status: 'queued', percent: 0, step: null }, 80)).toBe(
      `[${'.'.repeat(30)}]   0% queued`,
    );
    expect(renderProgressLine({ status: 'queued', percent: 0, step: 'Queued' }, 20)).toHaveLength(20);
  });

  it('writes plain lines for logs: status, percent, step', () => {
    expect(renderProgressEntry({ status: 'completed', percent: 100, step: 'Completed' })).toBe(
      'completed 100% Completed',
    );
    expect(renderProgressEntry({ status: 'queued', percent: 0, step: null })).toBe('queued 0%');
  });

  it('redraws one line in place on a terminal, only when it changed, and ends it on finish', () => {
    const { stream, written } = capture(true, 60);
    const view = progressView(stream);
    view.show({ status: 'queued', percent: 0, step: 'Queued' });
    view.show({ status: 'queued', percent: 0, step: 'Queued' });
    view.show({ status: 'running', percent: 50, step: 'Writing' });
    view.finish();
    expect(written).toHaveLength(3);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the bar ends with ESC [K (erase to end of line)
    expect(written[0]).toMatch(/^\r\[\.+\] {3}0% queued Queued\x1b\[K$/);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: as above
    expect(written[1]).toMatch(/^\r\[#{15}\.{15}\] {2}50% running Writing\x1b\[K$/);
    expect(written[2]).toBe('\n');
    // Each drawn line fits the terminal (one column left for the cursor).
    for (const text of written.slice(0, 2))
      expect(text.replace('\r', '').replace('\x1b[K', '').length).toBeLessThanOrEqual(59);
  });

  it('takes 80 columns on a terminal that reports no width', () => {
    const { stream, written } = capture(true, 0);
    progressView(stream).show({ status: 'running', percent: 40, step: 'Writing messages (800/2000)' });
    expect(written[0]).toBe(`\r[${'#'.repeat(12)}${'.'.repeat(18)}]  40% running Writing messages (800/2000)\x1b[K`);
  });

  it('puts a note on a line of its own and redraws the bar after it', () => {
    const { stream, written } = capture(true, 60);
    const view = progressView(stream);
    view.show({ status: 'running', percent: 50, step: 'Writing' });
    view.note('database unavailable, retrying');
    view.show({ status: 'running', percent: 50, step: 'Writing' });
    expect(written.slice(1, 3)).toEqual(['\n', 'database unavailable, retrying\n']);
    expect(written[3]).toBe(written[0]);
  });

  it('elsewhere prints one line per change and no control characters', () => {
    const { stream, written } = capture(false);
    const view = progressView(stream);
    view.show({ status: 'queued', percent: 0, step: 'Queued' });
    view.show({ status: 'queued', percent: 0, step: 'Queued' });
    view.show({ status: 'running', percent: 5, step: 'Collecting guild metadata' });
    view.show({ status: 'completed', percent: 100, step: 'Completed' });
    view.finish();
    expect(written.join('')).toBe('queued 0% Queued\nrunning 5% Collecting guild metadata\ncompleted 100% Completed\n');
  });
});
