import { createPhoneNumberApiClient } from '../adapters/cloud-api/phone-number-api-client.js';
import type { SenderAccount } from '../app/sync-senders.js';
import type { Config } from '../config/config.js';

/** One configured WhatsApp Business Account (the accounts file, or the single-number variables). */
export interface ConfiguredAccount {
  name: string;
  businessAccountId: string | null;
  accessToken: string | null;
  appSecrets: readonly string[];
  portfolio: string;
  phoneNumberIds: readonly string[] | null;
}

/** The accounts the configuration names. */
export function configuredAccounts(config: Config): readonly ConfiguredAccount[] {
  const w = config.whatsapp;
  if (w.accessToken === null && w.phoneNumberId === null && w.businessAccountId === null) return [];
  return [
    {
      name: 'default',
      businessAccountId: w.businessAccountId,
      accessToken: w.accessToken,
      appSecrets: w.appSecrets,
      portfolio: w.businessAccountId ?? w.phoneNumberId ?? 'default',
      phoneNumberIds: w.phoneNumberId === null ? null : [w.phoneNumberId],
    },
  ];
}

/** Accounts Pacer holds a token for, each with a phone-number client of its own (the caller closes them). */
export function senderAccountsOf(config: Config): SenderAccount[] {
  return configuredAccounts(config)
    .filter((a): a is ConfiguredAccount & { accessToken: string } => a.accessToken !== null)
    .map((a) => ({
      name: a.name,
      businessAccountId: a.businessAccountId,
      portfolio: a.portfolio,
      phoneNumberIds: a.phoneNumberIds,
      api: createPhoneNumberApiClient({ baseUrl: config.whatsapp.apiBaseUrl, apiVersion: config.whatsapp.apiVersion, accessToken: a.accessToken }),
    }));
}
