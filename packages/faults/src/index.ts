// The fault suite's scenarios, for `npm run faults` (src/main.ts) and the bounded run in `npm test`.
export type { Scenario, ScenarioContext, ScenarioResult } from './types.ts';
export { chaos, type ChaosOptions } from './scenarios/chaos/index.ts';
export { faultScenarios, type Scale } from './scenarios/index.ts';
export { workerKill, type WorkerKillOptions } from './scenarios/worker-kill/index.ts';
export { gatewayKill, type GatewayKillOptions } from './scenarios/gateway-kill/index.ts';
export { jobKill } from './scenarios/job-kill/index.ts';
export { formatTable, summaryLine } from './table.ts';
export { dependencyOutage, type OutageOptions } from './scenarios/outage/index.ts';
export { bodyFlood, type BodyFloodOptions } from './scenarios/body-flood/index.ts';
