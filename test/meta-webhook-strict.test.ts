import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE, SECOND } from '../src/core/time.js';
import { fillPlaceholders } from './meta-fixture-placeholders.js';
import { strictProblems, type Profile } from './meta-webhook-strict-schema.js';
import { accepted, sendTemplate, startHarness, type Harness } from './simulator-harness.js';

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/meta-webhooks');
/** Username users (business-scoped ids without a phone number), written from Meta's notes. */
const BSUID_FIXTURES = path.resolve(import.meta.dirname, 'fixtures/bsuid');

function fixtureBodies(): Array<{ name: string; body: unknown }> {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .flatMap((file) => {
      const cases = JSON.parse(fillPlaceholders(readFileSync(path.join(FIXTURES, file), 'utf8'))) as Record<string, unknown>;
      return Object.entries(cases).map(([name, body]) => ({ name: `${file}:${name}`, body }));
    });
}

interface Change {
  field: string;
  value: Record<string, unknown>;
}

function changesOf(body: unknown): Change[] {
  return (body as { entry: Array<{ changes: Change[] }> }).entry.flatMap((e) => e.changes);
}

/** What kind of event a change is: its field and the value that tells its variants apart. */
function kindOf(change: Change): string {
  const v = change.value;
  switch (change.field) {
    case 'messages': {
      const status = (v.statuses as Array<{ status: string }> | undefined)?.[0];
      if (status) return `status ${status.status}`;
      const message = (v.messages as Array<{ type: string; interactive?: { type: string }; context?: unknown }> | undefined)?.[0];
      if (message) return `inbound ${message.type}${message.interactive ? ` ${message.interactive.type}` : ''}`;
      return 'messages errors';
    }
    case 'user_preferences':
      return `user_preferences ${(v.user_preferences as Array<{ value: string }>)[0]?.value}`;
    case 'message_template_quality_update':
      return `template quality ${String(v.new_quality_score)}`;
    case 'template_category_update':
      return `template category ${'correct_category' in v ? 'notice' : 'change'}`;
    default:
      return `${change.field} ${String(v.event)}`;
  }
}

/** The key paths of a value, arrays folded, so two payloads with the same fields share a shape. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => keyPaths(item, `${prefix}[]`));
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keyPaths(v, prefix === '' ? k : `${prefix}.${k}`));
}

/** A change's structure: its field, a status's status or a message's type, and every key path it has. */
function shapeOf(change: Change): string {
  const kind = change.field === 'messages' ? kindOf(change) : change.field;
  return `${kind} | ${[...new Set(keyPaths(change.value))].sort().join(',')}`;
}

function problemsOf(bodies: ReadonlyArray<{ name: string; body: unknown }>, profile: Profile): string[] {
  return bodies.flatMap(({ name, body }) => strictProblems(body, profile).map((p) => `${name} ${p}`));
}

describe('strict Meta webhook schema: the real fixtures', () => {
  const fixtures = fixtureBodies();

  it('accepts every documented payload of the fixtures', () => {
    expect(fixtures.length).toBeGreaterThan(50);
    expect(problemsOf(fixtures, 'documented')).toEqual([]);
    const shapes = new Set(fixtures.flatMap(({ body }) => changesOf(body).map(shapeOf)));
    expect(shapes.size).toBeGreaterThan(50);
  });
});

describe('strict Meta webhook schema: users with a username', () => {
  const cases = JSON.parse(readFileSync(path.join(BSUID_FIXTURES, 'username-users.json'), 'utf8')) as Record<string, unknown>;
  const all = Object.entries(cases).map(([name, body]) => ({ name, body }));
  const withEmptyPhone = all.filter(({ name }) => name.includes('empty_phone'));

  it('accepts every body as documented, and all but the empty phone fields as the current version', () => {
    expect(all.length).toBeGreaterThanOrEqual(9);
    expect(problemsOf(all, 'documented')).toEqual([]);
    expect(
      problemsOf(
        all.filter((c) => !withEmptyPhone.includes(c)),
        'current',
      ),
    ).toEqual([]);
  });

  it('refuses "" for a phone field in the current version, where Meta omits it', () => {
    expect(withEmptyPhone.length).toBe(2);
    for (const { body } of withEmptyPhone) expect(strictProblems(body, 'current')).not.toEqual([]);
  });
});

