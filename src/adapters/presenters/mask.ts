/** A business-scoped user id: country code, a dot, then the id proper (`US.13491208655302741918`, parent `US.ENT.…`). */
const BSUID = /^([A-Z]{2}\.(?:ENT\.)?)([A-Za-z0-9]+)$/;

/**
 * Output never carries a full phone number: keep the country code and the last three digits. A
 * business-scoped user id is as personal, so it keeps its country prefix and last three characters.
 */
export function mask(value: string): string {
  const id = BSUID.exec(value);
  if (id !== null) {
    const [, prefix = '', rest = ''] = id;
    return rest.length < 7 ? value : `${prefix}${'•'.repeat(rest.length - 3)}${rest.slice(-3)}`;
  }
  const digits = value.replace(/\D/g, '');
  if (digits.length < 7) return value;
  return `${value.startsWith('+') ? '+' : ''}${digits.slice(0, 2)}${'•'.repeat(digits.length - 5)}${digits.slice(-3)}`;
}
