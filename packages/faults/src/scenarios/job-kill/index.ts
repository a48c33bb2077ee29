import { createAdminWithKey } from '@switchboard/auth';
import { ACL } from '@switchboard/contracts';
import { createPool } from '@switchboard/db';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { QUICK_TAKEOVER } from '@switchboard/testkit/operations';
import { storageFor } from '@switchboard/testkit/storage';
import { testSnowflakeWorkerId } from '@switchboard/testkit/ids';
import { ScenarioProcesses } from '../../processes.ts';
import type { Scenario, ScenarioContext, ScenarioResult } from '../../types.ts';
import { archiveCase } from './archive.ts';
import { bulkCase } from './bulk.ts';
import type { CaseContext, CaseOutcome, JobKillCase } from './case.ts';
import { purgeCase } from './purge.ts';

const CASES: readonly JobKillCase[] = [archiveCase, purgeCase, bulkCase];

const ADMIN_ACLS = [
  ACL.authenticate,
  ACL.archiveTriggerGuild,
  ACL.archiveViewAll,
  ACL.assetPurge,
  ACL.bulkAddGuildMembers,
];

/** A case that threw (a timeout, a failed operation) is a failed case, not the end of the scenario. */
async function runCase(jobCase: JobKillCase, context: CaseContext): Promise<CaseOutcome> {
  const started = performance.now();
  try {
    const outcome = await jobCase.run(context);
    return { ...outcome, figures: `${outcome.figures} (${((performance.now() - started) / 1000).toFixed(1)} s)` };
  } catch (error) {
    return { figures: 'did not complete', problems: [(error as Error).message.split('\n')[0]!] };
  }
}

async function runJobKill({ environment, log }: ScenarioContext): Promise<ScenarioResult> {
  const processes = new ScenarioProcesses(environment.processEnv);
  const pool = createPool({ connectionString: environment.databaseUrl, max: 4 });
  const storage = storageFor(environment);
  const ids = createSnowflakeGenerator(testSnowflakeWorkerId());
  try {
    const admin = await createAdminWithKey(pool, ids, { name: 'fault-suite', acls: ADMIN_ACLS });
    // ADMIN_JOB_WAIT_MS=0: answered 202 at once, so the job outlives the request that started it.
    const gateway = await processes.gateway({ RATE_LIMITS_ENABLED: 'false', ADMIN_JOB_WAIT_MS: '0' });
    const figures: ScenarioResult['figures'] = [];
    const problems: string[] = [];
    for (const jobCase of CASES) {
      log(`job-kill: ${jobCase.worker} SIGKILLed mid-job`);
      const worker = await processes.worker(jobCase.worker, { ...QUICK_TAKEOVER, ...jobCase.workerEnv });
      const outcome = await runCase(jobCase, {
        pool,
        storage,
        gatewayUrl: gateway.url,
        adminKey: admin.key,
        ids,
        worker,
      });
      figures.push([jobCase.name, outcome.figures]);
      problems.push(...outcome.problems.map((problem) => `${jobCase.name}: ${problem}`));
    }
    return {
      scenario: 'job-kill',
      load: 'one guild archive (500 messages), one guild asset purge (5 objects), one bulk add (20 users)',
      fault: 'archive-, asset-purge- and bulk-worker each SIGKILLed mid-job, a fresh one started',
      figures,
      problems,
    };
  } finally {
    await processes.stopAll();
    storage.close();
    await pool.end();
  }
}

/** Each long job survives its worker's crash: taken over, completed exactly once, with the right result. */
export const jobKill: Scenario = {
  name: 'job-kill',
  description: 'archive, purge and bulk workers SIGKILLed mid-job: each job completes once',
  run: runJobKill,
};
