import { describe, expect, it } from 'vitest';
import { ERROR_CLASSES } from '../error-class.js';
import type { ErrorEntry } from '../error-entry.js';
import { DEFAULT_POLICY } from '../policy.js';
import { normalizeText } from './normalize-text.js';
import { ERROR_CATALOGUE, classifyCode, codeLabel, findErrorByCode, resolveErrorEntry } from './index.js';

const entry = (code: number): ErrorEntry => {
  const found = findErrorByCode(code);
  if (found === undefined) throw new Error(`no catalogue entry for ${code}`);
  return found;
};

describe('catalogue invariants', () => {
  it('never reuses a code, and no range overlaps another entry', () => {
    const labels = ERROR_CATALOGUE.map(codeLabel);
    expect(new Set(labels).size).toBe(labels.length);
    for (const range of ERROR_CATALOGUE.filter((e) => e.codeTo !== undefined)) {
      const inside = ERROR_CATALOGUE.filter((e) => e !== range && e.code >= range.code && e.code <= (range.codeTo ?? 0));
      expect(inside.map(codeLabel), `inside ${codeLabel(range)}`).toEqual([]);
    }
  });

  it.each(ERROR_CATALOGUE.map((e) => [codeLabel(e), e] as const))('%s has a name, wording and a full page', (_label, e) => {
    expect(e.name.trim()).not.toBe('');
    expect(e.messages.length).toBeGreaterThan(0);
    for (const message of e.messages) expect(normalizeText(message), `message "${message}"`).not.toBe('');
    for (const part of [e.page.meaning, e.page.cause, e.page.retry, e.page.action]) expect(part.trim().length).toBeGreaterThan(10);
    expect(e.billed).toBe(false);
    expect(ERROR_CLASSES).toContain(e.class);
    expect(e.class).not.toBe('unknown');
  });

  it('lists every wording once per entry', () => {
    for (const e of ERROR_CATALOGUE) expect(new Set(e.messages).size, codeLabel(e)).toBe(e.messages.length);
  });
});

describe('mappings the rest of the system relies on', () => {
  it('131049: the cap, cool-off, marketing only, counted by the campaign breaker', () => {
    expect(entry(131049)).toMatchObject({
      class: 'per_user_marketing_cap',
      retry: { kind: 'cap_cool_off' },
      effects: { contact: 'marketing_cool_off', template: 'none', sender: 'none', campaign: 'count_cap' },
    });
  });

  it('130472 and 472 hold marketing for a window; 131050 stops marketing; 131026 is unreachable', () => {
    for (const code of [130472, 472]) {
      expect(entry(code)).toMatchObject({
        class: 'experiment_hold',
        retry: { kind: 'when_window_opens' },
        effects: { contact: 'marketing_hold_for_window' },
      });
    }
    expect(entry(131050)).toMatchObject({
      class: 'user_stopped_marketing',
      retry: { kind: 'never' },
      effects: { contact: 'marketing_stopped' },
    });
    expect(entry(131026)).toMatchObject({
      class: 'recipient_undeliverable',
      retry: { kind: 'never' },
      effects: { contact: 'unreachable' },
    });
  });

  it('window, rate-limit and transient codes', () => {
    for (const code of [131047, 470]) expect(entry(code)).toMatchObject({ class: 'window_closed', retry: { kind: 'never' } });
    expect(entry(131056)).toMatchObject({ class: 'pair_rate_limit', retry: { kind: 'backoff', schedule: 'pair_rate' } });
    expect(entry(130429)).toMatchObject({
      class: 'throughput_limit',
      retry: { kind: 'backoff', schedule: 'sender_throttle' },
      effects: { sender: 'throttle' },
    });
    for (const code of [80007, 4, 613]) {
      expect(entry(code)).toMatchObject({ class: 'api_rate_limit', retry: { kind: 'backoff', schedule: 'sender_throttle' } });
    }
    for (const code of [131000, 131016, 1, 2, 131057, 133004, 2494100]) {
      expect(entry(code)).toMatchObject({ class: 'transient_server', retry: { kind: 'backoff', schedule: 'transient' } });
    }
  });

  it('template pause and disable', () => {
    expect(entry(132015)).toMatchObject({ class: 'template_problem', effects: { template: 'pause' } });
    expect(['after_operator_fix']).toContain(entry(132015).retry.kind);
    expect(entry(132016)).toMatchObject({ class: 'template_problem', retry: { kind: 'never' }, effects: { template: 'disable' } });
  });

  it('account and auth problems stop the sender', () => {
    for (const code of [131031, 131042, 131048, 368, 131064, 135000, 471]) {
      expect(entry(code)).toMatchObject({ class: 'account_problem', effects: { sender: 'stop', campaign: 'pause' } });
    }
    for (const code of [190, 0, 3, 10, 200, 250, 299, 131005]) {
      expect(entry(code)).toMatchObject({ class: 'auth_permission', effects: { sender: 'stop' } });
    }
  });

  it('Marketing Messages refusals reroute to the Cloud API; 134101 waits; 131063 needs the path changed', () => {
    for (const code of [131055, 134100, 134102]) {
      expect(entry(code)).toMatchObject({ class: 'marketing_api_refused', retry: { kind: 'reroute_cloud' } });
    }
    expect(entry(134101)).toMatchObject({ class: 'transient_server', retry: { kind: 'backoff', schedule: 'transient' } });
    expect(entry(131063)).toMatchObject({ class: 'marketing_api_refused', retry: { kind: 'after_operator_fix' } });
  });

  it('recipient-not-allowed codes', () => {
    for (const code of [131030, 130403, 130497, 131021]) expect(entry(code).class).toBe('recipient_not_allowed');
  });
});

describe('1026 and capCodes', () => {
  it('is undeliverable by default and its page says when it becomes the cap', () => {
    expect(classifyCode(1026, DEFAULT_POLICY.capCodes)).toBe('recipient_undeliverable');
    expect(entry(1026).page.retry).toContain('capCodes');
  });

  it('becomes the cap, with the cap retry and effects, when policy lists it', () => {
    const capCodes = [131049, 1026];
    expect(classifyCode(1026, capCodes)).toBe('per_user_marketing_cap');
    const resolved = resolveErrorEntry(1026, capCodes);
    expect(resolved).toMatchObject({
      code: 1026,
      class: 'per_user_marketing_cap',
      retry: entry(131049).retry,
      effects: entry(131049).effects,
    });
    expect(resolved?.messages).toEqual(entry(1026).messages);
    expect(resolveErrorEntry(1026, DEFAULT_POLICY.capCodes)).toBe(entry(1026));
  });

  it('131049 is the cap whatever capCodes says; unknown codes are unknown', () => {
    expect(classifyCode(131049, [])).toBe('per_user_marketing_cap');
    expect(classifyCode(424242, DEFAULT_POLICY.capCodes)).toBe('unknown');
    expect(classifyCode(424242, [424242])).toBe('per_user_marketing_cap');
    expect(resolveErrorEntry(424242, [424242])).toBeUndefined();
  });
});
