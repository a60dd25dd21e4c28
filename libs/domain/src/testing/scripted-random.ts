import type { RandomSource } from '../shared/random.port.js';

/** Replays the given values (modulo the range asked for), then repeats them. */
export class ScriptedRandom implements RandomSource {
  private i = 0;
  constructor(private readonly values: readonly number[]) {
    if (values.length === 0) throw new Error('ScriptedRandom needs at least one value');
  }
  nextInt(maxExclusive: number): number {
    const v = this.values[this.i % this.values.length] ?? 0;
    this.i += 1;
    return ((v % maxExclusive) + maxExclusive) % maxExclusive;
  }
}

/** A small deterministic generator (mulberry32) for tests that want many varied draws. */
export class SeededRandom implements RandomSource {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  nextInt(maxExclusive: number): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const unit = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return Math.floor(unit * maxExclusive);
  }
}
