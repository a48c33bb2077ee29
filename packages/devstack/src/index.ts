export { devstackSchema, passThroughEnv, type DevstackConfig } from './config.ts';
export { dataPaths, REPO_ROOT, type DataPaths } from './paths.ts';
export { discoverServices, type AppService } from './services.ts';
