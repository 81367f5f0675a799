import type { FastifyInstance } from 'fastify';
import { CampaignActionError, campaignAction } from '../../../app/campaign-actions.js';
import { campaignPage } from './campaign-page.js';
import type { DashboardDeps } from './dashboard-deps.js';
import type { Guards } from './dashboard-guards.js';
import { positiveInt } from './format.js';
import { html } from './html.js';
import { layout, notFoundPage, sendPage } from './layout.js';

/** A campaign's page, and its pause, resume and cancel. */
export function registerCampaignRoutes(app: FastifyInstance, deps: DashboardDeps, { page, action }: Guards): void {
  app.get(
    '/campaigns/:id',
    page(async (request, reply, viewer) => {
      const id = positiveInt((request.params as { id: string }).id);
      const query = request.query as Record<string, unknown>;
      const done = query['done'];
      const notice =
        done === 'pause' ? 'Campaign paused.' : done === 'resume' ? 'Campaign resumed.' : done === 'cancel' ? 'Campaign cancelled.' : null;
      const p =
        id === null
          ? null
          : await campaignPage(deps, viewer, id, {
              retriesAfter: positiveInt(query['retriesAfter']) ?? 0,
              heldAfter: positiveInt(query['heldAfter']) ?? 0,
              notice,
            });
      if (p === null) return notFoundPage(reply, viewer, `There is no campaign ${(request.params as { id: string }).id}.`);
      return sendPage(reply, 200, layout(p.title, viewer, p.body));
    }),
  );
  app.post(
    '/campaigns/:id/:action',
    action('write', async (request, reply, form, viewer) => {
      const params = request.params as { id: string; action: string };
      const id = positiveInt(params.id);
      const verb = params.action;
      if (id === null || (verb !== 'pause' && verb !== 'resume' && verb !== 'cancel'))
        return notFoundPage(reply, viewer, 'No such campaign action.');
      if (verb === 'cancel' && form['confirm'] !== 'yes')
        return sendPage(
          reply,
          400,
          layout(
            'Not cancelled',
            viewer,
            html`<p class="error">Tick the confirmation to cancel the campaign.</p><p><a href="/campaigns/${id}">Back to the campaign</a></p>`,
          ),
        );
      try {
        await campaignAction(
          deps.store,
          id,
          verb,
          deps.clock.now(),
          deps.signal,
          verb === 'pause' ? `paused by ${viewer.name} from the dashboard` : undefined,
        );
      } catch (error) {
        if (!(error instanceof CampaignActionError)) throw error;
        const missing = (await deps.store.getCampaign(id)) === null;
        if (missing) return notFoundPage(reply, viewer, `There is no campaign ${id}.`);
        return sendPage(
          reply,
          409,
          layout('Not done', viewer, html`<p class="error">${error.message}</p><p><a href="/campaigns/${id}">Back to the campaign</a></p>`),
        );
      }
      return reply.code(303).header('location', `/campaigns/${id}?done=${verb}`).send();
    }),
  );
}
