/** Output never carries a full phone number: keep the country code and the last three digits. */
export function mask(value: string): string {
  const digits = value.replace(/\D/g, '');
  if (digits.length < 7) return value;
  return `${value.startsWith('+') ? '+' : ''}${digits.slice(0, 2)}${'•'.repeat(digits.length - 5)}${digits.slice(-3)}`;
}
