// Builders for webhook tests; not used by production code.

export const PNID = '106540352242922';
export const WABA = '102290129340398';

export interface ChangeSpec {
  field: string;
  value: unknown;
}

/** A full webhook body: one entry per array of changes. */
export function body(...entries: ChangeSpec[][]): Record<string, unknown> {
  return {
    object: 'whatsapp_business_account',
    entry: entries.map((changes, index) => ({ id: `${WABA}${index}`, time: 1760000000, changes })),
  };
}

export function messagesChange(value: Record<string, unknown>): ChangeSpec {
  return {
    field: 'messages',
    value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550001111', phone_number_id: PNID }, ...value },
  };
}

export function status(
  id: string,
  state: string,
  timestamp: unknown = '1760000000',
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { id, status: state, timestamp, recipient_id: '447700900123', ...extra };
}

export function textMessage(id: string, text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { from: '447700900123', id, timestamp: '1760000100', type: 'text', text: { body: text }, ...extra };
}
