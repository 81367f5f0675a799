import {
  getCountries,
  getCountryCallingCode,
  ParseError,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
  type CountryCode,
  type PhoneNumber,
} from 'libphonenumber-js/max';

import { validInternationalNumber } from './international-number.js';

export type PhoneCheck = { ok: true; e164: string } | { ok: false; reason: string };

const CALLING_CODES = new Set(getCountries().map((c) => getCountryCallingCode(c)));
const COUNTRIES = new Set<string>(getCountries());

export function isCountryCode(value: string): value is CountryCode {
  return COUNTRIES.has(value);
}

/** How the CLI sets the default country; the API names its own parameter. */
export const CLI_COUNTRY_OPTION = '--default-country';

/** Separators in a number that may be international without its `+`; parentheses mark a national area code. */
const SEPARATORS = /[\s\-./]/g;

/**
 * A phone number in any common format to E.164, validated against the full metadata. Digits without
 * `+` are read as an international number when they form a valid one (CRM and BSP exports write
 * `6283660174684`), and in the default country when they form a valid national number there; when
 * both readings are valid and differ, the number is refused as ambiguous rather than guessed. A
 * refusal says why (no digits, no country code, unknown country code, too short or too long, not
 * valid for the region, ambiguous) and shows the number masked: country code and last three digits only.
 * `countryOption` names where the caller sets the default country, for the reason that asks for one.
 */
export function normalisePhone(raw: string, defaultCountry: CountryCode | null, countryOption = CLI_COUNTRY_OPTION): PhoneCheck {
  let text = raw.trim();
  if (!/\d/.test(text)) return { ok: false, reason: text === '' ? 'missing phone number' : 'not a phone number (it has no digits)' };
  // 00 is the international prefix in most of the world; without a default country, read it as +.
  if (defaultCountry === null && text.startsWith('00')) text = `+${text.slice(2)}`;
  const digits = text.replace(SEPARATORS, '');
  if (!/^\d+$/.test(digits) || digits.startsWith('0')) return readAs(text, defaultCountry, countryOption);
  const international = readAs(`+${digits}`, null, countryOption);
  if (defaultCountry === null) return international.ok ? international : readAs(text, null, countryOption);
  const national = readAs(text, defaultCountry, countryOption);
  if (!international.ok) return national;
  // Digits that begin with the default country's own calling code are that country's number written
  // without its +, not a national number that happens to start that way.
  const ownCode = international.e164.startsWith(`+${getCountryCallingCode(defaultCountry)}`);
  if (!national.ok || national.e164 === international.e164 || ownCode) return international;
  return {
    ok: false,
    reason:
      `${maskPhone(international.e164)} or ${maskPhone(national.e164)} is ambiguous: the digits are a valid international ` +
      `number and a valid ${defaultCountry} number; write it with + and the country code`,
  };
}

function readAs(text: string, defaultCountry: CountryCode | null, countryOption: string): PhoneCheck {
  // Most imports write numbers this way: valid ones are told without a full parse (same metadata, same verdict).
  const fast = validInternationalNumber(text);
  if (fast !== null) return { ok: true, e164: fast };
  let phone: PhoneNumber;
  try {
    phone = parsePhoneNumberWithError(text, defaultCountry ?? undefined);
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    return { ok: false, reason: `${maskPhone(text)} ${parseProblem(error.message, text, countryOption)}` };
  }
  if (phone.isValid()) return { ok: true, e164: phone.number };
  const where = phone.country ? `${phone.country} (+${phone.countryCallingCode})` : `+${phone.countryCallingCode}`;
  const length = validatePhoneNumberLength(text, defaultCountry ?? undefined);
  const problem =
    length === 'TOO_SHORT'
      ? 'is too short'
      : length === 'TOO_LONG'
        ? 'is too long'
        : length === 'INVALID_LENGTH'
          ? 'has the wrong number of digits'
          : 'is not a valid number';
  return { ok: false, reason: `${maskKnown(String(phone.countryCallingCode), String(phone.nationalNumber))} ${problem} for ${where}` };
}

function parseProblem(code: string, text: string, countryOption: string): string {
  switch (code) {
    case 'INVALID_COUNTRY':
      return text.startsWith('+')
        ? 'starts with an unknown country code'
        : `has no country code: write it with + and the country code, or pass ${countryOption}`;
    case 'TOO_SHORT':
      return 'is too short';
    case 'TOO_LONG':
      return 'is too long';
    case 'INVALID_LENGTH':
      return 'has the wrong number of digits';
    default:
      return 'is not a phone number';
  }
}

function maskKnown(callingCode: string, national: string): string {
  // Too few digits and the last three would be most of the number: hide them all.
  const hidden = national.length < 5 ? national.length : national.length - 3;
  return `+${callingCode}${'•'.repeat(hidden)}${national.slice(hidden)}`;
}

/** Never a full number: the country code (when it can be told) and the last three digits. */
export function maskPhone(raw: string): string {
  const digits = raw.replace(/\D/g, '');
  if (raw.trim().startsWith('+')) {
    for (let len = 1; len <= 3; len++) {
      const cc = digits.slice(0, len);
      if (CALLING_CODES.has(cc) && digits.length > len) return maskKnown(cc, digits.slice(len));
    }
  }
  if (digits.length < 7) return '•'.repeat(digits.length);
  return `${'•'.repeat(digits.length - 3)}${digits.slice(-3)}`;
}
