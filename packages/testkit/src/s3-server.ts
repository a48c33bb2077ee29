import { startEmbeddedS3 } from '@switchboard/devstack';

/**
 * `node s3-server.ts <dir>`: the embedded S3 store (s3rver) in a process of its own (see
 * startS3Process). Reports its endpoint and keys over IPC and stops when the channel closes.
 */
const dir = process.argv[2];
if (!dir || !process.send) {
  process.stderr.write('usage: node s3-server.ts <dir>, with an IPC channel\n');
  process.exit(64);
}
const s3 = await startEmbeddedS3({ dir, resetOnClose: true });
process.send({
  type: 'listening',
  endpoint: s3.endpoint,
  accessKeyId: s3.accessKeyId,
  secretAccessKey: s3.secretAccessKey,
});
process.once('disconnect', () => {
  void s3.stop().finally(() => process.exit(0));
});
