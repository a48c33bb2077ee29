import { z } from 'zod';
import { ignored } from '../message.ts';
import { ignoredAction, withSchema } from './handler.ts';
import { COLORS, codeHostMessage, optionalUser, repositorySchema, userSchema } from './parts.ts';

const refSchema = z.object({
  ref: z.string(),
  ref_type: z.string(),
  repository: repositorySchema,
  sender: optionalUser,
});

function refEvent(event: 'create' | 'delete') {
  return withSchema(event, refSchema, (payload) => {
    if (payload.ref_type !== 'branch' && payload.ref_type !== 'tag')
      return ignored(`${event} of a ${payload.ref_type}`);
    const kind = payload.ref_type === 'branch' ? 'branch' : 'tag';
    const title =
      event === 'create'
        ? `[${payload.repository.full_name}] New ${kind} created: ${payload.ref}`
        : `[${payload.repository.full_name}] ${kind === 'branch' ? 'Branch' : 'Tag'} deleted: ${payload.ref}`;
    return codeHostMessage({ title, author: payload.sender });
  });
}

export const renderCreate = refEvent('create');
export const renderDelete = refEvent('delete');

export const renderFork = withSchema(
  'fork',
  z.object({ repository: repositorySchema, forkee: repositorySchema, sender: optionalUser }),
  (payload) =>
    codeHostMessage({
      title: `[${payload.repository.full_name}] Fork created: ${payload.forkee.full_name}`,
      url: payload.forkee.html_url,
      author: payload.sender,
    }),
);

export const renderMember = withSchema(
  'member',
  z.object({ action: z.string(), member: userSchema, repository: repositorySchema, sender: optionalUser }),
  (payload) => {
    if (payload.action !== 'added') return ignoredAction('member', payload.action);
    return codeHostMessage({
      title: `[${payload.repository.full_name}] New collaborator added: ${payload.member.login}`,
      url: payload.member.html_url,
      author: payload.sender,
    });
  },
);

export const renderPublic = withSchema(
  'public',
  z.object({ repository: repositorySchema, sender: optionalUser }),
  (payload) =>
    codeHostMessage({
      title: `[${payload.repository.full_name}] Now open sourced!`,
      url: payload.repository.html_url,
      author: payload.sender,
    }),
);

export const renderRelease = withSchema(
  'release',
  z.object({
    action: z.string(),
    release: z.object({ tag_name: z.string(), html_url: z.string() }),
    repository: repositorySchema,
    sender: optionalUser,
  }),
  (payload) => {
    // `published` covers releases and pre-releases; created/released/prereleased would repeat it.
    if (payload.action !== 'published') return ignoredAction('release', payload.action);
    return codeHostMessage({
      title: `[${payload.repository.full_name}] New release published: ${payload.release.tag_name}`,
      url: payload.release.html_url,
      author: payload.sender,
    });
  },
);

const starSchema = z.object({ action: z.string(), repository: repositorySchema, sender: optionalUser });

export const renderWatch = withSchema('watch', starSchema, (payload) => {
  if (payload.action !== 'started') return ignoredAction('watch', payload.action);
  return codeHostMessage({
    title: `[${payload.repository.full_name}] New star added`,
    url: payload.repository.html_url,
    author: payload.sender,
  });
});

/**
 * Starring a repository sends both `watch` (started) and `star` (created): only `watch` posts,
 * as on Fluxer and Discord, so "send me everything" hooks never announce a star twice.
 */
export const renderStar = withSchema('star', starSchema, () => ignored('stars are announced by the watch event'));

export const renderRepository = withSchema('repository', starSchema, (payload) => {
  if (payload.action !== 'created') return ignoredAction('repository', payload.action);
  return codeHostMessage({
    title: `[${payload.repository.full_name}] Repository created`,
    url: payload.repository.html_url,
    author: payload.sender,
    color: COLORS.repositoryCreated,
  });
});

const pingSchema = z.object({
  zen: z.string().nullish().catch(undefined),
  hook: z
    .object({ type: z.string().nullish(), events: z.array(z.string()).nullish() })
    .nullish()
    .catch(undefined),
  repository: repositorySchema.nullish().catch(undefined),
  organization: z.object({ login: z.string() }).nullish().catch(undefined),
  sender: optionalUser,
});

/** GitHub pings a hook once when it is set up: confirm it in the channel, with its events. */
export const renderPing = withSchema('ping', pingSchema, (payload) => {
  const target = payload.repository?.full_name ?? payload.organization?.login;
  const events = payload.hook?.events ?? [];
  const subscribed = events.includes('*') ? 'all events' : events.join(', ');
  const lines = [subscribed ? `Events: ${subscribed}` : undefined, payload.zen ? `> ${payload.zen}` : undefined];
  return codeHostMessage({
    title: `${target ? `[${target}] ` : ''}GitHub webhook connected`,
    url: payload.repository?.html_url,
    description: lines.filter((line) => line !== undefined).join('\n'),
    author: payload.sender,
  });
});
