import { join } from 'node:path';
import { describeServices, startTestServices } from '@switchboard/testkit/services';
import { prepareTemplateDatabase } from '@switchboard/testkit/isolation';
import { provisionEnvironment } from '@switchboard/testkit/environment';
import { loadFaultsConfig } from './config.ts';
import { keepProcessLogs, stopEveryProcess } from './processes.ts';
import { faultScenarios } from './scenarios/index.ts';
import { formatTable, summaryLine } from './table.ts';
import type { Scenario, ScenarioResult } from './types.ts';

const USAGE = 'usage: npm run faults [-- [--quick] [--seed=N] [scenario ...]]  (--list shows the scenarios)';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const names = args.filter((arg) => !arg.startsWith('--'));
const seedArgument = args.find((arg) => arg.startsWith('--seed='))?.slice('--seed='.length);
const faultsConfig = loadFaultsConfig(seedArgument);
const catalogue = faultScenarios(quick ? 'quick' : 'full', faultsConfig);
if (args.includes('--list')) {
  for (const scenario of catalogue) process.stdout.write(`${scenario.name.padEnd(20)} ${scenario.description}\n`);
  process.exit(0);
}
const unknown = names.filter((name) => !catalogue.some((scenario) => scenario.name === name));
const knownFlag = (arg: string) => arg === '--quick' || arg.startsWith('--seed=');
if (unknown.length > 0 || args.some((arg) => arg.startsWith('--') && !knownFlag(arg))) {
  process.stderr.write(`${unknown.length > 0 ? `unknown scenario: ${unknown.join(', ')}\n` : ''}${USAGE}\n`);
  process.exit(2);
}
const selected = names.length > 0 ? catalogue.filter((scenario) => names.includes(scenario.name)) : catalogue;

const log = (message: string) => process.stderr.write(`faults: ${message}\n`);
const started = await startTestServices(process.env).catch((error: Error) => {
  log(error.message);
  process.exit(1);
});
log(
  `services:\n${describeServices(started)
    .map((line) => `  ${line}`)
    .join('\n')}`,
);
const template = await prepareTemplateDatabase(started.services.databaseUrl);
if (selected.some((scenario) => scenario.name === 'chaos'))
  log(`chaos seed ${faultsConfig.seed} (replay: FAULTS_SEED=${faultsConfig.seed} npm run faults -- chaos)`);

async function cleanUp(): Promise<void> {
  await stopEveryProcess();
  await template.drop().catch(() => {});
  await started.stop();
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}, stopping every process`);
    void cleanUp().finally(() => process.exit(130));
  });
}

/**
 * Errors thrown in this process outside a scenario's own code (the embedded S3, s3rver, runs
 * here): they must fail the scenario they happened in, with the reason, not end the run
 * without a table.
 */
const incidents: string[] = [];
process.on('uncaughtException', (error) => {
  log(`uncaught in the runner (embedded services): ${error.message}`);
  incidents.push(error.message.split('\n')[0]!);
});

/** A scenario that threw (a process would not start …) is a failed row, not the end of the run. */
async function runOne(scenario: Scenario): Promise<ScenarioResult> {
  const environment = await provisionEnvironment(started.services, { template: template.name });
  const { logs } = faultsConfig;
  keepProcessLogs(logs && { ...logs, dir: join(logs.dir, scenario.name) });
  incidents.length = 0;
  let result: ScenarioResult;
  try {
    result = await scenario.run({ environment, services: started.services, template: template.name, log });
  } catch (error) {
    result = {
      scenario: scenario.name,
      load: '',
      fault: '',
      figures: [],
      problems: [`did not finish: ${(error as Error).message.split('\n')[0]}`],
    };
  } finally {
    await environment.release();
  }
  const thrown = incidents.map((message) => `the runner's embedded services threw: ${message}`);
  return { ...result, problems: [...result.problems, ...thrown] };
}

const results: ScenarioResult[] = [];
for (const scenario of selected) results.push(await runOne(scenario));
await cleanUp();
process.stdout.write(`\n${formatTable(results)}\n\n${summaryLine(results)}\n`);
process.exit(results.every((result) => result.problems.length === 0) ? 0 : 1);
