import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SIMULATOR_CONFIG } from '../src/adapters/simulator/index.js';
import { DAY } from '../src/core/time.js';
import type { TemplateComponent } from '../src/ports/cloud-api.js';
import { accepted, API_VERSION, ORDERLY_WEBHOOKS, startHarness, type Harness } from './simulator-harness.js';

/**
 * Template sends with parameters through the simulator's HTTP API, with the simulator's own templates
 * (placeholders, an image header, buttons): Meta's refusals as Graph error bodies, header media Meta
 * cannot fetch failing later with 131053, and what the recipient reads in ground truth.
 */

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

async function harness(): Promise<Harness> {
  h = await startHarness({
    seed: 81,
    templates: DEFAULT_SIMULATOR_CONFIG.templates,
    population: { size: 30, notOnWhatsAppRate: 0, experimentRate: 0, stoppedRate: 0, countries: { GB: 1 } },
    webhooks: ORDERLY_WEBHOOKS,
  });
  return h;
}

const text = (value: string, name?: string) => ({ type: 'text', text: value, ...(name === undefined ? {} : { parameter_name: name }) });

function springComponents(header: Record<string, unknown>): TemplateComponent[] {
  return [
    { type: 'header', parameters: [header as { type: string }] },
    { type: 'body', parameters: [text('Ada'), text('20%')] },
    { type: 'button', sub_type: 'url', index: '0', parameters: [text('ada')] },
  ];
}

const imageLink = (link: string) => ({ type: 'image', image: { link } });

let sends = 0;
function send(harness: Harness, name: string, components: TemplateComponent[] | undefined, phone = harness.sim.users[0]!.phone) {
  return harness.client.send({
    type: 'template',
    endpoint: 'messages',
    to: { kind: 'phone', phone },
    messageId: `m-${name}-${++sends}`,
    template: { name, language: 'en_US', ...(components === undefined ? {} : { components }) },
  });
}