/**
 * One seeded run in which everything the simulator can post happens: statuses of every kind, the
 * six asynchronous failures, sends by phone and by business-scoped id, free and paid pricing, the
 * Marketing Messages API, replies, "Stop promotions" taps, marketing stop and resume, template
 * quality changes, pauses, a reinstatement and a disabling, and the number's quality going both ways.
 */
async function seededRun(): Promise<{ h: Harness; bodies: Array<{ name: string; body: unknown }> }> {
  const h = await startHarness({
    seed: 61,
    population: {
      size: 700,
      // Some users hide their number behind a username: statuses of sends by business-scoped id then name no number.
      usernameRate: 0.2,
      notOnWhatsAppRate: 0.05,
      experimentRate: 0.05,
      stoppedRate: 0.05,
      readPropensity: { min: 0.8, max: 1 },
      replyPropensity: { min: 0.3, max: 0.6 },
    },
    templates: [
      { name: 'pushy_promo', language: 'en_US', category: 'MARKETING', relevance: 0 },
      { name: 'gentle_promo', language: 'en_US', category: 'MARKETING', relevance: 0.3 },
      { name: 'order_update', language: 'en_US', category: 'UTILITY', relevance: 0.9 },
      { name: 'new_season', language: 'en_US', category: 'MARKETING', relevance: 0.6 },
      {
        name: 'receipt_copy',
        language: 'en_US',
        category: 'UTILITY',
        relevance: 0.9,
        components: [
          { type: 'HEADER', format: 'DOCUMENT' },
          { type: 'BODY', text: 'Your receipt is attached.' },
        ],
      },
    ],
    reactions: {
      blockRate: 0.1,
      reportRate: 0.02,
      preferenceStopRate: 0.1,
      stopTapRate: 0.3,
      resumeRate: 0.5,
      resumeMeanDelayMs: 6 * HOUR,
      skipDeliveredRate: 0.3,
    },
    quality: { windowMs: 6 * HOUR, template: { minSample: 30, yellowAt: 0.04, redAt: 0.1, pauseMs: [HOUR, HOUR] } },
    webhooks: { batchRate: 0.5, duplicateRate: 0.05, outOfOrderRate: 0.1 },
  });
  const users = h.sim.users;
  let n = 0;
  const send = (phone: string, template: string, endpoint: 'messages' | 'marketing_messages' = 'messages') =>
    sendTemplate(h.client, phone, `strict-${++n}`, template, endpoint);

  // Marketing to everyone twice within a day (caps, the US pause, experiment, stops, unknown numbers).
  for (const round of [0, 1]) {
    for (const [i, u] of users.slice(0, 300).entries()) {
      await send(u.phone, i % 5 === 0 ? 'gentle_promo' : 'pushy_promo', i % 7 === 0 ? 'marketing_messages' : 'messages');
      if (i % 60 === 59) await h.sim.advance(SECOND);
    }
    await h.sim.advance(round === 0 ? 2 * HOUR : 30 * MINUTE);
  }
  await send('919876543210', 'order_update'); // a valid number nobody in the simulation owns: 131026
  // By business-scoped id: delivered ones, and one to an id nobody has.
  for (const u of users.slice(300, 330))
    accepted(
      await h.client.send({
        type: 'template',
        endpoint: 'messages',
        to: { kind: 'user_id', userId: u.userId },
        messageId: `strict-${++n}`,
        template: { name: 'order_update', language: 'en_US' },
      }),
    );
  accepted(
    await h.client.send({
      type: 'template',
      endpoint: 'messages',
      to: { kind: 'user_id', userId: 'IN.40000000000000000001' },
      messageId: `strict-${++n}`,
      template: { name: 'order_update', language: 'en_US' },
    }),
  );
  // Free-form text: outside the window (131047), and inside it after the user writes (free service).
  const writer = users.find((u, i) => i > 330 && u.onWhatsApp)!;
  await h.client.send({ type: 'text', to: { kind: 'phone', phone: writer.phone }, messageId: `strict-${++n}`, body: 'Hello' });
  h.sim.act.writes(writer.phone, 'Olá! Ação? 👋');
  await h.sim.advance(MINUTE);
  await h.client.send({
    type: 'text',
    to: { kind: 'phone', phone: writer.phone },
    messageId: `strict-${++n}`,
    body: 'Hi, how can we help?',
  });
  await send(writer.phone, 'order_update'); // utility inside the window: free
  // A user stops and resumes marketing on their phone.
  const chooser = users.find((u, i) => i > 340 && u.onWhatsApp && !u.state.stoppedMarketing)!;
  h.sim.act.stopsMarketing(chooser.phone);
  await h.sim.advance(MINUTE);
  await send(chooser.phone, 'gentle_promo'); // 131050
  h.sim.act.resumesMarketing(chooser.phone);
  // Days of marketing in waves: templates pause, come back and are disabled; the number's rating falls and recovers.
  for (let day = 0; day < 3; day++) {
    for (const wave of [0, 1]) {
      for (const [i, u] of users.slice(350 + wave * 150, 500 + wave * 150).entries()) {
        await send(u.phone, (i + day) % 3 === 0 ? 'gentle_promo' : 'pushy_promo');
        if (i % 60 === 59) await h.sim.advance(SECOND);
      }
      await h.sim.advance(8 * HOUR);
    }
  }
  // A quiet half day, then order updates to many and a little marketing: the rating recovers.
  await h.sim.advance(12 * HOUR);
  for (const [i, u] of users.slice(0, 500).entries()) {
    await send(u.phone, 'order_update');
    if (i % 60 === 59) await h.sim.advance(SECOND);
  }
  await h.sim.advance(3 * HOUR);
  for (const u of users.slice(500, 650)) await send(u.phone, 'new_season');
  // A document header Meta cannot fetch (not https): accepted, then failed with 131053.
  await h.sim.advance(SECOND); // past the second of throughput the sends above used
  accepted(
    await h.client.send({
      type: 'template',
      endpoint: 'messages',
      to: { kind: 'phone', phone: users[660]!.phone },
      messageId: `strict-${++n}`,
      template: {
        name: 'receipt_copy',
        language: 'en_US',
        components: [{ type: 'header', parameters: [{ type: 'document', document: { link: 'http://files.example/receipt.pdf' } }] }],
      },
    }),
  );
  await h.sim.advance(2 * DAY);
  const bodies = h.receiver.received.map((r, i) => ({ name: `POST ${i}`, body: JSON.parse(r.raw.toString('utf8')) as unknown }));
  return { h, bodies };
}

