import type { TestEnvironment } from '@switchboard/testkit/environment';
import type { TestServices } from '@switchboard/testkit/services';

/** What a scenario measured, one row of the table. */
export interface ScenarioResult {
  scenario: string;
  /** What ran while the fault happened ("10000 plain executes, 16 at a time"). */
  load: string;
  /** What was done to the system ("webhook-worker SIGKILLed 3 times"). */
  fault: string;
  /** The measured figures, printed in order as `name value`. */
  figures: Array<[name: string, value: string | number]>;
  /** Why the scenario fails; empty when it passes. */
  problems: string[];
}

/** What a scenario runs against: its own database, Redis prefix and bucket. */
export interface ScenarioContext {
  environment: TestEnvironment;
  /** The run's shared services and migrated template, for a scenario that swaps in a store of its own. */
  services: TestServices;
  template: string;
  /** Progress for the person watching, on stderr: the table is the result. */
  log(message: string): void;
}

export interface Scenario {
  /** Stable: `npm run faults -- <name>` selects it. */
  name: string;
  description: string;
  run(context: ScenarioContext): Promise<ScenarioResult>;
}
