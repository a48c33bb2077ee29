import { afterEach, expect, it } from 'vitest';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { createStorage, storageOptionsFromConfig, type Storage } from '../src/index.ts';

const environment = useTestEnvironment();
const CHAIN_VARIABLES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_PROFILE',
  'AWS_EC2_METADATA_DISABLED',
] as const;
const saved = Object.fromEntries(CHAIN_VARIABLES.map((name) => [name, process.env[name]]));
let storage: Storage | undefined;

afterEach(() => {
  storage?.close();
  for (const name of CHAIN_VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

function storageWithoutKeys(): Storage {
  return createStorage(
    storageOptionsFromConfig({
      S3_ENDPOINT: environment.s3.endpoint,
      S3_REGION: environment.s3.region,
      S3_BUCKET: environment.s3.bucket,
      S3_FORCE_PATH_STYLE: true,
    }),
  );
}

it('with no keys configured, signs with what the AWS default credential chain finds', async () => {
  // The chain's first link, the AWS_* variables: what an instance role or IRSA also ends in, keys
  // the SDK finds itself.
  process.env['AWS_ACCESS_KEY_ID'] = environment.s3.accessKeyId;
  process.env['AWS_SECRET_ACCESS_KEY'] = environment.s3.secretAccessKey;
  storage = storageWithoutKeys();
  await storage.upload('chain/hello.txt', 'from the chain', { contentType: 'text/plain' });
  expect((await storage.headObject('chain/hello.txt'))?.size).toBe('from the chain'.length);
});

it('with no keys anywhere, fails to sign rather than using made-up ones', async () => {
  for (const name of CHAIN_VARIABLES) delete process.env[name];
  process.env['AWS_PROFILE'] = 'switchboard-no-such-profile';
  // A machine with an instance role would otherwise lend the test its own.
  process.env['AWS_EC2_METADATA_DISABLED'] = 'true';
  storage = storageWithoutKeys();
  await expect(storage.upload('chain/nobody.txt', 'x', { contentType: 'text/plain' })).rejects.toThrow(
    /credential|profile/i,
  );
});
