import type { Sender } from '../ports/store.js';

/** What a process needs of a configured account to send from its numbers. */
export interface AccountCredentials {
  name: string;
  businessAccountId: string | null;
  accessToken: string | null;
  phoneNumberIds: readonly string[] | null;
}

export interface SendingNumber {
  phoneNumberId: string;
  accessToken: string;
  account: string;
}

/**
 * The numbers a process sends from: every known number of an account it holds a token for (as a
 * sync stored them), and every number an account names even before Meta was read. A number of an
 * account without a token, or of no configured account, is never sent from here: its rows wait for
 * a process that can. The default number (`preferred`) comes first.
 */
export function sendingNumbers(
  accounts: readonly AccountCredentials[],
  senders: readonly Sender[],
  preferred: string | null,
): SendingNumber[] {
  const out: SendingNumber[] = [];
  const add = (phoneNumberId: string, a: AccountCredentials & { accessToken: string }) => {
    if (!out.some((n) => n.phoneNumberId === phoneNumberId)) out.push({ phoneNumberId, accessToken: a.accessToken, account: a.name });
  };
  for (const a of accounts) {
    if (a.accessToken === null) continue;
    const withToken = { ...a, accessToken: a.accessToken };
    if (a.phoneNumberIds !== null) for (const id of a.phoneNumberIds) add(id, withToken);
    else
      for (const s of senders)
        if (s.businessAccountId !== null && s.businessAccountId === a.businessAccountId) add(s.phoneNumberId, withToken);
  }
  const first = out.findIndex((n) => n.phoneNumberId === preferred);
  if (first > 0) out.unshift(...out.splice(first, 1));
  return out;
}
