// Awaiting a state instead of sleeping a guessed time: the one place tests wait for a condition to hold.

/** Anything whose time the test drives: an engine rig, the simulator, a virtual clock. */
export interface Advancing {
  advance(ms: number): Promise<void>;
}

/**
 * Virtual time: advances `world` in steps of `stepMs` and checks `done` after each step; throws once `limitMs` of
 * virtual time have passed without it.
 */
export async function advanceUntil(
  world: Advancing,
  stepMs: number,
  limitMs: number,
  done: () => boolean | Promise<boolean>,
): Promise<void> {
  for (let spent = 0; spent < limitMs; spent += stepMs) {
    await world.advance(stepMs);
    if (await done()) return;
  }
  throw new Error(`condition not met within ${limitMs} ms of virtual time`);
}

/**
 * Real time: waits for a condition that running processes bring about, checking every `everyMs` until the
 * `deadline` (an epoch time); true once it holds, false when it never came.
 */
export async function eventually(check: () => boolean | Promise<boolean>, deadline: number, everyMs = 50): Promise<boolean> {
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
