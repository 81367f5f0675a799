/**
 * Two fixtures are Meta's syntax templates rather than payloads: angle-bracket placeholders and
 * "ad or post" where values go. They are checked with documented values put in those places.
 */
export const PLACEHOLDERS: Record<string, string> = {
  '<WHATSAPP_BUSINESS_ACCOUNT_ID>': '102290129340398',
  '<BUSINESS_DISPLAY_PHONE_NUMBER>': '15550783881',
  '<BUSINESS_PHONE_NUMBER_ID>': '106540352242922',
  '<USER_DISPLAY_NAME>': 'Test Name',
  '<USERNAME>': '@testname',
  '<USER_PHONE_NUMBER>': '972987654321',
  '<PARENT_BSUID>': 'US.ENT.11815799212886844830',
  '<WHATSAPP_MESSAGE_ID>': 'wamid.xyzxyz',
  '<GROUP_PARTICIPANT_USER_PHONE_NUMBER>': '972987654321',
  'ad or post': 'ad',
  'image or video': 'image',
};

export function fillPlaceholders(raw: string): string {
  return raw.replace(/"(<[A-Z_]+>|ad or post|image or video)"/g, (whole, key: string) => {
    const value = PLACEHOLDERS[key];
    if (value === undefined) throw new Error(`no documented value for the placeholder ${key}`);
    return JSON.stringify(value);
  });
}
