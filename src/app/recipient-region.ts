import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

const cache = new Map<string, string | null>();

/**
 * ISO region of an E.164 number, e.g. +1 212… → US but +1 416… → CA: Meta's US marketing pause is
 * about US area codes, not the whole +1 zone. Cached: the same contacts are decided many times.
 */
export function recipientRegion(phoneE164: string | null): string | null {
  if (phoneE164 === null) return null;
  const hit = cache.get(phoneE164);
  if (hit !== undefined) return hit;
  const region = parsePhoneNumberFromString(phoneE164)?.country ?? null;
  if (cache.size > 200_000) cache.clear();
  cache.set(phoneE164, region);
  return region;
}
