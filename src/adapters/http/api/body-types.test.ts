import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiErrorHandler } from './api-error.js';
import { parseNdjson, registerNdjsonParser } from './body-types.js';
import { registerRoutes, route } from './route-table.js';

/** A route as the bulk contacts import would declare it: NDJSON in, one item per line. */
async function bulkApp() {
  const app = Fastify({ logger: false });
  app.decorateRequest('pacerPrincipal', null);
  app.decorateRequest('pacerIdempotency', null);
  app.setErrorHandler(apiErrorHandler);
  registerNdjsonParser(app);
  registerRoutes(
    app,
    [
      route({
        method: 'POST',
        url: '/bulk',
        scope: 'write',
        operationId: 'bulk',
        tag: 't',
        summary: 's',
        contentTypes: ['application/x-ndjson'],
        bodyLimit: 64,
        body: z.array(z.strictObject({ phone: z.string().min(3) })).min(1),
        responses: { 200: { description: 'ok' } },
        handler: ({ body }) => Promise.resolve({ count: body.length, phones: body.map((b) => b.phone) }),
      }),
    ],
    { idempotency: null },
  );
  return app;
}

const send = async (payload: string, type = 'application/x-ndjson') => {
  const app = await bulkApp();
  const res = await app.inject({ method: 'POST', url: '/bulk', headers: { 'content-type': type }, payload });
  await app.close();
  return { status: res.statusCode, json: JSON.parse(res.body) as unknown };
};

describe('application/x-ndjson bodies', () => {
  it('parses one JSON value per line, skipping blank lines, and keeps each line number', () => {
    expect(parseNdjson('{"a":1}\r\n\n  \n[2]\n"x"\n')).toEqual([{ a: 1 }, [2], 'x']);
    expect(parseNdjson('')).toEqual([]);
  });

  it('refuses a line that is not JSON, naming it', () => {
    expect(() => parseNdjson('{"a":1}\n\n{"a":')).toThrow(/^line 3 is not valid JSON: /);
  });

  it('hands a route the lines as an array, and names the line of a field at fault', async () => {
    expect(await send('{"phone":"+441"}\n{"phone":"+442"}\n')).toEqual({ status: 200, json: { count: 2, phones: ['+441', '+442'] } });
    const bad = await send('{"phone":"+441"}\n\n{"phone":"1"}\n{"phone":"+443","x":1}');
    expect(bad).toMatchObject({
      status: 400,
      json: {
        error: 'invalid_body',
        issues: [
          { line: 3, path: 'phone' },
          { line: 4, path: 'x', message: 'unknown field' },
        ],
      },
    });
    expect((bad.json as { message: string }).message).toMatch(/line 3: phone: .*; line 4: x: unknown field$/);
    expect(await send('{"phone":"+441"}\n{oops}')).toMatchObject({
      status: 400,
      json: { error: 'invalid_ndjson', issues: [{ line: 2, path: '(line)' }] },
    });
    expect(await send('\n\n')).toMatchObject({ status: 400, json: { issues: [{ path: '(root)' }] } });
  });

  it("refuses JSON on an NDJSON route with 415, and a body over the route's limit with 413", async () => {
    expect(await send('[{"phone":"+441"}]', 'application/json')).toMatchObject({
      status: 415,
      json: { message: 'Content-Type application/json is not accepted here: send application/x-ndjson' },
    });
    expect(await send(`{"phone":"${'1'.repeat(100)}"}`)).toMatchObject({
      status: 413,
      json: { message: 'the request body is larger than this operation takes: at most 64 bytes' },
    });
  });
});
