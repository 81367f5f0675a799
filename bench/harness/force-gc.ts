import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * A full GC between samples, so garbage left by one side is not collected on the other's clock.
 * `npm run bench` starts node without --expose-gc, so the flag is switched on here.
 */
export function forceGcFunction(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc: unknown = vm.runInNewContext('gc');
  if (typeof gc !== 'function') throw new Error('could not obtain gc() with --expose-gc');
  return () => {
    (gc as () => void)();
  };
}
