import { runCli } from './index.ts';

// `npm run cli -- <command>`: see packages/cli/README.md.
process.exitCode = await runCli(process.argv.slice(2));
