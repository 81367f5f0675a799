import { describe, expect, it } from 'vitest';
import { createApiToken } from '../src/app/api-tokens.js';
import { csrfOf, startDashboard, T0, type DashboardRig } from './dashboard-harness.js';
import { BACKENDS } from './store-backends.js';
import { seedCampaign } from './store-seed.js';

async function seeded(rig: DashboardRig) {
  const seed = await seedCampaign(rig.store, T0, 2);
  await rig.store.insertOutbox(
    seed.rows(() => T0),
    T0,
  );
  return seed;
}

const session = async (rig: DashboardRig, scope: 'read' | 'write') =>
  rig.login((await createApiToken(rig.store, { name: `${scope}-viewer`, scope }, T0)).token);

describe.each(BACKENDS)('Dashboard: the session carries its token scope ($name)', (backend) => {
  it('shows a read session every page without action buttons, and refuses its actions with a clear message', async () => {
    const rig = await startDashboard(backend);
    const seed = await seeded(rig);
    const cookie = await session(rig, 'read');
    for (const path of ['/', '/templates', '/senders', '/errors', `/campaigns/${seed.campaignId}`, `/contacts/${seed.contactIds[0]}`])
      expect((await rig.get(path, { cookie })).status, path).toBe(200);
    const page = await rig.get(`/campaigns/${seed.campaignId}`, { cookie });
    expect(page.text).not.toContain(`action="/campaigns/${seed.campaignId}/pause"`);
    expect(page.text).toContain('Your token has the read scope: pausing, resuming or cancelling a campaign needs a token of scope write');
    expect(page.text).toContain('token read-viewer (read only)');
    const csrf = csrfOf(page); // the header's search form still carries it

    const pause = await rig.post(`/campaigns/${seed.campaignId}/pause`, { _csrf: csrf }, { cookie });
    expect(pause.status).toBe(403);
    expect(pause.text).toContain(
      'your token has the read scope, which can see every page but not change anything; this needs a token of scope write',
    );
    expect((await rig.store.getCampaign(seed.campaignId))?.status).toBe('running');
    const reply = await rig.post(`/contacts/${seed.contactIds[0]}/reply`, { _csrf: csrf, text: 'hello', key: 'abcdef12-3456' }, { cookie });
    expect(reply.status).toBe(403);
    expect(reply.text).toContain('needs a token of scope write');
    expect((await rig.store.outboxTotals()).byStatus.queued).toBe(2); // the campaign's two rows, no reply

    // Finding a contact and signing out change nothing: a read session may.
    const find = await rig.post('/contacts/find', { _csrf: csrf, q: String(seed.contactIds[0]) }, { cookie });
    expect(find).toMatchObject({ status: 303, location: `/contacts/${seed.contactIds[0]}` });
    expect((await rig.post('/logout', { _csrf: csrf }, { cookie })).status).toBe(303);
  });

  it('shows a write session the buttons and lets it act', async () => {
    const rig = await startDashboard(backend);
    const seed = await seeded(rig);
    const cookie = await session(rig, 'write');
    const page = await rig.get(`/campaigns/${seed.campaignId}`, { cookie });
    expect(page.text).toContain(`action="/campaigns/${seed.campaignId}/pause"`);
    expect(page.text).not.toContain('read scope');
    const pause = await rig.post(`/campaigns/${seed.campaignId}/pause`, { _csrf: csrfOf(page) }, { cookie });
    expect(pause.status).toBe(303);
    expect((await rig.store.getCampaign(seed.campaignId))?.status).toBe('paused');
  });
});
