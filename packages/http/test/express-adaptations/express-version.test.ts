import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { WRITTEN_FOR } from '../../src/express-adaptations/index.ts';

const require = createRequire(import.meta.url);

/** The version of `name` as installed, resolved from `from` as node would resolve it there. */
function installedVersion(name: string, from: NodeJS.Require = require): string {
  return (from(`${name}/package.json`) as { version: string }).version;
}

const RECHECK =
  'The adaptations in packages/http/src/express-adaptations/ reach into express and its router. ' +
  'Before changing WRITTEN_FOR, re-check each one its index.ts lists against the new versions ' +
  "(express's lib/application.js app.handle and lib/response.js json; router's lib/layer.js and " +
  'lib/route.js: stack, route, rawPath, slash, match, methods, dispatch), then run ' +
  'packages/http/test/express-adaptations and the gateway tests the list names.';

describe('the express the adaptations were written for', () => {
  it('is the one installed, and so is its router', () => {
    const express = installedVersion('express');
    const router = installedVersion('router', createRequire(require.resolve('express')));
    expect(
      express,
      `express ${express} is installed, the adaptations were written for ${WRITTEN_FOR.express}. ${RECHECK}`,
    ).toBe(WRITTEN_FOR.express);
    expect(
      router,
      `router ${router} is installed, the adaptations were written for ${WRITTEN_FOR.router}. ${RECHECK}`,
    ).toBe(WRITTEN_FOR.router);
  });
});
