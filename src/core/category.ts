/** Meta's pricing categories. `service` is free-form text inside the customer-service window. */
export const CATEGORIES = ['marketing', 'utility', 'authentication', 'service'] as const;
export type Category = (typeof CATEGORIES)[number];

export function isCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}
