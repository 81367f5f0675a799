import { describe, expect, it } from 'vitest';
import { DEFAULT_SIMULATOR_CONFIG } from '../src/adapters/simulator/index.js';
import { MINUTE, SECOND } from '../src/core/time.js';
import { advanceUntil } from './await-state.js';
import type { JsonValue } from '../src/ports/json.js';
import type { LogFields, Logger } from '../src/ports/logger.js';
import { BACKENDS } from './store-backends.js';
import { MARKETING, withRig } from './engine-rig.js';

const ORDERLY = { duplicateRate: 0, outOfOrderRate: 0, batchRate: 0 } as const;

function recordingLogger(): Logger & { warnings: { message: string; fields?: LogFields }[] } {
  const warnings: { message: string; fields?: LogFields }[] = [];
  return {
    warnings,
    error: () => undefined,
    warn: (message, fields) => warnings.push({ message, ...(fields ? { fields } : {}) }),
    info: () => undefined,
    debug: () => undefined,
  };
}

describe.each(BACKENDS)('serve’s template sync ($name)', (backend) => {
  it('syncs at start, then fetches a template again when Meta’s webhook says it was edited or recategorised', async () => {
    // The simulator's own templates (placeholders, a media header, buttons): what the sync reads is their shape.
    const sim = { templates: DEFAULT_SIMULATOR_CONFIG.templates, webhooks: ORDERLY, population: { size: 20 } };
    await withRig(backend, { templateSync: true, sim }, async (rig) => {
      const templates = rig.engine.templates!;
      await templates.idle();
      // One virtual second at a time, each fetch finished before the next: a fetch in flight while
      // virtual time leaps would time out.
      const world = {
        advance: async (ms: number) => {
          await rig.advance(ms);
          await templates.idle();
        },
      };
      const synced = await rig.store.getTemplate(MARKETING, 'en_US');
      expect(synced).toMatchObject({ category: 'marketing', parameterFormat: 'positional', syncedAt: rig.clock.now() });
      expect(JSON.stringify(synced?.components)).toContain('"format":"IMAGE"');
      // The login code template was not registered by the rig: the sync brought it.
      expect(await rig.store.getTemplate('login_code', 'en_US')).toMatchObject({ category: 'authentication', metaId: expect.any(String) });

      // The edit webhook carries the new body text only; the components come from GET /{TEMPLATE_ID}.
      const edited: JsonValue[] = [
        { type: 'HEADER', format: 'VIDEO', example: { header_handle: ['https://scontent.example/v.mp4'] } },
        { type: 'BODY', text: 'Hello {{1}}, the summer sale starts {{2}}.', example: { body_text: [['Ada', 'today']] } },
      ];
      rig.sim.templates.edit(MARKETING, 'en_US', edited);
      await advanceUntil(
        world,
        SECOND,
        MINUTE,
        async () => (await rig.store.getTemplate(MARKETING, 'en_US'))?.syncedAt !== synced!.syncedAt,
      );
      const after = await rig.store.getTemplate(MARKETING, 'en_US');
      expect(after?.components).toEqual(edited);
      expect(after?.syncedAt).toBeGreaterThan(synced!.syncedAt!);

      const before = (await rig.store.getTemplate('order_update', 'en_US'))!;
      rig.sim.templates.recategorise('order_update', 'en_US', 'MARKETING');
      await advanceUntil(
        world,
        SECOND,
        MINUTE,
        async () => (await rig.store.getTemplate('order_update', 'en_US'))?.syncedAt !== before.syncedAt,
      );
      expect(await rig.store.getTemplate('order_update', 'en_US')).toMatchObject({ category: 'marketing', metaId: before.metaId });
    });
  });

  it('logs a failed sync at warn and keeps serving with the templates it has', async () => {
    const logger = recordingLogger();
    await withRig(
      backend,
      { templateSync: { wabaId: '555' }, logger, sim: { webhooks: ORDERLY, population: { size: 20 } } },
      async (rig) => {
        await rig.engine.templates!.idle();
        expect(logger.warnings).toContainEqual({
          message: 'template sync failed; the templates already stored stay in use',
          fields: { reason: expect.stringContaining('listing templates (page 1): Meta refused it: (#100)') },
        });
        // Still receiving and sending.
        expect((await rig.store.getTemplate(MARKETING, 'en_US'))?.status).toBe('approved');
        expect((await rig.engine.tick()).sent).toBeGreaterThanOrEqual(0);
      },
    );
  });
});
