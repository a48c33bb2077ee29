/** What a long-running job's watcher shows: its status, percent done and current step. */
export interface ProgressState {
  status: string;
  /** 0–100; values outside are clamped. */
  percent: number;
  step: string | null;
}

/** Cells of the bar itself, brackets aside. */
const BAR_CELLS = 30;

/** `[#########.....................]`: `percent` of `cells` filled, rounded down (full only at 100). */
export function progressBar(percent: number, cells = BAR_CELLS): string {
  const clamped = Math.min(100, Math.max(0, Number.isFinite(percent) ? percent : 0));
  const filled = Math.floor((clamped / 100) * cells);
  return `[${'#'.repeat(filled)}${'.'.repeat(cells - filled)}]`;
}

/**
 * One line for a terminal `columns` wide: bar, percent, status and step, the step cut (with
 * `…`) so the line never wraps — a wrapped line cannot be redrawn in place with `\r`.
 */
export function renderProgressLine(state: ProgressState, columns = 80): string {
  const percent = `${String(Math.round(Math.min(100, Math.max(0, state.percent)))).padStart(3)}%`;
  const head = `${progressBar(state.percent)} ${percent} ${state.status}`;
  if (!state.step) return head.slice(0, columns);
  const room = columns - head.length - 1;
  if (room <= 1) return head.slice(0, columns);
  const step = state.step.length > room ? `${state.step.slice(0, room - 1)}…` : state.step;
  return `${head} ${step}`;
}

/** One plain line per change, for logs and pipes: no bar, no control characters. */
export function renderProgressEntry(state: ProgressState): string {
  const step = state.step ? ` ${state.step}` : '';
  return `${state.status} ${Math.round(state.percent)}%${step}`;
}

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressView {
  show(state: ProgressState): void;
  /** A line of its own between updates (a retry, a warning); on a terminal the bar is redrawn after it. */
  note(text: string): void;
  /** Ends the bar's line on a terminal, so what is printed next starts on a line of its own. */
  finish(): void;
}

/**
 * Progress on `stream`: on a terminal one line redrawn in place (`\r`, then erase to its end);
 * elsewhere one line per change, so a log holds each step once rather than a line per poll.
 */
export function progressView(stream: ProgressStream): ProgressView {
  let last: string | undefined;
  let drawn = false;
  return {
    show(state) {
      if (stream.isTTY) {
        // One column spare: a line filling the last one wraps on some terminals. A terminal
        // that reports no width (0: a pseudo-terminal without a size) gets 80.
        const line = renderProgressLine(state, (stream.columns || 80) - 1);
        if (line === last) return;
        stream.write(`\r${line}\x1b[K`);
        drawn = true;
        last = line;
        return;
      }
      const entry = renderProgressEntry(state);
      if (entry === last) return;
      stream.write(`${entry}\n`);
      last = entry;
    },
    note(text) {
      if (drawn) stream.write('\n');
      drawn = false;
      stream.write(`${text}\n`);
      // The next update draws (or prints) again, even when unchanged since the note.
      last = undefined;
    },
    finish() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
