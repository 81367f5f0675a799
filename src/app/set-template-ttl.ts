import { TTL_RANGES, secondsText, ttlProblem } from '../core/template-ttl.js';
import type { Millis } from '../core/time.js';
import type { TemplateApi } from '../ports/cloud-api.js';
import type { Template, TemplateStore } from '../ports/store.js';
import { describeFailure, refreshTemplate } from './sync-templates.js';

export interface SetTemplateTtlDeps {
  store: TemplateStore;
  api: TemplateApi;
  now: () => Millis;
}

/** Why the time-to-live was not set; each caller words it for its users from `reason`. */
export type TtlEditProblem = 'not_found' | 'not_synced' | 'not_editable' | 'out_of_range' | 'refused';

export type TtlEditResult =
  | {
      ok: true;
      template: Template;
      /** What the store held before (null: Meta's default). */
      previousSeconds: number | null;
      /** False when Meta took the edit but the template could not be read back: the stored copy was updated from the edit. */
      readBack: boolean;
    }
  | { ok: false; problem: TtlEditProblem; reason: string };

// Meta edits approved, rejected and paused templates only (reference §1.2).
const NOT_EDITABLE = new Set(['pending', 'disabled', 'deleted']);

/**
 * Sets a template's time-to-live at Meta (`POST /{TEMPLATE_ID}` with `message_send_ttl_seconds`),
 * checked first against Meta's range for its category, then stores the template as Meta gives it
 * back. Nothing is stored unless Meta took the edit.
 */
export async function setTemplateTtl(
  deps: SetTemplateTtlDeps,
  t: { name: string; language: string; seconds: number },
): Promise<TtlEditResult> {
  const current = await deps.store.getTemplate(t.name, t.language);
  const label = `${t.name} (${t.language})`;
  if (current === null) return { ok: false, problem: 'not_found', reason: `template ${label} is not known: run pacer template sync` };
  if (current.metaId === null || current.components === null || current.parameterFormat === null)
    return {
      ok: false,
      problem: 'not_synced',
      reason: `template ${label} was registered by hand, so Pacer does not know its id at Meta: run pacer template sync`,
    };
  if (NOT_EDITABLE.has(current.status))
    return {
      ok: false,
      problem: 'not_editable',
      reason: `template ${label} is ${current.status}: Meta edits only approved, rejected or paused templates`,
    };
  if (current.category === 'service') throw new Error(`template ${label} has the category service, which templates never have`);
  const problem = ttlProblem(current.category, t.seconds);
  if (problem !== null) {
    const r = TTL_RANGES[current.category];
    const thirty = r.thirtyDays ? ', or -1 for 30 days' : '';
    return {
      ok: false,
      problem: 'out_of_range',
      reason: `--ttl: ${problem}; give ${secondsText(r.minSeconds)} to ${secondsText(r.maxSeconds)}${thirty}`,
    };
  }
  const edited = await deps.api.editTemplate(current.metaId, { message_send_ttl_seconds: t.seconds });
  if (edited.kind !== 'ok') return { ok: false, problem: 'refused', reason: `editing template ${label}: ${describeFailure(edited)}` };

  const refreshed = await refreshTemplate(deps, current.metaId);
  if (refreshed.ok) return { ok: true, template: refreshed.template, previousSeconds: current.sendTtlSeconds, readBack: true };
  // Meta took it; until the next sync, the stored copy says what was set.
  await deps.store.upsertSyncedTemplates(
    [
      {
        ...current,
        metaId: current.metaId,
        components: current.components,
        parameterFormat: current.parameterFormat,
        sendTtlSeconds: t.seconds,
      },
    ],
    deps.now(),
  );
  const stored = await deps.store.getTemplate(t.name, t.language);
  if (stored === null) throw new Error(`template ${label} disappeared while its time-to-live was set`);
  return { ok: true, template: stored, previousSeconds: current.sendTtlSeconds, readBack: false };
}
