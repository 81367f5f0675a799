import { createCloudApiClient, type CloudApiClientOptions } from '../src/adapters/cloud-api/cloud-api-client.js';
import { startSimulator, type SimulatorConfigInput, type Simulator, type SimUser } from '../src/adapters/simulator/index.js';
import type { CloudApi, SendResult } from '../src/ports/cloud-api.js';
import { VirtualClock } from '../src/ports/clock.js';
import { plainTemplates } from './plain-templates.js';
import { TestReceiver } from './simulator-test-receiver.js';

export const APP_SECRET = 'test-app-secret';
export const API_VERSION = 'v23.0';
/** Webhooks one per POST, in order, never twice: for tests that count exact statuses. */
export const ORDERLY_WEBHOOKS = { duplicateRate: 0, outOfOrderRate: 0, batchRate: 0 } as const;

export interface Harness {
  clock: VirtualClock;
  sim: Simulator;
  receiver: TestReceiver;
  client: CloudApi;
  close(): Promise<void>;
}

/** Simulator on virtual time, a signed-webhook receiver, and our client pointed at the simulator. */
export async function startHarness(
  config: SimulatorConfigInput = {},
  client: Partial<CloudApiClientOptions> = {},
  receiverSecrets: readonly string[] = [APP_SECRET],
): Promise<Harness> {
  const clock = new VirtualClock();
  const receiver = await new TestReceiver(receiverSecrets, () => clock.now()).start();
  // Templates without placeholders unless a test names its own: a send without components fits them.
  const sim = await startSimulator({ appSecret: APP_SECRET, callbackUrl: receiver.url, templates: plainTemplates(), ...config }, { clock });
  const api = createCloudApiClient({
    baseUrl: sim.url,
    apiVersion: API_VERSION,
    phoneNumberId: sim.config.phoneNumberId,
    accessToken: sim.config.accessToken,
    scheduler: clock,
    ...client,
  });
  return {
    clock,
    sim,
    receiver,
    client: api,
    async close() {
      await api.close();
      await sim.stop();
      await receiver.stop();
    },
  };
}

/** The first user (in index order) matching `test`, so a test names the kind of user it needs. */
export function pickUser(sim: Simulator, test: (u: SimUser) => boolean, skip = 0): SimUser {
  const found = sim.users.filter(test)[skip];
  if (found === undefined) throw new Error('no simulated user matches; widen the population');
  return found;
}

/** A reachable user in a capped, non-US region who has not stopped marketing and is not in the experiment. */
export function ordinaryCappedUser(u: SimUser): boolean {
  return u.onWhatsApp && !u.experiment && !u.state.stoppedMarketing && ['IN', 'BR', 'ID', 'MX'].includes(u.country);
}

export function sendTemplate(
  client: CloudApi,
  phone: string,
  messageId: string,
  name = 'spring_sale',
  endpoint: 'messages' | 'marketing_messages' = 'messages',
): Promise<SendResult> {
  return client.send({ type: 'template', endpoint, to: { kind: 'phone', phone }, messageId, template: { name, language: 'en_US' } });
}

export function accepted(result: SendResult): Extract<SendResult, { kind: 'accepted' }> {
  if (result.kind !== 'accepted') throw new Error(`expected accepted, got ${JSON.stringify(result)}`);
  return result;
}