describe('strict Meta webhook schema: everything the simulator posts', () => {
  let run: Awaited<ReturnType<typeof seededRun>>;
  beforeAll(async () => {
    run = await seededRun();
  }, 300_000);
  afterAll(async () => {
    await run?.h.close();
  });

  it('posts every kind of event in the seeded run', () => {
    const kinds = new Set(run.bodies.flatMap(({ body }) => changesOf(body).map(kindOf)));
    const expected = [
      'status sent',
      'status delivered',
      'status read',
      'status failed',
      'inbound text',
      'inbound button',
      'user_preferences stop',
      'user_preferences resume',
      'template quality YELLOW',
      'template quality RED',
      'message_template_status_update PAUSED',
      'message_template_status_update REINSTATED',
      'message_template_status_update DISABLED',
      'phone_number_quality_update FLAGGED',
      'phone_number_quality_update UNFLAGGED',
    ];
    expect(expected.filter((k) => !kinds.has(k))).toEqual([]);
    const codes = new Set(
      changesOf({ entry: run.bodies.flatMap(({ body }) => (body as { entry: unknown[] }).entry) }).flatMap((c) =>
        ((c.value.statuses as Array<{ errors?: Array<{ code: number }> }> | undefined) ?? [])
          .flatMap((s) => s.errors ?? [])
          .map((e) => e.code),
      ),
    );
    expect([...codes].sort()).toEqual([130472, 131026, 131047, 131049, 131050, 131053]);
  });

  it('passes the strict schema, as Meta documents the current version and as it ever documented it', () => {
    expect(problemsOf(run.bodies, 'current')).toEqual([]);
    expect(problemsOf(run.bodies, 'documented')).toEqual([]);
  });

  it('covers distinct payload shapes', () => {
    const changes = run.bodies.flatMap(({ body }) => changesOf(body));
    const simulated = new Set(changes.map(shapeOf));
    const fixtures = new Set(fixtureBodies().flatMap(({ body }) => changesOf(body).map(shapeOf)));
    const all = new Set([...simulated, ...fixtures]);
    console.info(
      `strict webhook schema: ${run.bodies.length} simulated bodies, ${new Set(changes.map(kindOf)).size} kinds of event in ${simulated.size} shapes; ` +
        `${fixtures.size} fixture shapes; ${all.size} distinct shapes in all`,
    );
    // The seeded run keeps reaching every shape it reaches today (statuses with and without pricing,
    // failures by phone and by business-scoped id, texts with and without context, username users
    // whose number is withheld, ...).
    expect(simulated.size).toBeGreaterThanOrEqual(21);
  });
});

