import { z } from '@switchboard/config';
import { snowflakeSchema } from '@switchboard/contracts';
import { defineCommand, type RegisteredCommand } from './command.ts';
import type { Rendered } from './render.ts';

/** A command that acts on one resource named by its id, the command's one word. */
interface ByIdSpec {
  /** The words that select it, e.g. `webhooks get`. */
  name: string;
  summary: string;
  /** The word's name (`webhook-id`) and what `--help` says of it. */
  id: { name: string; description: string };
  /** The API path of the resource with that id. */
  path: (id: string) => string;
}

function idSchema(spec: ByIdSpec) {
  return z.object({ [spec.id.name]: snowflakeSchema }) as z.ZodType<Record<string, string>>;
}

/** `<things> get <id>`: the resource as the API answers it. */
export function getByIdCommand<Result = Record<string, unknown>>(
  spec: ByIdSpec & { render?: (result: Result) => Rendered },
): RegisteredCommand {
  return defineCommand({
    name: spec.name,
    summary: spec.summary,
    uses: 'api',
    positionals: [spec.id],
    schema: idSchema(spec),
    run: (options, api) => api.request<Result>('GET', spec.path(options[spec.id.name]!)),
    ...(spec.render ? { render: spec.render } : {}),
  });
}

/** `<things> delete <id>` (audited): deletes it and prints `{ <done>: id }`, e.g. `{ deleted: … }`. */
export function deleteByIdCommand(spec: ByIdSpec & { done: string }): RegisteredCommand {
  return defineCommand({
    name: spec.name,
    summary: spec.summary,
    uses: 'api',
    audited: true,
    positionals: [spec.id],
    schema: idSchema(spec),
    run: async (options, api) => {
      const id = options[spec.id.name]!;
      await api.request('DELETE', spec.path(id));
      return { [spec.done]: id };
    },
  });
}
