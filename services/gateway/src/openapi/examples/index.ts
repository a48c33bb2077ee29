import { IDS, WEBHOOK_TOKEN } from './resources.ts';

export * from './resources.ts';

/** An example value for each path parameter name the gateway's routes use. */
const PATH_PARAMETERS: Record<string, string> = {
  webhook_id: IDS.webhook,
  token: WEBHOOK_TOKEN,
  channel_id: IDS.channel,
  guild_id: IDS.guild,
  message_id: IDS.message,
  keyId: IDS.apiKey,
  subjectType: 'user',
  subjectId: IDS.user,
  archiveId: IDS.archive,
  purgeId: IDS.operation,
  operationId: IDS.operation,
  webhookId: IDS.webhook,
};

/** Every path parameter has one: a route with a new parameter name must add it here. */
export function pathParameterExample(name: string): string {
  const example = PATH_PARAMETERS[name];
  if (example === undefined) throw new Error(`OpenAPI: no example for the path parameter "${name}"`);
  return example;
}
