#!/usr/bin/env node
import { runCli } from './index.ts';

// `switchboard <command>` (the bin of this package, linked by `npm install`; `npx switchboard`
// in the repository) or `npm run cli -- <command>`: see packages/cli/README.md. Node runs the
// TypeScript itself (type stripping), so the bin is this file.
process.exitCode = await runCli(process.argv.slice(2));
