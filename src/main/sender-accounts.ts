import { createPhoneNumberApiClient } from '../adapters/cloud-api/phone-number-api-client.js';
import type { SenderAccount } from '../app/sync-senders.js';
import type { Config, WhatsAppAccount } from '../config/config.js';

/** Accounts Pacer holds a token for, each with a phone-number client of its own (the caller closes them). */
export function senderAccountsOf(config: Config): SenderAccount[] {
  return config.whatsapp.accounts
    .filter((a): a is WhatsAppAccount & { accessToken: string } => a.accessToken !== null)
    .map((a) => ({
      name: a.name,
      businessAccountId: a.businessAccountId,
      portfolio: a.portfolio,
      phoneNumberIds: a.phoneNumberIds,
      api: createPhoneNumberApiClient({
        baseUrl: config.whatsapp.apiBaseUrl,
        apiVersion: config.whatsapp.apiVersion,
        accessToken: a.accessToken,
      }),
    }));
}
