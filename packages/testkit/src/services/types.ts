/** Where the real services for a test run live. */
export interface TestServices {
  databaseUrl: string;
  redisUrl: string;
  s3: { endpoint: string; accessKeyId: string; secretAccessKey: string; region: string };
}

/** How a service was found: named by the environment, a container, or started embedded. */
export type ServiceSource = 'environment' | 'container' | 'embedded';

export interface StartedServices {
  services: TestServices;
  sources: { postgres: ServiceSource; redis: ServiceSource; s3: ServiceSource };
  /** The same services as environment variables, for the processes of the run. */
  env: Record<string, string>;
  /** Stops whatever this run started (containers, embedded servers) and removes their data. */
  stop(): Promise<void>;
}
