import type { ErrorEffects, ErrorEntry } from '../error-entry.js';

/** What a catalogue file writes: effects default to `none`, and failed attempts are never billed. */
export type EntryInput = Omit<ErrorEntry, 'billed' | 'effects'> & { effects?: Partial<ErrorEffects> };

export const NO_EFFECTS: ErrorEffects = Object.freeze({ contact: 'none', template: 'none', sender: 'none', campaign: 'none' });

export function defineEntry(input: EntryInput): ErrorEntry {
  const { effects, ...rest } = input;
  return Object.freeze({ ...rest, billed: false, effects: Object.freeze({ ...NO_EFFECTS, ...effects }) });
}

export function defineEntries(inputs: readonly EntryInput[]): readonly ErrorEntry[] {
  return Object.freeze(inputs.map(defineEntry));
}
