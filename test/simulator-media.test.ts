import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SIMULATOR_CONFIG } from '../src/adapters/simulator/index.js';
import { DAY } from '../src/core/time.js';
import { accepted, API_VERSION, ORDERLY_WEBHOOKS, startHarness, type Harness } from './simulator-harness.js';

/** `POST /{PHONE_NUMBER_ID}/media`, `GET /{MEDIA_ID}` and `DELETE /{MEDIA_ID}` (reference §4.1, §4.2). */

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

async function harness(): Promise<Harness> {
  h = await startHarness({
    seed: 83,
    templates: DEFAULT_SIMULATOR_CONFIG.templates,
    population: { size: 20, notOnWhatsAppRate: 0, experimentRate: 0, stoppedRate: 0, countries: { GB: 1 } },
    webhooks: ORDERLY_WEBHOOKS,
  });
  return h;
}

const MB = 1024 * 1024;
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('a small picture')]);

interface UploadOptions {
  type?: string | null;
  fileType?: string;
  messagingProduct?: string | null;
  token?: string | null;
  withFile?: boolean;
}

async function upload(
  harnessed: Harness,
  bytes: Buffer,
  o: UploadOptions = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { sim } = harnessed;
  const form = new FormData();
  if (o.messagingProduct !== null) form.set('messaging_product', o.messagingProduct ?? 'whatsapp');
  if (o.withFile !== false) form.set('file', new Blob([bytes], { type: o.fileType ?? o.type ?? 'image/jpeg' }), 'spring.jpg');
  if (o.type !== null) form.set('type', o.type ?? 'image/jpeg');
  const token = o.token === undefined ? sim.config.accessToken : o.token;
  const res = await fetch(`${sim.url}/${API_VERSION}/${sim.config.phoneNumberId}/media`, {
    method: 'POST',
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function graph(
  harnessed: Harness,
  method: 'GET' | 'DELETE',
  path: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${harnessed.sim.url}/${API_VERSION}/${path}`, {
    method,
    headers: { authorization: `Bearer ${harnessed.sim.config.accessToken}` },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const errorOf = (body: Record<string, unknown>) => body.error as { code: number; error_data?: { details: string } };

describe('simulator media: upload', () => {
  it('takes a JPEG and answers its media id; GET /{MEDIA_ID} describes it', async () => {
    const harnessed = await harness();
    const answer = await upload(harnessed, JPEG);
    expect(answer).toEqual({ status: 200, body: { id: expect.stringMatching(/^\d{16}$/) } });
    const id = answer.body.id as string;
    const got = await graph(harnessed, 'GET', id);
    expect(got).toEqual({
      status: 200,
      body: {
        url: expect.stringMatching(/^https:\/\/lookaside\.fbsbx\.com\//),
        mime_type: 'image/jpeg',
        sha256: createHash('sha256').update(JPEG).digest('hex'),
        file_size: JPEG.length,
        id,
        messaging_product: 'whatsapp',
      },
    });
    expect((await graph(harnessed, 'GET', `${id}?phone_number_id=${harnessed.sim.config.phoneNumberId}`)).status).toBe(200);
  });

  it('refuses a type Meta does not take, and a file typed other than `type` says, with 131053', async () => {
    const harnessed = await harness();
    const gif = await upload(harnessed, JPEG, { type: 'image/gif' });
    expect(gif.status).toBe(400);
    expect(errorOf(gif.body)).toMatchObject({ code: 131053, error_data: { details: 'Unsupported media type: image/gif.' } });
    const mismatch = await upload(harnessed, JPEG, { type: 'image/png', fileType: 'application/pdf' });
    expect(errorOf(mismatch.body)).toMatchObject({
      code: 131053,
      error_data: { details: 'The file is sent as application/pdf but type says image/png.' },
    });
  });

  it('refuses an image over 5 MB with 131053 and takes one of exactly 5 MB', async () => {
    const harnessed = await harness();
    const tooLarge = await upload(harnessed, Buffer.alloc(5 * MB + 1, 1));
    expect(tooLarge.status).toBe(400);
    expect(errorOf(tooLarge.body)).toMatchObject({
      code: 131053,
      error_data: { details: `The file is ${5 * MB + 1} bytes; image files may be at most ${5 * MB} bytes.` },
    });
    expect((await upload(harnessed, Buffer.alloc(5 * MB, 1))).status).toBe(200);
  });

  it('refuses a video over 16 MB, which fits the document limit but not its own', async () => {
    const harnessed = await harness();
    const video = await upload(harnessed, Buffer.alloc(16 * MB + 1, 1), { type: 'video/mp4' });
    expect(errorOf(video.body)).toMatchObject({ code: 131053 });
    expect((await upload(harnessed, Buffer.alloc(16 * MB + 1, 1), { type: 'application/pdf' })).status).toBe(200);
  });

  it('answers 401 with code 190 without the bearer token, and stores nothing', async () => {
    const harnessed = await harness();
    const answer = await upload(harnessed, JPEG, { token: null });
    expect(answer.status).toBe(401);
    expect(errorOf(answer.body).code).toBe(190);
    expect((await upload(harnessed, JPEG, { token: 'wrong' })).status).toBe(401);
  });

  it('refuses a form without messaging_product, file or type with 100, naming the field', async () => {
    const harnessed = await harness();
    expect(errorOf((await upload(harnessed, JPEG, { messagingProduct: null })).body)).toMatchObject({
      code: 100,
      error_data: { details: 'The parameter messaging_product is required and must be "whatsapp".' },
    });
    expect(errorOf((await upload(harnessed, JPEG, { withFile: false })).body)).toMatchObject({
      code: 100,
      error_data: { details: 'The parameter file is required.' },
    });
    expect(errorOf((await upload(harnessed, JPEG, { type: null, fileType: 'image/jpeg' })).body)).toMatchObject({
      code: 100,
      error_data: { details: 'The parameter type is required.' },
    });
    const json = await fetch(`${harnessed.sim.url}/${API_VERSION}/${harnessed.sim.config.phoneNumberId}/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${harnessed.sim.config.accessToken}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(errorOf((await json.json()) as Record<string, unknown>)).toMatchObject({
      code: 100,
      error_data: { details: 'The request must be multipart/form-data with a boundary.' },
    });
  });
});