describe('simulator template sends: synchronous refusals', () => {
  it('answers a send that leaves out the parameters with Meta’s Graph error body, 132000, and accepts nothing', async () => {
    const { sim } = await harness();
    const res = await fetch(`${sim.url}/${API_VERSION}/${sim.config.phoneNumberId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim.config.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        to: sim.users[0]!.phone,
        type: 'template',
        template: { name: 'order_update', language: { code: 'en_US' } },
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        message: '(#132000) Template Param Count Mismatch',
        type: 'OAuthException',
        code: 132000,
        error_data: {
          messaging_product: 'whatsapp',
          details: 'header: number of localizable_params (0) does not match the expected number of params (1)',
        },
        fbtrace_id: expect.any(String),
      },
    });
    expect(sim.groundTruth()).toMatchObject({ accepted: 0, syncErrors: { 132000: 1 } });
  });

  it('reports each refusal to the client with its code and details', async () => {
    const harnessed = await harness();
    const missingButton = await send(harnessed, 'login_code', [{ type: 'body', parameters: [text('482913')] }]);
    expect(missingButton).toMatchObject({
      kind: 'rejected',
      code: 131008,
      details: 'buttons: Button at index 0 of type URL requires a parameter',
    });
    const spaces = await send(harnessed, 'spring_sale', [
      { type: 'header', parameters: [imageLink('https://cdn.example/a.jpg')] },
      { type: 'body', parameters: [text('Ada'), text('20%\toff')] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [text('ada')] },
    ]);
    expect(spaces).toMatchObject({
      kind: 'rejected',
      code: 132018,
      details: 'Param text cannot have new-line/tab characters or more than 4 consecutive spaces',
    });
    expect(harnessed.sim.groundTruth().syncErrors).toEqual({ 131008: 1, 132018: 1 });
  });
});

describe('simulator template sends: what the recipient reads', () => {
  it('records a positional template with an image header by link, its values in, and its buttons', async () => {
    const harnessed = await harness();
    const result = accepted(await send(harnessed, 'spring_sale', springComponents(imageLink('https://cdn.example/spring.jpg'))));
    const truth = harnessed.sim.groundTruth().messages.find((m) => m.wamid === result.wamid)!;
    expect(truth.rendered).toEqual({
      header: '[image https://cdn.example/spring.jpg]',
      body: 'Hi Ada, our spring sale is on: 20% off everything until Sunday.',
      footer: 'Tap Stop promotions to opt out',
      buttons: ['Shop now → https://shop.example.com/spring/ada', 'Stop promotions'],
    });
  });

  it('records a named template, values placed by name whatever their order', async () => {
    const harnessed = await harness();
    const result = accepted(
      await send(harnessed, 'order_update', [
        { type: 'header', parameters: [text('A-1001', 'order_id')] },
        {
          type: 'body',
          parameters: [text('on its way', 'order_status'), text('Ada', 'first_name'), text('A-1001', 'order_id')],
        },
        { type: 'button', sub_type: 'url', index: '0', parameters: [text('A-1001')] },
      ]),
    );
    const truth = harnessed.sim.groundTruth().messages.find((m) => m.wamid === result.wamid)!;
    expect(truth.rendered).toEqual({
      header: 'Order A-1001',
      body: 'Hi Ada, your order A-1001 is on its way.',
      footer: null,
      buttons: ['Track → https://shop.example.com/track/A-1001'],
    });
  });

  it('records an authentication template: the code in the body and behind the copy-code button', async () => {
    const harnessed = await harness();
    const result = accepted(
      await send(harnessed, 'login_code', [
        { type: 'body', parameters: [text('482913')] },
        { type: 'button', sub_type: 'url', index: '0', parameters: [text('482913')] },
      ]),
    );
    const truth = harnessed.sim.groundTruth().messages.find((m) => m.wamid === result.wamid)!;
    expect(truth.rendered).toEqual({
      header: null,
      body: '*482913* is your verification code.',
      footer: 'This code expires in 10 minutes.',
      buttons: ['Copy code → https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp482913'],
    });
  });

  it('records a header by media id as `[image id …]`, and a text message as its body alone', async () => {
    const harnessed = await harness();
    const result = accepted(await send(harnessed, 'spring_sale', springComponents({ type: 'image', image: { id: '1040000000000001' } })));
    const text = await harnessed.client.send({
      type: 'text',
      to: { kind: 'phone', phone: harnessed.sim.users[1]!.phone },
      messageId: 't-1',
      body: 'Hello there',
    });
    const messages = harnessed.sim.groundTruth().messages;
    expect(messages.find((m) => m.wamid === result.wamid)?.rendered.header).toBe('[image id 1040000000000001]');
    expect(messages.find((m) => m.wamid === accepted(text).wamid)?.rendered).toEqual({
      header: null,
      body: 'Hello there',
      footer: null,
      buttons: [],
    });
  });
});

describe('simulator template sends: header media Meta cannot fetch (131053, asynchronous)', () => {
  async function failedWith(harnessed: Harness, header: Record<string, unknown>): Promise<{ details: string; truthCode: number | null }> {
    const result = accepted(await send(harnessed, 'spring_sale', springComponents(header)));
    await harnessed.sim.advance(DAY);
    const statuses = harnessed.receiver.statusesFor(result.wamid);
    expect(statuses.map((s) => s.status)).toEqual(['failed']);
    const error = statuses[0]!.errors![0]!;
    expect(error).toMatchObject({
      code: 131053,
      title: 'Media upload error',
      message: 'Media upload error',
      href: expect.stringMatching(/^https:/),
    });
    const truth = harnessed.sim.groundTruth().messages.find((m) => m.wamid === result.wamid)!;
    expect(truth.status).toBe('failed');
    return { details: error.error_data.details, truthCode: truth.errorCode };
  }

  it('fails a link that is not https', async () => {
    const outcome = await failedWith(await harness(), imageLink('http://cdn.example/spring.jpg'));
    expect(outcome).toEqual({ details: 'Media download error: http://cdn.example/spring.jpg is not an https URL.', truthCode: 131053 });
  });

  it('fails a link whose file is not of the header’s kind, and one that is not a URL at all', async () => {
    const harnessed = await harness();
    expect((await failedWith(harnessed, imageLink('https://cdn.example/terms.pdf'))).details).toBe(
      'Media download error: https://cdn.example/terms.pdf does not name a file an image header can show.',
    );
    expect((await failedWith(harnessed, imageLink('spring.jpg'))).details).toBe('Media download error: spring.jpg is not an absolute URL.');
  });

  it('fails a media id the simulator never issued', async () => {
    const outcome = await failedWith(await harness(), { type: 'image', image: { id: '999' } });
    expect(outcome).toEqual({
      details: 'Media id 999 was not found: it was never uploaded, was deleted or has expired.',
      truthCode: 131053,
    });
  });

  it('delivers an https link ending in an image extension, whatever its case', async () => {
    const harnessed = await harness();
    const result = accepted(await send(harnessed, 'spring_sale', springComponents(imageLink('https://cdn.example/Spring.JPEG?v=2'))));
    await harnessed.sim.advance(DAY);
    const truth = harnessed.sim.groundTruth();
    expect(truth.messages.find((m) => m.wamid === result.wamid)?.deliveredAt).not.toBeNull();
    expect(truth.asyncFailures).toEqual({});
  });
});
