import { z } from 'zod';
import { ignoredAction, withSchema } from './handler.ts';
import { COLORS, codeHostMessage, optionalText, optionalUser, repositorySchema } from './parts.ts';

const discussionSchema = z.object({
  number: z.number(),
  title: z.string(),
  html_url: z.string(),
  body: optionalText,
  user: optionalUser,
});

const commentSchema = z.object({ html_url: z.string(), body: optionalText, user: optionalUser });

export const renderDiscussion = withSchema(
  'discussion',
  z.object({
    action: z.string(),
    discussion: discussionSchema,
    answer: commentSchema.nullish().catch(undefined),
    repository: repositorySchema,
  }),
  ({ action, discussion, answer, repository }) => {
    if (action === 'created') {
      return codeHostMessage({
        title: `[${repository.full_name}] New discussion #${discussion.number}: ${discussion.title}`,
        url: discussion.html_url,
        description: discussion.body,
        author: discussion.user,
        color: COLORS.discussion,
      });
    }
    if (action === 'answered' && answer) {
      return codeHostMessage({
        title: `[${repository.full_name}] Discussion answered: #${discussion.number} ${discussion.title}`,
        url: answer.html_url,
        description: answer.body,
        author: answer.user,
        color: COLORS.discussion,
      });
    }
    return ignoredAction('discussion', action);
  },
);

export const renderDiscussionComment = withSchema(
  'discussion_comment',
  z.object({ action: z.string(), discussion: discussionSchema, comment: commentSchema, repository: repositorySchema }),
  ({ action, discussion, comment, repository }) => {
    if (action !== 'created') return ignoredAction('discussion_comment', action);
    return codeHostMessage({
      title: `[${repository.full_name}] New comment on discussion #${discussion.number}: ${discussion.title}`,
      url: comment.html_url,
      description: comment.body,
      author: comment.user,
      color: COLORS.discussion,
    });
  },
);
