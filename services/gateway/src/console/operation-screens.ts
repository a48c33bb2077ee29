// One screen for an admin operation (asset purge, bulk add): a form, a confirmation naming what
// the operation touches and asking for the reason, then the API's operation: its live status and,
// once finished, its outcome per item.
import { Router, type Response } from 'express';
import type { z } from 'zod';
import { ApiError } from '@switchboard/http';
import { adminPrincipal } from '../admin-auth/index.ts';
import { parseForm } from './form.ts';
import { html, type Html } from './html.ts';
import type { ConsoleContext } from './index.ts';
import { page, requireAnyAcl, sendRefusal } from './layout.ts';
import { reasonField } from './reason-field.ts';
import { isOperationAnswer, operationIdOf, operationStatus, operationStatusRoute } from './operation-view.ts';
import { routeAcls } from './route-acls.ts';

/** The fields every operation form has besides its own: the reason and the confirmation. */
interface Confirmable {
  reason?: string | undefined;
  confirm?: string | undefined;
}

export interface OperationScreenSpec<Form extends Confirmable, Target> {
  /** The form's console path, also its navigation entry. */
  screen: string;
  /** Where an operation's result page lives: `${operations}/<id>` (and `/status`). */
  operations: string;
  title: string;
  form: z.ZodType<Form>;
  /** What `confirm` carries once the operator has seen the confirmation page. */
  confirmValue: string;
  /** The prefix of the form's element ids. */
  idPrefix: string;
  /** What the form asks for, or why it cannot be sent. */
  targetOf(form: Form): Target | string;
  /** The form's own fields, filled with `form`. */
  fields(form: Partial<Form>): Html;
  /** The confirmation page's title, what it names, and the hidden fields that carry the target. */
  confirmation(target: Target): { title: string; names: Html; hidden: Html; button: string };
  api: { start: string; status: (id: string) => string; idField: string };
  /** The outcome per item of a completed operation, as the API reports it. */
  outcome(result: unknown): Html;
  /** The link back to the form on the result page. */
  again: string;
}

/**
 * The screen's routes, behind its ACL (403 otherwise): the form; its POST, which shows the
 * confirmation until `confirm` and a reason come with it, then starts the operation (a 202
 * redirects to the result page, a 200 is the outcome itself and names no id); the result page;
 * its status route, which the page's script polls.
 */
export function operationScreens<Form extends Confirmable, Target>(
  ctx: ConsoleContext,
  spec: OperationScreenSpec<Form, Target>,
): Router {
  const common = (res: Response, error: string | null = null) => ({
    base: ctx.base,
    principal: adminPrincipal(res),
    current: spec.screen,
    error,
  });
  const formPage = (res: Response, form: Partial<Form>, error: string | null = null) =>
    page(
      { ...common(res, error), title: spec.title },
      html`<form method="post" action="${ctx.base}${spec.screen}" data-confirm>${spec.fields(form)}</form>`,
    );
  const confirmPage = (res: Response, target: Target, error: string | null = null) => {
    const confirmation = spec.confirmation(target);
    return page(
      { ...common(res, error), title: confirmation.title },
      html`${confirmation.names}
<form method="post" action="${ctx.base}${spec.screen}">
${confirmation.hidden}
${reasonField({ id: `${spec.idPrefix}-reason`, required: true })}
<input type="hidden" name="confirm" value="${spec.confirmValue}">
<p><button type="submit" class="danger">${confirmation.button}</button> <a href="${ctx.base}${spec.screen}" data-dismiss>Cancel</a></p>
</form>`,
    );
  };
  const resultPage = (res: Response, body: unknown, id: string | null) => {
    const pageUrl = `${ctx.base}${spec.operations}/${id}`;
    const status = isOperationAnswer(body)
      ? operationStatus(body, pageUrl, `${pageUrl}/status`)
      : html`<p>Status: <strong role="status">Finished</strong></p>`;
    const finished = !isOperationAnswer(body) || body.status === 'completed';
    return page(
      { ...common(res), title: id === null ? spec.title : `${spec.title} ${id}` },
      html`${status}${finished ? spec.outcome(body) : ''}
<p><a href="${ctx.base}${spec.screen}">${spec.again}</a></p>`,
    );
  };
  const refuse = (res: Response, answer: Parameters<typeof sendRefusal>[2]) =>
    sendRefusal(
      res,
      { base: ctx.base, title: spec.title, current: spec.screen },
      answer,
      html`<p><a href="${ctx.base}${spec.screen}">Back to the form</a></p>`,
    );

  const router = Router();
  // The start route's ACLs (ADMIN_ROUTES); its status route requires the same.
  router.use([spec.screen, spec.operations], requireAnyAcl(routeAcls(`POST ${spec.api.start}`)));
  router.get(spec.screen, (_req, res) => {
    res.type('html').send(formPage(res, {}));
  });

  router.post(spec.screen, async (req, res) => {
    const form = parseForm(spec.form, req);
    const value: Partial<Form> = form.ok ? form.value : {};
    const target = form.ok ? spec.targetOf(form.value) : 'The form could not be read.';
    if (typeof target === 'string') {
      res
        .status(400)
        .type('html')
        .send(formPage(res, value, target));
      return;
    }
    // Nothing is sent to the API before the confirmation page's button, which asks for a reason.
    const reason = value.reason?.trim() ?? '';
    if (value.confirm !== spec.confirmValue || reason === '') {
      const error = value.confirm === spec.confirmValue ? 'Give a reason.' : null;
      res
        .status(error === null ? 200 : 400)
        .type('html')
        .send(confirmPage(res, target, error));
      return;
    }
    const answer = await ctx.api(req, res, { method: 'POST', path: spec.api.start, body: target, reason });
    if (answer.status === 202) {
      const id = String((answer.body as Record<string, unknown>)[spec.api.idField]);
      return res.redirect(303, `${ctx.base}${spec.operations}/${id}`);
    }
    if (answer.status === 200) return res.type('html').send(resultPage(res, answer.body, null));
    refuse(res, answer);
  });

  router.get(`${spec.operations}/:id`, async (req, res) => {
    const id = operationIdOf(req);
    if (id === null) throw new ApiError('NOT_FOUND');
    const answer = await ctx.api(req, res, { method: 'GET', path: spec.api.status(id) });
    if (answer.status !== 200) return refuse(res, answer);
    res.type('html').send(resultPage(res, answer.body, id));
  });

  router.use(operationStatusRoute(ctx, spec.operations, spec.api.status));
  return router;
}
