/**
 * The load generator's process (forked by load-generator.ts): runs the loads it is sent, one
 * message each, and answers each with its measurement; ends when its parent goes.
 */
import { runAutocannon } from './autocannon-run.ts';
import { isLoadRequest, type LoadAnswer, type LoadRequest, type LoadResult } from './load-generator-protocol.ts';
import { measurePaced } from './paced-load.ts';
import { measureMix } from './paced-mix.ts';

function generate(request: LoadRequest): Promise<LoadResult> {
  if (request.kind === 'autocannon') return runAutocannon(request.run);
  if (request.kind === 'mix') return measureMix(request.mix);
  return measurePaced(request.target, request.options);
}

process.on('message', (message) => {
  if (!isLoadRequest(message)) return;
  const reply = (answer: LoadAnswer) => process.send?.(answer);
  generate(message).then(
    (measurement) => reply({ id: message.id, measurement }),
    (error: unknown) =>
      reply({ id: message.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
