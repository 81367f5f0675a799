import { defineEntries } from './define-entry.js';
import type { EntryInput } from './define-entry.js';

/** Phone-number registration (133xxx). Most come from the register endpoints; 133010 also from sends. */
const registration = (
  code: number,
  name: string,
  messages: readonly string[],
  page: EntryInput['page'],
  blocksSending = false,
): EntryInput => ({
  code,
  api: 'cloud',
  name,
  messages,
  class: 'account_problem',
  surface: 'send_response',
  retry: { kind: 'after_operator_fix' },
  // A registration call failing does not stop sending unless the number is not registered at all.
  effects: blocksSending ? { sender: 'stop', campaign: 'pause' } : {},
  page,
});

export const REGISTRATION = defineEntries([
  registration(
    133000,
    'Incomplete deregistration',
    ['Incomplete Deregistration', 'A previous deregistration attempt failed.'],
    {
      meaning: 'Registration was refused because an earlier deregistration of this number did not finish.',
      cause: 'A deregister call failed or was interrupted, leaving the number half-removed.',
      retry: 'Not until the number is deregistered cleanly; repeating the register call gives the same answer.',
      action: 'Deregister the number again (POST /<PHONE_NUMBER_ID>/deregister), then register it.',
    },
    true,
  ),
  registration(133005, 'Two-step PIN mismatch', ['Two step verification PIN Mismatch', 'Two-step verification PIN incorrect.'], {
    meaning: 'The two-step verification PIN sent with the registration is wrong.',
    cause: 'A stale or mistyped PIN in configuration.',
    retry: 'Only with the right PIN, and slowly: repeated wrong guesses lead to 133008 and 133009.',
    action: 'Use the current PIN, or reset it in WhatsApp Manager (or by setting a new PIN through the phone number endpoint).',
  }),
  registration(
    133006,
    'Phone number needs re-verification',
    ['Phone number re-verification needed', 'Phone number needs to be verified before registering.'],
    {
      meaning: 'WhatsApp wants proof again that you control this number before it can be registered.',
      cause: 'Verification lapsed or was never completed, or the number was moved or re-added to the account.',
      retry: 'Not until the number is verified; registering again without that step fails the same way.',
      action: 'Request a code by SMS or voice (POST /<PHONE_NUMBER_ID>/request_code), verify it, then register the number.',
    },
  ),
  registration(
    133008,
    'Too many PIN guesses',
    ['Too Many two step verification PIN Guesses', 'Too many two-step verification PIN guesses for this phone number.'],
    {
      meaning: 'Registration is locked for a while after too many wrong two-step PINs.',
      cause: 'Repeated attempts with a wrong PIN, often from an automated retry.',
      retry: 'Only after the waiting time given in the details field of the response, and with the correct PIN.',
      action: 'Stop automatic registration attempts, find the correct PIN, and wait out the lock.',
    },
  ),
  registration(
    133009,
    'PIN entered too fast',
    ['Two step verification PIN Guessed Too Fast', 'Two-step verification PIN was entered too quickly.'],
    {
      meaning: 'PIN attempts arrived faster than WhatsApp allows.',
      cause: 'Registration calls retried in a tight loop.',
      retry: 'After the interval in the details field of the response; space attempts out.',
      action: 'Slow down registration retries and make sure the PIN is right before trying again.',
    },
  ),
  registration(
    133010,
    'Phone number not registered',
    ['Phone number Not Registered', 'Phone number not registered on the WhatsApp Business Platform.'],
    {
      meaning: 'The number you are sending from is not registered with the WhatsApp Business Platform.',
      cause: 'Registration never happened, was undone by a deregistration, or the configured number ID points elsewhere.',
      retry: 'No. Pacer stops the sender and pauses campaigns until the number is registered.',
      action: 'Register the number (POST /<PHONE_NUMBER_ID>/register with the two-step PIN) and resume.',
    },
    true,
  ),
  registration(
    133015,
    'Number recently deleted',
    [
      'Please wait a few minutes before attempting to register this phone number',
      'The phone number you are attempting to register was recently deleted, and deletion has not yet completed.',
    ],
    {
      meaning: 'The number was deleted recently and WhatsApp is still finishing the deletion, so it cannot be registered yet.',
      cause: 'Registering again straight after deleting the number, for example while moving it between business accounts.',
      retry: 'Yes, after about five minutes; earlier attempts get the same answer and count toward the attempt limit (133016).',
      action: 'Wait five minutes, then register once; stop any script that retries registration in a loop.',
    },
  ),
  registration(
    133016,
    'Too many register or deregister attempts',
    [
      'Account register deregister rate limit exceeded',
      'Registration or Deregistration failed because there were too many attempts for this phone number in a short period of time.',
    ],
    {
      meaning: 'The number is temporarily blocked from registering or deregistering after too many attempts.',
      cause: 'Repeated register and deregister calls in a short period.',
      retry: 'Only once the block lifts; further attempts in the meantime do not help.',
      action: 'Stop automated registration loops and try again later, one attempt at a time.',
    },
  ),
]);
