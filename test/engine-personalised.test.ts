import { describe, expect, it } from 'vitest';
import { DEFAULT_SIMULATOR_CONFIG } from '../src/adapters/simulator/index.js';
import { createCampaign } from '../src/app/create-campaign.js';
import { startCampaign } from '../src/app/start-campaign.js';
import { MINUTE } from '../src/core/time.js';
import { BACKENDS } from './store-backends.js';
import { MARKETING, onlyCountries, withRig } from './engine-rig.js';

const ORDERLY = { duplicateRate: 0, outOfOrderRate: 0, batchRate: 0 } as const;

describe.each(BACKENDS)('a personalised campaign through the simulator ($name)', (backend) => {
  it('gets each recipient their own first name and coupon, as Meta renders them; the one without a coupon is skipped, saying why', async () => {
    // The simulator's own templates: spring_sale has an image header, {{1}} and {{2}}, a shop link ending in {{1}} and a stop button.
    const sim = {
      templates: DEFAULT_SIMULATOR_CONFIG.templates,
      webhooks: ORDERLY,
      population: { size: 12, countries: onlyCountries('GB'), notOnWhatsAppRate: 0, experimentRate: 0, stoppedRate: 0 },
    };
    await withRig(backend, { templateSync: true, sim }, async (rig) => {
      await rig.engine.templates!.idle();
      const users = rig.sim.users;
      const without = users[3]!;
      await rig.store.upsertContacts(
        users.map((u) => ({
          phoneE164: `+${u.phone}`,
          attributes: { first_name: `Name${u.index}`, ...(u === without ? {} : { coupon_code: `C${u.index}X` }) },
        })),
        rig.clock.now(),
      );
      const created = await createCampaign(
        rig.store,
        {
          name: 'Spring',
          template: { name: MARKETING, language: 'en_US' },
          sender: { phoneNumberId: rig.phoneNumberId },
          segment: {},
          parameters: {
            header: { link: 'https://cdn.example.com/spring-sale.jpg' },
            'body.1': { attribute: 'first_name' },
            'body.2': { value: '20%' },
            'button.0': { attribute: 'coupon_code' },
          },
        },
        rig.clock.now(),
      );
      if (!created.ok) throw new Error(created.problem);
      await startCampaign(rig.store, created.campaign.id, { phoneNumberId: rig.phoneNumberId }, rig.clock.now(), rig.engine.signal);
      for (let i = 0; i < 10; i++) await rig.advance(MINUTE);

      const messages = rig.sim.groundTruth().messages.filter((m) => m.template === MARKETING);
      expect(new Set(messages.map((m) => m.to))).toEqual(new Set(users.filter((u) => u !== without).map((u) => u.phone)));
      for (const m of messages) {
        const u = users.find((x) => x.phone === m.to)!;
        expect(m.rendered).toEqual({
          header: '[image https://cdn.example.com/spring-sale.jpg]',
          body: `Hi Name${u.index}, our spring sale is on: 20% off everything until Sunday.`,
          footer: 'Tap Stop promotions to opt out',
          buttons: [`Shop now → https://shop.example.com/spring/C${u.index}X`, 'Stop promotions'],
        });
      }
      // Nothing the simulator refused: every value fitted the template.
      expect(rig.sim.groundTruth().syncErrors).toEqual({});
      const timeline = await rig.store.contactTimeline(rig.contactOf(without), 20);
      expect(timeline.find((e) => e.type === 'decision' && e.kind === 'skip')).toMatchObject({
        reason: 'missing_parameter',
        explanation: expect.stringContaining('button 0 (URL suffix): coupon_code is missing'),
      });
    });
  });
});
