/**
 * Remembers the first line of every phone number seen in a file, to report repeats. E.164 numbers
 * have at most 15 digits, so each fits exactly in a double: 12 bytes a slot in typed arrays instead
 * of a string and a map entry per row, which keeps a million-row file's bookkeeping near 24 MB.
 */
export class PhoneLineMap {
  private keys = new Float64Array(1024);
  private lines = new Uint32Array(1024);
  private size = 0;

  /** Records `line` for `e164` unless the number was seen already; returns the earlier line, if any. */
  firstLineOf(e164: string, line: number): number | undefined {
    const key = Number(e164.slice(1));
    if (!Number.isSafeInteger(key) || key <= 0) throw new Error(`not an E.164 number: ${e164.length} characters`);
    if ((this.size + 1) * 2 > this.keys.length) this.grow();
    const slot = this.find(this.keys, key);
    if (this.keys[slot] === key) return this.lines[slot];
    this.keys[slot] = key;
    this.lines[slot] = line;
    this.size += 1;
    return undefined;
  }

  /** Open addressing with linear probing; 0 marks an empty slot (no E.164 number is 0). */
  private find(keys: Float64Array, key: number): number {
    const mask = keys.length - 1;
    let slot = hash(key) & mask;
    while (keys[slot] !== 0 && keys[slot] !== key) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    const lines = new Uint32Array(keys.length);
    for (let i = 0; i < this.keys.length; i++) {
      const key = this.keys[i]!;
      if (key === 0) continue;
      const slot = this.find(keys, key);
      keys[slot] = key;
      lines[slot] = this.lines[i]!;
    }
    this.keys = keys;
    this.lines = lines;
  }
}

function hash(key: number): number {
  // Mix the high and low parts; phone numbers differ mostly in their last digits.
  const low = key % 4_294_967_296;
  const high = Math.floor(key / 4_294_967_296);
  const h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
  return (h ^ (h >>> 15)) >>> 0;
}