describe('strict Meta webhook schema: refuses what Meta does not send', () => {
  const sent = {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '100200300400500',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
              contacts: [{ wa_id: '447911123456', user_id: 'GB.1234567890' }],
              statuses: [
                {
                  id: 'wamid.SIM1',
                  status: 'sent',
                  timestamp: '1767300000',
                  recipient_id: '447911123456',
                  recipient_user_id: 'GB.1234567890',
                  biz_opaque_callback_data: 'pacer:1',
                  pricing: { billable: true, pricing_model: 'PMP', type: 'regular', category: 'marketing' },
                },
              ],
            },
          },
        ],
      },
    ],
  };
  type Fields = Record<string, unknown>;
  interface Value {
    contacts?: Fields[];
    statuses: Fields[];
  }
  const edited = (edit: (value: Value) => void): unknown => {
    const copy = structuredClone(sent);
    edit(copy.entry[0]!.changes[0]!.value);
    return copy;
  };
  const first = (v: Value): Fields => v.statuses[0]!;

  it('accepts the well-formed status it starts from', () => {
    expect(strictProblems(sent, 'current')).toEqual([]);
  });

  it.each([
    ['contacts removed', (v: Value) => delete v.contacts],
    ['recipient_user_id removed', (v: Value) => delete first(v).recipient_user_id],
    ['a contact for someone else', (v: Value) => (v.contacts![0]!.user_id = 'GB.999')],
    ['an unknown property', (v: Value) => (first(v).delivered_at = '1767300001')],
    ['a timestamp as a number', (v: Value) => (first(v).timestamp = 1767300000)],
    ['a timestamp in milliseconds', (v: Value) => (first(v).timestamp = '1767300000000')],
    ['a wa_id with +', (v: Value) => (v.contacts![0]!.wa_id = '+447911123456')],
    ['an undocumented status', (v: Value) => (first(v).status = 'accepted')],
    [
      'CBP pricing in the current version',
      (v: Value) => (first(v).pricing = { billable: true, pricing_model: 'CBP', category: 'marketing' }),
    ],
    ['pricing without its type', (v: Value) => delete (first(v).pricing as Fields).type],
    [
      'a conversation outside a free-entry-point window',
      (v: Value) => (first(v).conversation = { id: 'c1', origin: { type: 'marketing' } }),
    ],
    ['a failed status without errors', (v: Value) => (first(v).status = 'failed')],
    [
      'an error without href',
      (v: Value) => {
        first(v).status = 'failed';
        delete first(v).pricing;
        first(v).errors = [{ code: 131049, title: 't', message: 'm', error_data: { details: 'd' } }];
      },
    ],
  ])('refuses a status with %s', (_, edit) => {
    expect(strictProblems(edited(edit), 'current')).not.toEqual([]);
  });
});
