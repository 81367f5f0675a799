import type { CloudApi, SendRequest, SendResult, TemplateSend } from '../src/ports/cloud-api.js';

/** Answers every send as told, and keeps each template request. */
export class ScriptedApi implements CloudApi {
  readonly requests: TemplateSend[] = [];
  constructor(private readonly answer: (r: SendRequest, n: number) => SendResult = (_, n) => accepted(n)) {}
  async send(request: SendRequest): Promise<SendResult> {
    if (request.type === 'template') this.requests.push(request);
    return this.answer(request, this.requests.length);
  }
  async close(): Promise<void> {}
}

export const accepted = (n: number): SendResult => ({
  kind: 'accepted',
  wamid: `wamid.${n}`,
  messageStatus: 'accepted',
  waId: null,
  userId: null,
  httpStatus: 200,
});
