import os from 'node:os';
import type { Machine } from './types.js';

export function describeMachine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() || 'unknown CPU',
    cpus: os.availableParallelism(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

export function sameMachine(a: Machine, b: Machine): boolean {
  return a.cpu === b.cpu && a.cpus === b.cpus && a.node === b.node && a.platform === b.platform;
}

export function machineLine(m: Machine): string {
  return `${m.cpu}, ${m.cpus} CPU${m.cpus === 1 ? '' : 's'}, Node ${m.node}, ${m.platform}`;
}
