import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's chromium package; playwright-core downloads no browser of its own. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

// Headless on a closed network: without the background-networking flags Chromium keeps trying
// to reach Google's services (updates, sync, field trials) and floods the network with retries.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  /** The browser's one context (its profile is the new --user-data-dir). */
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Headless Chromium with a new, empty profile. Throws one clear sentence when Debian's chromium
 * is not installed: a browser test must fail then, never skip without a word.
 */
export async function launchChromium(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: install Debian's chromium package (apt-get install -y --no-install-recommends chromium) to run the browser tests.`,
    );
  }
  const profile = await mkdtemp(join(tmpdir(), 'switchboard-chromium-'));
  // Within vitest's 60 s hook bound. Playwright passes the profile as --user-data-dir itself (it refuses the flag in `args`).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 45_000,
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