describe('simulator media: lookup, deletion and expiry', () => {
  it('answers an unknown id, another number’s phone_number_id and a deleted id with 100', async () => {
    const harnessed = await harness();
    expect(errorOf((await graph(harnessed, 'GET', '1234567890123456')).body).code).toBe(100);
    const id = (await upload(harnessed, JPEG)).body.id as string;
    expect(errorOf((await graph(harnessed, 'GET', `${id}?phone_number_id=111`)).body)).toMatchObject({
      code: 100,
      error_data: { details: `Media ${id} was not uploaded on phone number 111.` },
    });
    expect(await graph(harnessed, 'DELETE', id)).toEqual({ status: 200, body: { success: true } });
    expect(errorOf((await graph(harnessed, 'GET', id)).body).code).toBe(100);
  });

  it('sends a template whose image header is an uploaded id; a deleted id, a PDF id or an id older than 30 days fails with 131053', async () => {
    const harnessed = await harness();
    const [a, b, c, d] = harnessed.sim.users;
    const image = (await upload(harnessed, JPEG)).body.id as string;
    const pdf = (await upload(harnessed, Buffer.from('%PDF-1.4 terms'), { type: 'application/pdf' })).body.id as string;
    const gone = (await upload(harnessed, JPEG)).body.id as string;
    await graph(harnessed, 'DELETE', gone);
    const sendWith = (id: string, phone: string) =>
      harnessed.client.send({
        type: 'template',
        endpoint: 'messages',
        to: { kind: 'phone', phone },
        messageId: `media-${id}-${phone}`,
        template: {
          name: 'spring_sale',
          language: 'en_US',
          components: [
            { type: 'header', parameters: [{ type: 'image', image: { id } }] },
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Ada' },
                { type: 'text', text: '20%' },
              ],
            },
            { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'ada' }] },
          ],
        },
      });
    const good = accepted(await sendWith(image, a!.phone)).wamid;
    const wrongKind = accepted(await sendWith(pdf, b!.phone)).wamid;
    const deleted = accepted(await sendWith(gone, c!.phone)).wamid;
    await harnessed.sim.advance(31 * DAY);
    const expired = accepted(await sendWith(image, d!.phone)).wamid;
    await harnessed.sim.advance(DAY);
    const fate = (wamid: string) => harnessed.sim.groundTruth().messages.find((m) => m.wamid === wamid)!;
    expect(fate(good).deliveredAt).not.toBeNull();
    expect([fate(wrongKind).errorCode, fate(deleted).errorCode, fate(expired).errorCode]).toEqual([131053, 131053, 131053]);
    expect(harnessed.receiver.statusesFor(wrongKind)[0]?.errors?.[0]?.error_data.details).toBe(
      `Media id ${pdf} is application/pdf, which an image header cannot show.`,
    );
    expect(errorOf((await graph(harnessed, 'GET', image)).body).code).toBe(100);
  });
});
