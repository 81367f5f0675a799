/** JSON as the store keeps it in JSON columns: contact attributes, campaign segments, outbox intents. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };
